"""The pegboard as a model: pegs, marks and animations rendered to LED colours, with no hardware.

It behaves like a wooden board: a track per side, two pegs per side (the front one bright, the back
one dim, the gap between them the last score), a start hole, holes 1..120 (or 60) and the game hole;
games longer than a track go round again (laps, shown on the start hole). Time is explicit: `tick(dt)`
moves animations on and `render()` gives the frame for now, so tests and the demo run at any speed.

    board = Board(["Ann", "Bob"])
    walk = board.peg(0, 6)            # back peg leaps ahead, walking hole by hole
    for frame in board.frames(fps=30):
        output.show(frame)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Sequence

from device.config import DEFAULT_COLOURS, parse_colour
from device.leds.layout import OFF, Colour, Layout

MARK: Colour = (10, 10, 10)          # quiet mark every five holes
LINE: Colour = (60, 25, 0)           # lurch / skunk line
DEALER: Colour = (120, 120, 120)     # dealer indicator
OVERCLAIM: Colour = (255, 0, 0)
MUGGINS: Colour = (255, 255, 255)
BACK_PEG = 0.22                      # back peg brightness relative to the front peg
WALK_MAX_S = 2.5                     # a long walk is sped up to this
FLASH_S, FLASH_BLINKS = 1.5, 3
FANFARE_S = 3.0
PREVIEW_PERIOD_S = 0.6
IDLE_PERIOD_S = 4.0


def scale(colour: Colour, k: float) -> Colour:
    return tuple(max(0, min(255, round(c * k))) for c in colour)  # type: ignore[return-value]


def blend(a: Colour, b: Colour, k: float) -> Colour:
    """a moved towards b by k (0..1)."""
    return tuple(round(x + (y - x) * k) for x, y in zip(a, b))  # type: ignore[return-value]


@dataclass
class Animation:
    """Something the board shows for a while. `end` may be math.inf for ones that run until replaced."""

    kind: str
    side: int
    start: float
    duration: float
    data: tuple = ()

    @property
    def end(self) -> float:
        return self.start + self.duration

    def progress(self, now: float) -> float:
        if self.duration <= 0:
            return 1.0
        return min(1.0, max(0.0, (now - self.start) / self.duration))


class Board:
    """The score as pegs on LED tracks, plus the animations that make it readable across a table.

    Sides are numbered 0.. in seat order (four players: partnerships 0 & 2 -> side 0, 1 & 3 -> side 1).
    Not thread-safe: the controller's one thread drives it.
    """

    def __init__(self, sides: int | Sequence[str] = 2, target: int = 121,
                 colours: Sequence[Colour | str] | None = None, layout: Layout | None = None,
                 holes: int = 120, scoring_lines: str = "lurch", walk_s_per_hole: float = 0.05):
        self.names = list(sides) if not isinstance(sides, int) else [f"side {i}" for i in range(sides)]
        self.sides = len(self.names)
        if not 2 <= self.sides <= 3:
            raise ValueError("a board has two or three tracks (four players peg as two partnerships)")
        self.layout = layout or Layout.standard(self.sides, holes)
        if self.layout.tracks < self.sides:
            raise ValueError(f"layout has {self.layout.tracks} tracks for {self.sides} sides")
        self.holes = self.layout.holes
        self.target = int(target)
        raw = list(colours) if colours else list(DEFAULT_COLOURS)
        self.colours = [parse_colour(c) if isinstance(c, str) else tuple(c) for c in raw[: self.sides]]
        if len(self.colours) < self.sides:
            raise ValueError("one colour per side is needed")
        self.scoring_lines = scoring_lines
        self.walk_s_per_hole = walk_s_per_hole
        self.now = 0.0
        self.front = [0] * self.sides
        self.back = [0] * self.sides
        self.dealer: int | None = None
        self.winner: int | None = None
        self.idling = False
        self._preview: tuple[int, int] | None = None
        self._animations: list[Animation] = []

    @classmethod
    def from_config(cls, config, layout: Layout | None = None) -> "Board":
        """A board for a device Config: its sides, target, colours, layout and lines."""
        game, board = config.game, config.board
        names = list(game.players) if game.sides == len(game.players) else [
            " & ".join(game.players[i::game.sides]) for i in range(game.sides)]
        return cls(names, target=game.target, colours=board.colours,
                   layout=layout or Layout.from_config(board, game.sides),
                   scoring_lines=game.scoring_lines, walk_s_per_hole=board.walk_s_per_hole)

    # -- scores --------------------------------------------------------------------------------

    def scores(self, side: int) -> tuple[int, int]:
        """(front, back) peg scores of a side."""
        return self.front[side], self.back[side]

    def set_scores(self, side: int, front: int, back: int | None = None) -> None:
        """Put a side's pegs straight on these scores (restoring a game, undo); no walk."""
        self._check_side(side)
        back = front if back is None else back
        if not 0 <= back <= front:
            raise ValueError(f"pegs must satisfy 0 <= back ({back}) <= front ({front})")
        self._wake()
        self.front[side], self.back[side] = min(front, self.target), min(back, self.target)
        self._animations = [a for a in self._animations if not (a.kind == "walk" and a.side == side)]
        if self.winner is not None and max(self.front) < self.target:
            self.winner = None

    def new_game(self) -> None:
        """Every peg back to the start; winner, preview and animations cleared."""
        self._wake()
        self.front = [0] * self.sides
        self.back = [0] * self.sides
        self.winner, self._preview = None, None
        self._animations.clear()

    def peg(self, side: int, points: int) -> Animation:
        """Peg points: the back peg leaps ahead of the front one, walking hole by hole."""
        self._check_side(side)
        if points < 0:
            raise ValueError("points to peg cannot be negative (use set_scores to undo)")
        self._wake()
        self._preview = None
        old, old_back = self.front[side], self.back[side]
        new = min(old + points, self.target)
        if new > old:
            self.back[side], self.front[side] = old, new
        per_hole = self.walk_s_per_hole
        if (new - old) * per_hole > WALK_MAX_S:
            per_hole = WALK_MAX_S / (new - old)
        return self._queue("walk", side, (new - old) * per_hole, (old, new, old_back))

    # -- indications ---------------------------------------------------------------------------

    def preview(self, side: int, claimed: int) -> None:
        """Show a blinking ghost peg where a claim of `claimed` points would land."""
        self._check_side(side)
        self._wake()
        self._preview = (side, max(0, int(claimed)))

    def clear_preview(self) -> None:
        self._preview = None

    def set_dealer(self, side: int | None) -> None:
        if side is not None:
            self._check_side(side)
        self._wake()
        self.dealer = side

    def flash(self, side: int, kind: str = "overclaim") -> Animation:
        """Flash a track: 'overclaim' (red, on the counter's track) or 'muggins' (white, the taker's)."""
        self._check_side(side)
        if kind not in ("overclaim", "muggins"):
            raise ValueError("flash kind is 'overclaim' or 'muggins'")
        self._wake()
        return self._queue("flash", side, FLASH_S, (OVERCLAIM if kind == "overclaim" else MUGGINS,))

    def celebrate(self, side: int) -> Animation:
        """The winner's track lights up: a fanfare, then the track stays lit until a new game."""
        self._check_side(side)
        self._wake()
        self.winner = side
        return self._queue("fanfare", side, FANFARE_S)

    def idle(self) -> None:
        """A slow light drifting along the tracks, until the next game call."""
        self._animations.clear()
        self._preview = None
        self.idling = True

    # -- time ----------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while a walk, flash or fanfare is still to be shown."""
        return any(a.end > self.now for a in self._animations)

    def tick(self, dt: float) -> None:
        """Move the board's clock on by dt seconds."""
        self.now += max(0.0, dt)
        self._animations = [a for a in self._animations if a.end > self.now]

    def finish(self) -> None:
        """Jump past every running animation (for replays and --speed max)."""
        if self._animations:
            self.tick(max(a.end for a in self._animations) - self.now)

    def frames(self, fps: float = 30.0, limit_s: float = 30.0) -> Iterator[list[Colour]]:
        """Frames at fps until no animation is left (or limit_s of board time): render, then tick."""
        dt, spent = 1.0 / fps, 0.0
        yield self.render()
        while self.busy and spent < limit_s:
            self.tick(dt)
            spent += dt
            yield self.render()

    # -- rendering -----------------------------------------------------------------------------

    def position(self, score: int) -> tuple[int, int]:
        """(hole, lap) of a score: 0 is the start hole, the target or more is the game hole."""
        if score <= 0:
            return 0, 0
        if score >= self.target:
            return self.holes + 1, (self.target - 2) // self.holes
        return (score - 1) % self.holes + 1, (score - 1) // self.holes

    def lines(self) -> list[int]:
        """Scores whose hole is marked: the lurch line (half way) or the skunk and double-skunk lines."""
        if self.scoring_lines == "skunk":
            return [s for s in (self.target - 30, self.target - 60) if s > 0]
        return [self.target // 2 + 1]

    def render(self) -> list[Colour]:
        """The colour of every LED (flat, strip 0 first) for the board's current time."""
        frame = self.layout.blank()
        if self.idling:
            self._render_idle(frame)
            return frame
        for side in range(self.sides):
            self._render_track(frame, side)
        return frame

    def _put(self, frame, side, hole, colour) -> None:
        i = self.layout.index(side, hole)
        if i is not None:
            frame[i] = colour

    def _render_track(self, frame: list[Colour], side: int) -> None:
        colour = self.colours[side]
        now = self.now
        active = [a for a in self._animations if a.side == side and a.start <= now < a.end]
        pending_walks = [a for a in self._animations if a.side == side and a.kind == "walk" and a.end > now]
        for hole in range(5, self.holes + 1, 5):
            self._put(frame, side, hole, MARK)
        for score in self.lines():
            self._put(frame, side, self.position(score)[0], LINE)
        if self.winner == side:
            for hole in self.layout.holes_of(side):
                frame[self.layout.index(side, hole)] = scale(colour, 0.35)
        for a in active:
            if a.kind == "flash":
                on = int(a.progress(now) * FLASH_BLINKS * 2) % 2 == 0
                if on:
                    for hole in self.layout.holes_of(side):
                        frame[self.layout.index(side, hole)] = scale(a.data[0], 0.6)
            elif a.kind == "fanfare":
                lit = self.layout.holes_of(side)
                head = a.progress(now) * len(lit) * 2 % len(lit)
                for k, hole in enumerate(lit):
                    near = max(0.0, 1.0 - abs(k - head) / 6.0)
                    frame[self.layout.index(side, hole)] = blend(scale(colour, 0.35), colour, near)
        if pending_walks:  # the first walk not yet over decides where the pegs are seen
            walk = min(pending_walks, key=lambda a: a.start)
            old, new, old_back = walk.data
            if now < walk.start:
                front, back = old, old_back
            else:
                front, back = old + math.floor(walk.progress(now) * (new - old) + 1e-9), old
        else:
            front, back = self.front[side], self.back[side]
        front_hole, lap = self.position(front)
        if lap > 0 or (front >= self.target and self.target > self.holes + 1):
            self._put(frame, side, 0, scale(colour, 0.3))
        if self.dealer == side:
            i = self.layout.dealer_index(side)
            if i is not None:
                frame[i] = DEALER
            elif front > 0:
                self._put(frame, side, 0, DEALER)
        if self._preview and self._preview[0] == side:
            ghost = self.position(self.front[side] + self._preview[1])[0]
            if int(now / (PREVIEW_PERIOD_S / 2)) % 2 == 0:
                self._put(frame, side, ghost, blend(colour, (255, 255, 255), 0.5))
        if back != front:
            self._put(frame, side, self.position(back)[0], scale(colour, BACK_PEG))
        self._put(frame, side, front_hole, colour)

    def _render_idle(self, frame: list[Colour]) -> None:
        phase = (self.now % IDLE_PERIOD_S) / IDLE_PERIOD_S
        for side in range(self.sides):
            lit = self.layout.holes_of(side)
            head = phase * len(lit)
            for k, hole in enumerate(lit):
                d = (head - k) % len(lit)
                if d < 8:
                    frame[self.layout.index(side, hole)] = scale(self.colours[side], 0.4 * (1 - d / 8))

    # -- helpers -------------------------------------------------------------------------------

    def _queue(self, kind: str, side: int, duration: float, data: tuple = ()) -> Animation:
        """Start an animation once the side's earlier ones are over, so a walk then a flash read in order."""
        start = max([self.now] + [a.end for a in self._animations if a.side == side])
        animation = Animation(kind, side, start, duration, data)
        self._animations.append(animation)
        return animation

    def _wake(self) -> None:
        self.idling = False

    def _check_side(self, side: int) -> None:
        if not 0 <= side < self.sides:
            raise ValueError(f"side {side} is not on this board (0..{self.sides - 1})")

"""Which LED is which hole: the map from (track, hole) to (strip, LED index), built from the config.

Holes of a track are numbered as on wood: 0 is the start hole, 1..holes the scoring holes, and
holes + 1 the game hole. Each track may also have a dealer-indicator LED. The board model renders one
flat frame (strip 0's LEDs first, then strip 1's...) and `split()` cuts it into one list per strip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from device.errors import ConfigError

Colour = tuple[int, int, int]
OFF: Colour = (0, 0, 0)


@dataclass(frozen=True)
class Spot:
    """One LED: which strip and which index along it."""

    strip: int
    index: int


class Layout:
    """The physical layout of the pegboard's LEDs (immutable once built)."""

    def __init__(self, tracks: Sequence[dict[int, Spot]], dealers: Sequence[Spot | None],
                 holes: int, strip_sizes: Sequence[int]):
        self.holes = holes
        self.tracks = len(tracks)
        self.strip_sizes = tuple(strip_sizes)
        self._offsets = [sum(self.strip_sizes[:i]) for i in range(len(self.strip_sizes))]
        self._spots = [dict(t) for t in tracks]
        self._dealers = list(dealers)
        used: dict[Spot, str] = {}
        for t, spots in enumerate(self._spots):
            named = [(f"track {t} hole {h}", s) for h, s in spots.items()]
            if self._dealers[t] is not None:
                named.append((f"track {t} dealer LED", self._dealers[t]))
            for name, spot in named:
                if not 0 <= spot.strip < len(self.strip_sizes) or not 0 <= spot.index < self.strip_sizes[spot.strip]:
                    raise ConfigError(f"LED layout: {name} is LED {spot.index} of strip {spot.strip}, "
                                      f"which has only {self.strip_sizes[spot.strip] if spot.strip < len(self.strip_sizes) else 0} LEDs")
                if spot in used:
                    raise ConfigError(f"LED layout: {name} and {used[spot]} are both LED {spot.index} "
                                      f"of strip {spot.strip}")
                used[spot] = name
        self._where: dict[int, tuple[int, int | str]] = {}
        for t in range(self.tracks):
            for hole in self._spots[t]:
                self._where[self.index(t, hole)] = (t, hole)
            if self._dealers[t] is not None:
                self._where[self.dealer_index(t)] = (t, "dealer")

    # -- building ------------------------------------------------------------------------------

    @classmethod
    def standard(cls, tracks: int = 2, holes: int = 120, serpentine: bool = True,
                 dealer_leds: bool = True) -> "Layout":
        """One chained strip, tracks side by side: each track's block is [dealer], start, 1..holes, game.

        With serpentine (the usual way a strip is laid: up one track, back down the next) every
        second track's block runs the other way.
        """
        block = holes + 2 + (1 if dealer_leds else 0)
        all_spots, dealers = [], []
        for t in range(tracks):
            order = ([None] if dealer_leds else []) + list(range(holes + 2))  # None = dealer LED
            if serpentine and t % 2 == 1:
                order.reverse()
            spots, dealer = {}, None
            for i, hole in enumerate(order):
                spot = Spot(0, t * block + i)
                if hole is None:
                    dealer = spot
                else:
                    spots[hole] = spot
            all_spots.append(spots)
            dealers.append(dealer)
        return cls(all_spots, dealers, holes, [tracks * block])

    @classmethod
    def from_config(cls, board, sides: int) -> "Layout":
        """The layout a BoardConfig describes: explicit [[board.tracks]] runs, or the standard one."""
        if not board.tracks:
            if len(board.strips) > 1:
                raise ConfigError(f"LED layout: {len(board.strips)} [[board.strips]] but no [[board.tracks]]: "
                                  f"the standard layout is one chained strip; describe the tracks' runs "
                                  f"to use several")
            layout = cls.standard(sides, board.holes, board.serpentine, board.dealer_leds)
            wanted = board.strips[0].leds
            if wanted is not None:
                if wanted < layout.strip_sizes[0]:
                    raise ConfigError(f"LED layout: the standard layout needs {layout.strip_sizes[0]} "
                                      f"LEDs but [[board.strips]] leds = {wanted}")
                layout = cls(layout._spots, layout._dealers, layout.holes, [wanted])
            return layout
        tracks, dealers = [], []
        needed = [0] * len(board.strips)
        for t, track in enumerate(board.tracks):
            spots: dict[int, Spot] = {}
            for run in track.runs:
                for k, hole in enumerate(range(run.first_hole, run.last_hole + 1)):
                    if not 1 <= hole <= board.holes:
                        raise ConfigError(f"LED layout: [board.tracks[{t}]] hole {hole} is outside "
                                          f"1..{board.holes}")
                    if hole in spots:
                        raise ConfigError(f"LED layout: [board.tracks[{t}]] hole {hole} is in two runs")
                    spots[hole] = Spot(track.strip, run.first_led + k * run.step)
            missing = [h for h in range(1, board.holes + 1) if h not in spots]
            if missing:
                raise ConfigError(f"LED layout: [board.tracks[{t}]] runs leave holes without an LED: "
                                  f"{_ranges(missing)}")
            if track.start is not None:
                spots[0] = Spot(track.strip, track.start)
            if track.game is not None:
                spots[board.holes + 1] = Spot(track.strip, track.game)
            dealer = None if track.dealer is None else Spot(track.strip, track.dealer)
            for spot in [*spots.values(), dealer]:
                if spot is not None:
                    needed[spot.strip] = max(needed[spot.strip], spot.index + 1)
            tracks.append(spots)
            dealers.append(dealer)
        sizes = []
        for i, strip in enumerate(board.strips):
            if strip.leds is not None and strip.leds < needed[i]:
                raise ConfigError(f"LED layout: the tracks use {needed[i]} LEDs of strip {i} "
                                  f"but [[board.strips]] leds = {strip.leds}")
            sizes.append(strip.leds if strip.leds is not None else needed[i])
        return cls(tracks, dealers, board.holes, sizes)

    # -- looking up ----------------------------------------------------------------------------

    @property
    def game_hole(self) -> int:
        return self.holes + 1

    @property
    def size(self) -> int:
        """Total LEDs over all strips (the length of a rendered frame)."""
        return sum(self.strip_sizes)

    def spot(self, track: int, hole: int) -> Spot | None:
        """The LED of a hole (0 start, 1..holes, holes+1 game); None if that hole has no LED."""
        return self._spots[track].get(hole)

    def dealer_spot(self, track: int) -> Spot | None:
        return self._dealers[track]

    def index(self, track: int, hole: int) -> int | None:
        """A hole's position in the flat frame, or None if it has no LED."""
        spot = self.spot(track, hole)
        return None if spot is None else self._offsets[spot.strip] + spot.index

    def dealer_index(self, track: int) -> int | None:
        spot = self._dealers[track]
        return None if spot is None else self._offsets[spot.strip] + spot.index

    def holes_of(self, track: int) -> list[int]:
        """Every hole of a track that has an LED, start to game."""
        return sorted(self._spots[track])

    def where(self, flat_index: int) -> tuple[int, int | str] | None:
        """(track, hole) or (track, 'dealer') for a flat frame index; None for an unused LED."""
        return self._where.get(flat_index)

    def blank(self) -> list[Colour]:
        return [OFF] * self.size

    def split(self, frame: Sequence[Colour]) -> list[list[Colour]]:
        """Cut a flat frame into one list of colours per strip."""
        if len(frame) != self.size:
            raise ValueError(f"frame has {len(frame)} colours, layout has {self.size} LEDs")
        return [list(frame[o:o + n]) for o, n in zip(self._offsets, self.strip_sizes)]


def _ranges(numbers: list[int]) -> str:
    out, start = [], numbers[0]
    for a, b in zip(numbers, numbers[1:] + [None]):
        if b != a + 1:
            out.append(str(start) if start == a else f"{start}-{a}")
            start = b
    return ", ".join(out)

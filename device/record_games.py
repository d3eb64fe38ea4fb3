"""The games in the journals, deal by deal: what each player pegged from where, the cards shown, the
claims and the play, as the journal holds them. Read-only: nothing is written back.

Which journals: the current one, those archived by a new game and those set aside because the game's
settings changed (whole journals of other games); one set aside as corrupt or foreign, or that cannot
be read, is not counted and is named with the reason. Undone actions are left out, as the game itself
leaves them out, and counted. A game resumed after a crash is one journal, counted as it was played.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from cribbage.events import EVENT_TYPES
from cribbage.variants import VARIANTS
from device.errors import JournalError
from device.journal import JOURNAL_NAME, list_set_aside

SOURCES = ("hand", "crib", "play", "other")
# set-aside tags whose journals hold whole games: read; the others are named and skipped
READ_TAGS = {"archived": "archived by a new game", "other-game": "set aside when the settings changed"}
SKIP_TAGS = {"corrupt": "set aside as corrupt", "foreign": "set aside as not a Muggins journal"}
_STAMPED = re.compile(r"^(?P<tag>[a-z-]+?)-(?P<stamp>\d{8}T\d{6}Z)(?:-(?P<n>\d+))?$")
_PLAY_POINTS = {"CardPlayed", "GoPegged", "LastCard"}
_OTHER_POINTS = {"HisHeels", "ThreeForLast", "MugginsTaken", "PenaltyPegged"}


@dataclass
class Deal:
    """One deal as it stands in the journal."""

    no: int
    dealer: str
    players: list[str]
    starter: str | None = None
    plays: list[dict] = field(default_factory=list)     # CardPlayed (put right), GoSaid, GoPegged, LastCard bodies
    shows: list[dict] = field(default_factory=list)     # {player, crib, cards, claim, missed_told, ...}
    disputes: list[dict] = field(default_factory=list)  # {player, crib, during: play|show, verdict}
    play_over: bool = False
    points: dict = field(default_factory=dict)          # player -> {source: points}

    def __post_init__(self):
        self.points = {p: dict.fromkeys(SOURCES, 0) for p in self.players}

    def add(self, player: str, source: str, points: int) -> None:
        if player in self.points:
            self.points[player][source] += points


@dataclass
class Game:
    number: int
    journal: str
    current: bool
    variant: str
    players: list[str]
    sides: list[str]
    side_of: dict
    target: int
    game_no: int = 1
    deals: list[Deal] = field(default_factory=list)
    before: dict = field(default_factory=dict)   # points pegged before the first deal, by player
    over: bool = False
    winner: str | None = None
    margin: str | None = None
    final: list[int] | None = None               # the scores GameWon gave
    undone: int = 0                              # undo actions, whose events are left out

    def side_players(self, side: int) -> list[str]:
        return [p for p in self.players if self.side_of[p] == side]

    def scores(self) -> list[int]:
        """Each side's score as pegged (the peg stops at the target)."""
        totals = [0] * len(self.sides)
        for deal in self.deals:
            for p, by_source in deal.points.items():
                totals[self.side_of[p]] += sum(by_source.values())
        for p, points in self.before.items():
            totals[self.side_of[p]] += points
        return [min(self.target, t) for t in totals]


@dataclass
class Journals:
    """The games found in a state directory, and the journals not counted."""

    games: list[Game]
    read: list[dict]          # {"journal": name, "why": how it came to be there}
    skipped: list[dict]       # {"journal": name, "why": why it is not counted}


def journals_in(state_dir: str | Path) -> tuple[list[tuple[Path, str]], list[dict]]:
    """([(journal, how it came to be there)] oldest first, the current one last; [not read, with why])."""
    state_dir = Path(state_dir)
    found, skipped = [], []
    for path in list_set_aside(state_dir):
        m = _STAMPED.match(path.name[len(JOURNAL_NAME) + 1:])
        tag = m["tag"] if m else ""
        if tag in READ_TAGS:
            # set aside later, or in the same second but last written later: a later game
            found.append(((m["stamp"], path.stat().st_mtime, int(m["n"] or 1)), path, READ_TAGS[tag]))
        else:
            skipped.append({"journal": path.name, "why": SKIP_TAGS.get(tag, "set aside")})
    journals = [(path, why) for _, path, why in sorted(found)]
    current = state_dir / JOURNAL_NAME
    if current.exists():
        journals.append((current, "the current journal"))
    return journals, skipped


def read_games(state_dir: str | Path) -> Journals:
    """Every game in the state directory's journals, numbered from the oldest."""
    journals, skipped = journals_in(state_dir)
    games, read = [], []
    for path, why in journals:
        try:
            records = read_records(path)
        except JournalError as exc:
            skipped.append({"journal": path.name, "why": f"cannot be read ({exc.__cause__ or exc})"})
            continue
        read.append({"journal": path.name, "why": why})
        for game in games_of(records, path.name, current=why == "the current journal",
                             first_number=len(games) + 1):
            games.append(game)
    return Journals(games, read, skipped)


def read_records(path: Path) -> list[dict]:
    """A journal's records in order, read-only (device.journal.read_entries' events, decoded in one go:
    a record reads hundreds of journals)."""
    try:
        conn = sqlite3.connect(Path(path).absolute().as_uri() + "?mode=ro", uri=True)
        try:
            bodies = [body for (body,) in conn.execute("SELECT body FROM events ORDER BY seq")]
        finally:
            conn.close()
        return json.loads("[" + ",".join(bodies) + "]")
    except (sqlite3.Error, ValueError) as exc:
        raise JournalError(f"cannot read the journal {path}: {exc}") from exc


def games_of(records: list[dict], journal: str = "", *, current: bool = False, first_number: int = 1) -> list[Game]:
    """The games in one journal's records (game and device events mixed), in order."""
    undone = {r.get("undone") for r in records if r.get("type") == "Undone"}
    games: list[Game] = []
    game: Game | None = None
    deal: Deal | None = None
    for r in records:
        kind = r.get("type")
        if kind == "Undone":
            if game is not None:
                game.undone += 1
            continue
        if kind in EVENT_TYPES and r.get("step") in undone:
            continue
        if kind == "GameStarted":
            game, deal = _new_game(r, journal, current, first_number + len(games)), None
            games.append(game)
            continue
        if game is None:
            continue
        if kind == "RoundStarted":
            deal = Deal(int(r.get("round_no") or len(game.deals) + 1), r.get("dealer"), game.players)
            game.deals.append(deal)
        elif kind == "GameWon":
            game.over, game.winner, game.margin = True, r.get("winner"), r.get("margin")
            game.final = list(r.get("scores") or [])
        elif deal is not None:
            _into_deal(deal, kind, r)
        points, player = r.get("points") or 0, r.get("player")
        if points and kind in EVENT_TYPES and player in game.side_of:
            if deal is None:
                game.before[player] = game.before.get(player, 0) + points
            elif kind in _PLAY_POINTS:
                deal.add(player, "play", points)
            elif kind in _OTHER_POINTS:
                deal.add(player, "other", points)
            elif kind == "ClaimPegged":
                deal.add(player, "crib" if r.get("crib") else "hand", points)
            elif kind == "MissedPointsTold":  # the counter's own missed points, told: his count's
                last = next((s for s in reversed(deal.shows) if s["player"] == player), None)
                deal.add(player, "crib" if last and last["crib"] else "hand", points)
    return games


def _new_game(r: dict, journal: str, current: bool, number: int) -> Game:
    players = list(r.get("players") or [])
    variant = VARIANTS.get(r.get("variant"))
    sides = variant.sides if variant else len(players)
    side_of = {p: (variant.side_of(i) if variant else i) for i, p in enumerate(players)}
    names = [" & ".join(p for p in players if side_of[p] == s) for s in range(sides)]
    target = (r.get("options") or {}).get("target") or (variant.target if variant else 121)
    return Game(number, journal, current, r.get("variant") or "?", players, names, side_of, target,
                game_no=r.get("game_no", 1))


def _into_deal(deal: Deal, kind: str, r: dict) -> None:
    """File one record of a deal in progress where the look-back will want it."""
    if kind == "StarterTurned":
        deal.starter = r.get("card")
    elif kind in ("CardPlayed", "GoSaid", "GoPegged", "LastCard"):
        deal.plays.append(dict(r))
    elif kind == "PlayCorrected":  # a card misread in the play, found at the show: the card played
        real = dict(zip(r.get("misread") or [], r.get("cards") or []))
        for play in deal.plays:
            card = play.get("card")
            if play["type"] == "CardPlayed" and play.get("player") == r.get("player") and card in real:
                play["misread"], play["card"] = card, real[card]
    elif kind == "PlayEnded":
        deal.play_over = True
    elif kind == "HandShown":
        deal.shows.append({"player": r.get("player"), "crib": bool(r.get("crib")),
                           "cards": list(r.get("cards") or []), "claim": None, "missed_told": 0,
                           "muggins": None, "disputed": False})
    elif kind == "ClaimPegged":
        show = _open_show(deal, r.get("player"), bool(r.get("crib")))
        if show is not None:
            show["claim"] = {k: r.get(k) for k in ("claimed", "actual", "points", "verdict", "breakdown")}
            for dispute in deal.disputes:
                if dispute["show"] is show:
                    dispute["verdict"] = r.get("verdict")
    elif kind == "MissedPointsTold":
        show = _last_show(deal, r.get("player"))
        if show is not None:
            show["missed_told"] += r.get("points") or 0
    elif kind == "MugginsTaken":
        show = _last_show(deal, r.get("counter"))
        if show is not None:
            show["muggins"] = {"taker": r.get("player"), "points": r.get("points") or 0}
    elif kind == "DisputeReadout":
        _dispute(deal, r)


def _open_show(deal: Deal, player, crib: bool) -> dict | None:
    """The shown count this claim is for: the latest of this player's (hand or crib) not yet claimed."""
    return next((s for s in reversed(deal.shows)
                 if s["player"] == player and s["crib"] == crib and s["claim"] is None), None)


def _last_show(deal: Deal, player) -> dict | None:
    return next((s for s in reversed(deal.shows) if s["player"] == player), None)


def _dispute(deal: Deal, r: dict) -> None:
    """A dispute pressed: in the play the count is read out; at the show it is about the count shown
    (before its claim: the claim that follows ends it) or, with none waiting, the last one claimed."""
    if not deal.play_over:
        deal.disputes.append({"player": r.get("player"), "crib": False, "during": "play",
                              "verdict": "count read out", "show": None})
        return
    show = _last_show(deal, r.get("player"))
    if show is not None:
        show["disputed"] = True
    verdict = show["claim"]["verdict"] if show is not None and show["claim"] else "not claimed"
    deal.disputes.append({"player": r.get("player"), "crib": bool(r.get("crib")), "during": "show",
                          "verdict": verdict, "show": show})

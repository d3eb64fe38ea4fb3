"""Each player's record, over every game in the journals and game by game, with the yardsticks beside
each mean that tell whether their cards or their counting cost them.

Per player: games, wins, skunks given and taken; the hand's and the crib's points per count (pegged,
true, over every starter, the exhaustive table's), the play's per deal (pegged, and had each card been
the best one held); best hand; claims right, over and short; Muggins taken and given; disputes of
their counts and how they ended. Built from device.record_games (what the journals hold) and
device.record_lookback (the play's better cards); the command and the web page both read it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from cribbage.review import starter_expectation
from device.record_baselines import MEANINGS, table_mean
from device.record_games import SOURCES, Game, Journals, read_games
from device.record_lookback import look_back, play_review

SKUNKS = ("skunk", "double skunk")


class Tally:
    """One player's sums and counts, over one game or many; `figures()` makes them means."""

    def __init__(self, name: str):
        self.name = name
        self.games: list[int] = []
        self.wins = 0
        self.skunks_given = 0
        self.skunks_taken = 0
        self.deals = 0
        self.sums: Counter = Counter()      # (source, yardstick) -> points
        self.counts: Counter = Counter()    # source -> hands, cribs or deals counted
        self.points: Counter = Counter()    # source -> points pegged (the score's make-up)
        self.best_hand: dict | None = None
        self.claims: Counter = Counter()    # verdict -> claims
        self.muggins: Counter = Counter()   # taken, taken points, given, given points
        self.disputes: Counter = Counter()  # how disputes of their counts ended

    def add(self, other: "Tally") -> None:
        self.games += other.games
        for name in ("wins", "skunks_given", "skunks_taken", "deals"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("sums", "counts", "points", "claims", "muggins", "disputes"):
            getattr(self, name).update(getattr(other, name))
        if other.best_hand and (self.best_hand is None or other.best_hand["points"] > self.best_hand["points"]):
            self.best_hand = other.best_hand

    def figures(self) -> dict:
        def means(source: str, keys) -> dict:
            n = self.counts[source]
            return {"counted": n, **{k: (round(self.sums[source, k] / n, 3) if n else None) for k in keys}}

        return {
            "name": self.name, "games": len(self.games), "game_numbers": self.games, "wins": self.wins,
            "skunks_given": self.skunks_given, "skunks_taken": self.skunks_taken, "deals": self.deals,
            "hand": means("hand", ("pegged", "true", "starters", "table")),
            "crib": means("crib", ("pegged", "true", "starters", "table")),
            "play": means("play", ("pegged", "best")),
            "points": {s: self.points[s] for s in SOURCES},
            "best_hand": self.best_hand,
            "claims": {"right": self.claims["right"], "over": self.claims["over"], "short": self.claims["under"]},
            "muggins": {"taken": self.muggins["taken"], "taken_points": self.muggins["taken points"],
                        "given": self.muggins["given"], "given_points": self.muggins["given points"]},
            "disputes": {"count": sum(self.disputes.values()), "ended": dict(sorted(self.disputes.items()))},
        }


def game_tallies(game: Game) -> dict[str, Tally]:
    """Each player's tally over one game."""
    tallies = {p: Tally(p) for p in game.players}
    for t in tallies.values():
        t.games.append(game.number)
    if game.over:
        won = game.side_of.get(game.winner)
        for p, t in tallies.items():
            if game.side_of[p] == won:
                t.wins += 1
                t.skunks_given += game.margin in SKUNKS
            else:
                t.skunks_taken += game.margin in SKUNKS
    for p, points in game.before.items():
        tallies[p].points["other"] += points
    for deal in game.deals:
        for p, by_source in deal.points.items():
            tallies[p].deals += 1
            tallies[p].points.update(by_source)
        for show in deal.shows:
            _count_show(tallies, game, deal.no, deal.starter, show)
        if deal.play_over:
            _count_play(tallies, deal)
        for dispute in deal.disputes:
            if dispute["player"] in tallies:
                tallies[dispute["player"]].disputes[dispute["verdict"]] += 1
    return tallies


def _count_show(tallies: dict[str, Tally], game: Game, deal_no: int, starter, show: dict) -> None:
    claim, t = show["claim"], tallies.get(show["player"])
    if claim is None or t is None or starter is None:
        return  # shown but never claimed: the game ended first
    source = "crib" if show["crib"] else "hand"
    t.counts[source] += 1
    t.sums[source, "pegged"] += claim["points"] + show["missed_told"]
    t.sums[source, "true"] += claim["actual"]
    t.sums[source, "starters"] += starter_expectation(show["cards"], crib=show["crib"])
    t.sums[source, "table"] += table_mean(len(show["cards"]), crib=show["crib"])
    t.claims[claim["verdict"]] += 1
    if not show["crib"] and (t.best_hand is None or claim["actual"] > t.best_hand["points"]):
        t.best_hand = {"points": claim["actual"], "cards": show["cards"], "starter": starter,
                       "game": game.number, "deal": deal_no}
    taken = show["muggins"]
    if taken:
        t.muggins["given"] += 1
        t.muggins["given points"] += taken["points"]
        if taken["taker"] in tallies:
            tallies[taken["taker"]].muggins["taken"] += 1
            tallies[taken["taker"]].muggins["taken points"] += taken["points"]


def _count_play(tallies: dict[str, Tally], deal) -> None:
    """The play's points per deal, and had each card been the best one held at that moment."""
    best: Counter = Counter()
    for row in play_review(deal):
        if row["type"] == "card":
            best[row["player"]] += row["better"]["points"] if row["better"] else row["points"]
        elif row["type"] in ("go", "last card"):
            best[row["player"]] += row["points"]
    for p, t in tallies.items():
        t.counts["play"] += 1
        t.sums["play", "pegged"] += deal.points[p]["play"]
        t.sums["play", "best"] += best[p]


def record(journals: Journals) -> dict:
    """The whole record, JSON-ready: what it covers, what each yardstick means, each player over every
    game, and each game with its players' figures and their points per deal by source."""
    overall: dict[str, Tally] = {}
    games = []
    for game in journals.games:
        tallies = game_tallies(game)
        for p, t in tallies.items():
            overall.setdefault(p, Tally(p)).add(t)
        games.append(game_summary(game, tallies))
    undone = sum(g.undone for g in journals.games)
    finished = sum(g.over for g in journals.games)
    return {
        "covers": {"games": len(journals.games), "finished": finished,
                   "in_progress": len(journals.games) - finished,
                   "variants": dict(Counter(g.variant for g in journals.games)),
                   "undone": undone, "journals": journals.read, "not_counted": journals.skipped},
        "meanings": MEANINGS,
        "players": [t.figures() for t in sorted(overall.values(), key=lambda t: (-len(t.games), t.name))],
        "games": games,
    }


def game_summary(game: Game, tallies: dict[str, Tally] | None = None) -> dict:
    tallies = tallies or game_tallies(game)
    return {"number": game.number, "journal": game.journal, "current": game.current,
            "variant": game.variant, "players": game.players, "sides": game.sides, "target": game.target,
            "over": game.over, "winner": game.winner, "margin": game.margin, "scores": game.scores(),
            "deals": len(game.deals), "undone": game.undone,
            "record": [tallies[p].figures() for p in game.players],
            "per_deal": [{"deal": d.no, "dealer": d.dealer, "points": d.points} for d in game.deals]}


def record_of(state_dir: str | Path) -> dict:
    """The record of every game in a state directory's journals."""
    return record(read_games(state_dir))


def deal_of(state_dir: str | Path, game_number: int, deal_no: int) -> dict:
    """One deal looked back at; LookupError naming what there is when there is no such game or deal."""
    games = read_games(state_dir).games
    game = next((g for g in games if g.number == game_number), None)
    if game is None:
        raise LookupError(f"there is no game {game_number}: the journals hold {len(games)}")
    return look_back(game, deal_no)

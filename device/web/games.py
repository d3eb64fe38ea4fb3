"""Every game in the journals: who played, the score race (each side's score after every deal), the end.

Read from the journal files themselves, read-only (SQLite's WAL lets this run beside the device's
writes), the current journal and those set aside by `--new-game` or a change of settings, as
device.record_games lists them (so a game has the same number in the record); one that cannot be read
is skipped and named. Undone actions are left out, as the game itself leaves them out.
"""

from __future__ import annotations

from pathlib import Path

from cribbage.events import EVENT_TYPES
from cribbage.variants import VARIANTS
from device.errors import JournalError
from device.journal import JOURNAL_NAME, read_entries
from device.record_games import journals_in


def games_in(state_dir: Path) -> dict:
    """{"games": [...oldest first], "unreadable": [file names]} for a state directory."""
    files = [path for path, _ in journals_in(state_dir)[0]]  # the same journals as the record, in order
    current = Path(state_dir) / JOURNAL_NAME
    games, unreadable = [], []
    for path in files:
        try:
            entries = read_entries(path)
        except JournalError:
            unreadable.append(path.name)
            continue
        for game in games_of([e.event for e in entries]):
            game["journal"] = path.name
            game["current"] = path == current
            games.append(game)
    for number, game in enumerate(games, 1):
        game["number"] = number
    return {"games": games, "unreadable": unreadable}


def games_of(records: list[dict]) -> list[dict]:
    """The games in one journal's records (game events and device events mixed), in order."""
    events = [r for r in records if r.get("type") in EVENT_TYPES]
    undone = {e.get("undone") for e in events if e["type"] == "Undone"}
    standing = [e for e in events if e["type"] != "Undone" and e.get("step") not in undone]
    games: list[dict] = []
    game = None
    for e in standing:
        kind = e["type"]
        if kind == "GameStarted":
            game = _new_game(e)
            games.append(game)
            continue
        if game is None:
            continue
        if kind == "RoundStarted":
            _end_deal(game)
            game["deals"] += 1
            game["dealers"].append(e.get("dealer"))
        points = e.get("points") or 0
        player = e.get("player")
        if points and player in game["players"]:
            side = game["side_of"][player]
            game["scores"][side] = min(game["target"], game["scores"][side] + points)
        if kind == "GameWon":
            game["winner"], game["margin"] = e.get("winner"), e.get("margin")
            game["over"] = True
    for g in games:
        _end_deal(g)
        del g["side_of"]
    return games


def _new_game(e: dict) -> dict:
    players = list(e.get("players", []))
    variant = VARIANTS.get(e.get("variant"))
    sides = variant.sides if variant else len(players)
    side_of = {p: (variant.side_of(i) if variant else i) for i, p in enumerate(players)}
    names = [" & ".join(p for p in players if side_of[p] == s) for s in range(sides)]
    return {"game_no": e.get("game_no", 1), "variant": e.get("variant"), "players": players,
            "sides": names, "target": variant.target if variant else 121, "side_of": side_of,
            "scores": [0] * sides, "race": [[0] for _ in range(sides)], "deals": 0, "dealers": [],
            "winner": None, "margin": None, "over": False}


def _end_deal(game: dict) -> None:
    """Close the deal in progress: each side's score now is its point on the race (once per deal)."""
    wanted = game["deals"] + 1
    for side, score in enumerate(game["scores"]):
        race = game["race"][side]
        if len(race) < wanted:
            race.append(score)
        else:
            race[-1] = score

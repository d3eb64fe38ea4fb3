"""`muggins record [--state-dir D | --config FILE] [--json] [--game N [--deal M]]`: each player's record
from the journals.

Over every game in the state directory's journals (the current one, those archived by a new game and
those set aside when the settings changed; corrupt and foreign ones are named, not counted), and game
by game with --game; --deal looks one deal back. Read-only: nothing is written to the journals.
JSON: device.record's objects ({"covers", "meanings", "players", "games"}; with --game that game;
with --deal the look-back).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from device.errors import UsageError

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="where the journals are (default: $MUGGINS_STATE_DIR, else the config's state_dir)")
    parser.add_argument("--config", type=Path, default=None,
                        help="the device's config file, for its state_dir (default: $MUGGINS_CONFIG; without "
                             "one, /var/lib/muggins)")
    parser.add_argument("--game", type=int, metavar="N", help="one game's record and its deals (numbered "
                                                              "from the oldest, as the web page numbers them)")
    parser.add_argument("--deal", type=int, metavar="M", help="with --game: look back at this deal")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from device.record import deal_of, record_of

    state_dir = args.state_dir or (Path(os.environ["MUGGINS_STATE_DIR"]) if os.environ.get("MUGGINS_STATE_DIR")
                                   else _configured_state_dir(args.config))
    if not state_dir.is_dir():
        raise UsageError(f"there is no state directory {state_dir} (give the one the device uses: --state-dir)")
    if args.deal is not None and args.game is None:
        raise UsageError("--deal needs --game: which game's deal to look back at")
    if args.deal is not None:
        try:
            deal = deal_of(state_dir, args.game, args.deal)
        except LookupError as exc:
            raise UsageError(str(exc.args[0])) from None
        print(json.dumps(deal) if args.json else "\n".join(deal_lines(deal)))
        return 0
    rec = record_of(state_dir)
    if args.game is not None:
        game = next((g for g in rec["games"] if g["number"] == args.game), None)
        if game is None:
            raise UsageError(f"there is no game {args.game}: the journals hold {len(rec['games'])}")
        print(json.dumps(game) if args.json else "\n".join(game_lines(game)))
        return 0
    print(json.dumps(rec) if args.json else "\n".join(record_lines(rec, state_dir)))
    return 0


def _configured_state_dir(path: Path | None) -> Path:
    """The state directory `muggins run` would use with this config (or the default one)."""
    from device.config import load_config
    from device.learned_decks import config_path

    return load_config(config_path(path)).state_dir


# ---- text ---------------------------------------------------------------------------------------

def record_lines(rec: dict, state_dir: Path) -> list[str]:
    covers = rec["covers"]
    if not covers["games"]:
        lines = [f"No game in the journals of {state_dir}."]
    else:
        variants = ", ".join(f"{v} {n}" for v, n in covers["variants"].items())
        lines = [f"{covers['games']} game{'s' * (covers['games'] != 1)} ({covers['finished']} finished, "
                 f"{covers['in_progress']} in progress; {variants}); {covers['undone']} undone action"
                 f"{'s' * (covers['undone'] != 1)} left out",
                 "journals: " + "; ".join(f"{j['journal']} ({j['why']})" for j in covers["journals"])]
    if covers["not_counted"]:
        lines.append("not counted: " + "; ".join(f"{j['journal']} ({j['why']})" for j in covers["not_counted"]))
    for player in rec["players"]:
        lines += [""] + player_lines(player)
    if rec["players"]:
        lines += ["", "What the figures beside each mean are:"]
        lines += [f"  {k}: {v}" for k, v in rec["meanings"].items()]
    return lines


def player_lines(p: dict) -> list[str]:
    hand, crib, play = p["hand"], p["crib"], p["play"]
    lines = [f"{p['name']}: {p['games']} game{'s' * (p['games'] != 1)} (" +
             ", ".join(map(str, p["game_numbers"])) + f"), {p['wins']} won, skunks given {p['skunks_given']} "
             f"and taken {p['skunks_taken']}, {p['deals']} deals"]
    for name, m in (("hand", hand), ("crib", crib)):
        if m["counted"]:
            lines.append(f"  {name:<5} {m['pegged']:6.2f} pegged {m['true']:6.2f} true {m['starters']:6.2f} "
                         f"starters {m['table']:6.2f} table   per {name} ({m['counted']})")
    if play["counted"]:
        lines.append(f"  play  {play['pegged']:6.2f} pegged {play['best']:6.2f} best                  "
                     f"per deal ({play['counted']})")
    pts = p["points"]
    lines.append(f"  points: hand {pts['hand']}, crib {pts['crib']}, play {pts['play']}, other {pts['other']}")
    best = p["best_hand"]
    if best:
        lines.append(f"  best hand {best['points']}: {' '.join(best['cards'])}, starter {best['starter']} "
                     f"(game {best['game']}, deal {best['deal']})")
    c, m, d = p["claims"], p["muggins"], p["disputes"]
    lines.append(f"  claims right {c['right']}, over {c['over']}, short {c['short']}; Muggins taken "
                 f"{m['taken']} ({m['taken_points']} points), given {m['given']} ({m['given_points']} points)")
    ended = ", ".join(f"{k} {n}" for k, n in d["ended"].items())
    lines.append(f"  disputes of their counts {d['count']}" + (f": {ended}" if ended else ""))
    return lines


def game_lines(game: dict) -> list[str]:
    side = next((s for s in game["sides"] if game["winner"] in s.split(" & ")), game["winner"])
    result = f"{side} won ({game['margin']})" if game["over"] else "in progress"
    scores = ", ".join(f"{s} {n}" for s, n in zip(game["sides"], game["scores"]))
    lines = [f"Game {game['number']} ({game['variant']}, {game['journal']}): {scores}; {result}; "
             f"{game['deals']} deals, {game['undone']} undone actions left out"]
    for player in game["record"]:
        lines += [""] + player_lines(player)
    lines += ["", "deal  dealer    " + "  ".join(f"{p:>22}" for p in game["players"]),
              "                " + "  ".join(f"{'hand crib play other':>22}" for _ in game["players"])]
    for d in game["per_deal"]:
        cells = "  ".join(f"{d['points'][p]['hand']:>7}{d['points'][p]['crib']:>5}{d['points'][p]['play']:>5}"
                          f"{d['points'][p]['other']:>5}" for p in game["players"])
        lines.append(f"{d['deal']:>4}  {d['dealer']:<8}  {cells}")
    return lines


def deal_lines(deal: dict) -> list[str]:
    lines = [f"Game {deal['game']}, deal {deal['deal']} ({deal['variant']}): {deal['dealer']} deals; "
             f"starter {deal['starter'] or 'not turned'}", f"  ({deal['known']})", "", "The play:"]
    for row in deal["play"]:
        if row["type"] == "card":
            made = f" for {row['points']} ({', '.join(row['reasons'])})" if row["points"] else ""
            lead = "  -- a fresh count --" if row["new_series"] else None
            if lead:
                lines.append(lead)
            line = f"  {row['player']:<8} {row['card']:<3} {row['count']:>3}{made}"
            if row.get("misread"):  # put right at the show
                line += f"   (read as {row['misread']})"
            if row["better"]:
                b = row["better"]
                line += f"   held {b['card']}: {b['points']} ({', '.join(b['reasons'])})"
            lines.append(line)
        elif row["type"] == "go said":
            lines.append(f"  {row['player']:<8} go at {row['count']}" + (" (inferred)" if row["inferred"] else ""))
        else:
            lines.append(f"  {row['player']:<8} {row['points']} for {row['type']}")
    lines += ["", "The show:"]
    for s in deal["shows"]:
        whose = f"{s['player']}'s crib" if s["crib"] else f"{s['player']}'s hand"
        claim = s["claim"]
        head = f"  {whose}: {' '.join(s['cards'])}"
        if claim is None:
            lines.append(head + " (never claimed)")
            continue
        lines.append(f"{head}: claimed {claim['claimed']}, true {claim['actual']} ({claim['verdict']}), "
                     f"pegged {claim['points']}" + (" -- disputed" if s["disputed"] else ""))
        for item in claim["breakdown"]:
            lines.append(f"      {item['kind']:<18} {' '.join(item['cards']):<16} {item['points']}")
        if s["muggins"]:
            lines.append(f"      Muggins: {s['muggins']['taker']} took {s['muggins']['points']}")
        if s["missed_told"]:
            lines.append(f"      missed and told: {s['missed_told']}")
    return lines

"""What it takes the device to see whole games: `muggins demo --faces DIR` over the held-out decks.

For each held-out deck its 52 faces are copied into a folder of their own, named by card, as a player
would hand in faces cut from photographs (sim/assets/faces/<deck>/, without the back and the mask),
and SEEDS games are played with `muggins demo --seed S --speed max --json --mute --faces DIR`, each
in a fresh process as a person runs it. Each game's final line gives the figures: cards laid, read at
first sight, asked to move into the light, misread, as scripted (every count as the script's shadow
game pegged it). One ask a game is scripted: the card laid in the dark (its step's asks are counted
apart, from the game's journal, which also checks the final line's count of asks).

Beside each, the plain demo of the same deck and seed (`--deck NAME`, the rendered faces) is played
in the same run, in alternating order, as the baseline for the wall time of --speed max: both also
report the processes' CPU time, which other work on a shared machine does not inflate.

Targets (issue 44): misread 0; as scripted in every game; asked to move <= 1 % of cards laid; the
wall time of --speed max no more than 20 % above the plain demo's.

On a printed mat: PRINTED_SEEDS games of each deck with `--printed-table` (a cloth printed with two aces
of another held-out deck, learnt empty first as `muggins calibrate --table` learns it), beside the
plain game of the same deck and seed: the print must cost no misread and no game its script.

Where the real photographs are on this machine (`python -m bench.real.build`), a real deck is played
too: the 52 faces of yuchenrao/EECS349-Card-Classification-Project's deck, one phone photo a card on a
grey table, each cut out along the outline the recognizer finds (the label names the card, not the
recognizer) and straightened to an upright face. Its source is in the real set's report part: its
figures are only reported, nothing is chosen by them.

Synthetic font decks, where asked (MUGGINS_BENCH_FONT_DECKS=validation, or names such as fonts-1005): each
deck's 52 faces drawn (sim/render/fontdecks.py) into a folder, flattened as the held-out decks' committed
faces are, and its SEEDS games played twice: as handed in, and with the deck learnt first from the same
folder (`muggins deck learn`, then `--deck NAME --decks-dir D`), which is what a player whose deck the
device misreads is told to do. The validation decks may steer: these games say what a player of a deck
in an unseen font lives with, learnt or not. They need the fonts `make model` installs.

Run: make bench BENCH=seeing   (or .venv/bin/python -m bench seeing; MUGGINS_BENCH_SEEDS=2 for fewer
seeds, MUGGINS_BENCH_REAL_SEEDS for the real deck's: as many as the held-out decks' by default, 0 for
none; MUGGINS_BENCH_PRINTED_SEEDS for the printed mat's, 1 by default, 0 for none;
MUGGINS_BENCH_DECKS=greywyvern,penguins for some of the held-out decks only, none for none;
MUGGINS_BENCH_FONT_DECKS as above, none by default)
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.machine import describe

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(1, 1 + int(os.environ.get("MUGGINS_BENCH_SEEDS", "5")))
REAL_SEEDS = range(1, 1 + int(os.environ.get("MUGGINS_BENCH_REAL_SEEDS", str(len(SEEDS)))))
PRINTED_SEEDS = range(1, 1 + int(os.environ.get("MUGGINS_BENCH_PRINTED_SEEDS", "1")))
FONT_DECKS = os.environ.get("MUGGINS_BENCH_FONT_DECKS", "")
FIGURES = ("cards_laid", "read_at_first_sight", "asked_to_move", "misread")
REAL_DECK = "yuchenrao/EECS349-Card-Classification-Project"  # one photo of each card of one deck
FACE_SIZE = (250, 350)  # a face cut from a photo: a poker card's shape


@dataclass
class Game:
    deck: str
    seed: int
    faces: bool
    code: int
    wall_s: float
    cpu_s: float
    final: dict | None
    asked_in_the_dark: int = 0
    journaled_asks: int = 0

    @property
    def seeing(self) -> dict:
        return (self.final or {}).get("seeing", {name: 0 for name in FIGURES})

    @property
    def as_scripted(self) -> bool:
        return bool(self.final and self.final.get("as_scripted")) and self.code == 0


def face_folder(deck: str, folder: Path) -> Path:
    """The deck's 52 rendered faces alone in a folder, named by card."""
    from cribbage.cards import FULL_DECK
    from sim.render.faces import ASSET_DIR

    folder.mkdir(parents=True)
    for card in FULL_DECK:
        shutil.copy(ASSET_DIR / deck / f"{card}.jpg", folder / f"{card}.jpg")
    return folder


def font_face_folder(deck: str, folder: Path) -> Path:
    """A synthetic font deck's 52 faces drawn alone in a folder, named by card, flattened as the
    held-out decks' committed faces are (sim.render.export_assets.flat_face)."""
    import cv2

    from cribbage.cards import FULL_DECK
    from sim.render.export_assets import JPEG_QUALITY, flat_face
    from sim.render.faces import load_face

    folder.mkdir(parents=True)
    for card in FULL_DECK:
        cv2.imwrite(str(folder / f"{card}.jpg"), flat_face(load_face(deck, card)),
                    [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return folder


def font_decks(asked: str) -> list[str]:
    """MUGGINS_BENCH_FONT_DECKS as deck names: 'validation' for the ten validation decks, else the
    font decks named (a name that is none is said and left out)."""
    from sim.render.fontdecks import is_font_deck, validation_deck_names

    names = []
    for name in (n.strip() for n in asked.split(",")):
        if name == "validation":
            names += validation_deck_names()
        elif is_font_deck(name):
            names.append(name)
        elif name:
            print(f"MUGGINS_BENCH_FONT_DECKS: {name!r} is no font deck (give validation, or names like fonts-1005)")
    return names


def learn(deck: str, faces: Path, decks: Path) -> str:
    """`muggins deck learn` the deck from its faces into decks; its summary line ('learned N cards ...')."""
    done = subprocess.run([sys.executable, "-m", "device.cli", "deck", "learn", deck, str(faces),
                           "--decks-dir", str(decks)], capture_output=True, text=True, cwd=ROOT)
    said = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("learned ")]
    return said[0] if said else f"not learnt (exit {done.returncode}): {done.stderr.strip()[-200:]}"


def dark_step(seed: int) -> int:
    """The script step that lays a card in the dark."""
    from device.config import GameConfig
    from sim.table_script import TableStep, build_script

    script = build_script(seed, GameConfig())
    return next(i for i, s in enumerate(script.steps) if isinstance(s, TableStep) and s.shadow is not None)


def real_face_folder(folder: Path) -> Path | None:
    """The real deck's 52 faces, cut from its photos into a folder named by card; None where the
    photos are not on this machine."""
    import cv2
    import numpy as np

    from bench.real.build import DEFAULT_OUT, folder_name, load_labels
    from vision.faults import recognize_picture
    from vision.recognizer import Recognizer

    rows = [r for r in load_labels() if r["source"] == REAL_DECK and len(r["cards"]) == 1]
    photos = {r["cards"][0]: DEFAULT_OUT / folder_name(REAL_DECK) / r["path"] for r in rows}
    if len(photos) != 52 or not all(path.is_file() for path in photos.values()):
        return None
    folder.mkdir(parents=True)
    recognizer = Recognizer()
    w, h = FACE_SIZE
    for card, path in photos.items():
        image = cv2.imread(str(path))
        found = recognize_picture(recognizer, image)
        if not found:
            print(f"  {path.name}: no card outline found; the real deck is not played")
            return None
        quad = max((np.asarray(r.quad, np.float32) for r in found), key=cv2.contourArea)
        if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[2] - quad[1]):
            quad = np.roll(quad, -1, axis=0)  # its long side down the face: upright (or upside down)
        straight = cv2.getPerspectiveTransform(quad, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        cv2.imwrite(str(folder / f"{card}.png"), cv2.warpPerspective(image, straight, (w, h), flags=cv2.INTER_CUBIC))
    return folder


def asks_journaled(state_dir: Path, dark: int) -> tuple[int, int]:
    """(the notices in the game's journal asking to move a card into the light or to lay a short count
    apart, as the final line counts them; those of the step that lays a card in the dark)."""
    from device.journal import JOURNAL_NAME, read_entries
    from sim.seeing import ASKS

    asks = [e for e in read_entries(state_dir / JOURNAL_NAME)
            if e.event.get("type") == "Notice" and e.event.get("kind") in ASKS]
    return len(asks), sum(e.step == dark for e in asks)


def play(deck: str, seed: int, faces: Path | None, state_dir: Path, printed: bool = False,
         learnt: Path | None = None) -> Game:
    """One game in its own process; learnt: with --faces, the folder the deck was learnt into, read with."""
    table = ["--faces", str(faces)] if faces is not None else ["--deck", deck]
    if printed:
        table.append("--printed-table")
    if learnt is not None:
        table += ["--deck", deck, "--decks-dir", str(learnt)]
    command = [sys.executable, "-m", "device.cli", "demo", "--seed", str(seed), "--speed", "max", "--json", "--mute",
               "--state-dir", str(state_dir), *table]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    final = None
    for line in done.stdout.splitlines():
        try:
            final = json.loads(line).get("final", final)
        except ValueError:
            continue
    if final is None:
        print(f"  {deck} seed {seed}: no final line (exit {done.returncode}): {done.stderr.strip()[-300:]}")
        return Game(deck, seed, faces is not None, done.returncode, wall, cpu, None)
    asks, in_the_dark = asks_journaled(state_dir, dark_step(seed))
    shutil.rmtree(state_dir, ignore_errors=True)
    return Game(deck, seed, faces is not None, done.returncode, wall, cpu, final, in_the_dark, asks)


def row(game: Game) -> str:
    s = game.seeing
    return (f"  {game.deck:<22} {game.seed:>4}  {s['cards_laid']:>5} {s['read_at_first_sight']:>6} "
            f"{s['asked_to_move']:>5} ({game.asked_in_the_dark} dark) {s['misread']:>7}  "
            f"{'yes' if game.as_scripted else 'NO':>8}")


def summary(name: str, games: list[Game]) -> str:
    total = {k: sum(g.seeing[k] for g in games) for k in FIGURES}
    dark = sum(g.asked_in_the_dark for g in games)
    laid = max(total["cards_laid"], 1)
    scripted = sum(g.as_scripted for g in games)
    unlike = [f"{g.deck} {g.seed}" for g in games if g.final and g.journaled_asks != g.seeing["asked_to_move"]]
    if unlike:
        print(f"  the final line's asks differ from the journal's in: {', '.join(unlike)}")
    return (f"{name}: {len(games)} games, {total['cards_laid']} cards laid, {total['read_at_first_sight']} read at "
            f"first sight ({100 * total['read_at_first_sight'] / laid:.1f} %), asked to move {total['asked_to_move']} "
            f"({100 * total['asked_to_move'] / laid:.2f} % of cards laid; {dark} of them the card laid in the dark), "
            f"misread {total['misread']}, as scripted {scripted}/{len(games)}")


def main() -> None:
    from sim.render.decks import HELD_OUT_DECKS

    asked = os.environ.get("MUGGINS_BENCH_DECKS", ",".join(HELD_OUT_DECKS))
    decks = [d for d in asked.split(",") if d and d != "none"]
    unknown = sorted(set(decks) - set(HELD_OUT_DECKS))
    if unknown:
        print(f"MUGGINS_BENCH_DECKS names no held-out deck: {', '.join(unknown)} (give {', '.join(HELD_OUT_DECKS)})")
        return
    print("seeing:", describe())
    if not (ROOT / "models" / "cards.onnx").is_file():
        print("skipped: models/cards.onnx is not built (make model)")
        return
    with tempfile.TemporaryDirectory(prefix="bench-seeing-") as tmp:
        folders = {deck: face_folder(deck, Path(tmp) / deck) for deck in decks}
        with_faces: list[Game] = []
        plain: list[Game] = []
        print(f"  {'deck (--faces DIR)':<22} {'seed':>4}  {'laid':>5} {'first':>6} {'asked':>5} {'':>8} "
              f"{'misread':>7}  {'scripted':>8}   wall s (plain)   CPU s (plain)")
        states = Path(tmp) / "states"
        for deck in decks:
            for k, seed in enumerate(SEEDS):
                if k % 2:  # alternate which goes first, so a slow stretch of the machine falls on both
                    game = play(deck, seed, folders[deck], states / f"{deck}-{seed}-faces")
                    base = play(deck, seed, None, states / f"{deck}-{seed}")
                else:
                    base = play(deck, seed, None, states / f"{deck}-{seed}")
                    game = play(deck, seed, folders[deck], states / f"{deck}-{seed}-faces")
                with_faces.append(game)
                plain.append(base)
                print(f"{row(game)}   {game.wall_s:5.1f} ({base.wall_s:5.1f})   {game.cpu_s:5.1f} ({base.cpu_s:5.1f})",
                      flush=True)
        if plain:
            report(with_faces, plain)
        if PRINTED_SEEDS and decks:
            play_printed(decks, plain, states)
        if REAL_SEEDS:
            play_real(Path(tmp), states)
        if FONT_DECKS:
            play_font_decks(font_decks(FONT_DECKS), Path(tmp), states)


def report(with_faces: list[Game], plain: list[Game]) -> None:
    """The held-out decks' figures, with --faces and plain, and the targets."""
    print(summary("--faces DIR", with_faces))
    print(summary("plain --deck NAME", plain))
    same = sum(g.final == b.final for g, b in zip(with_faces, plain))
    print(f"final lines alike, faces from a folder and rendered: {same}/{len(plain)} games")
    wall_f, wall_p = sum(g.wall_s for g in with_faces), sum(g.wall_s for g in plain)
    cpu_f, cpu_p = sum(g.cpu_s for g in with_faces), sum(g.cpu_s for g in plain)
    print(f"--speed max, {len(plain)} games: wall {wall_f:.0f} s with --faces against {wall_p:.0f} s plain "
          f"({100 * (wall_f / wall_p - 1):+.1f} %; target <= +20 %), CPU {cpu_f:.0f} s against {cpu_p:.0f} s "
          f"({100 * (cpu_f / cpu_p - 1):+.1f} %); a game {wall_f / len(with_faces):.1f} s wall with --faces")
    laid = sum(g.seeing["cards_laid"] for g in with_faces)
    asked = sum(g.seeing["asked_to_move"] for g in with_faces)
    met = (all(g.seeing["misread"] == 0 for g in with_faces) and all(g.as_scripted for g in with_faces)
           and asked <= 0.01 * laid and wall_f <= 1.2 * wall_p)
    print(f"targets (misread 0, as scripted every game, asked <= 1 % of laid, wall <= +20 %): "
          f"{'met' if met else 'NOT met'}")


def play_printed(decks: list[str], plain: list[Game], states: Path) -> None:
    """Each deck's games on the printed mat, learnt first, beside its plain games of the same seeds."""
    print("on a mat printed with two aces of another deck, learnt empty first (--printed-table): "
          "first sight and asked beside the plain game's")
    played, beside = [], []
    for deck in decks:
        for seed in PRINTED_SEEDS:
            game = play(deck, seed, None, states / f"{deck}-{seed}-printed", printed=True)
            base = next((g for g in plain if g.deck == deck and g.seed == seed), None)
            played.append(game)
            if base is not None:
                beside.append(base)
            was = "" if base is None else (f"   plain: {base.seeing['read_at_first_sight']} first, "
                                            f"{base.seeing['asked_to_move']} asked")
            print(f"{row(game)}{was}", flush=True)
    print(summary("on the printed mat", played))
    if beside:
        print(summary("the same decks and seeds plain", beside))


def play_real(tmp: Path, states: Path) -> None:
    """The real deck's games, where its photos are on this machine."""
    real = real_face_folder(tmp / "real-deck")
    if real is None:
        print(f"a real deck's faces: skipped ({REAL_DECK}'s photos are not in .cache/real: "
              "python -m bench.real.build)")
        return
    print(f"a real deck: faces cut from {REAL_DECK}'s photos (report part: only reported)")
    played = []
    for seed in REAL_SEEDS:
        played.append(play("real deck", seed, real, states / f"real-{seed}"))
        print(f"{row(played[-1])}   {played[-1].wall_s:5.1f}   {played[-1].cpu_s:5.1f}", flush=True)
    print(summary("a real deck's faces", played))


def play_font_decks(decks: list[str], tmp: Path, states: Path) -> None:
    """Each font deck's games with its faces handed in, then with the deck learnt from them first."""
    print("synthetic font decks (their faces drawn; the validation decks may steer): as handed in, then learnt")
    handed, learnt = [], []
    for deck in decks:
        faces = font_face_folder(deck, tmp / "font-decks" / deck)
        print(f"  {deck}: {learn(deck, faces, tmp / 'learnt')}")
        for seed in SEEDS:
            handed.append(play(deck, seed, faces, states / f"{deck}-{seed}"))
            learnt.append(play(deck, seed, faces, states / f"{deck}-{seed}-learnt", learnt=tmp / "learnt"))
            print(f"{row(handed[-1])}   learnt: {learnt[-1].seeing['read_at_first_sight']} first, "
                  f"{learnt[-1].seeing['asked_to_move']} asked, {learnt[-1].seeing['misread']} misread, "
                  f"{'as scripted' if learnt[-1].as_scripted else 'NOT as scripted'}", flush=True)
    if handed:
        print(summary("font decks as handed in", handed))
        print(summary("the same, learnt first", learnt))


if __name__ == "__main__":
    main()

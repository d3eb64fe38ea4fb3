"""`muggins demo --faces DIR`: a whole game with a folder of face images, and what it took to see it.

The faces are written by the tests themselves, cut from a held-out deck's pre-rendered faces at other
sizes and in other formats, named as `muggins deck learn` names photos. A folder that is not one
whole deck (a face missing, a name that is no card, two faces of one card, a file that is no image)
is refused naming each fault, and nothing is played. The final line's "seeing" figures come from what
happened: perfect eyes read every card at first sight but the one laid in the dark; eyes that misread
a card once are caught; eyes that keep misreading one lose the script.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from cribbage.cards import FULL_DECK, Card
from sim.demo_game import DemoOptions, run_demo
from sim.face_folder import FaceFolderError, read_face_folder
from sim.render.faces import ASSET_DIR, FACE_HEIGHT
from sim.table_script import TableStep
from sketch_table import KnowsTheCards

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "models" / "cards.onnx"
DECK = "greywyvern"
C = Card.parse


def face_name(card: Card, k: int) -> str:
    """Names as players write them: 5C.png, qs.jpg, 10h.jpg, Td.png ..."""
    text = str(card)
    if card.rank == 10 and k % 2 == 0:
        text = "10" + text[-1]
    if k % 3 == 1:
        text = text.lower()
    return text + (".png" if k % 2 else ".jpg")


def write_faces(folder: Path, deck: str = DECK) -> Path:
    """The deck's 52 faces cut from its rendered assets, each at another size, as JPEG or PNG."""
    folder.mkdir(parents=True, exist_ok=True)
    for k, card in enumerate(FULL_DECK):
        face = cv2.imread(str(ASSET_DIR / deck / f"{card}.jpg"))
        scale = (0.7, 1.0, 1.9)[k % 3]
        face = cv2.resize(face, None, fx=scale, fy=scale,
                          interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
        cv2.imwrite(str(folder / face_name(card, k)), face)
    return folder


def file_of(folder: Path, card: Card) -> Path:
    """The file in the folder that holds this card's face."""
    from vision.deck_learning import card_named

    return next(path for path in folder.iterdir() if card_named(path) == card)


@pytest.fixture(scope="module")
def faces(tmp_path_factory) -> Path:
    return write_faces(tmp_path_factory.mktemp("faces") / "home")


def game(options: DemoOptions, **kw) -> tuple[int, list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_demo(options, out, err, **kw)
    assert "Traceback" not in err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()] if options.json else []
    return code, lines, out.getvalue() + err.getvalue()


def newly_laid(script) -> int:
    """Cards the script lays: each table step's cards beyond those of the table before it."""
    total, before = 0, {}
    for step in script.steps:
        if isinstance(step, TableStep) and not step.dark:
            now = {zone: set(cards) for zone, cards in step.zones}
            total += sum(len(cards - before.get(zone, set())) for zone, cards in now.items())
            before = now
    return total


# ---- the folder ------------------------------------------------------------------------------


def test_a_folder_of_faces_named_by_card_is_a_deck_laid_as_rendered_faces_are(faces):
    deck = read_face_folder(faces)
    assert set(deck.faces) == set(FULL_DECK)
    for card in (C("5C"), C("QS"), C("TH")):
        face = deck.face(card)
        assert face.shape[0] == FACE_HEIGHT and face.shape[2] == 4
        assert face[0, 0, 3] < 128 and face[FACE_HEIGHT // 2, face.shape[1] // 2, 3] == 255  # rounded corners
    back = deck.face(None)  # the stock under the starter: a held-out deck's back, the folder's faces' shape
    assert back.shape == deck.face(C("5C")).shape and back[0, 0, 3] < 128
    assert not np.array_equal(back[..., :3], deck.face(C("5C"))[..., :3])


def test_the_table_painted_with_a_folders_faces_is_the_table_painted_with_the_deck(faces):
    """Same tables, light, camera and overlap: only the faces' own pixels (resized, re-encoded) differ."""
    from device.config import GameConfig
    from sim.frames import TablePainter
    from sim.table_script import build_script

    script = build_script(4, GameConfig())
    step = max((s for s in script.steps if isinstance(s, TableStep) and not s.dark),
               key=lambda s: sum(len(cards) for _, cards in s.zones))
    rendered = TablePainter(4, deck=DECK).draw(step, 9).astype(np.int16)
    folder = TablePainter(4, deck=read_face_folder(faces)).draw(step, 9).astype(np.int16)
    other = TablePainter(4, deck="penguins").draw(step, 9).astype(np.int16)
    assert np.abs(rendered - folder).mean() < 1.5 < np.abs(rendered - other).mean()


def test_a_missing_face_a_bad_name_a_second_face_and_a_broken_file_are_each_named(tmp_path):
    folder = write_faces(tmp_path / "faces")
    file_of(folder, C("7D")).unlink()
    file_of(folder, C("8C")).unlink()
    ace = file_of(folder, C("AH"))
    ace.write_bytes(b"not a picture")
    cv2.imwrite(str(folder / "11X.png"), np.full((100, 70, 3), 200, np.uint8))
    cv2.imwrite(str(folder / "qs-2.jpg"), np.full((100, 70, 3), 200, np.uint8))
    (folder / "notes.txt").write_text("my deck")
    cv2.imwrite(str(folder / "8C.png"), np.full((70, 100, 3), 200, np.uint8))  # on its side
    with pytest.raises(FaceFolderError) as caught:
        read_face_folder(folder)
    text = str(caught.value)
    assert "nothing is played" in text and "\n" not in text
    assert "no face of 7D" in text
    assert "11X.png: the name '11X' is no card" in text
    assert "2 faces of QS" in text and "qs-2.jpg" in text
    assert f"{ace.name}: not an image OpenCV can read" in text
    assert "notes.txt: not a face image" in text
    assert "8C.png: 100x70 pixels is not an upright card's shape" in text


def test_the_command_names_the_fault_and_plays_nothing(tmp_path):
    folder = write_faces(tmp_path / "faces")
    file_of(folder, C("KH")).unlink()
    done = subprocess.run([sys.executable, "-m", "device.cli", "demo", "--faces", str(folder), "--speed", "max",
                           "--json", "--state-dir", str(tmp_path / "state")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "no face of KH" in done.stderr and str(folder) in done.stderr
    assert not (tmp_path / "state").exists() or not any((tmp_path / "state").iterdir())
    nowhere = subprocess.run([sys.executable, "-m", "device.cli", "demo", "--faces", str(tmp_path / "none")],
                             capture_output=True, text=True, cwd=ROOT)
    assert nowhere.returncode == 2 and "no such folder" in nowhere.stderr and "Traceback" not in nowhere.stderr


# ---- what it took to see the game -------------------------------------------------------------


def test_perfect_eyes_read_every_card_at_first_sight_but_the_one_laid_in_the_dark(faces, tmp_path):
    from sim.demo_game import demo_rules
    from sim.table_script import build_script

    knows = KnowsTheCards()
    code, lines, _ = game(DemoOptions(seed=2, speed="max", json=True, mute=True, state_dir=tmp_path, faces=faces),
                          recognizer=knows, painter_for=knows)
    final = lines[-1]["final"]
    laid = newly_laid(build_script(2, demo_rules("six-card")))
    assert code == 0 and final["as_scripted"]
    assert final["seeing"] == {"cards_laid": laid, "read_at_first_sight": laid - 1, "asked_to_move": 1, "misread": 0}
    asks = [line["event"] for line in lines if line.get("event", {}).get("kind") == "unreadable"]
    assert len(asks) == 1 and "move it into the light" in asks[0]["text"]


def test_the_plain_final_lines_say_the_same_figures(faces, tmp_path):
    knows = KnowsTheCards()
    code, _, text = game(DemoOptions(seed=2, speed="max", mute=True, state_dir=tmp_path, faces=faces),
                         recognizer=knows, painter_for=knows)
    first, *_, seeing, last = text.splitlines()
    assert code == 0 and f"{faces} cards on a" in first and last.startswith("final: ")
    assert seeing.startswith("seeing: ") and seeing.endswith("read at first sight, 1 asked to move into the light, "
                                                             "0 misread")


class Misreads(KnowsTheCards):
    """Perfect eyes, but for the card played at step `at`: read as a king not on the table for its
    first `looks` looks."""

    def __init__(self, at: tuple[int, Card], looks: int):
        super().__init__()
        (self.at, self.card), self.looks, self.seen = at, looks, 0

    def __call__(self, painter):
        sketch = super().__call__(painter)
        draw = sketch.draw

        def drawn(step, index, look=0):
            self.index = index
            return draw(step, index, look)

        sketch.draw = drawn
        return sketch

    def recognize(self, image):
        read = list(self.sketch.laid)
        if self.index == self.at and self.seen < self.looks:
            self.seen += 1
            on_table = {r.card for r in read}
            wrong = next(c for c in FULL_DECK if c not in on_table and c.rank == 13)
            k = next(k for k, r in enumerate(read) if r.card == self.card)
            read[k] = type(read[k])(wrong, read[k].confidence, read[k].quad)
        return read


def played_step(seed: int, round_no: int = 3) -> tuple[int, Card]:
    """The step of the first card played in a later round, where the game goes on after it, and the card."""
    from sim.demo_game import demo_rules
    from sim.table_script import build_script

    script = build_script(seed, demo_rules("six-card"))
    plays = [i for i, s in enumerate(script.steps) if isinstance(s, TableStep) and s.note.endswith(" plays")]
    at = plays[8 * round_no]
    step, (_, before) = script.steps[at], script.table_before(at)
    (card,) = {c for _, cards in step.zones for c in cards} - {c for _, cards in before.zones for c in cards}
    return at, card


def test_a_card_misread_at_first_sight_is_counted_and_the_second_look_saves_the_game(tmp_path):
    at = played_step(2)
    eyes = Misreads(at, looks=1)
    code, lines, _ = game(DemoOptions(seed=2, speed="max", json=True, mute=True, state_dir=tmp_path),
                          recognizer=eyes, painter_for=eyes)
    seeing = lines[-1]["final"]["seeing"]
    assert code == 0 and lines[-1]["final"]["as_scripted"] and eyes.seen == 1
    assert seeing["misread"] == 1 and seeing["read_at_first_sight"] == seeing["cards_laid"] - 2


def test_a_card_misread_look_after_look_is_counted_and_the_game_is_not_as_scripted(tmp_path):
    eyes = Misreads(played_step(2), looks=99)
    code, lines, _ = game(DemoOptions(seed=2, speed="max", json=True, mute=True, state_dir=tmp_path),
                          recognizer=eyes, painter_for=eyes)
    final = lines[-1]["final"]
    assert final["seeing"]["misread"] >= 1 and not final["as_scripted"]


# ---- a learned deck in use ----------------------------------------------------------------------


def learned_deck_file(decks: Path, name: str = "home") -> Path:
    from vision.crops import INDEX_HEIGHT, INDEX_WIDTH
    from vision.learned_deck import CardPhoto, LearnedDeck, save_deck
    from vision.whole_card import HEIGHT, WIDTH

    rng = np.random.default_rng(3)
    deck = LearnedDeck(name)
    for card in (C("5C"), C("QS")):
        deck.learn(card, CardPhoto([rng.integers(0, 255, (INDEX_HEIGHT, INDEX_WIDTH, 3), np.uint8)],
                                   rng.integers(0, 255, (HEIGHT, WIDTH, 3), np.uint8)))
    return save_deck(decks, deck)


def test_with_faces_deck_names_the_learned_deck_the_device_reads_with(faces, tmp_path, monkeypatch):
    import sim.demo_game

    learned_deck_file(tmp_path / "decks")
    knows, given = KnowsTheCards(), []

    def recognizer(deck=None):
        given.append(deck)
        return knows

    monkeypatch.setattr(sim.demo_game, "default_recognizer", recognizer)
    code, lines, _ = game(DemoOptions(seed=2, speed="max", json=True, mute=True, state_dir=tmp_path / "state",
                                      faces=faces, deck="home", decks_dir=tmp_path / "decks"), painter_for=knows)
    assert code == 0 and lines[-1]["final"]["as_scripted"]
    assert [d.name for d in given] == ["home"] and set(given[0].cards) == {C("5C"), C("QS")}


def test_a_learned_deck_that_is_not_there_is_named_and_nothing_is_played(faces, tmp_path):
    learned_deck_file(tmp_path / "decks")
    done = subprocess.run([sys.executable, "-m", "device.cli", "demo", "--faces", str(faces), "--deck", "pub",
                           "--decks-dir", str(tmp_path / "decks"), "--speed", "max"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stdout == "" and "no learned deck 'pub'" in done.stderr
    assert "known: home" in done.stderr and "Traceback" not in done.stderr
    alone = subprocess.run([sys.executable, "-m", "device.cli", "demo", "--decks-dir", str(tmp_path), "--speed", "max"],
                           capture_output=True, text=True, cwd=ROOT)
    assert alone.returncode == 2 and "--decks-dir needs --faces DIR and --deck NAME" in alone.stderr


# ---- a short game through the real recognizer ----------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not MODEL.is_file(), reason="models/cards.onnx is not built yet")
def test_a_short_game_with_the_tests_own_faces_through_the_real_recognizer(faces, tmp_path):
    """Five-card to 61, seed 8 (its shortest game): about 15 s on two cores."""
    code, lines, _ = game(DemoOptions(seed=8, speed="max", json=True, mute=True, state_dir=tmp_path,
                                      variant="five-card", faces=faces))
    final = lines[-1]["final"]
    seeing = final["seeing"]
    assert code == 0 and final["as_scripted"] and seeing["misread"] == 0
    assert seeing["cards_laid"] > 50 and seeing["asked_to_move"] <= 1
    assert seeing["read_at_first_sight"] >= seeing["cards_laid"] - 1


def test_the_figures_kept_beside_the_journal_are_those_of_the_steps_journaled(tmp_path):
    """A resumed demo keeps the figures of the steps before the first one not journaled; a step taken
    again replaces its own, and a line cut off by a kill is dropped."""
    from sim.seeing import SEEING_NAME, Seeing

    path = tmp_path / SEEING_NAME
    seeing = Seeing.resumed(path, 0)
    for index in range(6):
        seeing.begin(index)
        seeing.laid(TableStep((("seat:0", (FULL_DECK[index],)),)), None)
        seeing.end(asked=index % 2)
    path.write_text(path.read_text() + '{"step": 6, "laid"')
    again = Seeing.resumed(path, 4)
    assert sorted(again.steps) == [0, 1, 2, 3] and len(path.read_text().splitlines()) == 4
    assert again.totals() == {"cards_laid": 4, "read_at_first_sight": 0, "asked_to_move": 2, "misread": 0}
    assert Seeing.resumed(path, 0).totals()["cards_laid"] == 0 and path.read_text() == ""


def test_the_asks_counted_are_to_move_a_card_into_the_light_or_lay_a_short_count_apart():
    from device import trouble
    from device.device_events import Notice
    from sim.seeing import asks_in

    records = [trouble.unreadable("in front of North", "seat:0"),
               trouble.too_few("North", "crib", 3, 4, "seat:0"),
               trouble.wrong_number("North", "crib", 5, 4, "seat:0"),
               Notice("dark", "It's too dark to see the table.")]
    assert asks_in(records) == 2

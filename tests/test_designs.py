"""Card designs fetched from npm: only the pinned tarball, only its 52 faces, and never a reserved deck."""

import base64
import hashlib
import io
import shutil
import tarfile
import urllib.request

import pytest

from cribbage.cards import FULL_DECK, Card
from sim.render import designs, faces
from sim.render.decks import installed_decks


def tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return out.getvalue()


def pinned(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def whole_deck(**extra: bytes) -> dict[str, bytes]:
    files = {f"package/cards/{card}.svg": str(card).encode() for card in FULL_DECK}
    files.update({f"package/cards/{'10' + str(c)[1]}.svg": b"the same ten" for c in FULL_DECK if c.rank == 10})
    files.update({"package/cards/Blue_Back.svg": b"back", "package/dist/cards/8D.svg": b"a copy", **extra})
    return files


AGUILAR = designs.DESIGNS["aguilar"]


def design_for(data: bytes) -> designs.Design:
    return designs.Design("somepackage", "1.0.0", pinned(data), "MIT", AGUILAR.card_of)


def test_aguilar_files_are_named_by_card_and_only_the_faces_count():
    assert AGUILAR.card_of("package/cards/TH.svg") == Card(10, "H")
    assert AGUILAR.card_of("package/cards/QS.svg") == Card(12, "S")
    assert AGUILAR.card_of("package/cards/AC.svg") == Card(1, "C")
    for other in ("package/cards/10H.svg", "package/cards/Blue_Back.svg", "package/dist/cards/8D.svg",
                  "package/cards/readme.txt", "package/cards/1H.svg"):
        assert AGUILAR.card_of(other) is None
    assert AGUILAR.tarball == "https://registry.npmjs.org/cardsJS/-/cardsJS-1.1.1.tgz"


def test_a_whole_deck_gives_52_faces_and_nothing_else():
    data = tarball(whole_deck())
    faces = designs.extract_faces(data, design_for(data))
    assert set(faces) == set(FULL_DECK)
    assert faces[Card(10, "D")] == b"TD"


def test_a_card_missing_or_given_twice_is_named():
    files = whole_deck()
    del files["package/cards/7C.svg"]
    files["package/cards/qh.svg"] = b"a second queen"
    data = tarball(files)
    with pytest.raises(designs.DesignError, match=r"missing 7C.*more than one file for QH"):
        designs.extract_faces(data, design_for(data))


def test_a_tarball_other_than_the_pinned_one_is_refused():
    data = tarball(whole_deck())
    designs.check(data, design_for(data))
    with pytest.raises(designs.DesignError, match="not the one pinned"):
        designs.check(data + b"\0", design_for(data))


def test_fetch_keeps_the_faces_named_by_card(tmp_path, monkeypatch):
    data = tarball(whole_deck())
    monkeypatch.setitem(designs.DESIGNS, "test", design_for(data))
    monkeypatch.setattr(urllib.request, "urlopen", lambda url, timeout: io.BytesIO(data))
    folder = designs.fetch("design-test", tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == sorted([f"{c}.svg" for c in FULL_DECK] + ["COMPLETE"])
    assert (folder / "KH.svg").read_bytes() == b"KH"
    monkeypatch.setattr(urllib.request, "urlopen", None)  # fetched once: never asked again
    assert designs.fetch("design-test", tmp_path) == folder


def test_fetch_without_the_registry_says_what_it_could_not_fetch(tmp_path, monkeypatch):
    def offline(url, timeout):
        raise OSError("Network is unreachable")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    with pytest.raises(designs.DesignError, match=r"cannot fetch the card design cardsJS@1\.1\.1.*unreachable"):
        designs.fetch("design-aguilar", tmp_path)
    assert not (tmp_path / "design-aguilar").exists()


def test_design_decks_are_named_apart_from_every_other_deck():
    assert designs.design_decks() == tuple("design-" + name for name in designs.DESIGNS)
    assert all(designs.is_design_deck(deck) for deck in designs.design_decks())
    assert not designs.is_design_deck("design-nothing") and not designs.is_design_deck("standard")


def test_a_deck_shipped_as_a_reserved_theme_is_never_offered(tmp_path):
    for deck, file in (("gm-paris", "paris.svgz"), ("mine", "mine.svgz"), ("nicu-ornamental", "ornamental.svg"),
                       ("dondorf", "dondorf.svgz"), ("other", "bonded.svgz")):
        (tmp_path / f"svg-{deck}").mkdir()
        (tmp_path / f"svg-{deck}" / file).write_bytes(b"")
    assert installed_decks(tmp_path) == ("mine",)


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="rsvg-convert renders the designs (make model)")
def test_a_fetched_design_is_laid_as_a_deck_is(tmp_path, monkeypatch):
    folder = tmp_path / "designs" / "design-test"
    folder.mkdir(parents=True)
    for card in FULL_DECK:  # a white card 250 by 350, its rank's darkness in its top-left corner
        grey = 255 - 15 * card.rank
        (folder / f"{card}.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="250" height="350">'
            '<rect width="250" height="350" rx="12" fill="white"/>'
            f'<rect x="10" y="10" width="30" height="60" fill="rgb({grey},{grey},{grey})"/></svg>')
    (folder / "COMPLETE").write_text("test\n")
    monkeypatch.setitem(designs.DESIGNS, "test", AGUILAR)
    monkeypatch.setattr(designs, "CACHE_DIR", tmp_path / "designs")
    monkeypatch.setattr(faces, "CACHE_DIR", tmp_path / "faces")
    queen = faces.load_face("design-test", Card(12, "H"))
    assert queen.shape == (faces.FACE_HEIGHT, 250, 4)
    assert queen[1, 1, 3] == 0 and queen[175, 125, 3] == 255  # its rounded corner shows the table
    assert abs(int(queen[50, 30, 0]) - (255 - 15 * 12)) <= 2
    assert (tmp_path / "faces" / "design-test" / "QH.png").is_file()


def test_training_renders_every_design_or_says_which_it_could_not_fetch(monkeypatch, capsys):
    from models.training import decks
    from sim.render import decks as render_decks

    monkeypatch.setattr(render_decks, "training_decks", lambda: ("standard",))
    fetched = []
    monkeypatch.setattr(designs, "fetch", lambda deck: fetched.append(deck))
    scenes = decks.scenes_per_deck(500, 0, 0, 50, log=lambda message: None)
    assert scenes == {"standard": 500, **{deck: 500 for deck in designs.design_decks()}}
    assert fetched == list(designs.design_decks())

    def offline(deck):
        raise designs.DesignError(f"cannot fetch the card design {deck}")

    monkeypatch.setattr(designs, "fetch", offline)
    assert decks.scenes_per_deck(500, 0, 0, 50, log=lambda message: None) is None
    assert "cannot fetch the card design design-aguilar" in capsys.readouterr().err

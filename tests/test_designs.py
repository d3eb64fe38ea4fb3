"""Card designs fetched from npm or Debian's pool: only the pinned archive, only its 52 faces, and never a
reserved deck."""

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


def tarball(files: dict[str, bytes], mode: str = "w:gz") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as tar:
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
    assert AGUILAR.url == "https://registry.npmjs.org/cardsJS/-/cardsJS-1.1.1.tgz"


def test_a_whole_deck_gives_52_faces_and_nothing_else():
    data = tarball(whole_deck())
    faces = designs.extract_faces(data, design_for(data))
    assert set(faces) == set(FULL_DECK)
    assert faces[Card(10, "D")] == (".svg", b"TD")


def test_a_card_missing_or_given_twice_is_named():
    files = whole_deck()
    del files["package/cards/7C.svg"]
    files["package/cards/qh.svg"] = b"a second queen"
    data = tarball(files)
    with pytest.raises(designs.DesignError, match=r"missing 7C.*more than one file for QH"):
        designs.extract_faces(data, design_for(data))


def deb(data_tar: bytes, odd_control: bool = True) -> bytes:
    """A Debian package as dpkg-deb lays it out: an ar archive of debian-binary, control and data."""
    control = b"control" + (b"!" if odd_control else b"")  # an odd size: ar pads the member to even

    def member(name: str, content: bytes) -> bytes:
        header = f"{name:<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(content):<10}`\n".encode()
        return header + content + (b"\n" if len(content) % 2 else b"")

    return b"!<arch>\n" + member("debian-binary", b"2.0\n") + member("control.tar.xz", control) + \
        member("data.tar.xz", data_tar)


PYSOL = designs.DESIGNS["pysol-warwick"]


def test_pysol_faces_are_named_by_rank_number_and_suit_letter():
    root = "./usr/share/games/pysolfc/cardset-warwick/"
    assert PYSOL.card_of(root + "01s.gif") == Card(1, "S")
    assert PYSOL.card_of(root + "10h.gif") == Card(10, "H")
    assert PYSOL.card_of(root + "13c.gif") == Card(13, "C")
    for other in ("back01.gif", "shade.gif", "14s.gif", "00c.gif", "01s.png", "config.txt"):
        assert PYSOL.card_of(root + other) is None
    assert PYSOL.card_of("./usr/share/games/pysolfc/cardset-xskat-french-large/01s.gif") is None
    assert PYSOL.url == ("https://deb.debian.org/debian/pool/main/p/pysolfc-cardsets/"
                         "pysolfc-cardsets_3.0+dfsg-1_all.deb")


def test_no_design_is_a_held_out_deck_or_a_reserved_theme():
    from sim.render.decks import AISLERIOT_THEMES, HELD_OUT_DECKS

    names = " ".join([*designs.DESIGNS, *designs.FOREIGN])
    for kept_apart in (*HELD_OUT_DECKS, "xskat", "aisleriot", "paris", "nicu", "dondorf", "bonded", "me-uk",
                       "z-minimal", "bellot", *(theme.split(".")[0] for theme in AISLERIOT_THEMES)):
        assert kept_apart not in names


def test_a_debian_package_gives_the_cardsets_faces_with_their_suffix():
    root = "./usr/share/games/pysolfc/cardset-warwick/"
    files = {f"{root}{c.rank:02d}{c.suit.lower()}.gif": f"GIF {c}".encode() for c in FULL_DECK}
    files.update({f"{root}back01.gif": b"back", "./usr/share/games/pysolfc/cardset-other/01s.gif": b"other"})
    data = deb(tarball(files, "w:xz"))
    design = designs.Design("pysolfc-cardsets", "1", pinned(data), "GPL-2.0-or-later", PYSOL.card_of, "debian")
    faces = designs.extract_faces(data, design)
    assert set(faces) == set(FULL_DECK)
    assert faces[Card(12, "D")] == (".gif", b"GIF QD")


def test_a_file_that_is_no_debian_package_is_named_so():
    data = tarball({"a": b"b"})
    design = designs.Design("pysolfc-cardsets", "1", pinned(data), "GPL-2.0-or-later", PYSOL.card_of, "debian")
    with pytest.raises(designs.DesignError, match="not a Debian package"):
        designs.extract_faces(data, design)
    without_data = b"!<arch>\n" + deb(b"")[8:8 + 60 + 4]
    with pytest.raises(designs.DesignError, match="without data.tar"):
        designs.deb_data(without_data)


def test_designs_of_one_package_share_one_download(tmp_path, monkeypatch):
    files = {}
    for cardset in ("one", "two"):
        root = f"./usr/share/games/pysolfc/cardset-{cardset}/"
        files.update({f"{root}{c.rank:02d}{c.suit.lower()}.png": cardset.encode() for c in FULL_DECK})
    data = deb(tarball(files, "w:xz"))
    for cardset in ("one", "two"):
        card_of = designs._named(rf"\./usr/share/games/pysolfc/cardset-{cardset}/(?P<rank>\d\d)(?P<suit>[cdhs])\.png",
                                 designs._PYSOL_RANKS, designs._SUITS)
        monkeypatch.setitem(designs.DESIGNS, cardset, designs.Design("cards", "1", pinned(data), "CC0-1.0",
                                                                     card_of, "debian"))
    asked = []
    monkeypatch.setattr(urllib.request, "urlopen", lambda url, timeout: asked.append(url) or io.BytesIO(data))
    one, two = designs.fetch("design-one", tmp_path), designs.fetch("design-two", tmp_path)
    assert asked == ["https://deb.debian.org/debian/pool/main/c/cards/cards_1_all.deb"]
    assert (one / "5H.png").read_bytes() == b"one" and (two / "5H.png").read_bytes() == b"two"
    (tmp_path / "archives" / "cards_1_all.deb").write_bytes(b"broken")  # a download cut short ...
    (two / "COMPLETE").unlink()
    designs.fetch("design-two", tmp_path)  # ... is fetched again, not used
    assert len(asked) == 2


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
    # The foreign decks are drawn from their package the same way, under a name no --designs reaches.
    assert designs.foreign_decks() == tuple("foreign-" + name for name in designs.FOREIGN)
    assert all(designs.is_design_deck(deck) for deck in designs.foreign_decks())
    assert not set(designs.FOREIGN) & set(designs.DESIGNS)
    assert not designs.is_design_deck("design-" + next(iter(designs.FOREIGN)))
    with pytest.raises(designs.DesignError, match="no such design deck"):
        designs.fetch("foreign-nothing")


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


def test_a_bitmap_design_is_enlarged_to_a_face_with_its_corners_clear(tmp_path, monkeypatch):
    from PIL import Image

    folder = tmp_path / "designs" / "design-test"
    folder.mkdir(parents=True)
    for card in FULL_DECK:  # a 50 by 70 GIF, transparent in its corner pixels, its rank's darkness top left
        grey = 255 - 15 * card.rank
        image = Image.new("RGBA", (50, 70), (255, 255, 255, 255))
        image.paste((grey, grey, grey, 255), (3, 3, 9, 15))
        for x, y in ((0, 0), (49, 0), (0, 69), (49, 69)):
            image.putpixel((x, y), (0, 255, 0, 0))
        image.save(folder / f"{card}.gif")
    (folder / "COMPLETE").write_text("test\n")
    monkeypatch.setitem(designs.DESIGNS, "test", PYSOL)
    monkeypatch.setattr(designs, "CACHE_DIR", tmp_path / "designs")
    monkeypatch.setattr(faces, "CACHE_DIR", tmp_path / "faces")
    # Face down a design shows the training deck `standard`'s back (kdegames-card-data-kf5, which only
    # `make model` installs): here a committed deck's back, so the test needs no package.
    monkeypatch.setattr(faces, "BACK_DECK", "penguins")
    faces._deck_width.cache_clear()
    seven = faces.load_face("design-test", Card(7, "C"))
    assert seven.shape == (faces.FACE_HEIGHT, 250, 4)
    assert seven[0, 0, 3] < 128 and seven[175, 125, 3] == 255
    assert abs(int(seven[45, 30, 0]) - (255 - 15 * 7)) <= 3
    back = faces.load_face("design-test", None)
    assert back.shape == seven.shape


def test_an_unreadable_bitmap_face_is_named(tmp_path):
    broken = tmp_path / "QS.gif"
    broken.write_bytes(b"GIF89a not really")
    with pytest.raises(faces.VisionError, match=r"cannot read the card face .*QS\.gif"):
        faces.bitmap_face(broken, 100)


def test_training_renders_the_designs_asked_for_or_says_which_it_could_not_fetch(monkeypatch, capsys):
    from models.training import decks
    from sim.render import decks as render_decks

    monkeypatch.setattr(render_decks, "training_decks", lambda: ("standard",))
    fetched = []
    monkeypatch.setattr(designs, "fetch", lambda deck: fetched.append(deck))
    scenes = decks.scenes_per_deck(500, 0, 0, 50, log=lambda message: None)
    assert scenes == {"standard": 500, "design-aguilar": 500}  # the committed models' recipe
    assert fetched == ["design-aguilar"]
    every = decks.parse_designs("all")
    scenes = decks.scenes_per_deck(500, 0, 0, 50, log=lambda message: None, designs=every, per_design=250)
    assert scenes == {"standard": 500, **{deck: 250 for deck in designs.design_decks()}}

    def offline(deck):
        raise designs.DesignError(f"cannot fetch the card design {deck}")

    monkeypatch.setattr(designs, "fetch", offline)
    assert decks.scenes_per_deck(500, 0, 0, 50, log=lambda message: None) is None
    assert "cannot fetch the card design design-aguilar" in capsys.readouterr().err


def test_designs_are_asked_for_by_name():
    import argparse

    from models.training.decks import parse_designs

    assert parse_designs("aguilar, pysol-gpl") == ("aguilar", "pysol-gpl")
    assert parse_designs("all") == tuple(designs.DESIGNS)
    with pytest.raises(argparse.ArgumentTypeError, match="no such design: pysol-xskat-french-large"):
        parse_designs("aguilar,pysol-xskat-french-large")

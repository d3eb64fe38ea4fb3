"""Card designs beyond the installed kdegames decks: whole decks, one image a card, published in an
npm package or a Debian package this machine's release lacks, under licences that allow training on
them (each recorded in models/MODEL_CARD.md).

Training (`make model`: the designs of models.training.decks.DEFAULT_DESIGNS; `--designs all` for
every one) fetches each pinned archive (an npm registry tarball, or a .deb from Debian's pool),
checks it against the digest pinned here, and keeps only the 52 faces under .cache/designs/<deck>/,
named by card (`QH.svg`, `QH.gif`), so the archive's other files (code, other artwork) never enter the
render. Designs are rendered for training only, like the training decks of sim.render.decks; none is
ever held out or benchmarked. The foreign decks (FOREIGN: courts lettered in another language) are the
other way round: fetched the same way, benchmarked only, never trained on. A design has no back of its
own here: face down, its cards show a training deck's back.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from cribbage.cards import FULL_DECK, Card
from vision.errors import VisionError

PREFIX = "design-"
CACHE_DIR = Path(os.environ.get("MUGGINS_CACHE", Path(__file__).resolve().parents[2] / ".cache")) / "designs"
REGISTRY = "https://registry.npmjs.org"
DEBIAN_POOL = "https://deb.debian.org/debian/pool/main"
BACK_DECK = "standard"  # the training deck whose back the designs' face-down cards show


class DesignError(VisionError):
    """A design could not be fetched or holds no whole deck; the message says which and why."""


@dataclass(frozen=True)
class Design:
    """One deck in a package: `card_of` maps the path of a face inside the package (an SVG, PNG or
    GIF) to the card it shows whole (None for every other file)."""

    package: str
    version: str
    integrity: str  # "<algorithm>-<base64 digest>" of the archive, as npm's dist.integrity writes it
    licence: str
    card_of: Callable[[str], Card | None]
    source: str = "npm"  # "npm": the registry's tarball; "debian": the package's .deb (arch all) in the pool

    @property
    def url(self) -> str:
        if self.source == "debian":
            return f"{DEBIAN_POOL}/{self.package[0]}/{self.package}/{self.package}_{self.version}_all.deb"
        base = self.package.rsplit("/", 1)[-1]
        return f"{REGISTRY}/{self.package}/-/{base}-{self.version}.tgz"


def _named(pattern: str, ranks: dict[str, int], suits: dict[str, str]) -> Callable[[str], Card | None]:
    """card_of for a package whose face files match `pattern` with groups `rank` and `suit`."""
    regex = re.compile(pattern, re.IGNORECASE)

    def card_of(path: str) -> Card | None:
        match = regex.fullmatch(path)
        if match is None:
            return None
        rank = ranks.get(match.group("rank").lower())
        suit = suits.get(match.group("suit").lower())
        return None if rank is None or suit is None else Card(rank, suit)

    return card_of


_RANKS = {"a": 1, **{str(n): n for n in range(2, 10)}, "t": 10, "j": 11, "q": 12, "k": 13}
_SUITS = {s: s.upper() for s in "cdhs"}
_PYSOL_RANKS = {f"{n:02d}": n for n in range(1, 14)}

PYSOL = ("pysolfc-cardsets", "3.0+dfsg-1", "sha256-8t6tu55fQaoxdb9MKv1OOJjuPtEfApKxW0WsiXn94k8=")


def _pysol(cardset: str, suffix: str, licence: str) -> Design:
    """A PySol cardset of Debian's pysolfc-cardsets (trixie): `01s.gif` is the ace of spades."""
    pattern = rf"\./usr/share/games/pysolfc/cardset-{cardset}/(?P<rank>\d\d)(?P<suit>[cdhs])\{suffix}"
    return Design(*PYSOL, licence, _named(pattern, _PYSOL_RANKS, _SUITS), source="debian")


DESIGNS: dict[str, Design] = {
    # Chris Aguilar's "Vectorized Playing Cards 1.3" (2011), redrawn from a scanned real deck:
    # LGPL-3.0-or-later (the package's cards/readme.txt and COPYING.LESSER.txt; its code is MIT).
    # The package holds each ten twice, 10H.svg and TH.svg, byte for byte: the T files are taken.
    "aguilar": Design("cardsJS", "1.1.1",
                      "sha512-S8J1GsZp9Wimj1jBu6jhH8pHNuOvkA7uryP7YeeaMP8o02g86rdTkXes0rAb/y8ShdCx5JDwg116/hMEGtAuJw==",
                      "LGPL-3.0-or-later",
                      _named(r"package/cards/(?P<rank>[2-9ATJQK])(?P<suit>[CDHS])\.svg", _RANKS, _SUITS)),
    # Small bitmap decks (43 to 103 pixels wide): their indices are a few pixels high, blocky when
    # enlarged. Licences from /usr/share/doc/pysolfc-cardsets/copyright and each cardset's COPYRIGHT.
    # Left out of that package on purpose: xskat-french* (the held-out xskat-french-large's design),
    # greywyvern and penguins (held out), anything copied from aisleriot or GNOME's card images
    # (aisleriot, paris, nicu*, gdkcard-bonded, dondorf*, xpat2*, which share gdkcard's author),
    # bellot (the author of the reserved npm `svg-cards`), me-uk and z-minimal* (Adrian Kennard's
    # courts, as a reserved npm deck may be), spaced (its courts are the Tux of the held-out penguins),
    # konqi-modern (kdegames ships the same deck under a grant to KDE members only, so its GPL here is
    # in doubt), and decks without a rank and suit in the top-left corner.
    "pysol-sylly": _pysol("sylly", ".png", "CC0-1.0"),
    "pysol-gpl": _pysol("gpl", ".gif", "GPL-2.0-or-later"),
    "pysol-oxymoron-small": _pysol("oxymoron-small", ".gif", "GPL-2.0-or-later"),
    "pysol-spider": _pysol("spider", ".gif", "Spider (permissive, Sun Microsystems 1989)"),
    "pysol-standard-small": _pysol("standard-small", ".gif", "GPL-2.0-or-later"),
    "pysol-standard-tiny": _pysol("standard-tiny", ".gif", "GPL-2.0-or-later"),
    "pysol-warwick": _pysol("warwick", ".gif", "GPL-2.0-or-later"),
}


# Decks that letter their courts in another language, fetched only to measure that the recognizer
# refuses such a court rather than reading it as a number (bench/bench_foreign.py): never rendered
# for training, since no --designs name reaches them. Their number cards print the rank alone.
FOREIGN_PREFIX = "foreign-"
FOREIGN: dict[str, Design] = {
    "pysol-sn-dietsche-small": _pysol("sn-dietsche-small", ".gif", "GPL-2.0-or-later"),  # Dutch: B V H
    "pysol-wilhelmtell": _pysol("wilhelmtell", ".gif", "GPL-2.0-or-later"),  # French: V D R; no ace index
}


def design_decks() -> tuple[str, ...]:
    """The names of every design deck, fetched or not: 'design-<name>'."""
    return tuple(PREFIX + name for name in DESIGNS)


def foreign_decks() -> tuple[str, ...]:
    """The names of the decks lettered in another language: 'foreign-<name>'."""
    return tuple(FOREIGN_PREFIX + name for name in FOREIGN)


def design_of(deck: str) -> Design | None:
    """The design of a design deck or a foreign deck; None for any other deck."""
    for prefix, designs in ((PREFIX, DESIGNS), (FOREIGN_PREFIX, FOREIGN)):
        if deck.startswith(prefix) and deck[len(prefix):] in designs:
            return designs[deck[len(prefix):]]
    return None


def is_design_deck(deck: str) -> bool:
    """True for a design deck or a foreign deck: both are drawn from a fetched package's faces."""
    return design_of(deck) is not None


def face_file(deck: str, card: Card) -> Path:
    """The fetched face of `card` in a design deck (fetching the design first where it is not here)."""
    folder = fetch(deck)
    found = sorted(folder.glob(f"{card}.*"))
    if len(found) != 1:
        raise DesignError(f"{folder} lacks the face of {card}: delete the folder to fetch {deck} again")
    return found[0]


def fetch(deck: str, cache: Path | None = None) -> Path:
    """The folder of a design's 52 faces, fetched and checked where not yet here."""
    design = design_of(deck)
    if design is None:
        raise DesignError(f"no such design deck: {deck}")
    folder = (cache or CACHE_DIR) / deck
    if (folder / "COMPLETE").is_file():
        return folder
    faces = extract_faces(archive(design, cache or CACHE_DIR), design)
    folder.mkdir(parents=True, exist_ok=True)
    for card, (suffix, content) in faces.items():
        (folder / f"{card}{suffix}").write_bytes(content)
    (folder / "COMPLETE").write_text(f"{design.package}@{design.version}\n")
    return folder


def archive(design: Design, cache: Path) -> bytes:
    """The design's checked archive: kept under cache/archives/, where several designs of one package
    share it, and downloaded only when not there."""
    path = cache / "archives" / design.url.rsplit("/", 1)[-1]
    if path.is_file():
        data = path.read_bytes()
        try:
            check(data, design)
            return data
        except DesignError:
            path.unlink()  # a broken download: fetched again below
    try:
        with urllib.request.urlopen(design.url, timeout=120) as response:
            data = response.read()
    except OSError as exc:
        raise DesignError(f"cannot fetch the card design {design.package}@{design.version} from "
                          f"{design.url}: {exc}") from None
    check(data, design)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    os.replace(partial, path)
    return data


def check(data: bytes, design: Design) -> None:
    """DesignError unless the archive's digest is the one pinned."""
    algorithm, _, expected = design.integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if digest != expected:
        raise DesignError(f"{design.package}@{design.version}: the archive's {algorithm} is not the one "
                          f"pinned in sim/render/designs.py; nothing of it is used")


def deb_data(data: bytes) -> bytes:
    """The data.tar.* member of a .deb: an ar archive of 60-byte headers, each member padded to even."""
    if not data.startswith(b"!<arch>\n"):
        raise DesignError("not a Debian package: no ar archive")
    at = 8
    while at + 60 <= len(data):
        name = data[at:at + 16].decode("ascii", "replace").strip().rstrip("/")
        size = int(data[at + 48:at + 58].decode("ascii").strip())
        if name.startswith("data.tar"):
            return data[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)
    raise DesignError("a Debian package without data.tar")


def extract_faces(data: bytes, design: Design) -> dict[Card, tuple[str, bytes]]:
    """{card: (its file's suffix, its bytes)} for the 52 faces in an archive; DesignError unless
    exactly one file per card."""
    tar_bytes = deb_data(data) if design.source == "debian" else data
    faces: dict[Card, list[tuple[str, bytes]]] = {}
    with tarfile.open(fileobj=io.BytesIO(tar_bytes), mode="r:*") as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            card = design.card_of(member.name)
            if card is None:
                continue
            faces.setdefault(card, []).append((Path(member.name).suffix.lower(), tar.extractfile(member).read()))
    missing = [str(c) for c in FULL_DECK if c not in faces]
    doubled = [str(c) for c, files in faces.items() if len(files) > 1]
    if missing or doubled:
        raise DesignError(f"{design.package}@{design.version} is not one whole deck: missing "
                          f"{' '.join(missing) or 'none'}, more than one file for {' '.join(doubled) or 'none'}")
    return {card: files[0] for card, files in faces.items()}

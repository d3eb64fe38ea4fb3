"""Card designs beyond Debian's: whole decks published on npm, one image a card, under licences that
allow training on them (each recorded in models/MODEL_CARD.md).

`make model` fetches each pinned package tarball from the npm registry, checks it against the
registry's sha512, and keeps the 52 SVG faces under .cache/designs/<deck>/ named by card (`QH.svg`),
so the tarball's other files (code, other artwork) never enter the render. They are rendered for
training only, like the training decks of sim.render.decks; none is ever held out or benchmarked.
A design has no back of its own here: face down, its cards show a training deck's back.
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
BACK_DECK = "standard"  # the training deck whose back the designs' face-down cards show


class DesignError(VisionError):
    """A design could not be fetched or holds no whole deck; the message says which and why."""


@dataclass(frozen=True)
class Design:
    """One npm package's deck: `card_of` maps the path of an SVG inside the tarball to the card it
    shows whole (None for every other file)."""

    package: str
    version: str
    integrity: str  # the registry's dist.integrity, "sha512-<base64>"
    licence: str
    card_of: Callable[[str], Card | None]

    @property
    def tarball(self) -> str:
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

DESIGNS: dict[str, Design] = {
    # Chris Aguilar's "Vectorized Playing Cards 1.3" (2011), redrawn from a scanned real deck:
    # LGPL-3.0-or-later (the package's cards/readme.txt and COPYING.LESSER.txt; its code is MIT).
    # The package holds each ten twice, 10H.svg and TH.svg, byte for byte: the T files are taken.
    "aguilar": Design("cardsJS", "1.1.1",
                      "sha512-S8J1GsZp9Wimj1jBu6jhH8pHNuOvkA7uryP7YeeaMP8o02g86rdTkXes0rAb/y8ShdCx5JDwg116/hMEGtAuJw==",
                      "LGPL-3.0-or-later",
                      _named(r"package/cards/(?P<rank>[2-9ATJQK])(?P<suit>[CDHS])\.svg", _RANKS, _SUITS)),
}


def design_decks() -> tuple[str, ...]:
    """The names of every design deck, fetched or not: 'design-<name>'."""
    return tuple(PREFIX + name for name in DESIGNS)


def is_design_deck(deck: str) -> bool:
    return deck.startswith(PREFIX) and deck[len(PREFIX):] in DESIGNS


def face_file(deck: str, card: Card) -> Path:
    """The fetched SVG face of `card` in a design deck (fetching the design first where it is not here)."""
    path = fetch(deck) / f"{card}.svg"
    if not path.is_file():
        raise DesignError(f"{path.parent} lacks the face of {card}: delete the folder to fetch {deck} again")
    return path


def fetch(deck: str, cache: Path | None = None) -> Path:
    """The folder of a design's 52 faces, fetched from the npm registry and checked where not yet here."""
    design = DESIGNS[deck[len(PREFIX):]]
    folder = (cache or CACHE_DIR) / deck
    if (folder / "COMPLETE").is_file():
        return folder
    try:
        with urllib.request.urlopen(design.tarball, timeout=60) as response:
            data = response.read()
    except OSError as exc:
        raise DesignError(f"cannot fetch the card design {design.package}@{design.version} from "
                          f"{design.tarball}: {exc}") from None
    check(data, design)
    faces = extract_faces(data, design)
    folder.mkdir(parents=True, exist_ok=True)
    for card, content in faces.items():
        (folder / f"{card}.svg").write_bytes(content)
    (folder / "COMPLETE").write_text(f"{design.package}@{design.version}\n")
    return folder


def check(data: bytes, design: Design) -> None:
    """DesignError unless the tarball's sha512 is the one pinned."""
    algorithm, _, expected = design.integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if digest != expected:
        raise DesignError(f"{design.package}@{design.version}: the tarball's {algorithm} is not the one "
                          f"pinned in sim/render/designs.py; nothing of it is used")


def extract_faces(data: bytes, design: Design) -> dict[Card, bytes]:
    """{card: its SVG} for the 52 faces in a tarball; DesignError unless exactly one file per card."""
    faces: dict[Card, list[bytes]] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            card = design.card_of(member.name)
            if card is None:
                continue
            faces.setdefault(card, []).append(tar.extractfile(member).read())
    missing = [str(c) for c in FULL_DECK if c not in faces]
    doubled = [str(c) for c, files in faces.items() if len(files) > 1]
    if missing or doubled:
        raise DesignError(f"{design.package}@{design.version} is not one whole deck: missing "
                          f"{' '.join(missing) or 'none'}, more than one file for {' '.join(doubled) or 'none'}")
    return {card: files[0] for card, files in faces.items()}

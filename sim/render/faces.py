"""Card face images, upright, at one fixed pixel height per deck, with an alpha mask for rounded corners.

Faces come from the SVG decks when installed and from the designs fetched from npm
(sim.render.designs), rendered once with rsvg-convert and cached under .cache/; else from the
pre-rendered held-out decks committed under sim/assets/faces/, so that tests, benchmarks and the demo
run on a machine with only Python.  Held-out decks always load from the assets when those are
present, so their figures are the same on every machine.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

from cribbage.cards import FULL_DECK, Card
from sim.render.decks import HELD_OUT_DECKS, INSTALL_HINT, element_id, installed_decks, svg_file, training_decks
from sim.render.designs import BACK_DECK, face_file, is_design_deck
from sim.render.fontdecks import draw_face, is_font_deck
from vision.errors import VisionError

FACE_HEIGHT = 350
ASSET_DIR = Path(__file__).resolve().parent.parent / "assets" / "faces"
CACHE_DIR = Path(os.environ.get("MUGGINS_CACHE", Path(__file__).resolve().parents[2] / ".cache")) / "faces"
BACK_NAME = "BACK"
MASK_NAME = "mask.png"
BITMAP_SUFFIXES = (".png", ".gif")


class DeckMissingError(VisionError, FileNotFoundError):
    """A deck asked for is neither installed nor among the committed assets."""


def card_name(card: Card | None) -> str:
    """File stem of a face: '5H', or 'BACK' for the back."""
    return BACK_NAME if card is None else str(card)


def available_decks() -> tuple[str, ...]:
    """Every deck that can be loaded here: installed SVG decks plus committed asset decks."""
    assets = tuple(p.name for p in ASSET_DIR.iterdir() if p.is_dir()) if ASSET_DIR.is_dir() else ()
    return tuple(sorted(set(installed_decks()) | set(assets)))


def asset_decks() -> tuple[str, ...]:
    """Decks whose faces are committed under sim/assets/faces."""
    return tuple(sorted(p.name for p in ASSET_DIR.iterdir() if (p / MASK_NAME).is_file())) \
        if ASSET_DIR.is_dir() else ()


@functools.lru_cache(maxsize=4096)
def load_face(deck: str, card: Card | None) -> np.ndarray:
    """The upright face of `card` (None: the back) of `deck` as BGRA uint8, FACE_HEIGHT rows high.

    Read-only: copy before drawing on it.
    """
    if is_font_deck(deck):
        face = draw_face(deck, card, training_decks())
    elif is_design_deck(deck):
        face = _load_design(deck, card)
    elif deck in asset_decks() and (deck in HELD_OUT_DECKS or svg_file(deck) is None):
        face = _load_asset(deck, card)
    elif svg_file(deck) is not None:
        face = _load_rendered(deck, card)
    else:
        raise DeckMissingError(
            f"card deck {deck!r} is not installed and not among the committed assets "
            f"({', '.join(asset_decks()) or 'none'}): run `{INSTALL_HINT}`")
    face.setflags(write=False)
    return face


def load_deck(deck: str) -> dict[Card | None, np.ndarray]:
    """All 52 faces and the back (key None) of a deck."""
    return {card: load_face(deck, card) for card in (*FULL_DECK, None)}


def _load_asset(deck: str, card: Card | None) -> np.ndarray:
    folder = ASSET_DIR / deck
    mask = cv2.imread(str(folder / MASK_NAME), cv2.IMREAD_GRAYSCALE)
    stem = card_name(card)
    paths = [folder / f"{stem}{ext}" for ext in (".jpg", ".png")]
    path = next((p for p in paths if p.is_file()), None)
    if mask is None or path is None:
        raise DeckMissingError(f"{folder} lacks {stem}.jpg or {MASK_NAME}: the assets are incomplete; "
                               f"reinstall them from git, or run `{INSTALL_HINT}`")
    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr.shape[:2] != mask.shape:
        mask = cv2.resize(mask, (bgr.shape[1], bgr.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.dstack([bgr, mask])


def _load_rendered(deck: str, card: Card | None) -> np.ndarray:
    path = CACHE_DIR / deck / f"{card_name(card)}.png"
    face = cv2.imread(str(path), cv2.IMREAD_UNCHANGED) if path.is_file() else None
    if face is None:
        face = _draw(*_drawn_from(deck, card), FACE_HEIGHT, _deck_width(deck))
        _write_atomically(path, face)
    return face


def _load_design(deck: str, card: Card | None) -> np.ndarray:
    """A design's face, rendered as a deck's is; face down, a training deck's back."""
    if card is None:
        back = load_face(BACK_DECK, None)
        return cv2.resize(back, (_deck_width(deck), FACE_HEIGHT), interpolation=cv2.INTER_AREA)
    return _load_rendered(deck, card)


def _drawn_from(deck: str, card: Card | None) -> tuple[Path, str | None]:
    """The file and SVG element a face is drawn from: a kdegames deck's element by id, a design's
    own file of that card whole (an SVG or a bitmap)."""
    if is_design_deck(deck):
        return face_file(deck, card), None
    return svg_file(deck), element_id(card)


def _write_atomically(path: Path, image: np.ndarray) -> None:
    """Write image to path by way of a temporary file of this process's own: `make model` renders
    in several processes at once, and two of them may render the same face (each then writes the
    same picture, and the last rename wins)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        if not cv2.imwrite(name, image):
            raise VisionError(f"cannot write the face cache {path}: is {path.parent} writable?")
        os.replace(name, path)
    finally:
        if os.path.exists(name):
            os.unlink(name)


@functools.lru_cache(maxsize=64)
def _deck_width(deck: str) -> int:
    """Every face of a deck gets the width of its ace of spades at FACE_HEIGHT, so all share one mask."""
    ace = _draw(*_drawn_from(deck, Card(1, "S")), FACE_HEIGHT)
    return ace.shape[1]


def _draw(path: Path, element: str | None, height: int, width: int | None = None) -> np.ndarray:
    """A face as BGRA, height (and width) pixels: an SVG rendered, or a bitmap enlarged or reduced."""
    if path.suffix.lower() in BITMAP_SUFFIXES:
        return bitmap_face(path, height, width)
    return render_element(path, element, height, width)


def bitmap_face(path: Path, height: int, width: int | None = None) -> np.ndarray:
    """A PNG or GIF face (OpenCV reads no GIF, so Pillow does) as BGRA at the size asked: a small
    bitmap enlarged keeps its soft, blocky print, as a small card photographed close does."""
    try:
        from PIL import Image
    except ImportError:
        raise VisionError("reading a bitmap card design needs Pillow: run `pip install -e .[train]`") from None
    try:
        with Image.open(path) as image:
            rgba = np.asarray(image.convert("RGBA"))
    except OSError as exc:
        raise VisionError(f"cannot read the card face {path}: {exc}") from None
    bgra = np.ascontiguousarray(rgba[:, :, [2, 1, 0, 3]])
    if width is None:
        width = round(height * bgra.shape[1] / bgra.shape[0])
    grow = cv2.INTER_CUBIC if bgra.shape[0] < height else cv2.INTER_AREA
    return cv2.resize(bgra, (width, height), interpolation=grow)


def render_element(svg: Path, element: str | None, height: int, width: int | None = None) -> np.ndarray:
    """Render one SVG element (None: the whole document) to BGRA, trimmed to its visible pixels and
    resized to height (and width).

    rsvg-convert's export canvas is often larger than the element, so the element is trimmed by its
    alpha, and rendered a second time at the zoom that makes it at least `height` pixels high.
    """
    first = _trim(_rsvg(svg, element, 1.0))
    zoom = 1.15 * height / first.shape[0]
    sharp = _trim(_rsvg(svg, element, zoom)) if zoom > 1.0 else first
    if width is None:
        width = round(height * sharp.shape[1] / sharp.shape[0])
    return cv2.resize(sharp, (width, height), interpolation=cv2.INTER_AREA)


def _rsvg(svg: Path, element: str | None, zoom: float) -> np.ndarray:
    tool = shutil.which("rsvg-convert")
    if tool is None:
        raise VisionError("rendering card art needs rsvg-convert: run `sudo apt install librsvg2-bin`")
    chosen = [] if element is None else ["-i", element]
    done = subprocess.run([tool, "-u", "-z", f"{zoom:.4f}", *chosen, str(svg)],
                          capture_output=True, check=False)
    what = str(svg) if element is None else f"{element!r} of {svg}"
    if done.returncode != 0 or not done.stdout:
        raise VisionError(f"rsvg-convert could not render {what}: "
                          f"{done.stderr.decode(errors='replace').strip()}")
    image = cv2.imdecode(np.frombuffer(done.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise VisionError(f"rsvg-convert gave no RGBA image for {what}")
    return image


def _trim(image: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(image[:, :, 3] > 8)
    if len(xs) == 0:
        raise VisionError("an SVG element rendered fully transparent")
    return image[ys.min():ys.max() + 1, xs.min():xs.max() + 1]

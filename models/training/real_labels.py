"""`python -m models.training.real_labels`: index-corner labels from real photographs.

A real photo whose cards a person has named (`bench/real/labels.jsonl`) becomes training data for the
index-corner detector once each named card has an outline. The outlines come from the recognizer's
reads that name a card the person named (each named card used once), or from a person
(`models/training/real/outlines_by_hand.jsonl`: one line a card, `{"source", "path", "card", "quad"}`,
the quad clockwise from the upright card's top-left corner, in the photo's pixels); a hand outline
replaces a read of the same card. Where the source boxed each whole card upright (EdjeElectronics'
Pascal VOC files), a read's outline is replaced by the card-shaped outline that fills its box with an
index corner at the read's (`outline_in_box`): the recognizer's outlines put a found corner right but
often guess the card's sides. Where a read's outline is not read as its card at both index corners,
the bright region round its corner (a lone light card on a darker table) gives the outline instead,
if that one is (`region_outline`). Both index corners of each outline (the outline's first and third
corners) are then judged:

- `shown`: its index region lies inside the photo and the classifier reads the named card there;
- `cut`: its index region runs out of the photo (not a corner the detector must find);
- `unsure`: inside the photo but not read as the named card (covered by another card, or a crop the
  classifier cannot read): training neither rewards nor punishes the detector there.

A photo is `complete` when every named card has an outline: only complete photos may teach the
detector where no corner is. The labels are written to `models/training/real/corners.jsonl`, and
`--overlay DIR` draws them on each photo (outlines: magenta fitted to the source's box, cyan a
card's bright region, blue the recognizer's, white by hand; index regions: green shown, amber
unsure, grey cut; the card's name at its first corner) for a person to check by eye before they
train anything. Only sources whose licence
allows training (`bench/real/sources.json`, use `train+eval`) are labelled.

    python -m models.training.real_labels [--photos .cache/real] [--overlay DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "real"
CORNER_LABELS = HERE / "corners.jsonl"
HAND_OUTLINES = HERE / "outlines_by_hand.jsonl"
READ_AS_NAMED = 0.5   # the classifier's probability of the named card at a corner for it to count as shown
CARD_ASPECT = 2.5 / 3.5   # a poker-size card's short side over its long side
BOX_FIT = 0.06            # a box-fitted outline's corner within this share of its long side of the read corner
BOTH_SHOWN = ["shown", "shown"]   # an outline read as its card at both index corners
REGION_REACH = 6          # pixels round a read's corner where its bright region is looked for
REGION_FILL = 0.85        # a region this much of its rectangle (a card, not a blob of several)
REGION_MAX_SHARE = 0.25   # and at most this share of the photo (not the table's bright edge)
RANKS_BY_NAME = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "nine": "9"}


@dataclass
class LabelledCard:
    """One named card's outline (clockwise from its upright top-left) and its two index corners'
    verdicts, for the outline's corners 0 and 2."""

    card: str
    quad: np.ndarray
    by: str                                   # "recognizer", "box", "region" or "hand"
    corners: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"card": self.card, "by": self.by, "corners": self.corners,
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad]}

    @classmethod
    def from_dict(cls, d: dict) -> "LabelledCard":
        return cls(d["card"], np.asarray(d["quad"], np.float32).reshape(4, 2), d["by"], list(d["corners"]))


@dataclass
class LabelledPhoto:
    source: str
    path: str
    size: tuple[int, int]                     # width, height
    named: list[str]
    cards: list[LabelledCard]

    @property
    def complete(self) -> bool:
        return len(self.cards) == len(self.named)

    def file_under(self, photos_root: Path) -> Path:
        """Where `python -m bench.real.build` puts this photo under photos_root (.cache/real)."""
        from bench.real.build import folder_name

        return photos_root / folder_name(self.source) / self.path

    def to_dict(self) -> dict:
        return {"source": self.source, "path": self.path, "size": list(self.size), "named": self.named,
                "complete": self.complete, "cards": [c.to_dict() for c in self.cards]}

    @classmethod
    def from_dict(cls, d: dict) -> "LabelledPhoto":
        return cls(d["source"], d["path"], tuple(d["size"]), list(d["named"]),
                   [LabelledCard.from_dict(c) for c in d["cards"]])


def index_corners(quad: np.ndarray) -> list[np.ndarray]:
    """The outline started at each of its index corners: its first corner, and the opposite one."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    return [quad, np.roll(quad, -2, axis=0)]


def inside(points: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether every point lies within the photo's outer edge (pixel centres at integers)."""
    w, h = size
    return bool((points[:, 0] >= -0.5).all() and (points[:, 0] <= w - 0.5).all()
                and (points[:, 1] >= -0.5).all() and (points[:, 1] <= h - 0.5).all())


def judge_corners(image: np.ndarray, card: str, quad: np.ndarray, classifier) -> list[str]:
    """'shown', 'cut' or 'unsure' for the outline's two index corners (see the module's docstring)."""
    from vision.crops import INDEX_REGION, index_crop, region_quad

    size = (image.shape[1], image.shape[0])
    verdicts, crops, which = [], [], []
    for k, started in enumerate(index_corners(quad)):
        if not inside(region_quad(started, INDEX_REGION), size):
            verdicts.append("cut")
            continue
        verdicts.append("unsure")
        crops.append(index_crop(image, started))
        which.append(k)
    if crops:
        column = classifier.labels.index(card)
        for k, p in zip(which, classifier.probabilities(crops)):
            if float(p[column]) >= READ_AS_NAMED:
                verdicts[k] = "shown"
    return verdicts


def match_reads(named: list[str], reads: list[tuple]) -> list[tuple]:
    """The reads (tuples whose first item is the card read) that name a named card, each named card
    taken once, in the reads' order (surer reads first)."""
    left = Counter(named)
    kept = []
    for read in reads:
        if left[read[0]] > 0:
            left[read[0]] -= 1
            kept.append(read)
    return kept


def label_photo(image: np.ndarray, label: dict, reads: list[tuple[str, np.ndarray, str]],
                by_hand: list[tuple[str, np.ndarray]], classifier) -> LabelledPhoto:
    """One photo's labels: hand outlines first, then the reads (card, outline, how it was found) of the
    cards left."""
    named = list(label["cards"])
    hand = match_reads(named, by_hand)
    left = list((Counter(named) - Counter(c for c, _ in hand)).elements())
    outlines = [(c, q, "hand") for c, q in hand] + match_reads(left, reads)
    cards = [labelled_card(image, c, q, by, classifier) for c, q, by in outlines]
    return LabelledPhoto(label["source"], label["path"], (image.shape[1], image.shape[0]), named, cards)


def labelled_card(image: np.ndarray, card: str, quad: np.ndarray, by: str, classifier) -> LabelledCard:
    """One card's outline with its corners judged; a recognizer outline not read as its card at both
    index corners replaced by its bright region's outline (region_outline, `region`) where that one is."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    verdicts = judge_corners(image, card, quad, classifier)
    if by == "recognizer" and verdicts != BOTH_SHOWN:
        region = region_outline(image, quad)
        if region is not None:
            region_verdicts = judge_corners(image, card, region, classifier)
            if region_verdicts == BOTH_SHOWN:
                return LabelledCard(card, region, "region", region_verdicts)
    return LabelledCard(card, quad, by, verdicts)


def outline_in_box(box: tuple[float, float, float, float], corner: np.ndarray,
                   aspect: float = CARD_ASPECT) -> np.ndarray | None:
    """The card outline that fills an upright box round the whole card, turned so that one of its index
    corners lies at `corner` (a read card's index corner): a rotated rectangle's bounding box shares
    its centre, and its width and height fix the turn up to a mirror, which the read corner settles.
    None where no outline fits (a box the frame cuts, a card seen too far off vertical)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    centre = np.array([(x0 + x1) / 2.0, (y0 + y1) / 2.0])
    corner = np.asarray(corner, np.float64)
    best, best_gap = None, np.inf
    for theta in np.radians(np.arange(0.0, 180.0, 0.5)):
        c, s = abs(np.cos(theta)), abs(np.sin(theta))
        # bw = H (aspect c + s), bh = H (aspect s + c): H by least squares, then how well both fit.
        m = np.array([aspect * c + s, aspect * s + c])
        h = float(m @ np.array([bw, bh]) / (m @ m))
        if np.hypot(*(m * h - [bw, bh])) > 0.04 * h:
            continue
        across = np.array([np.cos(theta), np.sin(theta)]) * aspect * h
        down = np.array([-np.sin(theta), np.cos(theta)]) * h
        quad = np.stack([centre - across / 2 - down / 2, centre + across / 2 - down / 2,
                         centre + across / 2 + down / 2, centre - across / 2 + down / 2])
        for turned in (quad, np.roll(quad, -2, axis=0)):
            gap = float(np.linalg.norm(turned[0] - corner))
            if gap < best_gap:
                best, best_gap = turned, gap
    if best is None or best_gap > BOX_FIT * np.linalg.norm(best[3] - best[0]):
        return None
    return best.astype(np.float32)


def voc_boxes(xml: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(rank, (xmin, ymin, xmax, ymax)) of each object in a Pascal VOC annotation."""
    import xml.etree.ElementTree as ET

    boxes = []
    for obj in ET.fromstring(xml).iter("object"):
        rank = RANKS_BY_NAME.get((obj.findtext("name") or "").strip().lower())
        box = obj.find("bndbox")
        if rank is None or box is None:
            continue
        boxes.append((rank, tuple(float(box.findtext(k)) for k in ("xmin", "ymin", "xmax", "ymax"))))
    return boxes


def fitted_to_boxes(reads: list[tuple[str, np.ndarray]], boxes,
                    size: tuple[int, int]) -> list[tuple[str, np.ndarray, str]]:
    """(card, outline, "box" or "recognizer"): each read outline replaced by the outline fitted to the box of its rank that holds its index
    corner (the read's own outline where none fits, or where the box touches the frame's edge)."""
    w, h = size
    fitted = []
    for card, quad in reads:
        quad = np.asarray(quad, np.float32).reshape(4, 2)
        better = None
        for rank, box in boxes:
            x0, y0, x1, y1 = box
            if rank != card[0] or min(x0, y0) <= 2 or x1 >= w - 3 or y1 >= h - 3:
                continue
            mx, my = 0.08 * (x1 - x0), 0.08 * (y1 - y0)
            if not (x0 - mx <= quad[0][0] <= x1 + mx and y0 - my <= quad[0][1] <= y1 + my):
                continue
            better = outline_in_box(box, quad[0])
            if better is not None:
                break
        fitted.append((card, quad, "recognizer") if better is None else (card, better, "box"))
    return fitted


def region_outline(image: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The outline of the bright region round a read's index corner (a light card on a darker table),
    as its minimum-area rectangle started at the corner nearest the read's and turned to the read's
    axes; None where no card-like region lies there. The recognizer guesses a card's sides from one
    corner; a lone card on a plain table shows them."""
    import cv2

    quad = np.asarray(quad, np.float32).reshape(4, 2)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    _, bright = cv2.threshold(cv2.GaussianBlur(gray, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))  # the print inside the card
    _, regions = cv2.connectedComponents(bright)
    h, w = gray.shape
    x, y = int(round(float(quad[0][0]))), int(round(float(quad[0][1])))
    reach = REGION_REACH
    window = regions[max(0, y - reach):y + reach + 1, max(0, x - reach):x + reach + 1]
    labels, sizes = np.unique(window[window > 0], return_counts=True)
    if len(labels) == 0:
        return None
    region = (regions == labels[np.argmax(sizes)]).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = max(contours, key=cv2.contourArea)
    rect = cv2.minAreaRect(contour)
    corners = cv2.boxPoints(rect).astype(np.float32)
    box_area = float(rect[1][0] * rect[1][1])
    if box_area <= 0 or box_area > REGION_MAX_SHARE * w * h or cv2.contourArea(contour) < REGION_FILL * box_area:
        return None
    across, down = quad[1] - quad[0], quad[3] - quad[0]

    def cos(u: np.ndarray, v: np.ndarray) -> float:
        return float(np.dot(u, v) / max(np.linalg.norm(u) * np.linalg.norm(v), 1e-6))

    def fit(q: np.ndarray) -> float:
        """Along the read's axes, and started near its corner."""
        return cos(q[1] - q[0], across) + cos(q[3] - q[0], down) - \
            float(np.linalg.norm(q[0] - quad[0])) / max(np.linalg.norm(down), 1.0)

    orderings = [np.roll(c, -k, axis=0) for c in (corners, corners[::-1].copy()) for k in range(4)]
    return max(orderings, key=fit)


def load_hand_outlines(path: Path = HAND_OUTLINES) -> dict[tuple[str, str], list[tuple[str, np.ndarray]]]:
    """(source, path) -> [(card, quad)] from the hand-drawn outlines file (absent: none)."""
    found: dict[tuple[str, str], list[tuple[str, np.ndarray]]] = {}
    if not path.is_file():
        return found
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        d = json.loads(line)
        quad = np.asarray(d["quad"], np.float32)
        if quad.shape != (4, 2):
            raise ValueError(f"{path}:{n}: a quad is four [x, y] corners")
        found.setdefault((d["source"], d["path"]), []).append((d["card"].upper(), quad))
    return found


def load_corner_labels(path: Path = CORNER_LABELS) -> list[LabelledPhoto]:
    with open(path, encoding="utf-8") as f:
        return [LabelledPhoto.from_dict(json.loads(line)) for line in f if line.strip()]


class CompletePhotos:
    """The complete labelled photos (every named card outlined) found under photos_root, read one at a
    time as (number among the complete ones, photo, image): what the real crops, faces and views are
    cut from. After a pass, `absent` counts those not found, and `summary()` says what was read."""

    def __init__(self, labels: list[LabelledPhoto], photos_root: Path):
        self.photos = [p for p in labels if p.complete]
        self.incomplete = len(labels) - len(self.photos)
        self.photos_root = photos_root
        self.absent = 0

    def __iter__(self):
        import cv2

        self.absent = 0
        for n, photo in enumerate(self.photos):
            image = cv2.imread(str(photo.file_under(self.photos_root)), cv2.IMREAD_COLOR)
            if image is None:
                self.absent += 1
                continue
            yield n, photo, image

    def summary(self) -> str:
        """'N complete labelled photos': those read in the last pass, for a build's log line."""
        return f"{len(self.photos) - self.absent} complete labelled photos"

    def not_found(self) -> str:
        """', N not found under ROOT: run ...' when some were not found, else ''."""
        return (f", {self.absent} not found under {self.photos_root}: run python -m bench.real.build"
                if self.absent else "")


def draw(image: np.ndarray, photo: LabelledPhoto) -> np.ndarray:
    """The photo with each card's outline and its index corners' verdicts drawn, to check by eye."""
    import cv2

    from vision.crops import INDEX_REGION, region_quad

    colours = {"shown": (60, 200, 60), "unsure": (0, 170, 255), "cut": (150, 150, 150)}
    out = image.copy()
    scale = max(out.shape[:2]) / 1280.0
    thick = max(1, int(round(2 * scale)))
    for card in photo.cards:
        pts = np.round(card.quad).astype(np.int32).reshape(-1, 1, 2)
        outline_colour = {"hand": (255, 255, 255), "box": (255, 0, 255),
                          "region": (255, 255, 0)}.get(card.by, (200, 120, 0))
        cv2.polylines(out, [pts], True, outline_colour, thick, cv2.LINE_AA)
        for started, verdict in zip(index_corners(card.quad), card.corners):
            box = np.round(region_quad(started, INDEX_REGION)).astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(out, [box], True, colours[verdict], thick, cv2.LINE_AA)
        x, y = (int(v) for v in card.quad[0])
        cv2.putText(out, card.card, (x + 4, y - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (0, 0, 255), thick,
                    cv2.LINE_AA)
    return out


def boxes_of(label: dict, sources: dict[str, dict], mirror_root: Path):
    """The source's own boxes round whole cards for this photo (a VOC XML file beside it in the
    fetched mirror, at the recorded commit), or [] where it has none."""
    from bench.real.build import git_dir, read_blob

    gitdir = git_dir(mirror_root, label["source"])
    if gitdir is None:
        return []
    xml = read_blob(gitdir, sources[label["source"]]["commit"], str(Path(label["path"]).with_suffix(".xml")))
    return voc_boxes(xml.decode("utf-8", "replace")) if xml else []


def trainable_labels(labels: list[dict], sources: dict[str, dict]) -> list[dict]:
    """The labelled photos whose source's licence allows training (use `train+eval`), never one of the
    part kept only to report on (part `report`: photos that steer nothing, training included)."""
    from bench.real.parts import trained_on

    return [lab for lab in labels if trained_on(lab["source"], sources)]


def main(argv: list[str] | None = None) -> int:
    import cv2

    from bench.real.build import DEFAULT_MIRRORS, DEFAULT_OUT, folder_name, load_labels, load_sources
    from vision.classifier import CardClassifier
    from vision.recognizer import Recognizer

    p = argparse.ArgumentParser(prog="python -m models.training.real_labels", description=__doc__.split("\n")[0])
    p.add_argument("--photos", type=Path, default=DEFAULT_OUT, help="the rebuilt real photos (python -m bench.real.build)")
    p.add_argument("--mirror-root", type=Path, default=DEFAULT_MIRRORS,
                   help="fetched mirrors, for the sources' own box annotations (Pascal VOC XML beside a photo)")
    p.add_argument("--out", type=Path, default=CORNER_LABELS)
    p.add_argument("--overlay", type=Path, default=None, help="write each photo with its labels drawn here")
    args = p.parse_args(argv)
    classifier = CardClassifier()
    recognizer = Recognizer(classifier=classifier)
    hand = load_hand_outlines()
    sources = load_sources()
    photos, missing = [], 0
    for label in trainable_labels(load_labels(), sources):
        path = args.photos / folder_name(label["source"]) / label["path"]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            missing += 1
            continue
        reads = sorted((r for r in recognizer.recognize(image) if r.card is not None), key=lambda r: -r.confidence)
        reads = fitted_to_boxes([(str(r.card), r.quad) for r in reads],
                                boxes_of(label, sources, args.mirror_root), (image.shape[1], image.shape[0]))
        photo = label_photo(image, label, reads,
                            hand.get((label["source"], label["path"]), []), classifier)
        photos.append(photo)
        if args.overlay is not None:
            target = args.overlay / folder_name(label["source"]) / (label["path"] + ".png")
            target.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(target), draw(image, photo))
    if missing:
        print(f"{missing} photos not found under {args.photos}: run python -m bench.real.build first", file=sys.stderr)
        if not photos:
            return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for photo in photos:
            f.write(json.dumps(photo.to_dict()) + "\n")
    verdicts = Counter(v for photo in photos for card in photo.cards for v in card.corners)
    print(f"{len(photos)} photos, {sum(p.complete for p in photos)} complete; "
          f"{sum(len(p.cards) for p in photos)} of {sum(len(p.named) for p in photos)} named cards outlined "
          f"({', '.join(f'{n} by {by}' for by, n in Counter(c.by for p in photos for c in p.cards).items())}); index corners: "
          + ", ".join(f"{verdicts[v]} {v}" for v in ("shown", "unsure", "cut")) + f"; written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One outline per object from the cues, which usually outline the same card more than once, and
without the stripes and folds of the cloth that run out of view."""

from __future__ import annotations

import cv2
import numpy as np

from vision.finder.fitting import CardFits


def distinct(cues: list[list[np.ndarray]],
             fit: CardFits) -> tuple[list[np.ndarray], dict[int, list[np.ndarray]]]:
    """One outline per object, from several cues that usually outline the same card.

    An outline overlapping an earlier cue's is the same object; it replaces it only where the
    earlier one is not card-shaped and it is (a card merged with a bright stripe of the cloth at a
    low threshold stands alone at a higher one; on a light table the edge loop is often the best).
    Also returns, per outline kept that is card-shaped, the other outlines of the same object: a blob by
    brightness may cut off a faint margin where the edge loop has the whole card, or the reverse.
    """
    kept = list(cues[0])
    boxes = [cv2.boundingRect(c) for c in kept]
    fits: dict[int, bool] = {}
    others: dict[int, list[np.ndarray]] = {}
    for cue in cues[1:]:
        for outline in cue:
            box = cv2.boundingRect(outline)
            twin = next((i for i, other in enumerate(boxes) if _box_iou(box, other) > 0.6), None)
            if twin is None:
                kept.append(outline)
                boxes.append(box)
                continue
            if twin not in fits:
                fits[twin] = fit(kept[twin]).quad is not None
            same_size = cv2.contourArea(outline) >= 0.7 * cv2.contourArea(kept[twin])  # not a piece of it
            if not same_size:
                continue
            if fits[twin]:
                others.setdefault(twin, []).append(outline)
            elif fit(outline).quad is not None:
                kept[twin], boxes[twin], fits[twin] = outline, box, True
    return kept, others


def runs_out_of_view(contour: np.ndarray, shape: tuple[int, int]) -> bool:
    """Touches the frame's edge and spans most of the frame: a stripe or fold of the cloth."""
    x, y, w, h = cv2.boundingRect(contour)
    touches = x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]
    return touches and (w >= 0.8 * shape[1] or h >= 0.8 * shape[0])


def _box_iou(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / float(a[2] * a[3] + b[2] * b[3] - inter)

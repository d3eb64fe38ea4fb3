"""Draw what the recognizer saw onto a copy of the frame, for people to check by eye.

Green outline: a card read; red outline: a card seen but not read ("?"). The corner the index was
read from gets a dot, so a card read upside down or from the wrong corner shows at a glance.
"""

from __future__ import annotations

from typing import Iterable

import cv2
import numpy as np

from vision.types import Recognition

READ_COLOUR = (60, 200, 60)
UNREAD_COLOUR = (40, 40, 230)


def draw_recognitions(image: np.ndarray, recognitions: Iterable[Recognition]) -> np.ndarray:
    """A copy of `image` (BGR) with each recognition's outline, index corner and label drawn."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    scale = max(out.shape[:2]) / 1280.0
    thickness = max(1, int(round(2 * scale)))
    for rec in recognitions:
        colour = READ_COLOUR if rec.card is not None else UNREAD_COLOUR
        pts = np.round(rec.quad).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, thickness, cv2.LINE_AA)
        corner = tuple(int(v) for v in pts[0, 0])
        cv2.circle(out, corner, max(3, thickness * 2), colour, -1, cv2.LINE_AA)
        label = f"{rec.card} {rec.confidence:.2f}" if rec.card is not None else "?"
        cx, cy = (int(v) for v in rec.quad.mean(axis=0))
        font_scale = 0.7 * scale
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
        origin = (cx - tw // 2, cy + th // 2)
        cv2.rectangle(out, (origin[0] - 3, origin[1] - th - 3), (origin[0] + tw + 3, origin[1] + base),
                      (0, 0, 0), -1)
        cv2.putText(out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, colour, thickness,
                    cv2.LINE_AA)
    return out

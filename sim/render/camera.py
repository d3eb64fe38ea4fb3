"""What the camera does to a table: a slightly tilted view or a phone's oblique one, uneven light, glare,
blur, noise and JPEG."""

from __future__ import annotations

import cv2
import numpy as np

from sim.render.backgrounds import smooth_noise


def tilted_view(rng: np.random.Generator, size: tuple[int, int], tilt: float = 0.06) -> np.ndarray:
    """Homography from the table plane to the image for a camera a little off vertical.

    The table plane has the image's size; each of its corners moves outwards by up to `tilt` of the
    frame, unevenly, so the whole frame still shows table.  tilt=0 gives the identity (overhead view).
    """
    w, h = size
    if tilt <= 0:
        return np.eye(3)
    rect = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    outward = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    push = rng.uniform(0, tilt, (4, 2)).astype(np.float32) * np.float32([w, h])
    # A common shift of the far edge mimics a camera looking from one side of the table.
    lean = np.float32([[0, 0], [0, 0], [0, 0], [0, 0]])
    side = int(rng.integers(0, 4))
    lean[[side, (side + 1) % 4]] = outward[[side, (side + 1) % 4]] * rng.uniform(0, tilt) * np.float32([w, h])
    return cv2.getPerspectiveTransform(rect, rect + outward * push + lean)


def oblique_view(size: tuple[int, int], degrees: float) -> np.ndarray:
    """Homography from the table plane to the image for a camera `degrees` off vertical, looking at the
    frame's centre from its bottom side (a phone held over the near edge of the table), as far from it
    as the frame is wide (about 53 degrees across): the table's depth is shortened by the cosine and its
    far side shrinks into the distance. degrees=0 gives the identity (overhead view)."""
    w, h = size
    angle = np.radians(degrees)
    centred = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
    tilted = np.array([[1, 0, 0], [0, np.cos(angle), 0], [0, -np.sin(angle) / w, 1]])
    return np.linalg.inv(centred) @ tilted @ centred


def lighting(rng: np.random.Generator, image: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """Multiply by a linear light fall-off, a soft blotch pattern, vignetting and a colour cast (in place).

    The overall gain stays near or below 1, as a camera's auto-exposure keeps white cards unclipped.
    """
    h, w = image.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    x = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    y = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    ramp = np.cos(angle) * x + np.sin(angle) * y * (h / w)
    field = (rng.uniform(0.6, 1.08) + strength * rng.uniform(0, 0.25) * ramp
             + strength * 0.05 * smooth_noise(rng, w, h, w / 3))
    # Lens vignetting: corners a little darker than the middle.
    field *= 1.0 - strength * rng.uniform(0.0, 0.25) * (x ** 2 + (y * h / w) ** 2)
    cast = np.float32([rng.uniform(0.9, 1.1), 1.0, rng.uniform(0.9, 1.1)])
    image *= field[:, :, None] * cast
    return image


def glare(rng: np.random.Generator, image: np.ndarray, where: np.ndarray, centre: tuple[float, float],
          radius: float, strength: float) -> np.ndarray:
    """Add a soft elongated specular highlight around centre, only where `where` (0..1 mask) is set."""
    h, w = image.shape[:2]
    axes = (max(2, int(radius)), max(2, int(radius * rng.uniform(0.2, 0.6))))
    sigma = max(1.0, radius * 0.35)
    pad = int(axes[0] + 3 * sigma) + 1
    cx, cy = int(centre[0]), int(centre[1])
    x0, y0, x1, y1 = max(cx - pad, 0), max(cy - pad, 0), min(cx + pad, w), min(cy + pad, h)
    angle = float(rng.uniform(0, 180))
    if x1 <= x0 or y1 <= y0:
        return image
    spot = np.zeros((y1 - y0, x1 - x0), np.float32)  # drawn and blurred only around the highlight
    cv2.ellipse(spot, (cx - x0, cy - y0), axes, angle, 0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), sigma)
    image[y0:y1, x0:x1] += (strength * spot * where[y0:y1, x0:x1])[:, :, None]
    return image


def degrade(rng: np.random.Generator, image: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """Blur (focus or motion), sensor noise and JPEG compression; float32 in, uint8 BGR out."""
    if rng.random() < 0.5 * strength:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.0 + 0.6 * strength))
    elif rng.random() < 0.2 * strength:
        length = int(rng.integers(3, 7))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1.0 / length
        rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    sigma = rng.uniform(0, 6 * strength)
    if sigma > 0.5:
        image = image + rng.normal(0, sigma, image.shape[:2])[:, :, None].astype(np.float32)
    out = np.clip(image, 0, 255).astype(np.uint8)
    quality = int(rng.uniform(55, 95)) if strength > 0 else 95
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else out

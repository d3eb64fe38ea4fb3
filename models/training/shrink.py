"""Shrinking a crop by area averaging, written as a matrix so a network can do it inside its graph.

The classifier's two networks read one crop cut at the larger size (vision.crops); the smaller
network shrinks it first, in training and in the exported ONNX graph alike (two MatMuls), so it sees
the same pixels in both. Kept apart from net.py so that it can be checked against OpenCV without torch.
"""

from __future__ import annotations

import math

import numpy as np


def area_matrix(source: int, target: int) -> np.ndarray:
    """target x source float32 weights that shrink a line of `source` pixels to `target`.

    Output pixel i averages the source span [i * source / target, (i + 1) * source / target), a
    partly covered pixel weighted by how much of it lies inside: OpenCV's INTER_AREA, as a matrix.
    A shrunk image is area_matrix(h, h2) @ image @ area_matrix(w, w2).T.
    """
    if not 0 < target <= source:
        raise ValueError(f"can only shrink a line of pixels: {source} -> {target}")
    scale = source / target
    weights = np.zeros((target, source), np.float64)
    for i in range(target):
        lo, hi = i * scale, (i + 1) * scale
        for j in range(math.floor(lo), min(math.ceil(hi), source)):
            weights[i, j] = min(hi, j + 1) - max(lo, j)
    return (weights / scale).astype(np.float32)

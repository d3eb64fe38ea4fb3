"""Write the trained network as models/cards.onnx and its labels.json (classes, temperature, threshold).

The ONNX graph takes N x 3 x H x W float pixels in 0..1 (BGR, as OpenCV delivers them) and returns
log-probabilities (the mean of its networks', net.Pair) that vision.classifier treats as logits:
it divides them by the temperature and applies the threshold.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from cribbage.cards import FULL_DECK

BACKGROUND = "background"
LABELS = [str(card) for card in FULL_DECK] + [BACKGROUND]


def export(net: torch.nn.Module, height: int, width: int, temperature: float, threshold: float,
           out_dir: Path, extra: dict | None = None) -> tuple[Path, Path]:
    """Export to out_dir/cards.onnx (with a dynamic batch axis) and out_dir/labels.json."""
    out_dir.mkdir(parents=True, exist_ok=True)
    onnx_path = out_dir / "cards.onnx"
    net = net.eval().to(memory_format=torch.contiguous_format)
    dummy = torch.rand(1, 3, height, width)
    torch.onnx.export(net, (dummy,), str(onnx_path), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "batch"}, "logits": {0: "batch"}}, opset_version=17,
                      dynamo=False)
    meta = {
        "labels": LABELS,
        "temperature": round(float(temperature), 5),
        "threshold": round(float(threshold), 5),
        "input": {"height": height, "width": width, "channels": 3, "order": "BGR",
                  "layout": "NCHW", "scale": "pixels / 255"},
    }
    if extra:
        meta.update(extra)
    labels_path = out_dir / "labels.json"
    labels_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return onnx_path, labels_path

"""Train the whole-card network (vision.whole_card) and write models/whole_card.onnx + whole_card.json.

It reads a lone card's whole face, warped upright, as suit x {A, 2..10, court}: the second opinion
the recognizer asks of a card its index classifier read, or almost read. Its crops are the
classifier's own render's (models/training/dataset.py cuts each separate scene's cards whole), split
the same way: every tenth scene of the training decks and the validation font decks are validation.
Its probabilities are used as they come out (no temperature): the recognizer's rules
(vision.whole_card) were chosen on an uncalibrated network trained this way.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models.training.augment import to_input
from models.training.net import CardNet
from models.training.train import channels_last, log
from vision.whole_card import GROUPS, HEIGHT, SUITS, WIDTH

CLASSES = len(SUITS) * len(GROUPS)
BATCH = 128
MAX_LR = 3e-3


def class_names() -> list[str]:
    """"C:A", "C:2", ..., "S:court": the network's outputs in order (suit-major)."""
    return [f"{suit}:{group}" for suit in SUITS for group in GROUPS]


def augmented(x: torch.Tensor) -> torch.Tensor:
    """Light, contrast, colour and noise of other tables and cameras; half the cards turned end for
    end (a lone card lies either way up, and is read from either index corner)."""
    n = len(x)
    x = x * torch.empty(n, 1, 1, 1).uniform_(0.6, 1.3) + torch.empty(n, 1, 1, 1).uniform_(-0.15, 0.15)
    x = x * torch.empty(n, 3, 1, 1).uniform_(0.85, 1.15)
    x = x + torch.randn_like(x) * torch.empty(n, 1, 1, 1).uniform_(0, 0.05)
    turned = torch.rand(n) < 0.5
    x[turned] = torch.flip(x[turned], dims=(2, 3))
    return x.clamp_(0.0, 1.0)


def beside_another(x: torch.Tensor, share: float) -> torch.Tensor:
    """A share of the faces as an outline that takes in another card's edge sees them (a starter on
    the stock, a card in a pile): the face shrunk by 3-10 % towards one or two adjacent sides, and the
    strip left showing that card's light border, the top card's dark edge line between the two."""
    if share <= 0:
        return x
    n, _, h, w = x.shape
    for i in torch.nonzero(torch.rand(n) < share).flatten().tolist():
        dy = round(h * float(torch.empty(()).uniform_(0.03, 0.10))) if torch.rand(()) < 0.7 else 0
        dx = round(w * float(torch.empty(()).uniform_(0.03, 0.10))) if dy == 0 or torch.rand(()) < 0.5 else 0
        border = torch.empty(3, 1, 1).uniform_(0.75, 1.0)
        canvas = border.expand(3, h, w).clone()
        face = F.interpolate(x[i:i + 1], size=(h - dy, w - dx), mode="bilinear", align_corners=False)[0]
        top, left = (dy if torch.rand(()) < 0.5 else 0), (dx if torch.rand(()) < 0.5 else 0)
        canvas[:, top:top + h - dy, left:left + w - dx] = face
        line = float(torch.empty(()).uniform_(0.1, 0.5))
        if dy:
            canvas[:, top - 1 if top else h - dy, :] *= line
        if dx:
            canvas[:, :, left - 1 if left else w - dx] *= line
        x[i] = canvas
    return x


def probabilities(net: torch.nn.Module, crops: np.ndarray, batch: int = 512) -> np.ndarray:
    net.eval()
    out = [np.zeros((0, CLASSES), np.float32)]
    with torch.no_grad():
        for i in range(0, len(crops), batch):
            out.append(torch.softmax(net(channels_last(to_input(torch.from_numpy(crops[i:i + batch])))), dim=1).numpy())
    net.train()
    return np.concatenate(out)


def train(train_x: np.ndarray, train_y: np.ndarray, val_x: np.ndarray, val_y: np.ndarray, *,
          minutes: float, seed: int = 0, real=None, real_share: float = 0.0,
          edge_share: float = 0.0) -> tuple[torch.nn.Module, dict]:
    """Train for `minutes` of wall time (a cosine schedule on the clock); the network and a report
    of its validation figures.

    real: faces cut from real photographs (models.training.real_faces.RealFaces), drawn as
    real_share of every batch: about a thousand faces beside twenty thousand rendered ones would
    otherwise be a few of each batch. Its faces held apart are reported on, never trained on.
    edge_share: the share of faces shown with another card's edge beside them (beside_another)."""
    from models.training.corners import bf16_is_fast

    torch.manual_seed(seed)
    net = CardNet(HEIGHT, WIDTH, classes=CLASSES, head="flatten").to(memory_format=torch.channels_last)
    optimiser = torch.optim.AdamW(net.parameters(), lr=MAX_LR, weight_decay=1e-4)
    half = bf16_is_fast()
    log(f"whole-card network: {sum(p.numel() for p in net.parameters())} parameters, input {HEIGHT}x{WIDTH}; "
        f"{len(train_x)} training cards, {len(val_x)} validation cards; run in "
        f"{'bfloat16 (this CPU has AVX-512 BF16)' if half else 'float32'}")
    xs, ys = torch.from_numpy(train_x), torch.from_numpy(train_y)
    real_xs, real_ys, n_real = real_part(real, real_share)
    if n_real:
        log(f"  {len(real_ys)} real faces, {n_real} of every batch of {BATCH}")
    budget = minutes * 60.0
    start = time.time()
    epoch = steps = 0
    while time.time() - start < budget:
        epoch += 1
        order = torch.randperm(len(ys))
        loss = torch.zeros(())
        for i in range(0, len(order) - (BATCH - n_real) + 1, BATCH - n_real):
            done = (time.time() - start) / budget
            if done >= 1.0:
                break
            for group in optimiser.param_groups:
                group["lr"] = MAX_LR * 0.5 * (1 + math.cos(math.pi * done))
            x, y = batch(xs, ys, order[i:i + BATCH - n_real], real_xs, real_ys, n_real)
            x = augmented(beside_another(to_input(x), edge_share))
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=half):
                logits = net(channels_last(x))
            loss = F.cross_entropy(logits.float(), y)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            steps += 1
        accuracy = float((probabilities(net, val_x).argmax(1) == val_y).mean()) if len(val_y) else math.nan
        log(f"  whole-card epoch {epoch}, step {steps}: loss {loss.item():.3f}, validation {accuracy:.4f}, "
            f"{time.time() - start:.0f} of {budget:.0f} s")
    figures = report(probabilities(net, val_x), val_y, epoch, steps)
    if real is not None and real.held_apart.any():
        apart = report(probabilities(net, real.faces[real.held_apart]), real.labels[real.held_apart], epoch, steps)
        figures["real_held_apart"] = {k: v for k, v in apart.items() if k not in ("epochs", "steps")}
    return net, figures


def real_part(real, share: float) -> tuple[torch.Tensor, torch.Tensor, int]:
    """(faces, classes, how many of every batch) of the real faces to train on: none held apart."""
    empty = torch.zeros((0, HEIGHT, WIDTH, 3), dtype=torch.uint8), torch.zeros(0, dtype=torch.int64)
    if real is None or share <= 0 or not (~real.held_apart).any():
        return *empty, 0
    kept = ~real.held_apart
    return torch.from_numpy(real.faces[kept]), torch.from_numpy(real.labels[kept]), round(share * BATCH)


def batch(xs: torch.Tensor, ys: torch.Tensor, idx: torch.Tensor, real_xs: torch.Tensor, real_ys: torch.Tensor,
          n_real: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The rendered faces at idx, and n_real real faces drawn at random after them."""
    x, y = xs[idx], ys[idx]
    if n_real:
        drawn = torch.randint(len(real_ys), (n_real,))
        x, y = torch.cat([x, real_xs[drawn]]), torch.cat([y, real_ys[drawn]])
    return x, y


def report(probs: np.ndarray, labels: np.ndarray, epochs: int, steps: int) -> dict:
    """Validation figures: cards, rank groups and suits read right, and reads at 0.99 that are wrong."""
    pred = probs.argmax(1)
    groups = len(GROUPS)
    n = max(len(labels), 1)
    return {"epochs": epochs, "steps": steps, "val_cards": int(len(labels)),
            "right": round(float((pred == labels).sum()) / n, 5),
            "rank_group_right": round(float((pred % groups == labels % groups).sum()) / n, 5),
            "suit_right": round(float((pred // groups == labels // groups).sum()) / n, 5),
            "wrong_at_0.99": int(((pred != labels) & (probs.max(1) >= 0.99)).sum())}


def export(net: torch.nn.Module, out_dir: Path, extra: dict) -> tuple[Path, Path]:
    """out_dir/whole_card.onnx (N x 3 x HEIGHT x WIDTH pixels in 0..1, BGR -> N x CLASSES logits) and
    out_dir/whole_card.json (classes, input, how it was trained)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    onnx_path = out_dir / "whole_card.onnx"
    net = net.eval().to(memory_format=torch.contiguous_format)
    torch.onnx.export(net, (torch.rand(1, 3, HEIGHT, WIDTH),), str(onnx_path), input_names=["cards"],
                      output_names=["logits"], dynamic_axes={"cards": {0: "batch"}, "logits": {0: "batch"}},
                      opset_version=17, dynamo=False)
    meta = {"classes": class_names(),
            "input": {"height": HEIGHT, "width": WIDTH, "channels": 3, "order": "BGR", "layout": "NCHW",
                      "scale": "pixels / 255"},
            **extra}
    meta_path = out_dir / "whole_card.json"
    meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return onnx_path, meta_path

"""`python -m models.training.corners`: render views, train the index-corner detector, pick its
threshold, export models/corners.onnx and models/corners.json.

Training runs on a wall-time budget, on random patches of the views (the network is fully
convolutional, and patches train faster than whole frames).  The heat map learns with the focal loss
of CenterNet (Zhou et al., "Objects as Points", 2019); the corner's place in its cell and the card's
sides with an L1 loss at the cells round each corner.  Validation views are every tenth scene of the
training decks and all scenes of the validation font decks (fonts no training deck uses): how many
of their corners are found, and how many peaks are false, is reported per threshold.  The threshold
itself is fixed and low: the detector should miss few corners, and the classifier refuses what is
not a card.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
PATCH = 256                      # training patches are PATCH x PATCH input pixels
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6)
THRESHOLD = 0.3                  # heat over which a peak is a corner (the classifier judges it after)
MAX_LR = 3e-3


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m models.training.corners", description=__doc__)
    p.add_argument("--scenes-per-deck", type=int, default=250, help="rendered scenes per training deck")
    p.add_argument("--font-decks", type=int, default=60, help="synthetic font decks for training")
    p.add_argument("--validation-font-decks", type=int, default=10, help="synthetic decks in unseen fonts")
    p.add_argument("--scenes-per-font-deck", type=int, default=35, help="rendered scenes per synthetic deck")
    p.add_argument("--minutes", type=float, default=16.0, help="training time budget")
    p.add_argument("--batch", type=int, default=24)
    p.add_argument("--workers", type=int, default=2, help="processes rendering scenes")
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=ROOT / "models", help="where corners.onnx and corners.json go")
    p.add_argument("--cache", type=Path, default=ROOT / ".cache" / "training")
    return p.parse_args(argv)


def batch_of(views, picks: np.ndarray, rng: np.random.Generator, patch: int | None):
    """Input, heat, regression and mask tensors for the views `picks`, cut to random patches."""
    import torch

    from models.training.corner_data import targets
    from vision.corners import STRIDE

    images, heats, regs, masks = [], [], [], []
    for i in picks:
        image, corners = views.images[i], views.corners[i]
        if patch is not None:
            h, w = image.shape[:2]
            y0 = int(rng.integers(0, (h - patch) // STRIDE + 1)) * STRIDE
            x0 = int(rng.integers(0, (w - patch) // STRIDE + 1)) * STRIDE
            image = image[y0:y0 + patch, x0:x0 + patch]
            corners = corners - np.float32([x0, y0, 0, 0, 0, 0])
        heat, reg, mask = targets(corners, image.shape[:2])
        images.append(image)
        heats.append(heat)
        regs.append(reg)
        masks.append(mask)
    # Laid out plane by plane: the augmentation runs three times as fast on it as on the permuted view.
    x = torch.from_numpy(np.stack(images)).permute(0, 3, 1, 2).contiguous().float() / 255.0
    return x, torch.from_numpy(np.stack(heats)), torch.from_numpy(np.stack(regs)), torch.from_numpy(np.stack(masks))


def loss_of(out, heat, reg, mask):
    """CenterNet's focal loss on the heat map plus L1 on offsets and sides, per corner."""
    import torch
    import torch.nn.functional as F

    logit = out[:, 0]
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    positive = (heat >= 1.0).float()
    pos_loss = -F.logsigmoid(logit) * (1 - p) ** 2 * positive
    neg_loss = -F.logsigmoid(-logit) * p ** 2 * (1 - heat) ** 4 * (1 - positive)
    n = positive.sum().clamp(min=1.0)
    focal = (pos_loss.sum() + neg_loss.sum()) / n
    m = mask[:, None]
    l1 = (out[:, 1:] - reg).abs() * m
    offsets = l1[:, :2].sum() / m.sum().clamp(min=1.0)
    sides = l1[:, 2:].sum() / m.sum().clamp(min=1.0)
    return focal + offsets + 2.0 * sides, (focal.item(), offsets.item(), sides.item())


def matches(hits, corners: np.ndarray, scale: float) -> tuple[int, int]:
    """(true corners found, false peaks) for one view: a hit counts where its corner and its card's far
    corner lie near a true corner's."""
    from vision.corners import near

    truths = [np.stack([c[:2], c[:2] + c[2:4], c[:2] + c[2:4] + c[4:6], c[:2] + c[4:6]]) / scale
              for c in corners]
    found, false = set(), 0
    for hit in hits:
        best = next((k for k, t in enumerate(truths) if k not in found
                     and near(hit.quad[0], t[0], np.linalg.norm(t[3] - t[0]))
                     and near(hit.quad[2], t[2], np.linalg.norm(t[3] - t[0]))), None)
        if best is None:
            false += 1
        else:
            found.add(best)
    return len(found), false


def evaluate(net, views, picks: np.ndarray) -> dict[float, tuple[float, float]]:
    """Per threshold: (share of validation corners found, false peaks per view)."""
    import torch

    from vision.corners import decode

    net.eval()
    totals = {t: [0, 0] for t in THRESHOLDS}
    n_true = 0
    with torch.no_grad():
        for start in range(0, len(picks), 32):
            chunk = picks[start:start + 32]
            x = torch.from_numpy(views.images[chunk]).permute(0, 3, 1, 2).float() / 255.0
            outs = net(x).numpy()
            for out, i in zip(outs, chunk):
                n_true += len(views.corners[i])
                for t in THRESHOLDS:
                    found, false = matches(decode(out, 1.0, t), views.corners[i], 1.0)
                    totals[t][0] += found
                    totals[t][1] += false
    net.train()
    return {t: (found / max(n_true, 1), false / max(len(picks), 1)) for t, (found, false) in totals.items()}


def bf16_is_fast() -> bool:
    """Whether this CPU runs bfloat16 convolutions natively (AVX-512 BF16): there, mixed precision
    halves the detector's step time, which the wall-time budget turns into twice the steps."""
    import torch

    try:
        return bool(torch.cpu._is_avx512_bf16_supported())
    except AttributeError:  # a torch without the probe: stay in float32
        return False


def train(views, train_ids: np.ndarray, val_ids: np.ndarray, minutes: float, batch: int, seed: int):
    import torch

    from models.training.augment import jitter_blur_noise, jitter_photometry
    from models.training.corner_net import CornerNet
    from models.training.train import channels_last, log

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = CornerNet().to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=MAX_LR, weight_decay=1e-4)
    half = bf16_is_fast()
    log(f"network run in {'bfloat16 (this CPU has AVX-512 BF16)' if half else 'float32'}; weights and loss in float32")
    budget = minutes * 60.0
    start = time.time()
    step, last_report, shown = 0, start, []
    net.train()
    while (elapsed := time.time() - start) < budget:
        # One-cycle by the clock: warm up over the first 5 %, cosine down to nothing by the end.
        frac = elapsed / budget
        lr = MAX_LR * (frac / 0.05 if frac < 0.05 else 0.5 * (1 + np.cos(np.pi * (frac - 0.05) / 0.95)))
        for group in opt.param_groups:
            group["lr"] = lr
        x, heat, reg, mask = batch_of(views, rng.choice(train_ids, batch), rng, PATCH)
        x = jitter_blur_noise(jitter_photometry(x)).clamp_(0.0, 1.0)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=half):
            out = net(channels_last(x))
        loss, parts = loss_of(out.float(), heat, reg, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        shown.append(parts)
        if time.time() - last_report > 60:
            f, o, s = np.mean(shown, axis=0)
            log(f"  step {step}, {elapsed / 60:.1f}/{minutes:g} min: heat {f:.3f}, offset {o:.3f}, "
                f"sides {s:.3f} (lr {lr:.2g})")
            shown, last_report = [], time.time()
    log(f"trained {step} steps of {batch} patches")
    return net, evaluate(net, views, val_ids)


def export(net, out_dir: Path, threshold: float, extra: dict) -> tuple[Path, Path]:
    import torch

    from models.training.corner_data import FRAME
    from vision.corners import INPUT_WIDTH, STRIDE, VECTOR_SCALE, input_size, meta_path_for

    out_dir.mkdir(parents=True, exist_ok=True)
    onnx_path = out_dir / "corners.onnx"
    net = net.eval().to(memory_format=torch.contiguous_format)
    width, height = input_size(*FRAME)  # the training frames' input (the graph takes any size)
    dummy = torch.rand(1, 3, height, width)
    torch.onnx.export(net, (dummy,), str(onnx_path), input_names=["frames"], output_names=["maps"],
                      dynamic_axes={"frames": {0: "batch", 2: "height", 3: "width"},
                                    "maps": {0: "batch", 2: "rows", 3: "columns"}},
                      opset_version=17, dynamo=False)
    meta = {"threshold": threshold, "input_width": INPUT_WIDTH, "stride": STRIDE, "vector_scale": VECTOR_SCALE,
            "outputs": ["heat logit", "offset x", "offset y", "across x", "across y", "down x", "down y"],
            "input": {"channels": 3, "order": "BGR", "layout": "NCHW", "scale": "pixels / 255"}, **extra}
    meta_path = meta_path_for(onnx_path)
    meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return onnx_path, meta_path


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import torch

    from models.training.corner_data import cached_build
    from models.training.decks import scenes_per_deck
    from models.training.train import log
    from sim.render.decks import HELD_OUT_DECKS
    from sim.render.fontdecks import is_validation_deck

    torch.set_num_threads(args.threads)
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    started = time.time()
    log("corner detector:")
    scenes = scenes_per_deck(args.scenes_per_deck, args.font_decks, args.validation_font_decks,
                             args.scenes_per_font_deck, log)
    if scenes is None:
        return 2
    views = cached_build(args.cache, scenes, args.seed, args.workers, log)
    names = list(scenes)
    held = np.isin(views.decks, [i for i, d in enumerate(names) if is_validation_deck(d)]) | (views.scenes % 10 == 0)
    train_ids, val_ids = np.flatnonzero(~held), np.flatnonzero(held)
    log(f"{len(views.images)} views, {sum(len(c) for c in views.corners)} corners; "
        f"{len(val_ids)} views for validation ({time.time() - started:.0f} s so far)")
    net, report = train(views, train_ids, val_ids, args.minutes, args.batch, args.seed)
    for t, (found, false) in sorted(report.items()):
        log(f"  threshold {t:.2f}: {100 * found:.1f} % of validation corners found, {false:.2f} false peaks a view")
    threshold = THRESHOLD
    found, false = report[threshold]
    onnx_path, meta_path = export(net, args.out, threshold, {
        "validation": {"corners_found": round(found, 4), "false_per_view": round(false, 3)},
        "trained_on": names, "held_out": list(HELD_OUT_DECKS), "seed": args.seed})
    log(f"threshold {threshold}: wrote {onnx_path} ({onnx_path.stat().st_size / 1024:.0f} KB) and {meta_path}; "
        f"total {(time.time() - started) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())

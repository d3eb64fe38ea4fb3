"""`python -m models.training.corners`: render views, train the index-corner detector, pick its
threshold, export models/corners.onnx and models/corners.json.

Training runs on a wall-time budget (or a fixed number of steps, --steps), on random patches of the views (the network is fully
convolutional, and patches train faster than whole frames), cut from views and targets made once and
kept on the device it trains on (`--device cuda` trains on a GPU).  The heat map learns with the focal loss
of CenterNet (Zhou et al., "Objects as Points", 2019); the corner's place in its cell and the card's
sides with an L1 loss at the cells round each corner.  Validation views are every tenth scene of the
training decks and all scenes of the validation font decks (fonts no training deck uses): how many
of their corners are found, and how many peaks are false, is reported per threshold.  The threshold
itself is fixed and low: the detector should miss few corners, and the classifier refuses what is
not a card. With --real-views-per-photo, views cut from real photographs whose index corners are
labelled (models/training/real_views.py) join the rendered ones; every tenth photo is kept for
validation, reported apart.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from models.training.deadline import add_arguments, budget
from models.training.decks import DEFAULT_DESIGNS, parse_designs

ROOT = Path(__file__).resolve().parents[2]
PATCH = 256                      # training patches are PATCH x PATCH input pixels
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6)
THRESHOLD = 0.3                  # heat over which a peak is a corner (the classifier judges it after)
MAX_LR = 3e-3


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m models.training.corners", description=__doc__)
    p.add_argument("--scenes-per-deck", type=int, default=250, help="rendered scenes per training deck")
    p.add_argument("--designs", type=parse_designs, default=DEFAULT_DESIGNS,
                   help="the designs of sim.render.designs trained on, comma-separated, or all "
                        f"(default: {','.join(DEFAULT_DESIGNS)})")
    p.add_argument("--scenes-per-design", type=int, default=None,
                   help="rendered scenes per design deck (default: as a training deck)")
    p.add_argument("--font-decks", type=int, default=60, help="synthetic font decks for training")
    p.add_argument("--validation-font-decks", type=int, default=10, help="synthetic decks in unseen fonts")
    p.add_argument("--scenes-per-font-deck", type=int, default=35, help="rendered scenes per synthetic deck")
    p.add_argument("--minutes", type=float, default=16.0, help="training time budget")
    p.add_argument("--steps", type=int, default=None,
                   help="train this many steps instead of for --minutes (the same training on a busy machine)")
    p.add_argument("--batch", type=int, default=24)
    p.add_argument("--workers", type=int, default=2, help="processes rendering scenes")
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    p.add_argument("--real-views-per-photo", type=int, default=0,
                   help="views cut from each labelled real photo (models/training/real/corners.jsonl); 0: none")
    p.add_argument("--real-photos", type=Path, default=ROOT / ".cache" / "real",
                   help="the real photos (python -m bench.real.build)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", default="cpu", help="where the network trains: cpu, or cuda on a GPU")
    p.add_argument("--checkpoint", type=Path, default=None, help="the weights saved here every minute and at the end")
    p.add_argument("--out", type=Path, default=ROOT / "models", help="where corners.onnx and corners.json go")
    p.add_argument("--cache", type=Path, default=ROOT / ".cache" / "training")
    add_arguments(p)
    args = p.parse_args(argv)
    from models.training.devices import device_problem

    problem = device_problem(args.device)
    if problem:
        p.error(problem)
    return args


class PatchSource:
    """The training views and their targets, made once and kept on the training device; a batch is
    random patches cut from them.  A patch's targets are its view's cut at the same cells, so a corner
    just outside a patch still warms the patch's edge."""

    def __init__(self, views, ids: np.ndarray, device):
        import torch

        from models.training.corner_data import targets
        from vision.corners import STRIDE

        h, w = views.images.shape[1] // STRIDE, views.images.shape[2] // STRIDE
        heat = np.empty((len(ids), h, w), np.float32)
        reg = np.empty((len(ids), 6, h, w), np.float32)
        mask = np.empty((len(ids), h, w), np.float32)
        for n, i in enumerate(ids):
            unsure = None if views.unsure is None else views.unsure[i]
            heat[n], reg[n], mask[n] = targets(views.corners[i], views.images[i].shape[:2], unsure)
        self.images = torch.from_numpy(views.images[ids]).to(device)  # N x H x W x 3, uint8
        self.heat, self.reg, self.mask = (torch.from_numpy(a).to(device) for a in (heat, reg, mask))

    def batch(self, rng: np.random.Generator, n: int, patch: int):
        """Input (n x 3 x patch x patch, 0..1), heat, regression and mask tensors of n random patches."""
        import torch

        from vision.corners import STRIDE

        h, w = self.images.shape[1:3]
        picks = rng.integers(0, len(self.images), n)
        rows = rng.integers(0, (h - patch) // STRIDE + 1, n)
        cols = rng.integers(0, (w - patch) // STRIDE + 1, n)
        cells = patch // STRIDE
        images, heats, regs, masks = [], [], [], []
        for i, r, c in zip(picks.tolist(), rows.tolist(), cols.tolist()):
            y, x = r * STRIDE, c * STRIDE
            images.append(self.images[i, y:y + patch, x:x + patch])
            heats.append(self.heat[i, r:r + cells, c:c + cells])
            regs.append(self.reg[i, :, r:r + cells, c:c + cells])
            masks.append(self.mask[i, r:r + cells, c:c + cells])
        # Laid out plane by plane: the augmentation runs three times as fast on it as on the permuted view.
        x = torch.stack(images).permute(0, 3, 1, 2).contiguous().float() / 255.0
        return x, torch.stack(heats), torch.stack(regs), torch.stack(masks)


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
    known = m * torch.isfinite(reg[:, 2:3]).float()   # cells whose corner's sides a label verified
    l1 = (out[:, 1:] - torch.nan_to_num(reg)).abs()
    offsets = (l1[:, :2] * m).sum() / m.sum().clamp(min=1.0)
    sides = (l1[:, 2:] * known).sum() / known.sum().clamp(min=1.0)
    return focal + offsets + 2.0 * sides, torch.stack([focal, offsets, sides]).detach()


def matches(hits, corners: np.ndarray, scale: float) -> tuple[int, int]:
    """(true corners found, false peaks) for one view: a hit counts where its corner and its card's far
    corner lie near a true corner's."""
    from vision.corners import near

    truths = [np.stack([c[:2], c[:2] + c[2:4], c[:2] + c[2:4] + c[4:6], c[:2] + c[4:6]]) / scale
              for c in corners]

    def same(hit, t) -> bool:
        if not np.isfinite(t).all():   # sides no label verified: the corner alone, at the hit's own size
            return near(hit.quad[0], t[0], np.linalg.norm(hit.quad[3] - hit.quad[0]))
        length = np.linalg.norm(t[3] - t[0])
        return near(hit.quad[0], t[0], length) and near(hit.quad[2], t[2], length)

    found, false = set(), 0
    for hit in hits:
        best = next((k for k, t in enumerate(truths) if k not in found and same(hit, t)), None)
        if best is None:
            false += 1
        else:
            found.add(best)
    return len(found), false


def evaluate(net, views, picks: np.ndarray, device="cpu") -> dict[float, tuple[float, float]]:
    """Per threshold: (share of validation corners found, false peaks per view)."""
    import torch

    from vision.corners import decode

    net.eval()
    totals = {t: [0, 0] for t in THRESHOLDS}
    n_true = 0
    with torch.no_grad():
        for start in range(0, len(picks), 32):
            chunk = picks[start:start + 32]
            x = torch.from_numpy(views.images[chunk]).to(device).permute(0, 3, 1, 2).float() / 255.0
            outs = net(x).float().cpu().numpy()
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


def train(views, train_ids: np.ndarray, val_ids: np.ndarray, minutes: float, batch: int, seed: int,
          device: str = "cpu", checkpoint: Path | None = None, steps: int | None = None):
    import torch

    from models.training.augment import jitter_blur_noise, jitter_photometry
    from models.training.corner_net import CornerNet
    from models.training.train import channels_last, log

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    device = torch.device(device)
    source = PatchSource(views, train_ids, device)
    net = CornerNet().to(device, memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=MAX_LR, weight_decay=1e-4)
    half = device.type == "cuda" or bf16_is_fast()
    log(f"network run on {device} in {'bfloat16' if half else 'float32'}; weights and loss in float32")
    budget = minutes * 60.0
    start = time.time()
    step, last_report, shown = 0, start, []
    net.train()
    while True:
        elapsed = time.time() - start
        frac = elapsed / budget if steps is None else step / steps
        if frac >= 1.0:
            break
        # One-cycle by the clock (or the steps): warm up over the first 5 %, cosine down to nothing by the end.
        lr = MAX_LR * (frac / 0.05 if frac < 0.05 else 0.5 * (1 + np.cos(np.pi * (frac - 0.05) / 0.95)))
        for group in opt.param_groups:
            group["lr"] = lr
        x, heat, reg, mask = source.batch(rng, batch, PATCH)
        x = jitter_blur_noise(jitter_photometry(x)).clamp_(0.0, 1.0)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=half):
            out = net(channels_last(x))
        loss, parts = loss_of(out.float(), heat, reg, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        shown.append(parts)
        if time.time() - last_report > 60:
            f, o, s = torch.stack(shown).mean(dim=0).tolist()  # read back once a minute, not every step
            done = f"{elapsed / 60:.1f}/{minutes:g} min" if steps is None else f"of {steps}, {elapsed / 60:.1f} min"
            log(f"  step {step}, {done}: heat {f:.3f}, offset {o:.3f}, "
                f"sides {s:.3f} (lr {lr:.2g})")
            shown, last_report = [], time.time()
            if checkpoint is not None:
                torch.save(net.state_dict(), checkpoint)
    log(f"trained {step} steps of {batch} patches")
    if checkpoint is not None:
        torch.save(net.state_dict(), checkpoint)
    return net, evaluate(net, views, val_ids, device)


def export(net, out_dir: Path, threshold: float, extra: dict) -> tuple[Path, Path]:
    import torch

    from models.training.corner_data import FRAME
    from vision.corners import INPUT_WIDTH, STRIDE, VECTOR_SCALE, input_size, meta_path_for

    out_dir.mkdir(parents=True, exist_ok=True)
    onnx_path = out_dir / "corners.onnx"
    net = net.eval().to("cpu", memory_format=torch.contiguous_format)
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
    real_labels = None
    if args.real_views_per_photo:
        from models.training.real_labels import load_corner_labels
        from models.training.real_views import missing_photos

        real_labels = load_corner_labels()
        missing = missing_photos(args.real_photos, real_labels)
        if missing:
            print(f"{len(missing)} labelled real photos are not under {args.real_photos} (first: {missing[0]}): "
                  "fetch the repositories models/MODEL_CARD.md names and run python -m bench.real.build, "
                  "or train without them with --real-views-per-photo 0")
            return 2
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
                             args.scenes_per_font_deck, log, args.designs, args.scenes_per_design)
    if scenes is None:
        return 2
    views = cached_build(args.cache, scenes, args.seed, args.workers, log)
    if args.render_only:
        return 0
    if args.real_views_per_photo:
        from models.training.corner_data import FRAME, with_real
        from models.training.real_views import build_real_views
        from vision.corners import input_size

        views = with_real(views, build_real_views(args.real_photos, args.real_views_per_photo, args.seed,
                                                  input_size(*FRAME), real_labels, log=log))
    names = list(scenes)
    held = np.isin(views.decks, [i for i, d in enumerate(names) if is_validation_deck(d)]) | (views.scenes % 10 == 0)
    train_ids, val_ids = np.flatnonzero(~held), np.flatnonzero(held)
    real_val_ids = np.flatnonzero(held & (views.decks == -1))
    log(f"{len(views.images)} views, {sum(len(c) for c in views.corners)} corners; "
        f"{len(val_ids)} views for validation ({time.time() - started:.0f} s so far)")
    minutes = budget("corner detector", args.minutes, args.after, args.deadline, log) if args.steps is None \
        else args.minutes
    net, report = train(views, train_ids, val_ids, minutes, args.batch, args.seed, args.device, args.checkpoint,
                        args.steps)
    for t, (found, false) in sorted(report.items()):
        log(f"  threshold {t:.2f}: {100 * found:.1f} % of validation corners found, {false:.2f} false peaks a view")
    if len(real_val_ids):
        for t, (found, false) in sorted(evaluate(net, views, real_val_ids, args.device).items()):
            log(f"  threshold {t:.2f}, real photos' validation views: {100 * found:.1f} % of corners found, "
                f"{false:.2f} false peaks a view")
    threshold = THRESHOLD
    found, false = report[threshold]
    onnx_path, meta_path = export(net, args.out, threshold, {
        "validation": {"corners_found": round(found, 4), "false_per_view": round(false, 3)},
        "trained_on": names, "held_out": list(HELD_OUT_DECKS), "seed": args.seed,
        "real_views_per_photo": args.real_views_per_photo})
    log(f"threshold {threshold}: wrote {onnx_path} ({onnx_path.stat().st_size / 1024:.0f} KB) and {meta_path}; "
        f"total {(time.time() - started) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())

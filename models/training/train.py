"""Fit the network to the crop set, showing progress; then calibrate it and pick the threshold.

Calibration is temperature scaling on held-back validation scenes: every tenth scene of the
training decks, and synthetic decks set in font families no training deck uses. The
threshold is chosen for precision first: the lowest confidence at which reads on the validation
crops are still almost never wrong, and never below MIN_THRESHOLD.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from models.training.augment import augment, to_input
from models.training.net import CardNet, Pair, Shrunk

# Never lower: on the real photographs' steer part, classifiers whose validation crops allowed
# 0.978-0.9957 read cards of decks the render lacks wrong at 0.98-0.993, and none at 0.99884
# (models/HISTORY.md, section 13).  Rendered validation crops cannot see that band.
MIN_THRESHOLD = 0.998
WRONG_BUDGET = 0.0005  # at most this share of validation card crops may be read wrong
MAX_LR = 4e-3
PROGRESS_CROPS = 4096  # validation crops read after each epoch to show progress (all of them calibrate)
STEPS_PER_EPOCH = 150  # an "epoch" here is a progress report: batches are drawn class-balanced at random


@dataclass
class Fitted:
    net: torch.nn.Module
    temperature: float
    threshold: float
    report: dict


def log(message: str) -> None:
    print(time.strftime("%H:%M:%S ") + message, flush=True)


def balanced_weights(labels: np.ndarray, classes: int, background: int | None = None,
                     real: np.ndarray | None = None, real_share: float = 0.0) -> torch.Tensor:
    """Per-sample weights so every card and "not a card" are drawn about equally often.

    With `real` (a mask of the crops cut from real photographs) and real_share > 0, those crops are
    drawn as real_share of every batch instead, half their cards and half their "not a card", each
    crop within its half alike: balanced by class, "not a card" (one class among 53, its crops half
    the set) would draw each real negative a fraction of once in a whole training run, too seldom to
    learn the print and court art the classifier nearly reads. The rendered crops share the rest."""
    if real is None or real_share <= 0 or not real.any():
        rendered = np.ones(len(labels), bool)
        real_share = 0.0
    else:
        rendered = ~real
    counts = np.bincount(labels[rendered], minlength=classes).astype(np.float64)
    per_class = 1.0 / np.maximum(counts, 1.0)
    weights = np.where(rendered, per_class[labels], 0.0)
    weights *= (1.0 - real_share) / weights.sum()
    if real_share > 0:
        groups = [real & (labels != background), real & (labels == background)]
        present = [g for g in groups if g.any()]
        for group in present:
            weights[group] = real_share / len(present) / group.sum()
    return torch.as_tensor(weights, dtype=torch.double)


def channels_last(x: torch.Tensor) -> torch.Tensor:
    """The batch laid out pixel by pixel (NHWC in memory): oneDNN's convolutions on this CPU run about
    1.5 times as fast so, which buys the time-budgeted training more steps."""
    return x.contiguous(memory_format=torch.channels_last)


def predict_logits(net: torch.nn.Module, crops: np.ndarray, batch: int = 256) -> np.ndarray:
    net.eval()
    device = next(net.parameters()).device
    out = []
    with torch.no_grad():
        # At least one batch, even an empty one, so that no crops still give N x classes logits.
        for i in range(0, max(len(crops), 1), batch):
            x = to_input(torch.from_numpy(crops[i:i + batch]).to(device))
            out.append(net(channels_last(x)).cpu().numpy())
    return np.concatenate(out)


def train(train_x: np.ndarray, train_y: np.ndarray, val_x: np.ndarray, val_y: np.ndarray, *,
          classes: int, background: int, minutes: float, batch: int = 192, seed: int = 0,
          head: str = "pool", size: tuple[int, int] | None = None, device: str = "cpu",
          real: np.ndarray | None = None, real_share: float = 0.0, coarse: float = 0.0,
          stretched: float = 0.0) -> Fitted:
    """Train for about `minutes` of wall time (whole epochs), then calibrate on the validation set.

    coarse, stretched: the shares of each batch's crops coarsened and stretched (models.training.augment).
    real, real_share: the training crops cut from real photographs, and the share of each batch
    drawn from them (balanced_weights).
    size: (height, width) the network reads, when smaller than the crops (it shrinks them itself).
    device: where it trains ("cuda" on a GPU: the crops are kept there); it is calibrated on the CPU.
    """
    torch.manual_seed(seed)
    height, width = train_x.shape[1:3]
    size = size or (height, width)
    net: torch.nn.Module = CardNet(size[0], size[1], classes, head=head)
    if size != (height, width):
        net = Shrunk(net, (height, width), size)
    on = torch.device(device)
    net = net.to(on, memory_format=torch.channels_last)
    params = sum(p.numel() for p in net.parameters())
    log(f"network: {params} parameters, input {size[0]}x{size[1]} (crops {height}x{width}); "
        f"{len(train_x)} training crops, {len(val_x)} validation crops; on {on}")
    weights = balanced_weights(train_y, classes, background, real, real_share)
    # The schedule follows wall time, not a step count: on a shared machine the speed of a step
    # changes from minute to minute, and the budget is what `make model` promises.
    optimiser = torch.optim.AdamW(net.parameters(), lr=MAX_LR, weight_decay=1e-4)
    xs, ys = torch.from_numpy(train_x).to(on), torch.from_numpy(train_y).to(on)
    # Reading every validation crop after each epoch took a third of the time budget; a fixed sample
    # shows progress as well.
    progress = np.sort(np.random.default_rng(seed).permutation(len(val_y))[:PROGRESS_CROPS])
    budget = minutes * 60.0
    start = time.time()
    epoch = 0
    while time.time() - start < budget:
        epoch += 1
        net.train()
        seen = correct = 0
        loss_sum = 0.0
        for _ in range(STEPS_PER_EPOCH):
            done = (time.time() - start) / budget
            if done >= 1.0:
                break
            for group in optimiser.param_groups:
                group["lr"] = learning_rate(done)
            idx = torch.multinomial(weights, batch, replacement=True).to(on)
            target = ys[idx]
            logits = net(channels_last(augment(xs[idx], coarse, stretched)))
            loss = F.cross_entropy(logits, target)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            loss_sum += loss.item() * len(idx)
            correct += int((logits.argmax(1) == target).sum())
            seen += len(idx)
        val_pred = predict_logits(net, val_x[progress]).argmax(1)
        val_acc = float((val_pred == val_y[progress]).mean()) if len(progress) else float("nan")
        log(f"epoch {epoch} ({seen} crops): loss {loss_sum / max(seen, 1):.4f}, train acc "
            f"{correct / max(seen, 1):.4f}, val acc {val_acc:.4f}, lr {learning_rate(done):.5f}, "
            f"{time.time() - start:.0f} of {budget:.0f} s")
    return calibrated(net.to("cpu"), val_x, val_y, background)


def train_pair(train_x: np.ndarray, train_y: np.ndarray, val_x: np.ndarray, val_y: np.ndarray, *,
               sizes: list[tuple[int, int]], classes: int, background: int, minutes: float, seed: int = 0,
               head: str = "pool", device: str = "cpu", real: np.ndarray | None = None,
               real_share: float = 0.0, coarse: float = 0.0, stretched: float = 0.0) -> Fitted:
    """One network per input size (height, width), each trained for its share of `minutes` and
    calibrated, joined as one model (net.Pair) that is calibrated again and given its threshold on
    the same validation crops."""
    if len(sizes) == 1:
        return train(train_x, train_y, val_x, val_y, classes=classes, background=background, minutes=minutes,
                     seed=seed, head=head, size=sizes[0], device=device, real=real, real_share=real_share,
                     coarse=coarse, stretched=stretched)
    fitted = []
    for i, size in enumerate(sizes):
        log(f"network {i + 1} of {len(sizes)}, reading {size[0]}x{size[1]}")
        fitted.append(train(train_x, train_y, val_x, val_y, classes=classes, background=background,
                            minutes=minutes / len(sizes), seed=seed + i, head=head, size=size, device=device,
                            real=real, real_share=real_share, coarse=coarse, stretched=stretched))
    return calibrated(Pair([f.net for f in fitted], [f.temperature for f in fitted]), val_x, val_y, background,
                      f"{len(sizes)} networks together: ")


def calibrated(net: torch.nn.Module, val_x: np.ndarray, val_y: np.ndarray, background: int,
               what: str = "") -> Fitted:
    """The net with its temperature and threshold, both chosen on the validation crops (and logged)."""
    val_logits = predict_logits(net, val_x)
    temperature = fit_temperature(val_logits, val_y)
    threshold, report = choose_threshold(val_logits / temperature, val_y, background)
    log(f"{what}temperature {temperature:.3f}, threshold {threshold:.4f}: " +
        ", ".join(f"{k} {v}" for k, v in report.items()))
    return Fitted(net, temperature, threshold, report)


def learning_rate(done: float) -> float:
    """Warm up over the first 5 % of the time budget, then a cosine down to 1 % of MAX_LR."""
    if done < 0.05:
        return MAX_LR * max(done / 0.05, 0.05)
    t = min(1.0, (done - 0.05) / 0.95)
    return MAX_LR * (0.01 + 0.99 * 0.5 * (1 + math.cos(math.pi * t)))


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature minimising validation negative log-likelihood (a 1-D search is plenty)."""
    if len(labels) == 0:
        return 1.0
    best_t, best_nll = 1.0, math.inf
    for t in np.exp(np.linspace(math.log(0.25), math.log(8.0), 121)):
        p = softmax(logits.astype(np.float64) / t)[np.arange(len(labels)), labels]
        nll = float(-np.log(np.maximum(p, 1e-12)).mean())
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def choose_threshold(scaled_logits: np.ndarray, labels: np.ndarray, background: int) -> tuple[float, dict]:
    """Lowest threshold keeping wrong reads within WRONG_BUDGET of the validation cards; never < MIN_THRESHOLD.

    A wrong read is any crop read as a card it is not, "not a card" crops included.
    """
    probs = softmax(scaled_logits.astype(np.float64))
    pred = probs.argmax(1)
    conf = probs.max(1)
    is_card_read = pred != background
    wrong = is_card_read & (pred != labels)
    cards = int((labels != background).sum())
    budget = WRONG_BUDGET * max(cards, 1)
    threshold = MIN_THRESHOLD
    wrong_conf = np.sort(conf[wrong])[::-1]
    # Raise the threshold until at most `budget` wrong reads are above it.
    allowed = int(math.floor(budget))
    if len(wrong_conf) > allowed:
        threshold = max(threshold, float(min(wrong_conf[allowed] + 1e-6, 0.9999)))
    accepted = is_card_read & (conf >= threshold)
    report = {
        "val_cards": cards,
        "val_not_cards": int(len(labels) - cards),
        "read_right": round(float((accepted & (pred == labels)).sum()) / max(cards, 1), 5),
        "read_wrong": round(float((accepted & (pred != labels)).sum()) / max(cards, 1), 5),
        "not_cards_read_as_cards": int((accepted & (labels == background)).sum()),
    }
    return threshold, report

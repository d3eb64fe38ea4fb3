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
from models.training.net import CardNet

MIN_THRESHOLD = 0.90
WRONG_BUDGET = 0.0005  # at most this share of validation card crops may be read wrong
MAX_LR = 4e-3
STEPS_PER_EPOCH = 150  # an "epoch" here is a progress report: batches are drawn class-balanced at random


@dataclass
class Fitted:
    net: CardNet
    temperature: float
    threshold: float
    report: dict


def log(message: str) -> None:
    print(time.strftime("%H:%M:%S ") + message, flush=True)


def balanced_weights(labels: np.ndarray, classes: int) -> torch.Tensor:
    """Per-sample weights so every card and "not a card" are drawn about equally often."""
    counts = np.bincount(labels, minlength=classes).astype(np.float64)
    per_class = 1.0 / np.maximum(counts, 1.0)
    return torch.as_tensor(per_class[labels], dtype=torch.double)


def predict_logits(net: CardNet, crops: np.ndarray, batch: int = 1024) -> np.ndarray:
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(crops), batch):
            out.append(net(to_input(torch.from_numpy(crops[i:i + batch]))).numpy())
    return np.concatenate(out) if out else np.zeros((0, net.head[-1].out_features), np.float32)


def train(train_x: np.ndarray, train_y: np.ndarray, val_x: np.ndarray, val_y: np.ndarray, *,
          classes: int, background: int, minutes: float, batch: int = 192, seed: int = 0,
          head: str = "pool") -> Fitted:
    """Train for about `minutes` of wall time (whole epochs), then calibrate on the validation set."""
    torch.manual_seed(seed)
    height, width = train_x.shape[1:3]
    net = CardNet(height, width, classes, head=head)
    params = sum(p.numel() for p in net.parameters())
    log(f"network: {params} parameters, input {height}x{width}; {len(train_x)} training crops, "
        f"{len(val_x)} validation crops")
    weights = balanced_weights(train_y, classes)
    # The schedule follows wall time, not a step count: on a shared machine the speed of a step
    # changes from minute to minute, and the budget is what `make model` promises.
    optimiser = torch.optim.AdamW(net.parameters(), lr=MAX_LR, weight_decay=1e-4)
    xs, ys = torch.from_numpy(train_x), torch.from_numpy(train_y)
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
            idx = torch.multinomial(weights, batch, replacement=True)
            target = ys[idx]
            logits = net(augment(xs[idx]))
            loss = F.cross_entropy(logits, target)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            loss_sum += loss.item() * len(idx)
            correct += int((logits.argmax(1) == target).sum())
            seen += len(idx)
        val_pred = predict_logits(net, val_x).argmax(1)
        val_acc = float((val_pred == val_y).mean()) if len(val_y) else float("nan")
        log(f"epoch {epoch} ({seen} crops): loss {loss_sum / max(seen, 1):.4f}, train acc "
            f"{correct / max(seen, 1):.4f}, val acc {val_acc:.4f}, lr {learning_rate(done):.5f}, "
            f"{time.time() - start:.0f} of {budget:.0f} s")
    val_logits = predict_logits(net, val_x)
    temperature = fit_temperature(val_logits, val_y)
    threshold, report = choose_threshold(val_logits / temperature, val_y, background)
    log(f"temperature {temperature:.3f}, threshold {threshold:.4f}: " +
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

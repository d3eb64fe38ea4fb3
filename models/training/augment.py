"""Cheap, heavy augmentation of whole batches of index crops, in torch, during training.

The renderer already varies tables, perspective, light, blur, noise and JPEG for every scene; this
adds per-crop variation on top, so each epoch sees new crops: a slightly mis-registered cut (the
finder's corners are never exact), light and colour casts, blur, sensor noise and a faded print.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def jitter_geometry(x: torch.Tensor, shift: float = 0.08, scale: float = 0.2, angle_deg: float = 6.0) -> torch.Tensor:
    """Small random shift, scale and rotation of each crop (edges filled by replication)."""
    n, on = x.shape[0], {"device": x.device}
    a = torch.empty(n, **on).uniform_(-angle_deg, angle_deg) * math.pi / 180.0
    s = 1.0 + torch.empty(n, **on).uniform_(-scale, scale)
    tx = torch.empty(n, **on).uniform_(-shift, shift) * 2
    ty = torch.empty(n, **on).uniform_(-shift, shift) * 2
    cos, sin = torch.cos(a) * s, torch.sin(a) * s
    theta = torch.stack([torch.stack([cos, -sin, tx], 1), torch.stack([sin, cos, ty], 1)], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


def jitter_photometry(x: torch.Tensor) -> torch.Tensor:
    """Brightness, contrast, gamma, colour cast, occasional desaturation and fading.

    The occasional steps run only on the crops picked for them (the same random draws either way):
    on the detector's big patches this halves the cost of the whole augmentation.
    """
    n, on = x.shape[0], {"device": x.device}
    gain = torch.empty(n, 1, 1, 1, **on).uniform_(0.55, 1.35)
    cast = torch.empty(n, 3, 1, 1, **on).uniform_(0.85, 1.15)
    offset = torch.empty(n, 1, 1, 1, **on).uniform_(-0.12, 0.12)
    gamma = torch.empty(n, 1, 1, 1, **on).uniform_(0.7, 1.4)
    # One new tensor, then in place: on big batches each fresh tensor costs as much as the arithmetic.
    x = x.clamp(1e-4, 1.0).log_().mul_(gamma).exp_().mul_(gain * cast).add_(offset)
    desat = (torch.rand(n, 1, 1, 1, **on) < 0.15).float() * torch.empty(n, 1, 1, 1, **on).uniform_(0.3, 1.0)
    _towards(x, desat, lambda part: part.mean(dim=1, keepdim=True))
    fade = (torch.rand(n, 1, 1, 1, **on) < 0.2).float() * torch.empty(n, 1, 1, 1, **on).uniform_(0.0, 0.4)
    _towards(x, fade, lambda part: part.mean(dim=(1, 2, 3), keepdim=True))
    return x


def _towards(x: torch.Tensor, weight: torch.Tensor, target) -> None:
    """In place: each crop with a non-zero weight moved that share of the way to target(its crops)."""
    pick = weight.flatten() > 0
    if pick.any():
        part = x[pick]
        x[pick] = torch.lerp(part, target(part), weight[pick])


def jitter_blur_noise(x: torch.Tensor) -> torch.Tensor:
    """Box blur on some crops, Gaussian sensor noise on all (random strength)."""
    n, on = x.shape[0], {"device": x.device}
    pick = torch.rand(n, **on) < 0.3
    if pick.any():  # blur only the picked ones: on the detector's big patches the blur is costly
        x = x.clone()
        x[pick] = F.avg_pool2d(F.pad(x[pick], (1, 1, 1, 1), mode="replicate"), 3, stride=1)
    sigma = torch.empty(n, 1, 1, 1, **on).uniform_(0.0, 0.06)
    return torch.randn_like(x).mul_(sigma).add_(x)


def coarsen(x: torch.Tensor, share: float) -> torch.Tensor:
    """That share of the crops printed coarsely: shrunk 2 to 3.5 times and enlarged again (blocky or
    soft), as a deck whose indices are small bitmaps, enlarged, prints them a few pixels a stroke."""
    if share <= 0:
        return x
    pick = torch.rand(x.shape[0], device=x.device) < share
    if not pick.any():
        return x
    h, w = x.shape[2:]
    factor = float(torch.empty(()).uniform_(2.0, 3.5))
    small = F.interpolate(x[pick], size=(max(1, round(h / factor)), max(1, round(w / factor))), mode="area")
    x = x.clone()
    if torch.rand(()) < 0.5:
        x[pick] = F.interpolate(small, size=(h, w), mode="nearest")
    else:
        x[pick] = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    return x


STRETCH_ACROSS = (1.0, 1.6)  # how much a stretched crop is magnified across (an outline 0.6 of a card's width) ...
STRETCH_DOWN = (1.0, 1.4)    # ... and down (an outline 0.7 of a card's length)
STRETCH_WAYS = (0.7, 0.5)    # the chances that a picked crop is stretched across, and down


def stretch(x: torch.Tensor, share: float) -> torch.Tensor:
    """That share of the crops cut from an outline narrower or shorter than the card: magnified across,
    down or both, from the top-left corner where the index is. The crop is cut in the outline's own
    coordinates, so a card partly covered, outlined as far as it shows, has its index stretched; a spade
    stretched across looks like a club to a classifier that never saw one so."""
    if share <= 0:
        return x
    pick = torch.rand(x.shape[0], device=x.device) < share
    n = int(pick.sum())
    if n == 0:
        return x
    on = {"device": x.device}
    one = torch.ones(n, **on)
    across = torch.where(torch.rand(n, **on) < STRETCH_WAYS[0], torch.empty(n, **on).uniform_(*STRETCH_ACROSS), one)
    down = torch.where(torch.rand(n, **on) < STRETCH_WAYS[1], torch.empty(n, **on).uniform_(*STRETCH_DOWN), one)
    zero = torch.zeros(n, **on)
    # Output (x, y) in -1..1 samples the input at ((x + 1) / m - 1, ...): the top-left corner stays put.
    theta = torch.stack([torch.stack([1 / across, zero, 1 / across - 1], 1),
                         torch.stack([zero, 1 / down, 1 / down - 1], 1)], 1)
    grid = F.affine_grid(theta, [n, *x.shape[1:]], align_corners=False)
    x = x.clone()
    x[pick] = F.grid_sample(x[pick], grid, mode="bilinear", padding_mode="border", align_corners=False)
    return x


def augment(batch_uint8: torch.Tensor, coarse: float = 0.0, stretched: float = 0.0) -> torch.Tensor:
    """uint8 N x H x W x 3 crops -> float N x 3 x H x W in 0..1, augmented; coarse: the share of crops
    coarsened (coarsen); stretched: the share cut as from an outline smaller than the card (stretch)."""
    x = batch_uint8.permute(0, 3, 1, 2).float() / 255.0
    x = stretch(x, stretched)
    x = jitter_geometry(x)
    x = coarsen(x, coarse)
    x = jitter_photometry(x)
    x = jitter_blur_noise(x)
    return x.clamp_(0.0, 1.0)


def to_input(batch_uint8: torch.Tensor) -> torch.Tensor:
    """uint8 N x H x W x 3 crops -> float N x 3 x H x W in 0..1, exactly as vision.classifier feeds them."""
    return batch_uint8.permute(0, 3, 1, 2).float() / 255.0

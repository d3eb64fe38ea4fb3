"""The card classifier network: a few small convolutions over an index-corner crop.

One 53-way softmax (52 cards + "not a card") rather than separate rank and suit heads: the product
needs one calibrated probability per card, and a joint softmax gives exactly that; the convolutional
features are shared by all classes anyway, so rank and suit still learn from every deck's cards.
The head pools the last feature map over all positions (mean and max) instead of flattening it:
decks put the suit below the rank, beside it, big or small, and a pooled head reads the glyphs
wherever they sit (a flattened head, tried first, learnt the training decks' layout and was unsure
on a held-out deck whose suit sits beside the rank).
Each crop is normalised by its own mean and contrast inside the network, so lighting and white
balance matter less and the exported model takes plain 0..1 pixels.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from models.training.shrink import area_matrix


def conv_block(cin: int, cout: int, pool: bool) -> nn.Sequential:
    layers = [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
    if pool:
        layers.append(nn.MaxPool2d(2))
    return nn.Sequential(*layers)


class CardNet(nn.Module):
    """crops (N x 3 x H x W, 0..1) -> logits (N x classes)."""

    def __init__(self, height: int, width: int, classes: int = 53, widths=(16, 32, 48, 64, 96),
                 head: str = "pool"):
        super().__init__()
        self.pooled = head == "pool"
        blocks, cin = [], 3
        for i, cout in enumerate(widths):
            blocks.append(conv_block(cin, cout, pool=i < len(widths) - 1))
            cin = cout
        self.features = nn.Sequential(*blocks)
        with torch.no_grad():
            h, w = self.features(torch.zeros(1, 3, height, width)).shape[2:]
        if self.pooled:
            self.squeeze = nn.Identity()
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(2 * cin, classes))
        else:
            self.squeeze = nn.Sequential(nn.Conv2d(cin, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True))
            self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(32 * h * w, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        x = (x - mean) / (std + 0.05)
        features = self.squeeze(self.features(x))
        if self.pooled:
            features = torch.cat([features.mean(dim=(2, 3)), features.amax(dim=(2, 3))], dim=1)
        return self.head(features)


class Shrunk(nn.Module):
    """A CardNet that reads the crop shrunk to its own size first (area averaging).

    The pair of networks below reads one crop cut at the larger size; the smaller network's view of
    it is this shrink, in training and in the exported graph alike, so both see the same pixels.
    """

    def __init__(self, net: CardNet, source: tuple[int, int], target: tuple[int, int]):
        super().__init__()
        self.net = net
        self.register_buffer("rows", torch.from_numpy(area_matrix(source[0], target[0])))
        self.register_buffer("cols", torch.from_numpy(area_matrix(source[1], target[1]).T.copy()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(torch.matmul(torch.matmul(self.rows, x), self.cols))


class Pair(nn.Module):
    """Several calibrated networks as one model: the mean of their log-probabilities.

    Networks that read the index at different sizes misread different crops: the 32 x 56 one takes
    URW Bookman's Q for a 9, the 40 x 70 one some small clubs for spades. Averaging their calibrated
    log-probabilities (a geometric mean of the probabilities) keeps a read only where both lean the
    same way. The output is recalibrated as a whole (labels.json's temperature) like any logits.
    """

    def __init__(self, members: list[nn.Module], temperatures: list[float]):
        super().__init__()
        self.members = nn.ModuleList(members)
        self.temperatures = [float(t) for t in temperatures]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logp = [F.log_softmax(m(x) / t, dim=1) for m, t in zip(self.members, self.temperatures)]
        return torch.stack(logp).mean(dim=0)

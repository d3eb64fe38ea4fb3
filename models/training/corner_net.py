"""The index-corner detector's network: a small encoder to 1/16 of the frame, two steps back up to
1/4, one 1x1 head (vision.corners describes its seven outputs).

Cheap on purpose: it runs on every frame beside the card finder, on one core of a Pi.  The deepest
level widens its view with dilated convolutions so a cell can tell which way its card runs (the
`down` side reaches over a whole card); the shallow levels, added back on the way up, place the
corner to a pixel or two.  Each frame is normalised by its own mean and contrast inside the network.
"""

from __future__ import annotations

import torch
from torch import nn
import torch.nn.functional as F

OUTPUTS = 7
HEAT_PRIOR = 0.01  # the heat map starts out saying "no corner here" with this probability


def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def squeeze(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))


class CornerNet(nn.Module):
    """frames (N x 3 x H x W, 0..1 BGR, H and W multiples of 16) -> N x 7 x H/4 x W/4."""

    def __init__(self, widths: tuple[int, int, int, int] = (16, 24, 32, 64)):
        super().__init__()
        w2, w4, w8, w16 = widths
        self.down2 = conv(3, w2, 2)
        self.down4 = conv(w2, w4, 2)
        self.down8 = nn.Sequential(conv(w4, w8, 2), conv(w8, w8))
        self.down16 = nn.Sequential(conv(w8, w16, 2), conv(w16, w16, dilation=2), conv(w16, w16, dilation=4))
        self.up8 = squeeze(w16, w8)
        self.mix8 = conv(w8, w8)
        self.up4 = squeeze(w8, w4)
        self.mix4 = conv(w4, w4)
        self.head = nn.Sequential(nn.Conv2d(w4, w4, 1), nn.ReLU(inplace=True), nn.Conv2d(w4, OUTPUTS, 1))
        with torch.no_grad():
            self.head[-1].bias.zero_()
            self.head[-1].bias[0] = float(torch.logit(torch.tensor(HEAT_PRIOR)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        x = (x - mean) / (std + 0.05)
        a4 = self.down4(self.down2(x))
        a8 = self.down8(a4)
        a16 = self.down16(a8)
        b8 = self.mix8(F.relu(a8 + self.up8(F.interpolate(a16, scale_factor=2.0, mode="nearest"))))
        b4 = self.mix4(F.relu(a4 + self.up4(F.interpolate(b8, scale_factor=2.0, mode="nearest"))))
        return self.head(b4)

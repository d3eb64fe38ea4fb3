"""Zones of the table in image coordinates: a seat in front of each player, the centre, maybe a crib.

The tracker asks `zone_of(point)` for each card's centre; the config stores the polygons that
`muggins calibrate` drew, and `default_zones` gives a layout to start from.
"""

from __future__ import annotations

from types import MappingProxyType
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

import cv2
import numpy as np

from vision.errors import VisionError
from vision.zone_names import CENTRE, CRIB, NAMES_HELP, seat, seat_number


class ZoneError(VisionError, ValueError):
    """A zone in the config is wrong; the message names the zone and the fault."""


def _segments_cross(p1, p2, q1, q2) -> bool:
    """True if segments p1p2 and q1q2 cross at a point inside both (touching ends do not count)."""
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def _edges_cross(points: np.ndarray) -> bool:
    n = len(points)
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue                      # neighbouring edges share a corner
            if _segments_cross(points[i], points[(i + 1) % n], points[j], points[(j + 1) % n]):
                return True
    return False


def _polygon(name: str, points) -> np.ndarray:
    """Check one zone's points and return them as an N x 2 float32 array."""
    try:
        array = np.asarray(points, dtype=np.float64)
    except (TypeError, ValueError):
        raise ZoneError(f"zone {name!r}: points must be [x, y] pairs of numbers, got {points!r}") from None
    if array.ndim != 2 or array.shape[1] != 2:
        raise ZoneError(f"zone {name!r}: points must be [x, y] pairs, got {points!r}")
    if len(array) < 3:
        raise ZoneError(f"zone {name!r}: a zone needs at least 3 corners, got {len(array)}")
    if not np.all(np.isfinite(array)):
        raise ZoneError(f"zone {name!r}: corners must be finite numbers")
    if _edges_cross(array):
        raise ZoneError(f"zone {name!r}: its edges cross each other; list the corners in order around it")
    area = 0.5 * abs(float(np.dot(array[:, 0], np.roll(array[:, 1], -1))
                           - np.dot(array[:, 1], np.roll(array[:, 0], -1))))
    if area < 1.0:
        raise ZoneError(f"zone {name!r}: its corners enclose no area (all in a line?)")
    return array.astype(np.float32)


@dataclass(frozen=True, eq=False)
class Zones:
    """Named polygons. Zones may overlap (a hand-drawn calibration rarely meets exactly):
    a point inside several belongs to the one it lies deepest inside.

    Build with Zones.from_config(...) or default_zones(...); names follow 'seat:N', 'centre', 'crib',
    with seats numbered 0, 1, ... without gaps and a centre always present.
    """

    polygons: Mapping[str, np.ndarray]

    @classmethod
    def from_config(cls, config: Mapping[str, Iterable]) -> "Zones":
        """From {"seat:0": [[x, y], ...], "centre": [...], ...}; ZoneError names anything wrong."""
        if not isinstance(config, Mapping):
            raise ZoneError(f"zones must be a table of name = [[x, y], ...], got {type(config).__name__}")
        polygons: dict[str, np.ndarray] = {}
        for name, points in config.items():
            name = str(name)
            if name == "center":
                name = CENTRE
            if name in polygons:
                raise ZoneError(f"zone {name!r} is given twice")
            if name not in (CENTRE, CRIB) and seat_number(name) is None:
                raise ZoneError(f"unknown zone {name!r}: {NAMES_HELP}")
            polygons[name] = _polygon(name, points)
        seats = sorted(n for n in map(seat_number, polygons) if n is not None)
        if not seats:
            raise ZoneError(f"no seat zones: {NAMES_HELP}")
        if seats != list(range(len(seats))):
            raise ZoneError(f"seats must be numbered 0 to {len(seats) - 1} without gaps, got "
                            + ", ".join(map(str, seats)))
        if CENTRE not in polygons:
            raise ZoneError("no 'centre' zone: the starter is turned up there")
        ordered = {seat(i): polygons[seat(i)] for i in seats}
        ordered[CENTRE] = polygons[CENTRE]
        if CRIB in polygons:
            ordered[CRIB] = polygons[CRIB]
        return cls(MappingProxyType(ordered))

    def to_config(self) -> dict[str, list[list[float]]]:
        """The JSON/TOML-able form that from_config reads back."""
        return {name: [[round(float(x), 1), round(float(y), 1)] for x, y in poly]
                for name, poly in self.polygons.items()}

    @property
    def names(self) -> tuple[str, ...]:
        """Seats in order, then 'centre', then 'crib' if there is one."""
        return tuple(self.polygons)

    @property
    def players(self) -> int:
        """How many seats."""
        return sum(1 for n in self.polygons if seat_number(n) is not None)

    @property
    def has_crib(self) -> bool:
        return CRIB in self.polygons

    def __getitem__(self, name: str) -> np.ndarray:
        return self.polygons[name]

    def __contains__(self, name: object) -> bool:
        return name in self.polygons

    def __iter__(self) -> Iterator[str]:
        return iter(self.polygons)

    def __len__(self) -> int:
        return len(self.polygons)

    def zone_of(self, point: tuple[float, float]) -> str | None:
        """The zone holding this point (edges count as inside); the deepest if several; None if none."""
        x, y = float(point[0]), float(point[1])
        best, best_depth = None, -1.0
        for name, poly in self.polygons.items():
            depth = cv2.pointPolygonTest(poly.reshape(-1, 1, 2), (x, y), True)
            if depth >= 0 and depth > best_depth:
                best, best_depth = name, depth
        return best

    def scaled(self, sx: float, sy: float | None = None) -> "Zones":
        """The same zones for a frame resized by sx (and sy): calibrate at one size, run at another."""
        factor = np.array([sx, sx if sy is None else sy], np.float32)
        return Zones(MappingProxyType({name: poly * factor for name, poly in self.polygons.items()}))

    def __repr__(self) -> str:
        return f"Zones.from_config({self.to_config()!r})"


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def default_zones(width: int, height: int, players: int = 2, *, crib: bool = False) -> Zones:
    """A starting layout for a camera looking straight down, the near edge of the table at the bottom.

    Seats are bands along the near (bottom) and far (top) edges, numbered clockwise as seen from
    above, the order play passes in: 2 players: seat:0 near, seat:1 far. 3: seat:0 near,
    seat:1 far left, seat:2 far right. 4: seat:0 near right, seat:1 near left, seat:2 far left,
    seat:3 far right (partners face each other). The centre sits in the middle band; with crib,
    the crib zone takes the right part of that band.
    """
    if players not in (2, 3, 4):
        raise ZoneError(f"default zones are for 2, 3 or 4 players, not {players}")
    if width < 16 or height < 16:
        raise ZoneError(f"frame of {width}x{height} is too small for zones")
    w, h = float(width), float(height)
    m = 0.02 * min(w, h)                    # margin: keeps edges of the frame, where lenses blur, out
    band = 0.32 * h                         # depth of each seat band
    near = (h - m - band, h - m)
    far = (m, m + band)
    gap = 0.015 * w                         # keeps side-by-side seats apart
    left, right = (m, w / 2 - gap), (w / 2 + gap, w - m)
    zones: dict[str, list[list[float]]] = {}
    if players == 2:
        zones[seat(0)] = _rect(m, near[0], w - m, near[1])
        zones[seat(1)] = _rect(m, far[0], w - m, far[1])
    elif players == 3:
        zones[seat(0)] = _rect(m, near[0], w - m, near[1])
        zones[seat(1)] = _rect(left[0], far[0], left[1], far[1])
        zones[seat(2)] = _rect(right[0], far[0], right[1], far[1])
    else:
        zones[seat(0)] = _rect(right[0], near[0], right[1], near[1])
        zones[seat(1)] = _rect(left[0], near[0], left[1], near[1])
        zones[seat(2)] = _rect(left[0], far[0], left[1], far[1])
        zones[seat(3)] = _rect(right[0], far[0], right[1], far[1])
    middle = (far[1] + m, near[0] - m)
    if crib:
        zones[CENTRE] = _rect(0.25 * w, middle[0], 0.58 * w, middle[1])
        zones[CRIB] = _rect(0.62 * w, middle[0], 0.9 * w, middle[1])
    else:
        zones[CENTRE] = _rect(0.3 * w, middle[0], 0.7 * w, middle[1])
    return Zones.from_config(zones)


def zones_for_game(config: Mapping[str, Iterable] | None, width: int, height: int, players: int,
                   *, crib: bool = False) -> Zones:
    """The zones to play with: the config's if it has any, else the default layout.

    Config zones are checked against the game: one seat per player, and every zone at least
    partly inside the width x height frame (else they were drawn for another camera setting).
    """
    if not config:
        return default_zones(width, height, players, crib=crib)
    zones = Zones.from_config(config)
    if zones.players != players:
        raise ZoneError(f"the zones have {zones.players} seats but the game has {players} players: "
                        "run `muggins calibrate` to draw them again")
    for name, poly in zones.polygons.items():
        if (poly[:, 0].max() < 0 or poly[:, 1].max() < 0
                or poly[:, 0].min() > width or poly[:, 1].min() > height):
            raise ZoneError(f"zone {name!r} lies outside the {width}x{height} frame: were the zones drawn "
                            "at another resolution? run `muggins calibrate`")
    return zones


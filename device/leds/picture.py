"""Pictures of a frame, for the simulated board: coloured text for a terminal and a PNG image.

Both draw the board the way it is built, not the way the strip is wired: per track, rows of 60 holes
with the dealer LED and start hole in front and the game hole at the end.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence, TextIO

from device.leds.layout import Layout

Colour = tuple[int, int, int]
ROW = 60


def _grid(layout: Layout, track: int) -> list[list[int | None]]:
    """Rows of flat indices for one track: [dealer, start, 1..60], [61..120, game] (None: no LED)."""
    holes = layout.holes
    rows: list[list[int | None]] = []
    for first in range(1, holes + 1, ROW):
        rows.append([layout.index(track, h) for h in range(first, min(first + ROW, holes + 1))])
    rows[0] = [layout.dealer_index(track), layout.index(track, 0)] + rows[0]
    rows[-1] = rows[-1] + [layout.index(track, holes + 1)]
    return rows


def wants_colour(stream: TextIO) -> bool:
    """ANSI colour only on a terminal that is not marked dumb and when NO_COLOR is unset."""
    return (hasattr(stream, "isatty") and stream.isatty() and os.environ.get("TERM") != "dumb"
            and "NO_COLOR" not in os.environ)


def _visible(c: Colour) -> Colour:
    m = max(c)
    if 0 < m < 70:  # LEDs read brighter than screen pixels: lift dim ones so they show
        return tuple(round(x * 70 / m) for x in c)  # type: ignore[return-value]
    return c


def _plain(c: Colour) -> str:
    m = max(c)
    return "." if m == 0 else "-" if m < 40 else "o" if m < 160 else "#"


def text_picture(layout: Layout, frame: Sequence[Colour], names: Sequence[str] | None = None,
                 colour: bool = True) -> str:
    """The board as text: ANSI truecolour dots, or '.-o#' by brightness when colour is False."""
    lines = []
    for t in range(layout.tracks):
        label = (names[t] if names and t < len(names) else f"track {t}")[:8]
        for r, row in enumerate(_grid(layout, t)):
            cells = []
            pad = "" if r == 0 else "  "
            for i in row:
                c = (0, 0, 0) if i is None else frame[i]
                if colour:
                    if max(c) == 0:
                        cells.append("\x1b[38;2;60;60;60m·")
                    else:
                        rr, gg, bb = _visible(c)
                        cells.append(f"\x1b[38;2;{rr};{gg};{bb}m●")
                else:
                    cells.append(" " if i is None else _plain(c))
            text = "".join(cells) + ("\x1b[0m" if colour else "")
            lines.append(f"{label if r == 0 else '':8} {pad}{text}")
    return "\n".join(lines)


def board_image(layout: Layout, frame: Sequence[Colour], cell: int = 14):
    """The board as a BGR numpy image (needs numpy and OpenCV, imported here only)."""
    import cv2  # noqa: PLC0415
    import numpy as np  # noqa: PLC0415

    grids = [_grid(layout, t) for t in range(layout.tracks)]
    width = max(len(row) + (0 if r == 0 else 2) for g in grids for r, row in enumerate(g))
    n_rows = sum(len(g) for g in grids) + len(grids) - 1
    img = np.zeros(((n_rows + 1) * cell, (width + 1) * cell, 3), np.uint8)
    img[:] = (30, 50, 70)  # dark wood
    y = cell
    for g in grids:
        for r, row in enumerate(g):
            x = cell + (0 if r == 0 else 2 * cell)
            for i in row:
                if i is not None:
                    red, green, blue = frame[i]
                    centre = (x, y)
                    cv2.circle(img, centre, cell // 2 - 2, (20, 20, 20), -1, cv2.LINE_AA)
                    if max(frame[i]) > 0:
                        cv2.circle(img, centre, cell // 2 - 2, _visible((blue, green, red)), -1, cv2.LINE_AA)
                x += cell
            y += cell
        y += cell
    return img


def save_png(layout: Layout, frame: Sequence[Colour], path: str | Path, cell: int = 14) -> Path:
    """Write the board picture to a PNG file and return its path."""
    import cv2  # noqa: PLC0415

    path = Path(path)
    if not cv2.imwrite(str(path), board_image(layout, frame, cell)):
        raise OSError(f"could not write {path}")
    return path

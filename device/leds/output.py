"""The board's LEDs as one output: a rendered frame is dimmed to the power budget, cut per strip, shown.

    layout = Layout.from_config(config.board, config.game.sides)
    with open_output(config.board, layout, simulate=True, echo=sys.stdout) as leds:
        leds.show(board.render())
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence, TextIO

from device.leds import power
from device.leds.layout import Layout
from device.leds.picture import save_png, text_picture, wants_colour
from device.leds.strips import SimulatedStrip, SpiWs2812Strip, Strip

Colour = tuple[int, int, int]


class LedOutput:
    """Every strip of the board behind one `show(frame)`; brightness and the current cap applied here.

    With `echo` (a text stream) each new frame is also drawn there as text; a frame the same as the
    one drawn before is not drawn again, so a still board does not scroll the terminal.
    """

    def __init__(self, layout: Layout, strips: Sequence[Strip], brightness: float = 1.0,
                 budget_ma: float | None = None, echo: TextIO | None = None,
                 names: Sequence[str] | None = None):
        if len(strips) != len(layout.strip_sizes):
            raise ValueError(f"{len(strips)} strips for a layout of {len(layout.strip_sizes)}")
        self.layout, self.strips = layout, list(strips)
        self.brightness, self.budget_ma = brightness, budget_ma
        self.echo, self.names = echo, names
        self.last: list[Colour] | None = None      # as sent: dimmed and capped
        self.rendered: list[Colour] | None = None  # as the board rendered it
        self._echoed: list[Colour] | None = None
        self.closed = False

    def show(self, frame: Sequence[Colour]) -> list[Colour]:
        """Show a frame (as rendered by Board); returns what was actually sent, after dimming."""
        sent = power.limit(frame, self.brightness, self.budget_ma)
        for strip, part in zip(self.strips, self.layout.split(sent)):
            strip.show(part)
        self.last = sent
        self.rendered = list(frame)
        if self.echo is not None and self.rendered != self._echoed:
            # the picture shows the board as rendered: the dimmed frame would be too dark to read
            print(self.picture(wants_colour(self.echo)), file=self.echo)
            self._echoed = self.rendered
        return sent

    def picture(self, colour: bool = False) -> str:
        """The last frame shown, as text (ANSI truecolour when colour is True)."""
        return text_picture(self.layout, self.rendered or self.layout.blank(), self.names, colour)

    def save_png(self, path) -> Path:
        """The last frame shown, as a PNG picture of the board."""
        return save_png(self.layout, self.rendered or self.layout.blank(), path)

    def estimate_ma(self) -> float:
        """Estimated current of the last frame shown (mA)."""
        return power.estimate_ma(self.last or self.layout.blank())

    def close(self) -> None:
        """Dark and released; closing twice is harmless."""
        if self.closed:
            return
        self.closed = True
        for strip in self.strips:
            strip.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_output(board_config, layout: Layout, simulate: bool = False, echo: TextIO | None = None,
                names: Sequence[str] | None = None,
                spi_factory: Callable[[], object] | None = None) -> LedOutput:
    """The LEDs a BoardConfig describes: real WS2812 strips, or simulated ones when asked or configured.

    spi_factory, when given, makes the SPI object for each real strip (a FakeSpiDevice in tests).
    """
    strips: list[Strip] = []
    try:
        for i, (cfg, count) in enumerate(zip(board_config.strips, layout.strip_sizes)):
            if simulate or board_config.driver == "simulated":
                strips.append(SimulatedStrip(count, name=f"strip {i}"))
            else:
                spi = spi_factory() if spi_factory else None
                strips.append(SpiWs2812Strip(count, cfg.device, cfg.order, spi=spi))
    except BaseException:
        for strip in strips:
            strip.close()
        raise
    return LedOutput(layout, strips, board_config.brightness, board_config.current_budget_ma,
                     echo=echo, names=names)

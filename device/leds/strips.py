"""LED strips: one small interface, a real WS2812-over-SPI driver and a simulated one that records.

`Strip.show(colours)` puts one colour per LED on the strip; `close()` turns it dark and lets go of the
hardware, and is harmless twice. The SPI driver imports spidev only when a real strip is opened.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from device.errors import ConfigError, DeviceError, HardwareMissingError
from device.leds import ws2812

Colour = tuple[int, int, int]
SPIDEV_INSTALL = "pip install spidev  (or: sudo apt install python3-spidev)"
BUFSIZ_PATH = Path("/sys/module/spidev/parameters/bufsiz")


class Strip:
    """An LED strip of `count` LEDs."""

    count: int = 0
    closed: bool = False

    def show(self, colours: Sequence[Colour]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.closed = True

    def _check(self, colours: Sequence[Colour]) -> None:
        if self.closed:
            raise DeviceError(f"{self!r} is closed")
        if len(colours) != self.count:
            raise ValueError(f"{len(colours)} colours for a strip of {self.count} LEDs")

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class SimulatedStrip(Strip):
    """A strip that keeps every frame it is shown in `frames` (newest last)."""

    def __init__(self, count: int, name: str = "simulated", keep: int | None = 1000):
        self.count, self.name, self.keep = count, name, keep
        self.frames: list[list[Colour]] = []
        self.closed = False

    def show(self, colours: Sequence[Colour]) -> None:
        self._check(colours)
        self.frames.append([tuple(c) for c in colours])  # type: ignore[misc]
        if self.keep is not None and len(self.frames) > self.keep:
            del self.frames[: len(self.frames) - self.keep]

    @property
    def last(self) -> list[Colour] | None:
        return self.frames[-1] if self.frames else None

    def close(self) -> None:
        if not self.closed and self.count:
            self.frames.append([(0, 0, 0)] * self.count)
        self.closed = True

    def __repr__(self) -> str:
        return f"SimulatedStrip({self.count}, name={self.name!r})"


def parse_spi_device(path: str) -> tuple[int, int]:
    """'/dev/spidev0.0' -> (0, 0)."""
    m = re.fullmatch(r"(?:/dev/)?spidev(\d+)\.(\d+)", path)
    if not m:
        raise ConfigError(f"[[board.strips]] device: expected a path like /dev/spidev0.0, got {path!r}")
    return int(m.group(1)), int(m.group(2))


def kernel_bufsiz(path: Path = BUFSIZ_PATH) -> int | None:
    """The spidev driver's largest single transfer, or None where it cannot be read."""
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


class SpiWs2812Strip(Strip):
    """WS2812 LEDs driven from an SPI MOSI pin (Pi 3, 4 and 5 alike); see ws2812.py for the timing.

    `spi` is any object with spidev.SpiDev's writebytes2/close and speed/mode attributes; by default a
    real spidev.SpiDev is opened on `device`. The whole frame goes out in one transfer: a frame split
    into several transfers would pause the line mid-frame, and a pause over 50 µs latches the LEDs early.
    """

    def __init__(self, count: int, device: str = "/dev/spidev0.0", order: str = "GRB", spi=None,
                 bufsiz: int | None = None):
        self.count, self.device, self.order = count, device, order
        self.closed = True
        need = ws2812.spi_bytes_for(count)
        if spi is None:
            spi = self._open(device)
            bufsiz = kernel_bufsiz() if bufsiz is None else bufsiz
        else:
            bufsiz = getattr(spi, "bufsiz", None) if bufsiz is None else bufsiz
        if bufsiz is not None and need > bufsiz:
            spi.close()
            raise ConfigError(
                f"{count} LEDs need {need} bytes per SPI transfer but spidev allows {bufsiz}: add "
                f"spidev.bufsiz=65536 to /boot/firmware/cmdline.txt (same line) and reboot")
        spi.max_speed_hz = ws2812.SPI_HZ
        spi.mode = 0
        self.spi = spi
        self.closed = False

    @staticmethod
    def _open(device: str):
        bus, chip = parse_spi_device(device)
        try:
            import spidev  # noqa: PLC0415 — only when a real strip is chosen
        except ImportError:
            raise HardwareMissingError(f"the WS2812 strip needs the spidev module: {SPIDEV_INSTALL}") from None
        spi = spidev.SpiDev()
        try:
            spi.open(bus, chip)
        except FileNotFoundError:
            raise HardwareMissingError(
                f"{device} does not exist: enable SPI (sudo raspi-config -> Interface Options -> SPI, "
                f"or dtparam=spi=on in /boot/firmware/config.txt) and reboot") from None
        except PermissionError:
            raise DeviceError(f"no permission to open {device}: sudo usermod -aG spi $USER, "
                              f"then log in again") from None
        return spi

    def show(self, colours: Sequence[Colour]) -> None:
        self._check(colours)
        try:
            self.spi.writebytes2(ws2812.encode(colours, self.order))
        except OSError as exc:
            raise DeviceError(f"writing to the LED strip on {self.device} failed: {exc}") from exc

    def close(self) -> None:
        if self.closed:
            return
        try:
            self.spi.writebytes2(ws2812.encode([(0, 0, 0)] * self.count, self.order))
        except OSError:
            pass
        finally:
            self.spi.close()
            self.closed = True

    def __repr__(self) -> str:
        return f"SpiWs2812Strip({self.count}, device={self.device!r}, order={self.order!r})"

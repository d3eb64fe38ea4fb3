"""A stand-in for a `spidev.SpiDev` that records every byte written, for tests and --simulate."""

from __future__ import annotations


class FakeSpiDevice:
    """Accepts what SpiWs2812Strip does to a spidev.SpiDev and keeps each write in `writes`."""

    def __init__(self, bufsiz: int = 65536):
        self.max_speed_hz = 0
        self.mode = 0
        self.bits_per_word = 8
        self.bufsiz = bufsiz
        self.writes: list[bytes] = []
        self.closed = False
        self.opened: tuple[int, int] | None = None

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def writebytes2(self, data) -> None:
        if self.closed:
            raise OSError("write to a closed SPI device")
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

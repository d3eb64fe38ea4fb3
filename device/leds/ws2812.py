"""WS2812 bit timing expressed as SPI bytes: how a frame of colours becomes the bytes on MOSI.

Each WS2812 data bit lasts 1.25 µs (800 kHz) and is told apart by how long the line stays high.
With the SPI clock at 2.4 MHz, one SPI bit lasts 417 ns, so three SPI bits make one WS2812 bit:

    WS2812 0  ->  SPI 100  (high 417 ns, low 833 ns;  datasheet T0H 220-420 ns)
    WS2812 1  ->  SPI 110  (high 833 ns, low 417 ns;  datasheet T1H 580-1000 ns)

so each colour byte becomes 3 SPI bytes and each LED 9. Colours go out in the strip's byte order
(GRB for WS2812B), most significant bit first. A frame is framed by zero bytes: one in front (a clean
low before the first rising edge, since MOSI may idle high on some Pis) and RESET_BYTES after it,
holding the line low for 300 µs so every LED latches (older parts need 50 µs, newer ones 280 µs).
"""

from __future__ import annotations

from typing import Iterable, Sequence

SPI_HZ = 2_400_000
LEAD_BYTES = 1
RESET_BYTES = 90  # 90 * 8 bits / 2.4 MHz = 300 µs low


def _expand(byte: int) -> bytes:
    bits = 0
    for i in range(7, -1, -1):
        bits = (bits << 3) | (0b110 if byte >> i & 1 else 0b100)
    return bits.to_bytes(3, "big")


BYTE_TO_SPI: tuple[bytes, ...] = tuple(_expand(b) for b in range(256))


def channel_order(order: str) -> tuple[int, int, int]:
    """'GRB' -> (1, 0, 2): which of r, g, b goes out first, second, third."""
    return tuple("RGB".index(c) for c in order.upper())  # type: ignore[return-value]


def encode(colours: Iterable[Sequence[int]], order: str = "GRB") -> bytes:
    """The SPI bytes that show these (r, g, b) colours on a WS2812 strip, framing included."""
    idx = channel_order(order)
    out = bytearray(LEAD_BYTES)
    for colour in colours:
        for i in idx:
            out += BYTE_TO_SPI[colour[i]]
    out += bytes(RESET_BYTES)
    return bytes(out)


def spi_bytes_for(leds: int) -> int:
    """Length of one encoded frame for `leds` LEDs (to compare with the spidev buffer size)."""
    return LEAD_BYTES + 9 * leds + RESET_BYTES

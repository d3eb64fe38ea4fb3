"""The exact bytes a WS2812 strip is sent over SPI, decoded back into the colour of each hole.

The decoder here is written from the WS2812 timing, not from device/leds/ws2812.py: it reads the
byte stream as a wire signal, measures each high pulse in SPI bit times, and calls a pulse of one
bit time (417 ns at 2.4 MHz) a 0 and a pulse of two (833 ns) a 1, as the LED would.
"""

import pytest

from device.board import Board
from device.config import load_config
from device.errors import ConfigError
from device.leds import power
from device.leds.fake_spi import FakeSpiDevice
from device.leds.output import open_output
from device.leds.strips import SpiWs2812Strip

SPI_HZ = 2_400_000
BIT_NS = 1e9 / SPI_HZ


def wire(data: bytes) -> str:
    return "".join(f"{b:08b}" for b in data)


def decode(data: bytes, order: str = "GRB") -> tuple[list[tuple[int, int, int]], float]:
    """(colours, trailing low time in µs) from the bytes on MOSI."""
    signal = wire(data)
    bits, i = [], signal.index("1")
    assert i >= 1, "the line must be low before the first pulse"
    while i < len(signal) and signal[i] == "1":
        high = len(signal[i:]) - len(signal[i:].lstrip("1"))
        low = len(signal[i + high:]) - len(signal[i + high:].lstrip("0"))
        period_ns = (high + low) * BIT_NS
        if i + high + low < len(signal):  # the last bit's low runs into the reset
            assert 1150 <= period_ns <= 1300, f"bit period {period_ns:.0f} ns at wire bit {i}"
        high_ns = high * BIT_NS
        if 220 <= high_ns <= 420:
            bits.append(0)
        elif 580 <= high_ns <= 1000:
            bits.append(1)
        else:
            raise AssertionError(f"pulse of {high_ns:.0f} ns is neither a 0 nor a 1")
        i += high + low
    trailing_low_us = (len(signal) - len(signal.rstrip("0"))) * BIT_NS / 1000
    assert len(bits) % 24 == 0
    colours = []
    for k in range(0, len(bits), 24):
        channels = [int("".join(map(str, bits[k + 8 * j:k + 8 * j + 8])), 2) for j in range(3)]
        by_name = dict(zip(order, channels))
        colours.append((by_name["R"], by_name["G"], by_name["B"]))
    return colours, trailing_low_us


def test_decoder_reads_a_known_led():
    # one LED, GRB = (0x80, 0x01, 0xff): bit patterns 100 for 0 and 110 for 1, plus framing
    data = bytes([0]) + bytes.fromhex("d24924" "924926" "db6db6") + bytes(90)
    colours, reset = decode(data)
    assert colours == [(0x01, 0x80, 0xFF)]
    assert reset >= 280


def test_every_hole_decodes_to_the_colour_the_board_rendered():
    config = load_config(None)
    board = Board.from_config(config)
    board.set_dealer(1)
    board.set_scores(0, 47, 40)
    board.set_scores(1, 88, 76)
    board.preview(1, 9)
    spi = FakeSpiDevice()
    with open_output(config.board, board.layout, spi_factory=lambda: spi) as out:
        frame = board.render()
        out.show(frame)
    assert spi.max_speed_hz == SPI_HZ and spi.mode == 0 and spi.closed
    assert len(spi.writes) == 2  # the frame, then dark on close
    colours, reset_us = decode(spi.writes[0], config.board.strips[0].order)
    assert reset_us >= 280  # every WS2812 revision latches
    assert len(colours) == board.layout.size == 246
    expected = power.limit(frame, config.board.brightness, config.board.current_budget_ma)
    layout = board.layout
    for track in range(2):
        for hole in range(122):
            assert colours[layout.index(track, hole)] == expected[layout.index(track, hole)], (track, hole)
    front, back = colours[layout.index(0, 47)], colours[layout.index(0, 40)]
    assert front == tuple(int(c * 0.5) for c in board.colours[0])  # at brightness 0.5
    assert 0 < max(back) < max(front)
    assert colours[layout.dealer_index(1)] != (0, 0, 0) and colours[layout.dealer_index(0)] == (0, 0, 0)
    assert colours[layout.index(0, 45)] != (0, 0, 0)  # a quiet mark is still sent
    assert decode(spi.writes[1])[0] == [(0, 0, 0)] * 246


@pytest.mark.parametrize("order", ["GRB", "RGB", "BRG"])
def test_colour_byte_order(order):
    spi = FakeSpiDevice()
    with SpiWs2812Strip(2, order=order, spi=spi) as strip:
        strip.show([(1, 2, 3), (250, 128, 7)])
    assert decode(spi.writes[0], order)[0] == [(1, 2, 3), (250, 128, 7)]


def test_a_frame_longer_than_the_spidev_buffer_is_refused_with_the_fix():
    spi = FakeSpiDevice(bufsiz=4096)  # the kernel default
    with pytest.raises(ConfigError, match="spidev.bufsiz=65536"):
        SpiWs2812Strip(500, spi=spi)
    assert spi.closed


def test_close_is_idempotent():
    spi = FakeSpiDevice()
    strip = SpiWs2812Strip(4, spi=spi)
    strip.close()
    strip.close()
    assert len(spi.writes) == 1


from hypothesis import given, settings, strategies as st  # noqa: E402

colour = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


@settings(max_examples=60, deadline=None)
@given(st.lists(colour, min_size=1, max_size=40), st.sampled_from(["GRB", "RGB", "BGR"]))
def test_any_colours_survive_the_wire(colours, order):
    spi = FakeSpiDevice()
    strip = SpiWs2812Strip(len(colours), order=order, spi=spi)
    strip.show(colours)
    assert decode(spi.writes[0], order)[0] == colours


def test_a_failing_write_is_a_device_error_not_a_crash():
    from device.errors import DeviceError

    class Unplugged(FakeSpiDevice):
        def writebytes2(self, data):
            raise OSError(5, "Input/output error")

    strip = SpiWs2812Strip(3, spi=Unplugged())
    with pytest.raises(DeviceError, match="Input/output error"):
        strip.show([(0, 0, 0)] * 3)
    strip.close()  # still closes cleanly


@pytest.mark.hardware
def test_real_strip_on_a_pi_goes_dark():
    from pathlib import Path

    spidev = pytest.importorskip("spidev", reason="needs spidev on a Raspberry Pi")
    if not Path("/dev/spidev0.0").exists():
        pytest.skip("no /dev/spidev0.0 (not a Pi, or SPI not enabled)")
    del spidev
    with SpiWs2812Strip(246) as strip:
        strip.show([(0, 0, 0)] * 246)

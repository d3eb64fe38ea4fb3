"""LED layout, power cap, simulated strip, LedOutput and the pictures of the board."""

import sys

import cv2
import pytest

from device.board import Board
from device.config import load_config
from device.errors import ConfigError, HardwareMissingError
from device.leds import power
from device.leds.layout import Layout
from device.leds.output import LedOutput, open_output
from device.leds.picture import save_png, text_picture
from device.leds.strips import SimulatedStrip, SpiWs2812Strip

WHITE = (255, 255, 255)


def test_standard_layout_uses_every_led_once_and_snakes_back():
    layout = Layout.standard(3, holes=120)
    assert layout.size == 3 * 123
    indices = [layout.index(t, h) for t in range(3) for h in range(122)]
    indices += [layout.dealer_index(t) for t in range(3)]
    assert sorted(indices) == list(range(369))
    assert (layout.dealer_index(0), layout.index(0, 0), layout.index(0, 1), layout.index(0, 121)) == (0, 1, 2, 122)
    # track 1 comes back: its game hole is next to track 0's, its start hole at the far end
    assert (layout.index(1, 121), layout.index(1, 1), layout.index(1, 0), layout.dealer_index(1)) == (123, 243, 244, 245)
    assert layout.index(2, 1) == 248  # track 2 runs forward again
    assert layout.where(243) == (1, 1) and layout.where(245) == (1, "dealer")


def test_layout_without_serpentine_or_dealer_leds():
    layout = Layout.standard(2, holes=60, serpentine=False, dealer_leds=False)
    assert layout.size == 124 and layout.index(1, 0) == 62 and layout.dealer_index(0) is None


def layout_config(tmp_path, tracks):
    path = tmp_path / "c.toml"
    path.write_text(tracks)
    config = load_config(path)
    return Layout.from_config(config.board, config.game.sides)


TWO_STRIPS = """
[[board.strips]]
device = "/dev/spidev0.0"
[[board.strips]]
device = "/dev/spidev1.0"
[[board.tracks]]
strip = 0
start = 0
runs = [{ holes = [1, 60], first_led = 1 }, { holes = [61, 120], first_led = 120, step = -1 }]
game = 121
[[board.tracks]]
strip = 1
runs = [{ holes = [1, 120], first_led = 119, step = -1 }]
dealer = 120
"""


def test_explicit_runs_on_two_strips(tmp_path):
    layout = layout_config(tmp_path, TWO_STRIPS)
    assert layout.strip_sizes == (122, 121)
    assert layout.spot(0, 60).index == 60 and layout.spot(0, 61).index == 120 and layout.spot(0, 120).index == 61
    assert layout.spot(1, 1).strip == 1 and layout.spot(1, 1).index == 119 and layout.spot(1, 120).index == 0
    assert layout.spot(1, 0) is None  # no start LED on that track
    assert layout.index(1, 120) == 122  # strip 1 follows strip 0 in the flat frame
    frame = [(i % 256, 0, 0) for i in range(layout.size)]
    a, b = layout.split(frame)
    assert len(a) == 122 and len(b) == 121 and b[0] == (122, 0, 0)


def test_layout_mistakes_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="holes without an LED: 61-120"):
        layout_config(tmp_path, "[[board.tracks]]\nruns = [{ holes = [1, 60] }]\n"
                                "[[board.tracks]]\nruns = [{ holes = [1, 120], first_led = 200 }]\n")
    with pytest.raises(ConfigError, match="both LED 5"):
        layout_config(tmp_path, "[[board.tracks]]\nruns = [{ holes = [1, 120] }]\n"
                                "[[board.tracks]]\nruns = [{ holes = [1, 120], first_led = 5 }]\n")
    with pytest.raises(ConfigError, match="leds = 100"):
        layout_config(tmp_path, "[[board.strips]]\nleds = 100\n")


def test_power_cap_keeps_the_estimate_within_budget():
    frame = [WHITE] * 300  # 300 LEDs at full white: ~18 A
    assert power.estimate_ma(frame) == pytest.approx(300 * 61)
    capped = power.limit(frame, brightness=1.0, budget_ma=2500)
    assert power.estimate_ma(capped) <= 2500
    assert power.estimate_ma(capped) > 2400  # no dimmer than it needs to be
    assert capped[0][0] == capped[0][1] == capped[0][2]  # colours keep their hue


def test_brightness_scales_and_small_frames_are_not_capped():
    frame = [(200, 100, 0)] + [(0, 0, 0)] * 9
    assert power.limit(frame, 0.5, 2500)[0] == (100, 50, 0)
    assert power.limit(frame, 1.0, 2500) == frame


def test_simulated_strip_records_frames_and_closes_dark_once():
    with SimulatedStrip(3) as strip:
        strip.show([WHITE, (1, 2, 3), (0, 0, 0)])
        with pytest.raises(ValueError):
            strip.show([WHITE])
    strip.close()
    assert strip.frames == [[WHITE, (1, 2, 3), (0, 0, 0)], [(0, 0, 0)] * 3]


def test_led_output_dims_splits_and_closes(tmp_path):
    layout = layout_config(tmp_path, TWO_STRIPS)
    strips = [SimulatedStrip(n) for n in layout.strip_sizes]
    with LedOutput(layout, strips, brightness=0.5, budget_ma=10_000) as out:
        frame = layout.blank()
        frame[layout.index(1, 120)] = (200, 0, 0)
        out.show(frame)
    assert strips[1].frames[0][0] == (100, 0, 0)
    assert all(s.closed for s in strips)


def test_simulated_output_echoes_the_board_as_text(capsys):
    config = load_config(None)
    b = Board.from_config(config)
    b.set_scores(0, 12, 6)
    with open_output(config.board, b.layout, simulate=True, echo=sys.stdout, names=b.names) as out:
        out.show(b.render())
    text = capsys.readouterr().out
    assert text.splitlines()[0].startswith("North")  # not a terminal: plain characters
    row = text.splitlines()[0][9:]
    assert row[1 + 12] == "#" and row[1 + 6] == "o" and row[1 + 5] == "-"  # front, back peg, mark


def test_text_picture_in_colour_uses_truecolour_escapes():
    b = Board(["A", "B"], colours=[(255, 0, 0), (0, 0, 255)])
    text = text_picture(b.layout, b.render(), b.names, colour=True)
    assert "\x1b[38;2;255;0;0m●" in text and text.endswith("\x1b[0m")


def test_png_picture_shows_the_pegs_in_their_colours(tmp_path):
    b = Board(["A", "B"], colours=[(255, 0, 0), (0, 0, 255)])
    b.set_scores(1, 30, 0)
    path = save_png(b.layout, b.render(), tmp_path / "board.png", cell=10)
    img = cv2.imread(str(path))
    assert img is not None and img.shape[2] == 3
    # a margin cell, then per track rows of [dealer, start, 1..60] and [61..120, game], a gap row
    x = 10 * (1 + 2 + 29)  # hole 30
    assert tuple(int(v) for v in img[10 * 4, x]) == (255, 0, 0)  # track 1's peg, BGR: blue
    assert tuple(int(v) for v in img[10 * 1, x + 10]) == (20, 20, 20)  # track 0 hole 31: dark


def test_real_strip_without_spidev_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(HardwareMissingError, match="pip install spidev"):
        SpiWs2812Strip(10, "/dev/spidev0.0")


def test_a_bad_spi_device_name_is_a_config_error(monkeypatch):
    with pytest.raises(ConfigError, match="spidev0.0"):
        SpiWs2812Strip(10, "/dev/ttyS0")


def test_importing_the_led_package_imports_no_hardware_library():
    import subprocess
    code = ("import sys, device.leds.output, device.leds.strips, device.board; "
            "print('spidev' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_echo_draws_a_still_board_once_and_pictures_on_demand(tmp_path):
    import io
    layout = Layout.standard(2)
    stream = io.StringIO()
    out = LedOutput(layout, [SimulatedStrip(layout.size)], echo=stream, names=["A", "B"])
    frame = layout.blank()
    out.show(frame)
    out.show(frame)
    frame[layout.index(0, 3)] = (255, 0, 0)
    out.show(frame)
    assert stream.getvalue().count("A ") == 2
    assert out.picture().splitlines()[0][9 + 1 + 3] == "#"
    assert out.save_png(tmp_path / "b.png").stat().st_size > 0


def test_several_strips_need_described_tracks(tmp_path):
    with pytest.raises(ConfigError, match="standard layout is one chained strip"):
        layout_config(tmp_path, "[[board.strips]]\n[[board.strips]]\ndevice = \"/dev/spidev1.0\"\n")


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)), max_size=400),
       st.floats(0.05, 1.0), st.integers(500, 20_000))
def test_no_frame_ever_exceeds_the_budget(frame, brightness, budget):
    capped = power.limit(frame, brightness, budget)
    assert len(capped) == len(frame)
    idle = len(frame) * power.IDLE_MA_PER_LED
    assert power.estimate_ma(capped) <= max(budget, idle) + 1e-6
    assert all(c <= round(o * brightness) + 1 for a, b in zip(capped, frame) for c, o in zip(a, b))

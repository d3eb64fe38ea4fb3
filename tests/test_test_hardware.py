"""`muggins test-hardware --simulate`: the LED walk and the button report, with no hardware."""

import re

from device.board import Board
from device.cli import main
from device.commands.test_hardware import walk_leds
from device.config import load_config
from device.leds.layout import Layout
from device.leds.output import LedOutput
from device.leds.strips import SimulatedStrip


def test_the_walk_lights_one_led_at_a_time_in_hole_order(capsys):
    layout = Layout.standard(2)
    board = Board(["Ann", "Bob"], layout=layout)
    strip = SimulatedStrip(layout.size, keep=None)
    walk_leds(board, LedOutput(layout, [strip]), delay=0)
    lit = [[i for i, c in enumerate(f) if c != (0, 0, 0)] for f in strip.frames]
    assert lit[-1] == []  # ends dark
    expected = [[layout.index(t, h)] for t in range(2) for h in range(122)]
    expected = expected[:122] + [[layout.dealer_index(0)]] + expected[122:] + [[layout.dealer_index(1)]]
    assert lit[:-1] == expected
    out = capsys.readouterr().out
    assert "Bob hole 1: strip 0 LED 243" in out and "Ann game hole: strip 0 LED 122" in out


def test_simulated_run_walks_every_led_and_reports_every_button(capsys, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text("[game]\nplayers = [\"Ann\", \"Bob\"]\n[panel]\ngo = [23, 24]\n")
    png = tmp_path / "board.png"
    assert main(["test-hardware", "--simulate", "--config", str(config), "--png", str(png)]) == 0
    out = capsys.readouterr().out
    holes = re.findall(r"^  (Ann|Bob) (hole \d+|start hole|game hole|dealer LED): strip 0 LED (\d+)$",
                       out, re.M)
    assert len(holes) == 246 and len({led for _, _, led in holes}) == 246
    for line in ["dial turned: 3", "dial pressed (GPIO22): claim 3", "Muggins for Ann (GPIO5)",
                 "Muggins for Bob (GPIO6)", "Go for Ann (GPIO23)", "Go for Bob (GPIO24)",
                 "Dispute (GPIO16)", "Dispute held: undo (GPIO16)", "both Muggins held: new game"]:
        assert f"  {line}\n" in out, line
    assert "buttons: 9 event(s) seen" in out
    assert png.stat().st_size > 0


def test_without_hardware_it_says_what_is_missing_instead_of_crashing(capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "spidev", None)
    assert main(["test-hardware"]) == 2
    err = capsys.readouterr().err
    assert "spidev" in err and "Traceback" not in err


def test_a_bad_config_is_one_clear_line(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text("[panel]\ndispute = 99\n")
    assert main(["test-hardware", "--simulate", "--config", str(config)]) == 2
    assert "[panel] dispute" in capsys.readouterr().err

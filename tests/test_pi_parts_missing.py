"""The Pi-only parts missing (picamera2, lgpio, the SPI device): `muggins run` on the real config says
what to install or enable for each and stops with status 2, and `test-hardware --simulate` still works.
As on a fresh Raspberry Pi OS Lite before install.sh, or in the emulated arm64 root of `make arm64`."""

from __future__ import annotations

import importlib.abc
import sys
import types
from pathlib import Path

import pytest

from device.cli import main
from device.no_gpio import fallback_reasons, no_gpio_message

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "hardware" / "muggins.example.toml"


class NotInstalled(importlib.abc.MetaPathFinder):
    """Makes `import NAME` fail as it does where the package is not installed."""

    def __init__(self, *names: str):
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def spidev_without_the_device():
    """spidev installed, SPI not enabled: opening /dev/spidev0.0 finds no such file."""
    module = types.ModuleType("spidev")

    class SpiDev:
        def open(self, bus, chip):
            raise FileNotFoundError(2, "No such file or directory")

        def close(self):
            pass

    module.SpiDev = SpiDev
    return module


@pytest.fixture
def bare_pi(monkeypatch):
    """No picamera2, no lgpio (nor RPi.GPIO or pigpio), spidev but no SPI device; gpiozero left to choose."""
    from gpiozero import Device

    for name in ("picamera2", "lgpio", "RPi", "pigpio", "spidev"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr(sys, "meta_path", [NotInstalled("picamera2", "lgpio", "RPi", "pigpio"), *sys.meta_path])
    monkeypatch.setitem(sys.modules, "spidev", spidev_without_the_device())
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    yield
    Device.pin_factory = None


def the_real_config(tmp_path: Path) -> Path:
    """hardware/muggins.example.toml as the installer puts it in place, with the state and the voice here."""
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace('state_dir = "/var/lib/muggins"', f'state_dir = "{tmp_path / "state"}"')
    text = text.replace('engine = "espeak-ng"', 'engine = "print"')  # not a Pi-only part
    assert 'source = "picamera"' in text and 'driver = "ws2812-spi"' in text
    path = tmp_path / "muggins.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_run_says_what_each_missing_pi_part_needs(bare_pi, tmp_path, capfd, monkeypatch):
    from device.app import Device

    # the device writes to the streams it was given, by default those of when it was imported;
    # here, those of this test, as a `muggins run` process writes to its own
    monkeypatch.setitem(Device.__init__.__kwdefaults__, "err", sys.stderr)
    monkeypatch.setitem(Device.__init__.__kwdefaults__, "out", sys.stdout)
    status = main(["run", "--config", str(the_real_config(tmp_path))])
    err = capfd.readouterr().err
    assert status == 2
    assert "/dev/spidev0.0 does not exist: enable SPI" in err and "dtparam=spi=on" in err
    assert "no GPIO found for the panel: lgpio is not installed" in err and "sudo apt install python3-lgpio" in err
    assert "muggins run: error: picamera2 is not installed" in err and "sudo apt install python3-picamera2" in err
    assert "Traceback" not in err


def test_the_led_strip_without_spidev_names_both_ways_to_install_it(monkeypatch):
    from device.errors import HardwareMissingError
    from device.leds.strips import SpiWs2812Strip

    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(HardwareMissingError, match="python3-spidev"):
        SpiWs2812Strip(10, "/dev/spidev0.0")


def test_test_hardware_simulate_works_without_them(bare_pi, capsys):
    assert main(["test-hardware", "--simulate", "--config", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "simulated" in out and "buttons: 0 event" not in out and "event(s) seen" in out


@pytest.mark.parametrize("lgpio, said", [
    (None, "lgpio is not installed: on Raspberry Pi OS run `sudo apt install python3-lgpio`"),
    ("No module named 'lgpio'", "lgpio is not installed: on Raspberry Pi OS run `sudo apt install python3-lgpio`"),
    ("unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo",
     "this is not a Raspberry Pi (lgpio: unable to locate Pi revision"),
    ("'can not open gpiochip'", "lgpio cannot open the GPIO chip ('can not open gpiochip'): the user needs the gpio group"),
    ("something new", "lgpio cannot be used (something new)"),
])
def test_the_advice_follows_why_lgpio_failed(lgpio, said):
    reasons = {"native": "unable to locate Pi revision"} | ({"lgpio": lgpio} if lgpio else {})
    message = no_gpio_message(reasons)
    assert message.startswith("no GPIO found for the panel: ") and said in message


def test_fallback_warnings_are_read_per_pin_library():
    messages = ["Falling back from lgpio: unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo",
                "Falling back from rpigpio: No module named 'RPi'", "something else"]
    assert fallback_reasons(messages) == {
        "lgpio": "unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo",
        "rpigpio": "No module named 'RPi'"}


@pytest.mark.parametrize("hidden, said", [
    (("lgpio",), "lgpio is not installed: on Raspberry Pi OS run `sudo apt install python3-lgpio`"),
    ((), None),  # lgpio installed here or not: either way the advice names what is wrong
])
def test_the_units_lgpio_choice_failing_is_said_too(monkeypatch, hidden, said):
    # the systemd unit sets GPIOZERO_PIN_FACTORY=lgpio: gpiozero then tries lgpio alone and raises its error
    from gpiozero import Device

    from device.config import PanelConfig
    from device.errors import HardwareMissingError
    from device.panel import Panel

    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    monkeypatch.setattr(sys, "meta_path", [NotInstalled(*hidden), *sys.meta_path])
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    monkeypatch.setattr(Device, "pin_factory", None)
    with pytest.raises(HardwareMissingError, match="^no GPIO found for the panel: ") as caught:
        Panel(PanelConfig(encoder_a=17, encoder_b=27, encoder_button=22, muggins=(5, 6), dispute=16))
    if said:
        assert said in str(caught.value)
    Device.pin_factory = None


def test_lgpio_unable_to_write_its_pipe_says_where_to_run():
    message = no_gpio_message({"lgpio": "[Errno 2] No such file or directory: '.lgd-nfy-3'"}, "lgpio")
    assert "notification pipe in the working directory" in message and "/var/lib/muggins" in message


def test_another_chosen_pin_library_is_named():
    assert no_gpio_message({"rpigpio": "No module named 'RPi'"}, "RPiGPIO") == (
        "no GPIO found for the panel: GPIOZERO_PIN_FACTORY=RPiGPIO cannot be used (No module named 'RPi')")

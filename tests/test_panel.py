"""The panel through gpiozero's MockFactory: real Button and RotaryEncoder objects on mock pins."""

import threading

import pytest

from device.config import PanelConfig
from device.panel import Panel, PanelEvent

CFG = PanelConfig(encoder_a=17, encoder_b=27, encoder_button=22, muggins=(5, 6), dispute=16,
                  go=(23, 24), long_press_s=1.5, new_game_hold_s=3.0, bounce_s=0.02, repeat_s=0.25,
                  dial_max=29)


@pytest.fixture
def panel(mock_factory, clock):
    with Panel(CFG, clock=clock) as p:
        yield p


def press(factory, clock, pin, hold=0.1):
    """A deliberate press: down, held `hold` seconds, up, then a pause before anything else."""
    factory.pin(pin).drive_low()
    clock.advance(hold)
    factory.pin(pin).drive_high()
    clock.advance(0.5)


def turn(factory, steps):
    """Drive the encoder's A/B pins through full quadrature cycles (+ clockwise, - anticlockwise)."""
    a, b = factory.pin(17), factory.pin(27)
    first, second = (a, b) if steps > 0 else (b, a)
    for _ in range(abs(steps)):
        first.drive_low()
        second.drive_low()
        first.drive_high()
        second.drive_high()


def test_turning_the_dial_previews_and_pressing_claims(panel, mock_factory, clock):
    turn(mock_factory, 3)
    assert panel.poll() == [PanelEvent("dial", value=3)]  # one dial event: only the latest matters
    turn(mock_factory, -1)
    assert panel.poll() == [PanelEvent("dial", value=2)]
    press(mock_factory, clock, 22)
    assert panel.poll() == [PanelEvent("claim", value=2)]
    assert panel.dial == 0


def test_dial_stays_within_zero_and_dial_max(panel, mock_factory):
    turn(mock_factory, -2)
    assert panel.poll() == [] and panel.dial == 0
    turn(mock_factory, 40)
    assert panel.dial == 29


def test_each_dial_step_reaches_a_callback(mock_factory, clock):
    seen = []
    with Panel(CFG, clock=clock, callback=seen.append):
        turn(mock_factory, 2)
    assert seen == [PanelEvent("dial", value=1), PanelEvent("dial", value=2)]


def test_a_half_turn_wiggle_is_not_a_step(panel, mock_factory):
    a = mock_factory.pin(17)
    a.drive_low()
    a.drive_high()
    assert panel.poll() == [] and panel.dial == 0


def test_muggins_button_per_side(panel, mock_factory, clock):
    press(mock_factory, clock, 6)
    press(mock_factory, clock, 5)
    assert panel.poll() == [PanelEvent("muggins", player=1), PanelEvent("muggins", player=0)]


def test_go_buttons(panel, mock_factory, clock):
    press(mock_factory, clock, 24)
    assert panel.poll() == [PanelEvent("go", player=1)]


def test_short_dispute_disputes_and_long_dispute_undoes(panel, mock_factory, clock):
    press(mock_factory, clock, 16, hold=0.3)
    press(mock_factory, clock, 16, hold=2.0)
    assert panel.poll() == [PanelEvent("dispute"), PanelEvent("undo")]


def test_both_muggins_held_three_seconds_is_a_new_game_and_no_muggins(panel, mock_factory, clock):
    mock_factory.pin(5).drive_low()
    clock.advance(0.1)
    mock_factory.pin(6).drive_low()
    clock.advance(3.1)
    mock_factory.pin(5).drive_high()
    clock.advance(0.2)
    mock_factory.pin(6).drive_high()
    assert panel.poll() == [PanelEvent("new_game")]


def test_both_muggins_briefly_is_nothing(panel, mock_factory, clock):
    mock_factory.pin(5).drive_low()
    mock_factory.pin(6).drive_low()
    clock.advance(1.0)
    mock_factory.pin(6).drive_high()
    mock_factory.pin(5).drive_high()
    assert panel.poll() == []


def test_contact_bounce_is_one_press(panel, mock_factory, clock):
    pin = mock_factory.pin(5)
    for _ in range(5):  # chatter within a few milliseconds of the first contact
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    assert panel.poll() == [PanelEvent("muggins", player=0)]


def test_mashing_a_button_never_queues_twenty(panel, mock_factory, clock):
    pin = mock_factory.pin(16)
    for _ in range(20):  # clean presses 50 ms apart: too fast to be deliberate
        pin.drive_low()
        clock.advance(0.025)
        pin.drive_high()
        clock.advance(0.025)
    assert panel.poll() == [PanelEvent("dispute")]


def test_mashing_gives_at_most_one_action_per_repeat_interval(panel, mock_factory, clock):
    pin, seen = mock_factory.pin(16), []
    for _ in range(20):  # 20 presses in one second, the controller reading after each
        pin.drive_low()
        clock.advance(0.025)
        pin.drive_high()
        clock.advance(0.025)
        seen += panel.poll()
    assert seen == [PanelEvent("dispute")] * 4  # at 0, 0.25, 0.5 and 0.75 s (repeat_s = 0.25)


def test_an_unread_event_is_not_queued_twice(panel, mock_factory, clock):
    for _ in range(5):  # deliberate presses while the controller is busy elsewhere
        press(mock_factory, clock, 5)
    assert panel.poll() == [PanelEvent("muggins", player=0)]


def test_get_waits_for_an_event_from_another_thread(panel, mock_factory, clock):
    pin = mock_factory.pin(23)
    t = threading.Thread(target=lambda: (pin.drive_low(), pin.drive_high()))
    t.start()
    assert panel.get(timeout=5) == PanelEvent("go", player=0)
    t.join()


def test_close_is_idempotent_releases_pins_and_wakes_readers(mock_factory, clock):
    panel = Panel(CFG, clock=clock)
    panel.close()
    panel.close()
    assert panel.get(timeout=5) is None
    with Panel(CFG, clock=clock):  # the pins are free again
        pass


def test_events_are_frozen():
    event = PanelEvent("claim", value=6)
    with pytest.raises(AttributeError):
        event.value = 8


def test_buttons_ask_the_pin_for_hardware_debounce_but_the_encoder_does_not(panel, mock_factory):
    assert mock_factory.pin(5).bounce == pytest.approx(0.02)
    assert mock_factory.pin(16).bounce == pytest.approx(0.02)
    assert mock_factory.pin(17).bounce is None


def test_a_held_dispute_undoes_while_still_held_and_once(panel, mock_factory, clock):
    pin = mock_factory.pin(16)
    pin.drive_low()
    clock.advance(1.0)
    assert panel.poll() == []
    clock.advance(0.6)
    assert panel.poll() == [PanelEvent("undo")]  # the board can react before the button is let go
    clock.advance(2.0)
    pin.drive_high()
    assert panel.poll() == []


def test_new_game_fires_while_both_muggins_are_held(panel, mock_factory, clock):
    mock_factory.pin(5).drive_low()
    mock_factory.pin(6).drive_low()
    clock.advance(3.0)
    assert panel.poll() == [PanelEvent("new_game")]
    mock_factory.pin(5).drive_high()
    mock_factory.pin(6).drive_high()
    assert panel.poll() == []


def test_no_gpio_is_one_clear_hardware_error(clock):
    from gpiozero.exc import BadPinFactory

    from device.errors import HardwareMissingError

    class NoGpio:
        """What gpiozero meets off a Pi: no pin library can be loaded."""

        def reserve_pins(self, *args):
            raise BadPinFactory("Unable to load any default pin factory!")

        def release_all(self, *args):
            pass

        def release_pins(self, *args):
            pass

    with pytest.raises(HardwareMissingError, match="sudo apt install python3-lgpio"):
        Panel(CFG, pin_factory=NoGpio(), clock=clock)

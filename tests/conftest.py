"""Shared fixtures. `mock_factory`: a fresh gpiozero MockFactory per test, devices closed after.
`classifier_training`: the classifier's training and export replaced by a spy (what it was asked).

As in gpiozero's own tests, every test that touches pins gets new mock pins, so no state leaks
between tests and nothing needs a Raspberry Pi.
"""

import pytest


@pytest.fixture
def mock_factory():
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        # close every device a test left open (those still holding a pin reservation), then forget
        # the pins; gpiozero's own conftest does the reset, the closing is ours
        for refs in list(factory._reservations.values()):
            for ref in list(refs):
                device = ref()
                if device is not None:
                    device.close()
        factory.reset()
        Device.pin_factory = saved


class FakeClock:
    """A clock the test moves by hand, so timing rules are checked without waiting."""

    def __init__(self, start: float = 1000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def classifier_training(monkeypatch, tmp_path):
    """models.training's train_pair and export replaced: the keyword arguments train_pair was called
    with land in the dict returned; the export writes nothing (a stand-in file in tmp_path)."""
    torch = pytest.importorskip("torch", reason="training needs torch: pip install -e '.[train]'")
    from models.training import export
    from models.training import train as training

    seen = {}

    def fake_train_pair(*args, **kwargs):
        seen.update(kwargs)
        return training.Fitted(torch.nn.Linear(1, 1), 1.0, 0.99, {})

    monkeypatch.setattr(training, "train_pair", fake_train_pair)
    monkeypatch.setattr(export, "export", lambda *a, **k: (tmp_path / "cards.onnx", tmp_path / "labels.json"))
    (tmp_path / "cards.onnx").write_bytes(b"x")
    return seen

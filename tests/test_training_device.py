"""The index classifier's training runs where it is told (`--device`), and always hands back a network
on the CPU, calibrated there and ready to export."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs torch: pip install -e '.[train]'")

from models.training import __main__ as training_main  # noqa: E402
from models.training import train as training  # noqa: E402


def tiny_set(n: int, seed: int):
    """Dark crops (class 0), bright crops (class 1) and grey noise ("not a card", class 2)."""
    rng = np.random.default_rng(seed)
    labels = np.arange(n) % 3
    base = np.choose(labels, [40, 215, 128]).astype(np.float64)[:, None, None, None]
    crops = np.clip(base + rng.normal(0, 12, (n, 70, 40, 3)), 0, 255).astype(np.uint8)
    return crops, labels.astype(np.int64)


def test_training_on_the_cpu_gives_a_cpu_network_that_reads_every_crop():
    train_x, train_y = tiny_set(60, 0)
    val_x, val_y = tiny_set(30, 1)
    fitted = training.train(train_x, train_y, val_x, val_y, classes=3, background=2, minutes=0.01,
                            batch=16, device="cpu")
    assert {p.device.type for p in fitted.net.parameters()} == {"cpu"}
    logits = training.predict_logits(fitted.net, val_x)
    assert logits.shape == (30, 3)
    assert fitted.temperature > 0 and 0.9 <= fitted.threshold < 1.0


def test_the_device_option_reaches_the_training_of_the_classifier(monkeypatch, tmp_path, classifier_training):
    from types import SimpleNamespace

    from models.training import devices

    monkeypatch.setattr(devices, "device_problem", lambda name: None)  # as on a machine with a GPU
    args = training_main.parse_args(["--device", "cuda", "--out", str(tmp_path)])
    crops, labels = tiny_set(6, 0)
    training_main.train_cards(args, SimpleNamespace(crops=crops, labels=labels), np.zeros(6, bool), ["standard"])
    assert classifier_training["device"] == "cuda"
    assert training_main.parse_args([]).device == "cpu"


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a CUDA GPU")
@pytest.mark.parametrize("main", ["models.training.__main__", "models.training.corners"])
def test_a_gpu_this_machine_lacks_is_refused_before_anything_is_rendered(main, capsys):
    import importlib

    module = importlib.import_module(main)
    with pytest.raises(SystemExit) as exit_:
        module.parse_args(["--device", "cuda"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--device cuda: this torch" in err and "sees no CUDA GPU" in err


@pytest.mark.parametrize("name, says", [("cuda:x", "not a device torch knows"), ("mps", "cpu or cuda only")])
def test_a_device_torch_cannot_train_on_is_named_with_what_to_use(name, says):
    from models.training.devices import device_problem

    assert says in device_problem(name)
    assert device_problem("cpu") is None

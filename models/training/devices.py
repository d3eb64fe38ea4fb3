"""Where a network may train (`--device`): checked before anything is rendered, so that a machine
without the GPU asked for says so at once, not after minutes of rendering."""

from __future__ import annotations


def device_problem(name: str) -> str | None:
    """Why torch cannot train on the device `name` here (cpu, cuda, cuda:N), or None when it can."""
    if name == "cpu":
        return None
    import torch

    try:
        device = torch.device(name)
    except (RuntimeError, ValueError):
        return f"--device {name}: not a device torch knows; use cpu, or cuda on a GPU"
    if device.type == "cpu":
        return None
    if device.type != "cuda":
        return f"--device {name}: training runs on cpu or cuda only"
    if not torch.cuda.is_available():
        return f"--device {name}: this torch ({torch.__version__}) sees no CUDA GPU; leave --device out to train on the CPU"
    if device.index is not None and device.index >= torch.cuda.device_count():
        return f"--device {name}: this machine has {torch.cuda.device_count()} CUDA GPU(s), numbered from 0"
    return None

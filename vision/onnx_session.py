"""One way to open the project's ONNX models and their settings files: onnxruntime on the CPU, one
thread (the Pi has other work to do), quiet; a ModelError naming the file when either cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

from vision.errors import ModelError


def open_session(path: Path, what: str):
    """An onnxruntime InferenceSession for the model at path; `what` names it in errors."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own classes for corrupt files
        raise ModelError(f"{what} {path} cannot be loaded: {exc}") from None


def read_settings(path: Path, what: str) -> dict:
    """A model's settings (the JSON file beside it); `what` names them in errors."""
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"{what} {path} are missing: run `make model` to build them") from None
    except (OSError, ValueError) as exc:
        raise ModelError(f"{what} {path} cannot be read: {exc}") from None
    if not isinstance(settings, dict):
        raise ModelError(f"{what} {path} cannot be read: not a JSON object")
    return settings

"""One way to open the project's ONNX models: onnxruntime on the CPU, one thread (the Pi has other
work to do), quiet, and a ModelError naming the file when it cannot be loaded."""

from __future__ import annotations

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

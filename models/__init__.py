"""Trained model files (ONNX) and their labels; see MODEL_CARD.md."""

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent

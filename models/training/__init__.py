"""Training the card classifier (`make model`, `python -m models.training`): only the project's own renders.

This package imports torch; inference (vision.classifier) never does, it reads the exported ONNX file.
"""

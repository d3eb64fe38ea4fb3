"""The eyes: frame sources, card finding, the ONNX card classifier and the table tracker.

Importing this package imports no camera library; each backend is imported only when chosen.
"""

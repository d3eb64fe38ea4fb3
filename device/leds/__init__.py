"""The LED pegboard's output side: layout (which LED is which hole), strips (real WS2812 over SPI or
simulated), the power cap, and pictures of a frame for terminals and PNG files.

Nothing here imports a hardware library until a real strip is opened.
"""

"""Synthetic training and test data: card art from SVG decks, table backgrounds, composed scenes.

Only the training pipeline, tests, benchmarks and the demo import this package; inference never does.
"""

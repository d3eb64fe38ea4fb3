"""bench.bench_seeing's choice of font decks, and the flattened faces it hands in."""

from __future__ import annotations

import numpy as np

from bench.bench_seeing import font_decks
from sim.render.export_assets import flat_face


def test_validation_names_the_ten_validation_decks_and_a_bad_name_is_said(capsys):
    assert font_decks("validation") == [f"fonts-{n}" for n in range(1000, 1010)]
    assert font_decks("fonts-1005, bogus,") == ["fonts-1005"]
    assert "'bogus' is no font deck" in capsys.readouterr().out


def test_a_flattened_face_paints_outside_its_outline_the_cards_median_colour():
    face = np.zeros((6, 4, 4), np.uint8)
    face[:, :, :3] = (200, 210, 220)
    face[2, 1, :3] = (0, 0, 0)            # a pip
    face[:, :, 3] = 255
    face[0, 0, 3] = 0                     # a rounded corner, transparent
    face[0, 0, :3] = (9, 9, 9)
    flat = flat_face(face)
    assert flat.shape == (6, 4, 3)
    assert tuple(flat[0, 0]) == (200, 210, 220)
    assert tuple(flat[2, 1]) == (0, 0, 0)

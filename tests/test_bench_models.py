"""The benches read with the models the environment names, so a model trained elsewhere is measured
on the same scenes and photographs before it replaces a committed one."""

import shutil

import pytest

from bench.chosen_models import chosen_finder, chosen_recognizer, chosen_whole_card
from models import MODELS_DIR
from vision.errors import ModelError
from vision.finder import find_cards


def test_the_committed_models_without_a_word(monkeypatch):
    for name in ("MUGGINS_BENCH_MODEL", "MUGGINS_BENCH_CORNERS", "MUGGINS_BENCH_WHOLE_CARD"):
        monkeypatch.delenv(name, raising=False)
    said = []
    recognizer = chosen_recognizer(said.append)
    assert said == []
    assert recognizer.finder.inner.detector.model_path == MODELS_DIR / "corners.onnx"
    assert recognizer.whole_card.model_path == MODELS_DIR / "whole_card.onnx"


def test_a_detector_named_is_read_with_and_said(monkeypatch, tmp_path):
    for suffix in (".onnx", ".json"):
        shutil.copy(MODELS_DIR / f"corners{suffix}", tmp_path / f"other{suffix}")
    monkeypatch.setenv("MUGGINS_BENCH_CORNERS", str(tmp_path / "other.onnx"))
    said = []
    recognizer = chosen_recognizer(said.append)
    assert recognizer.finder.inner.detector.model_path == tmp_path / "other.onnx"
    assert any(str(tmp_path / "other.onnx") in line for line in said)


def test_none_leaves_the_detector_or_the_whole_card_network_out(monkeypatch):
    monkeypatch.setenv("MUGGINS_BENCH_CORNERS", "none")
    monkeypatch.setenv("MUGGINS_BENCH_WHOLE_CARD", "none")
    assert chosen_finder(lambda *a: None) is find_cards
    assert chosen_whole_card(lambda *a: None) is None


def test_a_missing_model_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("MUGGINS_BENCH_CORNERS", str(tmp_path / "nothing.onnx"))
    with pytest.raises(ModelError, match="nothing.onnx is missing"):
        chosen_recognizer(lambda *a: None)

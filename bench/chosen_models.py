"""The models the recognition benchmarks read with: the committed ones, or others named in the
environment, so that a model trained elsewhere (a GPU machine, another seed) is measured by the same
benches, on the same scenes and photographs, before it replaces a committed one.

MUGGINS_BENCH_MODEL=path/to/cards.onnx: the index classifier (its labels.json beside it);
MUGGINS_BENCH_CORNERS=path/to/corners.onnx: the corner detector (corners.json beside it), or =none
for the card finder alone; MUGGINS_BENCH_WHOLE_CARD=path/to/whole_card.onnx: the whole-card network,
or =none for no second opinion. The benches' own `muggins` subprocesses (peak memory) use the
committed models.
"""

from __future__ import annotations

import os


def chosen_finder(say=print):
    """The recognizer's finder, with the corner detector MUGGINS_BENCH_CORNERS names (none: without)."""
    from vision.corners import CornerDetector, CornerFinder
    from vision.finder import find_cards
    from vision.zoom_out import ZoomingOutFinder

    choice = os.environ.get("MUGGINS_BENCH_CORNERS")
    if choice == "none":
        say("finder: vision.finder alone, no corner detector")
        return find_cards
    detector = CornerDetector(choice or None)
    say(f"finder: vision.finder and the corner detector {detector.model_path} "
        f"({detector.model_path.stat().st_size / 1e6:.2f} MB, threshold {detector.threshold:g}), "
        "looking again in the shrunk frame for large cards")
    return ZoomingOutFinder(CornerFinder(detector))


def chosen_whole_card(say=print):
    """The whole-card reader MUGGINS_BENCH_WHOLE_CARD names (none: no second opinion)."""
    from vision.whole_card import WholeCardReader

    choice = os.environ.get("MUGGINS_BENCH_WHOLE_CARD")
    if choice == "none":
        say("whole card: no second opinion")
        return None
    reader = WholeCardReader(choice or None)
    say(f"whole card: {reader.model_path} ({reader.model_path.stat().st_size / 1e6:.2f} MB)")
    return reader


def chosen_classifier():
    from vision.classifier import CardClassifier

    return CardClassifier(os.environ.get("MUGGINS_BENCH_MODEL") or None)


def chosen_recognizer(say=print):
    """A Recognizer with the chosen models; where any is not the committed one, `say` names them all."""
    from vision.recognizer import Recognizer

    chosen = any(os.environ.get(name) for name in ("MUGGINS_BENCH_MODEL", "MUGGINS_BENCH_CORNERS",
                                                   "MUGGINS_BENCH_WHOLE_CARD"))
    quiet = say if chosen else (lambda *a: None)
    classifier = chosen_classifier()
    if chosen:
        say(f"classifier: {classifier.model_path}")
    return Recognizer(classifier, chosen_finder(quiet), whole_card=chosen_whole_card(quiet))

"""The settle stage's own rules (vision.settle), on reports built by hand: a corner found alone inside
a whole card, and the order the whole stage runs them in."""

import numpy as np

from cribbage.cards import Card
from vision.settle import on_another_card, settle
from vision.types import Recognition


def upright(x: float, y: float, w: float = 50, h: float = 72) -> np.ndarray:
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def rec(card: str | None, quad: np.ndarray, confidence: float = 0.999) -> Recognition:
    return Recognition(None if card is None else Card.parse(card), confidence, quad)


def test_a_read_inside_a_whole_card_of_another_card_is_its_print():
    whole = rec("7H", upright(0, 0, 100, 144))
    assert on_another_card(rec("4H", upright(30, 40, 20, 29)), [whole])
    assert not on_another_card(rec("7H", upright(30, 40, 20, 29)), [whole])  # its own index again
    assert not on_another_card(rec("4H", upright(150, 40, 20, 29)), [whole])  # beside it, not on it


def test_settle_drops_a_lone_corner_read_on_a_whole_card_but_not_the_finders_own_outline():
    whole = rec("7H", upright(0, 0, 100, 144))
    inside = rec("4H", upright(30, 40, 100, 144), confidence=0.9999)

    by_corner = settle([(whole, False), (inside, True)], [whole])
    assert [str(r.card) for r in by_corner] == ["7H"]
    outlined = settle([(whole, False), (inside, False)], [whole])
    assert sorted(str(r.card) for r in outlined) == ["4H", "7H"]  # an outline of its own is a card

"""The deck bench's count of the wrong reads a learned deck made itself (bench/bench_deck.py): a
card read wrong with the deck and not without it, or a read the deck added where no such card lies;
the generic recognizer's own wrong reads are not the deck's."""

from types import SimpleNamespace

import numpy as np

from bench.bench_deck import made_wrong
from cribbage.cards import Card
from sim.render.table import PlacedCard
from vision.types import Recognition

C = Card.parse


def card_at(x: float) -> np.ndarray:
    return np.float32([[x, 0], [x + 50, 0], [x + 50, 70], [x, 70]])


SCENE = SimpleNamespace(cards=[PlacedCard(C("5H"), card_at(0), True), PlacedCard(C("9S"), card_at(100), True)])


def reads(*cards):
    return [Recognition(None if card is None else C(card), 0.99, card_at(x)) for card, x in zip(cards, (0, 100))]


def test_a_card_the_deck_turns_wrong_is_the_decks():
    assert made_wrong(SCENE, reads(None, "9S"), reads("6H", "9S")) == 1
    assert made_wrong(SCENE, reads("5H", "9S"), reads("6H", "9S")) == 1


def test_the_generic_recognizers_own_wrong_read_is_not_the_decks():
    assert made_wrong(SCENE, reads("6H", "9S"), reads("6H", "9S")) == 0
    assert made_wrong(SCENE, reads("6H", "9S"), reads(None, "9S")) == 0
    assert made_wrong(SCENE, reads(None, "9S"), reads("5H", "9S")) == 0


def test_a_read_the_deck_adds_where_no_such_card_lies_is_the_decks():
    table = [Recognition(None, 0.9, card_at(300))]
    assert made_wrong(SCENE, reads("5H", "9S") + table, reads("5H", "9S") + [Recognition(C("KD"), 0.9, card_at(300))]) == 1

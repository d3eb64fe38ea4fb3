"""Learning the players' deck from the set-up page, suit by suit, as `muggins calibrate --deck` does.

Each paired phone has its own deck in progress, kept in the server's memory until it is saved or
forgotten (a restart forgets it). A suit is read from the camera's latest frame by
device.calibration.suit_row, the same check and the same words as calibrate; what it refuses
changes nothing. Saving writes the deck where `muggins deck list` finds it (the state directory's
decks/) and, when asked, names it in the config as `[camera] deck`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from device.errors import UsageError

MAX_LEARNING = 8      # decks in progress at once (one a paired phone); the oldest makes room


@dataclass
class Learning:
    """One phone's deck in progress: its name and the suits learned so far, in the order read."""

    deck: object                                      # vision.learned_deck.LearnedDeck
    suits: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        return {"name": self.deck.name, "suits": list(self.suits), "cards": len(self.deck.cards)}


class DeckLearner:
    """The decks being learned, by session; thread-safe (the work runs in the server's executor).

    read_suit(image, suit) -> {Card: crops} is suit_row with a recognizer that takes its turn with the
    device's frame loop; decks_dir is where saved decks go."""

    def __init__(self, read_suit: Callable, decks_dir: Path, camera=None):
        self.read_suit, self.decks_dir, self.camera = read_suit, Path(decks_dir), camera
        self._lock = threading.Lock()
        self._learning: dict[str, Learning] = {}

    def state(self, session: str | None) -> dict | None:
        with self._lock:
            learning = self._learning.get(session) if session else None
            return None if learning is None else learning.summary()

    def known(self) -> list[str]:
        from vision.learned_deck import deck_names

        return deck_names(self.decks_dir)

    def learn_suit(self, session: str, name: str, suit: str) -> dict:
        """Read the thirteen cards of `suit` in the camera's latest frame into this session's deck
        `name` (a new deck where the name is another); UsageError saying what is wrong, nothing learned."""
        from cribbage.cards import SUIT_NAMES
        from device.calibration import SUIT_ORDER
        from vision.learned_deck import DeckError, LearnedDeck, check_name

        if suit not in SUIT_ORDER or len(suit) != 1:
            raise UsageError(f"no suit {suit!r}: one of {', '.join(SUIT_ORDER)}")
        try:
            check_name(name)
        except DeckError as exc:
            raise UsageError(str(exc)) from None
        image = None if self.camera is None else self.camera.image
        if image is None:
            raise UsageError("no camera picture yet to read the cards in")
        row = self.read_suit(image.copy(), suit)
        told = f"I see thirteen cards: the {SUIT_NAMES[suit]} are learned."
        with self._lock:
            learning = self._learning.get(session)
            if learning is not None and learning.deck.name != name:
                told += f" (a new deck {name}: the {learning.deck.name} in progress is forgotten)"
                learning = None
            if learning is None:
                self._learning.pop(session, None)
                learning = self._learning[session] = Learning(LearnedDeck(name))
                while len(self._learning) > MAX_LEARNING:
                    del self._learning[next(iter(self._learning))]
            for card, photo in row.items():
                learning.deck.learn(card, photo)
            if suit not in learning.suits:
                learning.suits.append(suit)
            summary = learning.summary()
        return {**summary, "suit": suit, "message": told}

    def forget(self, session: str) -> dict:
        with self._lock:
            self._learning.pop(session, None)
        return {"message": "the deck in progress is forgotten"}

    def save(self, session: str, use_deck: Callable[[str], Callable[[], Path]] | None = None) -> dict:
        """Save this session's deck (replacing one of that name). With use_deck, the deck is also named
        in the config: use_deck(name) checks the config's new text (before anything is written) and
        returns what writes it. The learning is then done."""
        from vision.learned_deck import DeckError, save_deck

        with self._lock:
            learning = self._learning.get(session)
            if learning is None or not learning.deck.cards:
                raise UsageError("no suit learned yet: lay a suit in a row and read it first")
            deck = learning.deck
            write_config = None if use_deck is None else use_deck(deck.name)
            try:
                path = save_deck(self.decks_dir, deck)
            except DeckError as exc:
                raise UsageError(str(exc)) from None
            del self._learning[session]
        result = {"name": deck.name, "cards": len(deck.cards), "saved": str(path), "config": None}
        told = f"learned {len(deck.cards)} cards; saved {path}"
        if write_config is not None:
            result["config"] = str(write_config())
            result["message"] = (f"{told}; [camera] deck = \"{deck.name}\" is set in {result['config']}: "
                                 "it is used from the next start")
        else:
            result["message"] = f"{told}; set [camera] deck = \"{deck.name}\" in the config to play with it"
        return result

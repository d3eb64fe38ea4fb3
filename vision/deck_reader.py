"""Reading with a learned deck (vision.learned_deck): each card the recognizer reports is checked
against the cards the players have taught it.

Every deck prints its indices in its own font. The index classifier (vision.classifier) reads an
unknown font well, but where it is unsure of one, or leans the wrong way, it does so the same way every
time that card is seen: its 53 log-probabilities at a card's index are that deck's fingerprint of the
card, much alike from photo to photo of it (other light, table, camera, distance) and unlike the other
cards' (models/MODEL_CARD.md, "Learned decks"). So the learned cards' index crops are fingerprinted
when the deck is loaded, and each card the recognizer reports is compared with them:
- a learned match is strong when its cosine reaches MATCH and beats every other learned card's by
  MARGIN;
- a card seen but not read, its index unsure, strongly matching a learned card, is read as that
  card where the classifier is unsure of that card in its learned photos too (this deck's ace looks
  like a king to it), unless the classifier's best guess is another card the deck has not learned
  (where it has, the fingerprints have already chosen between the two): half a deck learned, an
  unlearned 3♠ the classifier leans to at 0.5 is not read as the learned 3♣ it resembles; a card
  the classifier read surely when learned and is unsure of now is likelier another card that it
  resembles (a club taken for a spade, a queen for a nine);
- a card whose index was read surely but which the recognizer refused for reasons of its own (another
  corner, a neighbour's outline) is read only where the learned card matching it still more strongly
  (OVERRULE) is the card its index shows; one its whole face refused (Recognition.face_refuted: a
  queen whose index read as a six) is left unread;
- a learned read never names a card already read elsewhere in the frame;
- a read card matching another learned card still more strongly (OVERRULE) is left unread: the two
  disagree, and a wrong read costs more than an unread one. Where the card read is not learned, only
  if the classifier took that learned card for it in its learning photos (a deck whose 8♦ the
  classifier reads as a 7♠, learned by its name): otherwise the deck cannot know what the card read
  looks like in this deck (half a deck learned, an unlearned Q♦ matches the learned Q♥ at 0.956);
- anything else (a card far from every learned card, a card of another deck) keeps the generic read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from cribbage.cards import Card
from vision.learned_deck import LearnedDeck
from vision.types import Recognition

MATCH = 0.9                        # the cosine a learned card's fingerprint must reach ...
MARGIN = 0.1                       # ... beating every other learned card's by this much
OVERRULE = 0.95                    # the cosine at which a learned card overrules the recognizer: unreads a
#                                    confident read of another card, or reads a refused one its index shows
FLOOR = 1e-300                     # probabilities under this are taken as this before the logarithm


def fingerprints(probs: np.ndarray) -> np.ndarray:
    """Each row of classifier probabilities as a unit vector of centred log-probabilities."""
    logs = np.log(np.maximum(np.asarray(probs, np.float64), FLOOR))
    logs -= logs.mean(axis=-1, keepdims=True)
    return logs / np.maximum(np.linalg.norm(logs, axis=-1, keepdims=True), 1e-12)


@dataclass(frozen=True)
class Match:
    """The learned card most like a crop, its cosine, and the best other learned card's."""

    card: Card
    similarity: float
    runner_up: float

    @property
    def strong(self) -> bool:
        return self.similarity >= MATCH and self.similarity - self.runner_up >= MARGIN


class DeckReader:
    """Checks a frame's reports against a learned deck (see the module's docstring).

    classifier: vision.classifier.CardClassifier (probabilities, cards, background_index);
    cropper: (image, quad) -> index crop, the recognizer's own."""

    def __init__(self, deck: LearnedDeck, classifier, cropper: Callable[[np.ndarray, np.ndarray], np.ndarray]):
        self.deck = deck
        self.classifier = classifier
        self.cropper = cropper
        owners, crops = [], []
        for card in deck.cards:
            for crop in deck.crops[card]:
                owners.append(card)
                crops.append(crop)
        self.learned = deck.cards
        self._owner = np.array([self.learned.index(card) for card in owners], np.int64)
        rows = classifier.probabilities(crops) if crops else np.zeros((0, 1))
        self._prints = fingerprints(rows) if crops else rows
        # the learned cards the classifier does not read surely as themselves in their own photos
        self._unsure = {card for card, row in zip(owners, rows) if classifier.decide(row)[0] != card}
        # what the classifier takes each learned card for in its learning photos (its best guess)
        self._taken_for: dict[Card, set] = {card: set() for card in self.learned}
        for card, row in zip(owners, rows):
            self._taken_for[card].add(classifier.cards[int(np.argmax(row))])
        self._seen: dict[bytes, np.ndarray] = {}
        self._frame: np.ndarray | None = None

    def remember(self, image: np.ndarray, quads: Sequence[np.ndarray], rows: np.ndarray) -> None:
        """The classifier's rows for crops the recognizer has just read in this frame, by outline: the
        reports cut at those outlines need not be read again (reread forgets them)."""
        if image is not self._frame:
            self._seen.clear()
            self._frame = image
        for quad, row in zip(quads, rows):
            self._seen[np.asarray(quad, np.float32).tobytes()] = row

    def rows_for(self, image: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
        """The classifier's rows at each outline: remembered from this frame, else read now."""
        if image is not self._frame:
            self._seen.clear()
            self._frame = image
        keys = [np.asarray(quad, np.float32).tobytes() for quad in quads]
        missing = [n for n, key in enumerate(keys) if key not in self._seen]
        if missing:
            fresh = self.classifier.probabilities([self.cropper(image, quads[n]) for n in missing])
            for n, row in zip(missing, fresh):
                self._seen[keys[n]] = row
        return np.stack([self._seen[key] for key in keys])

    def matches(self, probs: np.ndarray) -> list[Match | None]:
        """For each row of probabilities, the nearest learned card (None with no learned card)."""
        probs = np.atleast_2d(probs)
        if not self.learned:
            return [None] * len(probs)
        cosines = fingerprints(probs) @ self._prints.T
        per_card = np.full((len(probs), len(self.learned)), -1.0)
        for column, owner in enumerate(self._owner):
            np.maximum(per_card[:, owner], cosines[:, column], out=per_card[:, owner])
        out = []
        for row in per_card:
            order = np.argsort(-row)
            runner_up = float(row[order[1]]) if len(order) > 1 else -1.0
            out.append(Match(self.learned[int(order[0])], float(row[order[0]]), runner_up))
        return out

    def reread(self, image: np.ndarray, reports: Sequence[Recognition]) -> list[Recognition]:
        """The reports, each kept, read, or left unread by its learned match."""
        try:
            if not reports or not self.learned:
                return list(reports)
            probs = self.rows_for(image, [rec.quad for rec in reports])
            read = {rec.card for rec in reports if rec.card is not None}
            out = []
            for rec, row, match in zip(reports, probs, self.matches(probs)):
                out.append(self.judge(rec, row, match, read))
                if out[-1].card is not None:
                    read.add(out[-1].card)
            return out
        finally:
            self._seen.clear()
            self._frame = None

    def judge(self, rec: Recognition, probs: np.ndarray, match: Match | None, read: set) -> Recognition:
        """One report checked against its learned match; `read`: the cards already read in the frame."""
        if match is None or not match.strong:
            return rec
        if rec.card is not None:
            if rec.card != match.card and match.similarity >= OVERRULE and \
                    (rec.card in self.deck.crops or rec.card in self._taken_for[match.card]):
                return Recognition(None, rec.confidence, rec.quad)
            return rec
        if match.card in read or rec.face_refuted:
            return rec
        index, _ = self.classifier.decide(probs)
        if index is not None:  # refused by the recognizer's own rules, not for an unsure index
            if index != match.card or match.similarity < OVERRULE:
                return rec
        elif match.card not in self._unsure or self.contradicted(match.card, probs):
            return rec
        return Recognition(match.card, match.similarity, rec.quad)

    def contradicted(self, card: Card, probs: np.ndarray) -> bool:
        """Whether the classifier's best guess is another card, one not learned."""
        other = self.classifier.cards[int(np.argmax(probs))]
        return other is not None and other != card and other not in self.deck.crops

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
- an unread card lying alone (its outline overlapping no other report's by ALONE), so that its whole
  face shows, is also fingerprinted by the whole-card network (vision.whole_card) and compared with
  the learned faces. Where the face's nearest learned card, at MATCH, is another than the index's,
  it stays unread (a fonts-1008 A♣ whose index matches the learned A♠, its face the A♣). Where both
  name the same card, the index at MATCH and the face at FACE_MATCH (a fonts-1008 K♣ that every
  network takes for a spade matched the learned K♠ at 0.984 and 0.921), their two leads together
  reach JOINT_MARGIN, the classifier's best guess is no unlearned card and the whole-card network
  sees that card's suit, it is read, however sure the classifier was of that card when learned: two
  views of the card agree;
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
  and not where it lies alone and the whole-card network sees the read card's suit at both its ends,
  the learned card being of another suit (fonts-1008's Q♦, which the classifier reads as the Q♥ in
  the learned Q♥'s photo: its face shows diamonds);
- anything else (a card far from every learned card, a card of another deck) keeps the generic read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from cribbage.cards import Card
from vision.learned_deck import LearnedDeck
from vision.one_card import area, overlap
from vision.types import Recognition
from vision.whole_card import GROUPS, SUITS

MATCH = 0.9                        # the cosine a learned card's fingerprint must reach ...
MARGIN = 0.1                       # ... beating every other learned card's by this much
OVERRULE = 0.95                    # the cosine at which a learned card overrules the recognizer: unreads a
#                                    confident read of another card, or reads a refused one its index shows
FLOOR = 1e-300                     # probabilities under this are taken as this before the logarithm
FACE_MATCH = 0.93                  # the cosine a lone unread card's face must reach to read it with its index
JOINT_MARGIN = 0.1                 # a lone card's index and face leads over their runners-up, together
ALONE = 0.05                       # a card overlapping another report by less than this share of its area
#                                    shows its whole face


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
    cropper: (image, quad) -> index crop, the recognizer's own; whole_card: the recognizer's
    vision.whole_card.WholeCardReader, or None (then, or with a deck learned without faces, cards are
    told by their indices alone)."""

    def __init__(self, deck: LearnedDeck, classifier, cropper: Callable[[np.ndarray, np.ndarray], np.ndarray],
                 whole_card=None):
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
        self.whole_card = whole_card if deck.has_faces else None
        if self.whole_card is not None:
            faces = [(card, face) for card in self.learned for face in deck.faces[card]]
            self._face_owner = np.array([self.learned.index(card) for card, _ in faces], np.int64)
            upright = self.whole_card.read_faces([face for _, face in faces])
            turned = self.whole_card.read_faces([np.ascontiguousarray(face[::-1, ::-1]) for _, face in faces])
            self._face_prints = np.stack([fingerprints(upright), fingerprints(turned)])  # 2 x faces x 44

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
        return self.nearest(fingerprints(probs) @ self._prints.T, self._owner)

    def face_matches(self, image: np.ndarray, quads: Sequence[np.ndarray]) -> tuple[list[Match], np.ndarray]:
        """For each outline, the learned card whose face is nearest its whole face (the better of the
        face as cut and turned end for end, each against the learned face turned alike), and the
        whole-card network's probabilities for both (2 x N x 44)."""
        turned = [np.roll(np.asarray(quad, np.float32), -2, axis=0) for quad in quads]
        probs = self.whole_card.probabilities(image, list(quads) + turned).reshape(2, len(quads), -1)
        cosines = np.maximum(fingerprints(probs[0]) @ self._face_prints[0].T,
                             fingerprints(probs[1]) @ self._face_prints[1].T)
        return self.nearest(cosines, self._face_owner), probs

    def nearest(self, cosines: np.ndarray, owners: np.ndarray) -> list[Match]:
        """Each row's nearest learned card from cosines to learned pictures (columns) owned by cards."""
        per_card = np.full((len(cosines), len(self.learned)), -1.0)
        for column, owner in enumerate(owners):
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
            matches = self.matches(probs)
            faces = self.faces_of_lone_cards(image, reports, matches)
            read = {rec.card for rec in reports if rec.card is not None}
            out = []
            for n, (rec, row, match) in enumerate(zip(reports, probs, matches)):
                out.append(self.judge(rec, row, match, read, *faces.get(n, (None, None))))
                if out[-1].card is not None:
                    read.add(out[-1].card)
            return out
        finally:
            self._seen.clear()
            self._frame = None

    def faces_of_lone_cards(self, image: np.ndarray, reports: Sequence[Recognition], matches: list) -> dict:
        """{report number: (face Match, whole-card probabilities)} for the reports lying alone that
        their faces may decide: unread ones, and reads their learned match would overrule."""
        if self.whole_card is None:
            return {}
        asked = [n for n, (rec, match) in enumerate(zip(reports, matches)) if match is not None and
                 (self.overrules(rec, match) if rec.card is not None else not rec.face_refuted)]
        lone = [n for n in asked
                if alone(reports[n].quad, [other.quad for other in reports if other is not reports[n]])]
        if not lone:
            return {}
        found, probs = self.face_matches(image, [reports[n].quad for n in lone])
        return {n: (face, probs[:, k]) for k, (n, face) in enumerate(zip(lone, found))}

    def judge(self, rec: Recognition, probs: np.ndarray, match: Match | None, read: set,
              face: Match | None = None, face_probs: np.ndarray | None = None) -> Recognition:
        """One report checked against its learned match; `read`: the cards already read in the frame;
        face, face_probs: its face's match and the whole-card network's probabilities (both ends),
        for a card lying alone that its face may decide (faces_of_lone_cards)."""
        if match is None:
            return rec
        if rec.card is not None:
            if self.overrules(rec, match) and not self.face_keeps(rec, match, face_probs):
                return Recognition(None, rec.confidence, rec.quad)
            return rec
        if match.card in read or rec.face_refuted:
            return rec
        if face is not None:
            if face.card != match.card and face.similarity >= MATCH:
                return rec
            if self.faces_agree(match, face, probs, face_probs):
                return Recognition(match.card, match.similarity, rec.quad)
        if not match.strong:
            return rec
        index, _ = self.classifier.decide(probs)
        if index is not None:  # refused by the recognizer's own rules, not for an unsure index
            if index != match.card or match.similarity < OVERRULE:
                return rec
        elif match.card not in self._unsure or self.contradicted(match.card, probs):
            return rec
        return Recognition(match.card, match.similarity, rec.quad)

    def overrules(self, rec: Recognition, match: Match) -> bool:
        """Whether a read card's learned match, another card, is strong enough to unread it."""
        return match.strong and rec.card != match.card and match.similarity >= OVERRULE and \
            (rec.card in self.deck.crops or rec.card in self._taken_for[match.card])

    def face_keeps(self, rec: Recognition, match: Match, face_probs: np.ndarray | None) -> bool:
        """Whether a lone card read as a card the deck has not learned keeps its read against its match:
        the whole-card network sees the read card's suit at both ends, and the match is of another."""
        if face_probs is None or rec.card in self.deck.crops or rec.card.suit == match.card.suit:
            return False
        return seen_suits(face_probs) == {rec.card.suit}

    def faces_agree(self, match: Match, face: Match, probs: np.ndarray, face_probs: np.ndarray) -> bool:
        """Whether an unread lone card's index and face both name the same learned card surely enough
        to read it (see the module's docstring)."""
        index, _ = self.classifier.decide(probs)
        if index is not None and index != match.card or self.contradicted(match.card, probs):
            return False
        leads = (match.similarity - match.runner_up) + (face.similarity - face.runner_up)
        return match.similarity >= MATCH and face.similarity >= FACE_MATCH and leads >= JOINT_MARGIN and \
            match.card.suit in seen_suits(face_probs)

    def contradicted(self, card: Card, probs: np.ndarray) -> bool:
        """Whether the classifier's best guess is another card, one not learned."""
        other = self.classifier.cards[int(np.argmax(probs))]
        return other is not None and other != card and other not in self.deck.crops


def seen_suits(face_probs: np.ndarray) -> set[str]:
    """The suits of the whole-card network's likeliest class at a face's two ends."""
    return {SUITS[int(np.argmax(row)) // len(GROUPS)] for row in face_probs}


def alone(quad: np.ndarray, others: Sequence[np.ndarray]) -> bool:
    """Whether an outline overlaps none of the others by ALONE of its area: its whole face shows."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    own = area(quad)
    if own <= 0 or not cv2.isContourConvex(quad):
        return False
    for other in others:
        other = np.asarray(other, np.float32).reshape(4, 2)
        if not cv2.isContourConvex(other):
            other = cv2.convexHull(other).reshape(-1, 2)
        if overlap(quad, other) >= ALONE * own:
            return False
    return True

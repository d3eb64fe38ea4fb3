"""From a frame to the cards in it, in three stages: find, read, settle.

Find: the finder (vision.finder, vision.corners, looking wider and closer where the cards may be larger
or smaller than it looked for: vision.zoom_out, vision.zoom_in) offers candidates, card outlines and
the index corners the detector found alone, each with the corners worth reading.

Read (this module): each candidate is read at every index corner the finder offers (both for a lone
card, which may lie either way up; the one that shows for a card covered in a row). The finder's own
outlines are read first: a lone card the index-corner detector found at the two corners of an outline
read alike at both its ends is that card again, and is not read a second time. The confident reading
wins; two confident readings that disagree are a card seen but not read, never a guess; one read almost
surely gets a second look (vision.second_look). Outlines whose every corner looks like "not a card" are
dropped. A lone card (not covered) is then read whole as well (vision.whole_card): its pips may
refuse the index's read, or read a number card whose index was left unread but does not rule it out.
So is a card read at a corner the detector found alone, at a lone outline of the finder's left unread
whose index lies at the read's; that opinion may only refuse.

Settle (vision.settle): the readings made into one report per physical card. A deck the players have
taught it (vision.deck_reader) checks every report last.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from vision import second_look
from vision.classifier import CardClassifier
from vision.crops import index_centre
from vision.deck_reader import DeckReader
from vision.one_card import side_lengths
from vision.settle import INDEXES_APART, apart, settle
from vision.types import Recognition
from vision.whole_card import WholeCardReader, class_of, refutes, surely_shows
from vision.zoom_in import in_quarters, worth_a_closer_look
from vision.zoom_out import read_length, worth_a_wider_look

SEEN_AS_CARD = 0.9         # an unread card is reported only when some corner is this sure it shows an index
SETTLED_CORNER = 0.03      # a detector's corner within this share of a card's length of an index corner
SETTLED_FAR_END = 0.2      # already read, its far end within this share of that card's, is that index
#                            read again (the detector's far ends are rough: 0.05-0.15 off)
INDEX_ALLOWS = 0.05        # a card read from the whole face keeps at least this at one of its index corners


def rotate_quad(quad: np.ndarray, steps: int) -> np.ndarray:
    """The same outline starting `steps` corners later (clockwise order kept)."""
    return np.roll(np.asarray(quad, np.float32), -steps, axis=0)


def orientation_unsure(quad: np.ndarray) -> bool:
    """True when the outline is too square to tell its long side from its short."""
    sides = side_lengths(quad)
    short = (sides[0] + sides[2]) / 2.0
    long = (sides[1] + sides[3]) / 2.0
    return not long > 1.15 * short


def orderings(candidate) -> list[np.ndarray]:
    """The corner orderings worth reading: those the finder offers (each starting at a possible index
    corner), else both index corners of its quad, or all four where long and short sides look alike."""
    offered = getattr(candidate, "quads", None)
    if offered:
        return [np.asarray(q, np.float32).reshape(4, 2) for q in offered]
    quad = np.asarray(candidate.quad, np.float32).reshape(4, 2)
    steps = (0, 1, 2, 3) if orientation_unsure(quad) else (0, 2)
    return [rotate_quad(quad, s) for s in steps]


def default_finder(card_length: float | None = None):
    """The card finder's outlines, and the index-corner detector's corners it missed; looked for again
    in the frame shrunk where the cards may be larger than those look for, or at the scale a calibrated
    card length asks for (vision.zoom_out)."""
    from vision.corners import CornerFinder
    from vision.zoom_out import ZoomingOutFinder

    return ZoomingOutFinder(CornerFinder(), card_length=card_length)


def default_cropper():
    from vision.crops import index_crop

    return index_crop


_DEFAULT = object()  # Recognizer(whole_card=...) not given: the committed whole-card model


class Recognizer:
    """recognize(image) -> [Recognition]; finder, cropper and whole-card reader are injectable for tests
    and training (whole_card=None: no second opinion). card_length: a card's long side in the frame's
    pixels where `muggins calibrate` measured it (the default finder's only). deck: a learned deck
    (vision.learned_deck.LearnedDeck) every report is checked against last. observe: called with each
    read pass's candidates and readings before they are settled (bench.lost_cards: where cards are
    lost)."""

    def __init__(self, classifier: CardClassifier | None = None,
                 finder: Callable[[np.ndarray], Sequence] | None = None,
                 cropper: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
                 whole_card=_DEFAULT, card_length: float | None = None, deck=None,
                 observe: Callable[[list, list[Recognition]], None] | None = None):
        self.classifier = classifier if classifier is not None else CardClassifier()
        self.finder = finder if finder is not None else default_finder(card_length)
        self.cropper = cropper if cropper is not None else default_cropper()
        self.whole_card: WholeCardReader | None = WholeCardReader() if whole_card is _DEFAULT else whole_card
        self.deck = None if deck is None else DeckReader(deck, self.classifier, self.cropper, self.whole_card)
        self.observe = observe

    def recognize(self, image: np.ndarray) -> list[Recognition]:
        """Every card seen in a BGR frame, read or unreadable; "not a card" outlines dropped. Where the
        finder can look wider (vision.zoom_out) and the first look's reports leave room for larger
        cards, the frame is read again with the wider look's candidates added: those of all its
        canvases where a card was read, of its middle one only where none was (card backs, whose
        printed pictures of cards each canvas more may offer as cards). Where the cards read are small
        in the frame, it is read again with the candidates of its quarters added (vision.zoom_in). A
        learned deck checks the reports last."""
        look = getattr(self.finder, "look", None)
        candidates, wider = look(image) if look is not None else (list(self.finder(image)), None)
        reports = self.read_candidates(image, candidates)
        if wider is not None and worth_a_wider_look(image, reports):
            candidates = candidates + wider(any(r.card is not None for r in reports))
            reports = self.read_candidates(image, candidates)
        if look is not None and worth_a_closer_look(image, reports):
            candidates = candidates + in_quarters(lambda window: look(window)[0], image, read_length(reports))
            reports = self.read_candidates(image, candidates)
        return reports if self.deck is None else self.deck.reread(image, reports)

    def read_candidates(self, image: np.ndarray, candidates: list) -> list[Recognition]:
        """The reports of one physical card each that a frame's candidates make."""
        quads = [orderings(candidate) for candidate in candidates]
        probs: list[np.ndarray | None] = [None] * len(candidates)
        readings: list[Recognition | None] = [None] * len(candidates)
        ends = [0] * len(candidates)
        # The finder's outlines are read first.  Where one is read alike at two index corners, a lone
        # card the detector found at those same two corners would only be read again (a third of a
        # frame's crops on separate cards): it is not.  A corner the detector found alone is read
        # anyway: in a row, where the top card's readings vie with its neighbours' (drop_overlaps),
        # leaving those out lost two validation row cards at three times the bench's scenes.
        outlined = [n for n, candidate in enumerate(candidates) if not getattr(candidate, "by_corner", False)]
        self.read(image, quads, probs, outlined)
        self.judge(quads, probs, outlined, readings, ends)
        settled = [quad for n in outlined if ends[n] >= 2 for quad, row in zip(quads[n], probs[n])
                   if self.classifier.decide(row)[0] == readings[n].card]
        cornered = [n for n in range(len(candidates)) if probs[n] is None and
                    (getattr(candidates[n], "covered", True) or
                     not all(any(same_corner(quad, other) for other in settled) for quad in quads[n]))]
        self.read(image, quads, probs, cornered)
        self.judge(quads, probs, cornered, readings, ends)
        unsure = []
        for n in sorted(outlined + cornered):
            if readings[n] is None or readings[n].card is None:
                look = second_look.worth_a_look(self.classifier, probs[n])
                if look is not None and second_look.index_in_frame(quads[n][look[0]], image.shape):
                    unsure.append((n, quads[n][look[0]], look[1]))
        self.look_again(image, unsure, readings)
        self.ask_whole_card(image, candidates, quads, probs, unsure, readings)
        kept = [n for n, rec in enumerate(readings) if rec is not None]
        found = [(readings[n], getattr(candidates[n], "by_corner", False)) for n in kept]
        whole = [readings[n] for n in kept if ends[n] >= 2]
        if self.observe is not None:
            self.observe(candidates, [rec for rec, _ in found])
        return settle(found, whole)

    def read(self, image: np.ndarray, quads: list, probs: list, which: list[int]) -> None:
        """Classify the crops of the candidates numbered `which`, at each of their orderings (quads),
        in one batch: probs[n] gets candidate n's rows."""
        trials = [quad for n in which for quad in quads[n]]
        if not trials:
            return
        rows = self.classifier.probabilities([self.cropper(image, quad) for quad in trials])
        if self.deck is not None:
            self.deck.remember(image, trials, rows)
        start = 0
        for n in which:
            probs[n] = rows[start:start + len(quads[n])]
            start += len(quads[n])

    def judge(self, quads: list, probs: list, which: list[int], readings: list, ends: list) -> None:
        """Each candidate numbered `which`: its reading (decide) and at how many corners it was read
        confidently as that card (ends_read)."""
        for n in which:
            readings[n] = self.decide(quads[n], probs[n])
            ends[n] = self.ends_read(readings[n], probs[n])

    def ends_read(self, rec: Recognition | None, probs: np.ndarray) -> int:
        """At how many of its corners a candidate was read confidently as the card it is reported as."""
        if rec is None or rec.card is None:
            return 0
        return sum(self.classifier.decide(row)[0] == rec.card for row in probs)

    def look_again(self, image: np.ndarray, unsure: list, readings: list) -> None:
        """Read each (candidate, quad, card) in unsure again at nudged outlines (vision.second_look);
        a candidate whose nudged crops confirm its card gets that reading in place."""
        if not unsure:
            return
        nudged = [second_look.nudged_quads(quad) for _, quad, _ in unsure]
        probs = self.classifier.probabilities([self.cropper(image, q) for quads in nudged for q in quads])
        start = 0
        for (n, _, card), quads in zip(unsure, nudged):
            block = probs[start:start + len(quads)]
            start += len(quads)
            best = second_look.confirmed(self.classifier, card, block)
            if best is not None:
                readings[n] = Recognition(card, float(block[best].max()), quads[best])

    def ask_whole_card(self, image: np.ndarray, candidates: list, quads: list, probs: list, unsure: list,
                       readings: list) -> None:
        """Each lone card read whole: a read at its outline, an unread one at the corner its index leans
        from (unsure: the second look's (candidate, quad, card)), else where it was reported. A read the
        face refutes becomes an unread card; an unread card is read as the number card its face surely
        shows (whole_card.surely_shows), with the face's probability as its confidence, where the index,
        unsure, does not rule that card out (INDEX_ALLOWS at one of its corners): the pips of a card too
        small or soft for its index to be read, not a foreign suit's pips taken for another card's. A
        read of a candidate that may be covered (a corner the detector found alone, a row's card) is
        asked too at a lone outline left unread at its index (at_unread_lone_outline), and may be
        refuted, never read so."""
        if self.whole_card is None:
            return
        leaning = {n: quad for n, quad, _ in unsure}
        asked = []
        for n, (candidate, rec) in enumerate(zip(candidates, readings)):
            if rec is None:
                continue
            if getattr(candidate, "covered", True):
                # A card covered in a row does not show its whole face, and a corner found alone guesses
                # the card's sides roughly: read whole only at a lone outline the finder drew around the
                # same index but could not read.
                if rec.card is not None and \
                        (lone := at_unread_lone_outline(rec, candidates, quads, readings)) is not None:
                    asked.append((n, lone, rec.card))
                continue
            asked.append((n, rec.quad, rec.card) if rec.card is not None else (n, leaning.get(n, rec.quad), None))
        if not asked:
            return
        opinions = self.whole_card.probabilities(image, [quad for _, quad, _ in asked])
        for (n, quad, card), opinion in zip(asked, opinions):
            if card is not None:
                if refutes(card, opinion):
                    readings[n] = Recognition(None, readings[n].confidence, readings[n].quad, refuted=card)
            elif (shown := surely_shows(opinion)) is not None and \
                    max(row[self.classifier.cards.index(shown)] for row in probs[n]) >= INDEX_ALLOWS:
                readings[n] = Recognition(shown, float(opinion[class_of(shown)]), quad)

    def decide(self, quads: list[np.ndarray], probs: np.ndarray) -> Recognition | None:
        """One candidate's reading from its corners' probabilities, or None when it is no card.

        (Multiplying the corners' probabilities as independent evidence was tried: corners misread
        the same way made it more sure of the wrong card, so disagreement simply means unread.)
        """
        reads = [self.classifier.decide(p) for p in probs]
        confident = [(card, conf, quad) for (card, conf), quad in zip(reads, quads) if card is not None]
        if confident:
            best = max(confident, key=lambda t: t[1])
            if len({card for card, _, _ in confident}) > 1:
                return Recognition(None, best[1], best[2])
            return Recognition(*best)
        card_like = [self.classifier.card_probability(p) for p in probs]
        best = int(np.argmax(card_like))
        if len(card_like) < 2 or card_like[best] < SEEN_AS_CARD or min(card_like) < 0.5:
            # backs, props, table: not reported at all. A card shows an index at each corner it is
            # read at; a back's pattern may look like one at one corner, hardly at both. So an
            # outline read at one corner only (a covered card in a row) is reported only when read.
            return None
        return Recognition(None, float(reads[best][1]), quads[best])


def same_corner(quad: np.ndarray, settled: np.ndarray) -> bool:
    """Whether an outline starts at a read outline's corner and runs its way: the same index read again."""
    length = float(np.linalg.norm(settled[3] - settled[0]))
    return float(np.linalg.norm(quad[0] - settled[0])) <= SETTLED_CORNER * length and \
        float(np.linalg.norm(quad[2] - settled[2])) <= SETTLED_FAR_END * length


def at_unread_lone_outline(rec: Recognition, candidates: list, quads: list,
                           readings: list) -> np.ndarray | None:
    """The ordering of a lone outline (a candidate not covered) left unread whose index lies at rec's
    index, or None: the finder saw the whole card there, though it could not read it, so its face may
    be asked about rec's read where rec's own outline cannot be."""
    outline = np.asarray(rec.quad, np.float32)
    length = float(np.linalg.norm(outline[3] - outline[0]))
    centre = index_centre(outline)
    for candidate, orderings_of, reading in zip(candidates, quads, readings):
        if getattr(candidate, "covered", True) or (reading is not None and reading.card is not None):
            continue
        for quad in orderings_of:
            if not apart(index_centre(quad), centre, INDEXES_APART * length):
                return quad
    return None

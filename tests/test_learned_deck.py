"""Learned decks (vision/learned_deck.py, vision/deck_learning.py, vision/deck_reader.py): learning from photos named by card,
photos refused by reason, the deck file (saved, listed, forgotten, refused when corrupt or foreign), and
how a learned deck changes a frame's reads: it may read an unread card or unread a read one, never
turn a right read into another card."""

import json

import numpy as np
import pytest

from cribbage.cards import FULL_DECK, Card
from tests.deck_photos import photo, write
from vision.crops import INDEX_HEIGHT, INDEX_WIDTH
from vision.deck_learning import card_named, learn_folder, PhotoRefused
from vision.deck_reader import FACE_MATCH, MATCH, OVERRULE, DeckReader
from vision.learned_deck import (MAX_BYTES, DeckError, LearnedDeck, deck_names, forget_deck,
                                 load_deck, save_deck)
from vision.types import Recognition
from vision.whole_card import HEIGHT as FACE_HEIGHT, WIDTH as FACE_WIDTH, class_of

C = Card.parse


# ---- the decision rule, with a classifier whose rows the test chooses ---------------------------------

class RowClassifier:
    """Stands in for CardClassifier: a crop's first pixel names the probability row it gives."""

    cards = list(FULL_DECK) + [None]
    background_index = 52

    def __init__(self, rows: dict[int, np.ndarray]):
        self.rows = rows

    def probabilities(self, crops):
        return np.stack([self.rows[int(crop[0, 0, 0])] for crop in crops])

    def decide(self, probs):
        best = int(np.argmax(probs))
        return (self.cards[best] if probs[best] >= 0.9 else None), float(probs[best])


def softmax(logits):
    e = np.exp(logits - logits.max())
    return e / e.sum()


def at_cosine(row: np.ndarray, cosine: float) -> np.ndarray:
    """Probabilities whose fingerprint lies at this cosine from row's (turned towards a fixed direction)."""
    from vision.deck_reader import fingerprints

    f = fingerprints(row)
    u = np.random.default_rng(3).normal(0, 1, row.shape)
    u -= u.mean()
    u -= (u @ f) * f
    u /= np.linalg.norm(u)
    logs = np.log(row)
    scale = np.linalg.norm(logs - logs.mean())
    return softmax((cosine * f + np.sqrt(1 - cosine ** 2) * u) * scale)


def crop_for(key: int) -> np.ndarray:
    crop = np.zeros((INDEX_HEIGHT, INDEX_WIDTH, 3), np.uint8)
    crop[0, 0, 0] = key
    return crop


def quad_for(key: int) -> np.ndarray:
    return np.float32([[key, 0], [key + 10, 0], [key + 10, 14], [key, 14]])


def crop_of_quad(image, quad):
    return crop_for(int(round(float(quad[0][0]))))


@pytest.fixture
def rule():
    """A deck that learned AS (which the generic model takes for KH), 2S and 3S; rows by key:
    1-3 the learned crops, 10+ the reads a test makes."""
    rng = np.random.default_rng(5)
    logits = {card: rng.normal(0, 3, 53) for card in ("AS", "2S", "3S", "far")}
    others = np.exp(np.delete(logits["AS"], C("KH").index)).sum()
    logits["AS"][C("KH").index] = np.log(0.7 / 0.3 * others)  # this deck's ace: 70 % a king of hearts
    logits["2S"][C("2S").index] = 25.0
    logits["3S"][C("3S").index] = 25.0
    rows = {1: softmax(logits["AS"]), 2: softmax(logits["2S"]), 3: softmax(logits["3S"]),
            10: softmax(logits["AS"] + rng.normal(0, 0.3, 53)),      # another photo of the ace
            11: softmax(logits["2S"] + rng.normal(0, 0.3, 53)),
            12: softmax(logits["far"]),
            13: softmax(0.5 * logits["2S"] + 0.5 * logits["3S"]),   # between two learned cards
            14: softmax(logits["3S"] + rng.normal(0, 0.3, 53))}
    deck = LearnedDeck("rule")
    for key, card in ((1, "AS"), (2, "2S"), (3, "3S")):
        deck.add(C(card), [crop_for(key)])
    return deck, RowClassifier(rows)


def reread(deck, classifier, *reports):
    return DeckReader(deck, classifier, crop_of_quad).reread(np.zeros((4, 4, 3), np.uint8), list(reports))


def test_an_unread_card_like_a_learned_one_is_read(rule):
    deck, classifier = rule
    deck.add(C("KH"), [crop_for(2)])  # the king learned too: the fingerprints choose between them
    out = reread(deck, classifier, Recognition(None, 0.6, quad_for(10)))
    assert out[0].card == C("AS") and out[0].confidence >= MATCH


def test_an_unread_card_is_read_only_as_a_learned_card_the_classifier_is_unsure_of(rule):
    """The deck's 2S is read surely from its learned photo: a card the classifier is unsure of, though
    its fingerprint matches that 2S, is another card (a club taken for a spade, a queen for a nine)."""
    deck, classifier = rule
    classifier.rows[17] = softmax(0.1 * np.log(classifier.rows[11]))   # the same fingerprint, unsure
    assert classifier.decide(classifier.rows[17])[0] is None
    match = DeckReader(deck, classifier, crop_of_quad).matches(classifier.rows[17])[0]
    assert match.card == C("2S") and match.strong
    assert reread(deck, classifier, Recognition(None, 0.2, quad_for(17)))[0].card is None


def test_an_unread_card_leaning_to_an_unlearned_card_stays_unread(rule):
    deck, classifier = rule  # KH not learned: the ace's likeness alone does not outweigh it
    assert reread(deck, classifier, Recognition(None, 0.6, quad_for(10)))[0].card is None


def test_an_unread_card_whose_best_guess_is_an_unlearned_card_stays_unread_however_unsure(rule):
    """Half a deck learned: an unlearned 3S the classifier leans to at 0.5 is no learned 3C."""
    deck, classifier = rule
    classifier.rows[18] = softmax(0.5 * np.log(classifier.rows[10]))   # the ace's fingerprint, KH likeliest
    assert classifier.cards[int(np.argmax(classifier.rows[18]))] == C("KH") and classifier.rows[18].max() < 0.5
    match = DeckReader(deck, classifier, crop_of_quad).matches(classifier.rows[18])[0]
    assert match.card == C("AS") and match.strong
    assert reread(deck, classifier, Recognition(None, 0.4, quad_for(18)))[0].card is None


def test_a_read_the_learned_deck_disagrees_with_is_left_unread(rule):
    deck, classifier = rule
    out = reread(deck, classifier, Recognition(C("3S"), 0.99, quad_for(11)))
    assert out[0].card is None and out[0].confidence == 0.99


def test_a_read_of_a_card_the_deck_has_not_learned_stays_however_like_a_learned_one(rule):
    """Half a deck learned: an unlearned Q♦ read surely, matching the learned Q♥, is still the Q♦."""
    deck, classifier = rule
    rec = Recognition(C("4S"), 0.99, quad_for(11))                     # the 2S's fingerprint
    assert DeckReader(deck, classifier, crop_of_quad).matches(classifier.rows[11])[0].similarity >= OVERRULE
    assert reread(deck, classifier, rec)[0] is rec


def test_a_read_the_learned_deck_agrees_with_stays(rule):
    deck, classifier = rule
    rec = Recognition(C("2S"), 0.99, quad_for(11))
    assert reread(deck, classifier, rec)[0] is rec


def test_a_card_the_recognizer_refused_though_its_index_was_read_surely(rule):
    """Refused for another corner, a neighbour or its whole face: read only where the learned card
    matching it very strongly is the card its index shows."""
    deck, classifier = rule
    assert reread(deck, classifier, Recognition(None, 0.99, quad_for(14)))[0].card == C("3S")
    classifier.rows[15] = at_cosine(classifier.rows[3], 0.925)
    assert classifier.decide(classifier.rows[15])[0] == C("3S")                 # still read surely as 3S ...
    match = DeckReader(deck, classifier, crop_of_quad).matches(classifier.rows[15])[0]
    assert match.card == C("3S") and MATCH <= match.similarity < OVERRULE      # ... but matching less
    assert reread(deck, classifier, Recognition(None, 0.99, quad_for(15)))[0].card is None
    classifier.rows[16] = classifier.rows[3].copy()
    classifier.rows[16][[C("3S").index, C("4S").index]] = classifier.rows[3][[C("4S").index, C("3S").index]]
    assert reread(deck, classifier, Recognition(None, 0.99, quad_for(16)))[0].card is None  # index says 4S


def test_a_card_its_whole_face_refused_is_not_read_again(rule):
    """A queen of diamonds whose index read surely as the 6D, refused by its face: the deck's
    6D matching that index very strongly does not make it a six."""
    deck, classifier = rule
    assert reread(deck, classifier, Recognition(None, 0.99, quad_for(14)))[0].card == C("3S")
    assert reread(deck, classifier, Recognition(None, 0.99, quad_for(14), refuted=Card.from_index(14)))[0].card is None


def test_a_learned_read_never_names_a_card_already_read_in_the_frame(rule):
    deck, classifier = rule
    deck.add(C("KH"), [crop_for(2)])
    out = reread(deck, classifier, Recognition(C("AS"), 0.99, quad_for(12)), Recognition(None, 0.6, quad_for(10)))
    assert [r.card for r in out] == [C("AS"), None]
    out = reread(deck, classifier, Recognition(None, 0.6, quad_for(10)), Recognition(None, 0.6, quad_for(10)))
    assert [r.card for r in out] == [C("AS"), None]


def test_a_card_far_from_every_learned_card_keeps_its_generic_read(rule):
    deck, classifier = rule
    read, unread = Recognition(C("9D"), 0.98, quad_for(12)), Recognition(None, 0.5, quad_for(12))
    assert [r.card for r in reread(deck, classifier, read, unread)] == [C("9D"), None]


def test_a_card_between_two_learned_cards_is_not_read(rule):
    deck, classifier = rule
    assert reread(deck, classifier, Recognition(None, 0.5, quad_for(13)))[0].card is None


# ---- a lone card's whole face, with a whole-card network whose rows the test chooses ------------------

class FaceReader:
    """Stands in for WholeCardReader: a face's first pixel, or an outline's first x, names its row;
    a face turned end for end (its last pixel), or an outline from its far corner (quad_for's x + 10),
    the row 100 on."""

    def __init__(self, rows: dict[int, np.ndarray]):
        self.rows = rows

    def read_faces(self, faces):
        return np.stack([self.rows[int(face[0, 0, 0])] for face in faces])

    def probabilities(self, image, quads):
        return np.stack([self.rows[int(round(float(q[0][0]))) + (90 if q[0][1] > 0 else 0)] for q in quads])


def face_for(key: int) -> np.ndarray:
    face = np.zeros((FACE_HEIGHT, FACE_WIDTH, 3), np.uint8)
    face[0, 0, 0], face[-1, -1, 0] = key, key + 100
    return face


@pytest.fixture
def faced(rule):
    """The rule's deck with a face for each card: rows 1-3 (turned 101-103) the learned faces of AS,
    2S, 3S, each surely its own class (the 2S a little like a 2C); rows 11-13 (111-113) other photos
    of them, the faces a test shows at an outline."""
    deck, classifier = rule
    rng = np.random.default_rng(6)
    logits = {}
    for key, card in ((1, "AS"), (2, "2S"), (3, "3S")):
        logits[key] = rng.normal(0, 3, 44)
        logits[key][class_of(C(card))] = 20.0
        deck.add(C(card), [], [face_for(key)])
    logits[2][class_of(C("2C"))] = 18.0
    rows = {}
    for key, logit in logits.items():
        rows[key] = rows[key + 100] = softmax(logit)
        rows[key + 10] = rows[key + 110] = softmax(logit + rng.normal(0, 0.3, 44))   # 11: the AS, 12: 2S, 13: 3S
    return deck, classifier, FaceReader(rows)


def reread_lone(deck, classifier, faces, rec, *others):
    reader = DeckReader(deck, classifier, crop_of_quad, faces)
    return reader.reread(np.zeros((4, 4, 3), np.uint8), [rec, *others])[0]


def test_a_lone_card_whose_face_is_another_learned_card_stays_unread(faced):
    """A fonts-1008 A♣ whose index matches the learned A♠ surely, its face the A♣: it is left unread."""
    deck, classifier, faces = faced
    faces.rows[14], faces.rows[114] = faces.rows[12], faces.rows[112]        # the 3S's index, the 2S's face
    rec = Recognition(None, 0.99, quad_for(14))
    assert reread(deck, classifier, rec)[0].card == C("3S")                    # by its index alone
    assert reread_lone(deck, classifier, faces, rec).card is None
    faces.rows[14], faces.rows[114] = faces.rows[13], faces.rows[113]        # the 3S's face too
    assert reread_lone(deck, classifier, faces, rec).card == C("3S")
    blur = softmax(np.random.default_rng(11).normal(0, 3, 44))               # a face like none learned
    faces.rows[14] = faces.rows[114] = blur
    face = DeckReader(deck, classifier, crop_of_quad, faces).face_matches(np.zeros((4, 4, 3), np.uint8), [rec.quad])[0][0]
    assert face.card != C("3S") and face.similarity < MATCH                 # too far to say it is another
    assert reread_lone(deck, classifier, faces, rec).card == C("3S")


def test_a_lone_card_whose_index_and_face_agree_is_read_though_its_learned_photo_was_read_surely(faced):
    """The 2S read surely when learned, unsure now: by its index alone it may be another card that
    resembles it; its whole face, matching the learned 2S's too, says which."""
    deck, classifier, faces = faced
    classifier.rows[17] = softmax(0.1 * np.log(classifier.rows[11]))        # the 2S's fingerprint, unsure
    rec = Recognition(None, 0.2, quad_for(17))
    assert reread(deck, classifier, rec)[0].card is None
    faces.rows[17] = faces.rows[117] = at_cosine(faces.rows[2], 0.915)       # a face only fairly like it
    reader = DeckReader(deck, classifier, crop_of_quad, faces)
    face = reader.face_matches(np.zeros((4, 4, 3), np.uint8), [quad_for(17)])[0][0]
    assert face.card == C("2S") and MATCH <= face.similarity < FACE_MATCH
    assert reread_lone(deck, classifier, faces, rec).card is None
    faces.rows[17], faces.rows[117] = faces.rows[12], faces.rows[112]
    out = reread_lone(deck, classifier, faces, rec)
    assert out.card == C("2S") and out.confidence >= MATCH
    beside = Recognition(C("9D"), 0.99, quad_for(12))                        # overlapping it: no whole face
    assert reread_lone(deck, classifier, faces, rec, beside).card is None
    classifier.rows[40] = classifier.rows[12]
    far = Recognition(C("9D"), 0.99, quad_for(40))
    assert reread_lone(deck, classifier, faces, rec, far).card == C("2S")


def test_a_lone_card_whose_face_shows_another_suit_stays_unread(faced):
    """Half a deck learned: an unlearned 2C whose index and face both come nearest the learned 2S, the
    whole-card network seeing clubs, is no 2S."""
    deck, classifier, faces = faced
    classifier.rows[17] = softmax(0.1 * np.log(classifier.rows[11]))
    clubs = np.log(faces.rows[12])
    clubs[class_of(C("2C"))] = clubs[class_of(C("2S"))] + 0.5
    faces.rows[17] = faces.rows[117] = softmax(clubs)
    reader = DeckReader(deck, classifier, crop_of_quad, faces)
    face = reader.face_matches(np.zeros((4, 4, 3), np.uint8), [quad_for(17)])[0][0]
    assert face.card == C("2S") and face.similarity >= MATCH
    assert reread_lone(deck, classifier, faces, Recognition(None, 0.2, quad_for(17))).card is None


def test_a_lone_card_whose_best_guess_is_an_unlearned_card_stays_unread_though_its_face_agrees(faced):
    deck, classifier, faces = faced
    classifier.rows[18] = softmax(0.5 * np.log(classifier.rows[10]))        # the ace's fingerprint, KH likeliest
    faces.rows[18], faces.rows[118] = faces.rows[11], faces.rows[111]
    assert reread_lone(deck, classifier, faces, Recognition(None, 0.4, quad_for(18))).card is None


def test_a_lone_read_of_an_unlearned_card_stands_where_its_face_shows_its_suit(faced):
    """Half a deck learned: an unlearned Q♦ read surely, its index like the learned Q♥'s, which the
    classifier took for a Q♦ when learned; its face shows diamonds at both ends, so the read stands."""
    deck, classifier, faces = faced
    deck.add(C("4H"), [crop_for(2)], [face_for(2)])           # a 4H learned from a photo the classifier read as 2S
    reader = DeckReader(deck, classifier, crop_of_quad, faces)
    assert C("2S") in reader._taken_for[C("4H")]
    rec = Recognition(C("2S"), 0.99, quad_for(11))            # the learned 4H's fingerprint (and the 2S's)
    del deck.crops[C("2S")], deck.faces[C("2S")]             # the 2S itself not learned
    assert reread(deck, classifier, rec)[0].card is None
    spades = np.log(faces.rows[12])
    spades[class_of(C("2S"))] += 30.0
    faces.rows[11] = faces.rows[111] = softmax(spades)
    assert reread_lone(deck, classifier, faces, rec).card == C("2S")
    hearts = np.log(faces.rows[11])
    hearts[class_of(C("4H"))] = hearts.max() + 5.0
    faces.rows[111] = softmax(hearts)
    assert reread_lone(deck, classifier, faces, rec).card is None            # one end shows hearts


def test_a_card_lies_alone_only_where_no_other_outline_covers_its_face():
    from vision.deck_reader import alone

    card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    assert alone(card, [])
    assert alone(card, [card + [97, 0]])               # 3 % of it under a neighbour: its face shows
    assert not alone(card, [card + [90, 0]])           # 10 %: a row
    assert not alone(card[[0, 2, 1, 3]], [])           # a twisted outline shows no face


def test_a_deck_learned_without_faces_is_read_by_its_indices(faced):
    deck, classifier, faces = faced
    faces.rows[14], faces.rows[114] = faces.rows[12], faces.rows[112]
    deck.faces.clear()
    assert reread_lone(deck, classifier, faces, Recognition(None, 0.99, quad_for(14))).card == C("3S")


# ---- the deck file -------------------------------------------------------------------------------------

def small_deck(name="home"):
    rng = np.random.default_rng(1)
    deck = LearnedDeck(name)
    for card in ("5C", "TH", "QS"):
        deck.add(C(card), [rng.integers(0, 255, (INDEX_HEIGHT, INDEX_WIDTH, 3), dtype=np.uint8) for _ in range(2)],
                 [rng.integers(0, 255, (FACE_HEIGHT, FACE_WIDTH, 3), dtype=np.uint8)])
    return deck


def test_a_saved_deck_loads_the_same_and_learning_again_replaces_it(tmp_path):
    deck = small_deck()
    path = save_deck(tmp_path, deck)
    assert path.name == "home.deck.json" and path.stat().st_size < MAX_BYTES
    loaded = load_deck(tmp_path, "home")
    assert loaded.cards == [C("5C"), C("TH"), C("QS")]
    for card in loaded.cards:
        assert all(np.array_equal(a, b) for a, b in zip(loaded.crops[card], deck.crops[card]))
        assert len(loaded.faces[card]) == 1 and np.array_equal(loaded.faces[card][0], deck.faces[card][0])
    assert loaded.has_faces
    other = LearnedDeck("home")
    other.add(C("AD"), deck.crops[C("5C")])
    save_deck(tmp_path, other)
    assert load_deck(tmp_path, "home").cards == [C("AD")]


def test_decks_are_listed_and_forgotten(tmp_path):
    assert deck_names(tmp_path / "none") == []
    save_deck(tmp_path, small_deck("home"))
    save_deck(tmp_path, small_deck("pub-2"))
    assert deck_names(tmp_path) == ["home", "pub-2"]
    forget_deck(tmp_path, "home")
    assert deck_names(tmp_path) == ["pub-2"]
    with pytest.raises(DeckError, match="no learned deck 'home'.*pub-2"):
        forget_deck(tmp_path, "home")
    with pytest.raises(DeckError, match="no deck name"):
        save_deck(tmp_path, small_deck("../etc"))


@pytest.mark.parametrize("text, reason", [
    ("not json at all", "not JSON"),
    ('{"format": "someone else", "version": 1}', "not a Muggins learned deck"),
    ('[1, 2]', "not a Muggins learned deck"),
    ('{"format": "muggins learned deck", "version": 7, "crop": [40, 70], "name": "x", "cards": {}}', "version 7"),
    ('{"format": "muggins learned deck", "version": 1, "crop": [32, 56], "name": "x", "cards": {}}', "crops are"),
    ('{"format": "muggins learned deck", "version": 1, "crop": [40, 70], "name": "x", "cards": {"ZZ": ["AA=="]}}',
     "'ZZ' is no card"),
    ('{"format": "muggins learned deck", "version": 1, "crop": [40, 70], "name": "x", "cards": {"5C": ["bm90IGEgcG5n"]}}',
     "no PNG"),
    ('{"format": "muggins learned deck", "version": 1, "crop": [40, 70], "name": "x", "cards": {"5C": []}}',
     "has no crops"),
    ('{"format": "muggins learned deck", "version": 2, "crop": [40, 70], "name": "x", "cards": {}, "face": [32, 32], '
     '"faces": {}}', "faces are"),
    ('{"format": "muggins learned deck", "version": 2, "crop": [40, 70], "name": "x", "cards": {}, "face": [48, 68]}',
     "without faces"),
    ('{"format": "muggins learned deck", "version": 2, "crop": [40, 70], "name": "x", "cards": {}, "face": [48, 68], '
     '"faces": {"5C": ["bm90IGEgcG5n"]}}', "a card it has not learned"),
])
def test_a_corrupt_or_foreign_deck_file_is_refused_by_name(tmp_path, text, reason):
    path = tmp_path / "bad.deck.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DeckError, match=reason) as caught:
        load_deck(tmp_path, "bad")
    assert str(path) in str(caught.value)


def test_a_deck_file_over_the_size_limit_is_refused(tmp_path):
    path = tmp_path / "big.deck.json"
    path.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(DeckError, match="over the"):
        load_deck(tmp_path, "big")


def test_a_missing_deck_names_those_there_are(tmp_path):
    save_deck(tmp_path, small_deck("home"))
    with pytest.raises(DeckError, match="no learned deck 'pub'.*known: home"):
        load_deck(tmp_path, "pub")


def test_the_deck_file_is_versioned_json():
    data = json.loads(small_deck().to_json())
    assert data["format"] == "muggins learned deck" and data["version"] == 2 and set(data["cards"]) == {"5C", "TH", "QS"}
    assert data["face"] == [FACE_WIDTH, FACE_HEIGHT] and set(data["faces"]) == {"5C", "TH", "QS"}


def test_a_deck_file_of_version_1_still_loads_without_faces(tmp_path):
    data = json.loads(small_deck().to_json())
    del data["face"], data["faces"]
    data["version"] = 1
    (tmp_path / "old.deck.json").write_text(json.dumps(data), encoding="utf-8")
    deck = load_deck(tmp_path, "old")
    assert deck.cards == [C("5C"), C("TH"), C("QS")] and not deck.has_faces


# ---- learning from photos, with the real models ----------------------------------------------------------

@pytest.mark.parametrize("name, card", [("5C.jpg", "5C"), ("10h.png", "TH"), ("qs-2.jpg", "QS"), ("Td_3.PNG", "TD"),
                                        ("aS.jpeg", "AS")])
def test_a_photo_named_by_card_in_any_notation(tmp_path, name, card):
    assert card_named(tmp_path / name) == C(card)


def test_a_name_that_is_no_card_is_refused(tmp_path):
    with pytest.raises(PhotoRefused, match="'zz' is no card"):
        card_named(tmp_path / "zz-2.jpg")


@pytest.fixture(scope="module")
def learning(tmp_path_factory):
    """A folder of learning photos, good and bad, and what learning from it did."""
    from vision.recognizer import Recognizer

    folder = tmp_path_factory.mktemp("photos")
    rng = np.random.default_rng(26)
    for name, cards in (("5C.png", ["5C"]), ("10h.png", ["TH"]), ("qs.png", ["QS"]), ("QS-2.png", ["QS"]),
                        ("zz.png", ["4D"]), ("7d.png", ["7D", "8C"]), ("8d.png", ["7S"])):
        write(folder, name, photo(rng, [C(c) for c in cards]))
    write(folder, "9h.png", photo(rng, []))  # a bare table
    (folder / "notes.txt").write_text("not a photo")
    (folder / "jc-9.jpg").write_bytes(b"not a jpeg")
    recognizer = Recognizer()
    deck, report = learn_folder("home", folder, recognizer)
    return deck, report, recognizer


def test_learning_keeps_each_named_card_and_says_which_are_missing(learning):
    deck, report, _ = learning
    assert deck.cards == [C("5C"), C("TH"), C("QS")]
    assert sorted(report.learned[C("QS")]) == ["QS-2.png", "qs.png"]
    assert len(deck.crops[C("QS")]) >= 2
    assert len(report.missing) == 49 and C("5C") not in report.missing


def test_learning_refuses_each_bad_photo_saying_why(learning):
    _, report, _ = learning
    reasons = dict(report.refused)
    assert set(reasons) == {"zz.png", "7d.png", "8d.png", "9h.png", "notes.txt", "jc-9.jpg"}
    assert "is no card" in reasons["zz.png"]
    assert reasons["7d.png"] == "2 cards found: one card a photo"
    assert reasons["8d.png"].startswith("the card looks like 7S") and reasons["8d.png"].endswith("not 8D")
    assert reasons["9h.png"] == "no card found"
    assert "not a photo" in reasons["notes.txt"]
    assert reasons["jc-9.jpg"] == "not an image OpenCV can read"


def close_photo(recognizer) -> np.ndarray:
    """A phone held close over one card: the photo shows the card's face, cut a little inside its
    edges on every side."""
    from vision.one_card import long_side

    image = photo(np.random.default_rng(7), [C("9S")], height=0.8, tilt=0.0)
    card = recognizer.recognize(image)
    assert [rec.card for rec in card] == [C("9S")]
    (x0, y0), (x1, y1) = card[0].quad.min(axis=0), card[0].quad.max(axis=0)
    cut = round(0.03 * long_side(card[0].quad))
    return np.ascontiguousarray(image[int(y0) + cut:int(y1) - cut, int(x0) + cut:int(x1) - cut])


def assert_learned_as_9s(recognizer, learned) -> None:
    probs = recognizer.classifier.probabilities(learned.crops[:1])[0]
    assert recognizer.classifier.cards[int(np.argmax(probs))] == C("9S")
    face = recognizer.whole_card.read_faces([learned.face])[0]
    assert int(np.argmax(face)) == class_of(C("9S"))


def test_a_card_filling_the_photo_its_edges_cut_is_learned(learning):
    """Whether the recognizer finds the close-cut card as it is or only inside a border, it is learned."""
    from vision.deck_learning import card_photo

    _, _, recognizer = learning
    assert_learned_as_9s(recognizer, card_photo(recognizer, close_photo(recognizer), C("9S")))


def test_a_card_found_in_no_outline_is_looked_for_inside_a_border(learning, monkeypatch):
    """Where the photo as it is shows no card (here the recognizer is made to find none in it), learning
    looks again with the photo inside a dark border, and learns the card found there."""
    import vision.deck_learning as deck_learning

    _, _, recognizer = learning
    close = close_photo(recognizer)
    looked_at = []
    real = deck_learning.recognize_picture

    def none_in_the_photo_as_it_is(rec, image):
        looked_at.append(image.shape)
        return [] if image.shape == close.shape else real(rec, image)

    monkeypatch.setattr(deck_learning, "recognize_picture", none_in_the_photo_as_it_is)
    learned = deck_learning.card_photo(recognizer, close, C("9S"))
    assert looked_at[0] == close.shape and len(looked_at) == 2 and looked_at[1][0] > close.shape[0]
    assert_learned_as_9s(recognizer, learned)


def test_a_learned_deck_never_turns_a_right_read_wrong(learning):
    """Scenes of the learned deck and of another deck, read with and without it: a read card stays that
    card or becomes unread, never another; the learned cards are read; nothing read is wrong."""
    from sim.render.scenes import make_scene

    deck, _, recognizer = learning
    assert deck.has_faces
    reader = DeckReader(deck, recognizer.classifier, recognizer.cropper, recognizer.whole_card)
    rng = np.random.default_rng(8)
    for deck_name, texture in (("penguins", "wood"), ("xskat-french-large", "cloth")):
        scene = make_scene(rng, "separate", deck_name, texture=texture)
        present = {t.card for t in scene.cards if t.card is not None}
        generic = recognizer.recognize(scene.image)
        learned = reader.reread(scene.image, generic)
        for before, after in zip(generic, learned):
            assert after.card in (before.card, None) or before.card is None
            assert after.card is None or after.card in present
    laid = [C("5C"), C("TH"), C("QS")]
    image = photo(rng, laid + [C("2H")], texture="dark_mat")
    reads = {r.card for r in reader.reread(image, recognizer.recognize(image))}
    assert set(laid) <= reads and reads <= set(laid) | {C("2H"), None}


def test_rows_the_recognizer_has_read_in_this_frame_are_not_read_again(rule):
    deck, classifier = rule
    reader = DeckReader(deck, classifier, crop_of_quad)
    calls = []
    probabilities = classifier.probabilities
    classifier.probabilities = lambda crops: calls.append(len(crops)) or probabilities(crops)
    frame, other = np.zeros((4, 4, 3), np.uint8), np.zeros((4, 4, 3), np.uint8)
    reader.remember(frame, [quad_for(11)], classifier.rows[11][None])
    reports = [Recognition(C("2S"), 0.99, quad_for(11)), Recognition(None, 0.5, quad_for(12))]
    reader.reread(frame, reports)
    assert calls == [1]  # only the report whose outline the recognizer had not read
    reader.remember(frame, [quad_for(11)], classifier.rows[11][None])
    reader.reread(other, reports)  # another frame: nothing remembered counts
    assert calls == [1, 2]


def test_a_card_learned_by_its_name_against_the_classifier_is_left_unread_not_misread(learning, tmp_path):
    """--trust-names: a photo the generic reader reads surely as 7S, named 8D, is learned as 8D; a 7S
    of that deck, read surely as 7S by the generic reader, then matches the learned 8D and by its index
    alone is left unread rather than read as either. Lying alone, its whole face shows spades, not the
    learned card's diamonds: the read stands (that deck's real 8D would show diamonds, and stay unread)."""

    _, _, recognizer = learning
    rng = np.random.default_rng(9)
    write(tmp_path, "8d.png", photo(rng, [C("7S")]))
    deck, report = learn_folder("trusting", tmp_path, recognizer)
    assert deck.cards == [] and report.refused[0][1].startswith("the card looks like 7S")
    deck, report = learn_folder("trusting", tmp_path, recognizer, trust_names=True)
    assert deck.cards == [C("8D")] and report.refused == []
    image = photo(rng, [C("7S"), C("2H")], texture="wood")
    generic = recognizer.recognize(image)
    assert C("7S") in {r.card for r in generic}
    by_index = DeckReader(deck, recognizer.classifier, recognizer.cropper).reread(image, generic)
    assert {r.card for r in by_index} == {None, C("2H")}
    by_face = DeckReader(deck, recognizer.classifier, recognizer.cropper, recognizer.whole_card).reread(image, generic)
    assert {r.card for r in by_face} == {C("7S"), C("2H")}

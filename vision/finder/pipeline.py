"""The finder's stages in order, from a frame to Candidates: cues, one outline per object, each read
as one card and as a row, rows weighed against the frame's lone cards, duplicates dropped, whole cards
snapped and checked.  Finding works on a copy shrunk to WORK_WIDTH pixels across (speed); the quads
it returns are in the full frame's pixels, for the index crop to cut at full resolution."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.finder.candidate import Candidate
from vision.finder.cues import (BRIGHTER_BY, PATCH_LEVEL, Patch, bright_blobs, edge_loops, local_mean, patch_sized,
                                 to_patch, whiteness)
from vision.finder.fitting import CardFits
from vision.finder.outlines import distinct, runs_out_of_view
from vision.finder.quads import index_orderings, iou, to_full
from vision.finder.rows import RowCard, split_row
from vision.finder.sizes import one_card, row_off_size, size_gap, typical_size
from vision.finder.snapping import MIN_EDGE_SUPPORT, MIN_STRAIGHT, OtherOutlines, best_snap, snap

WORK_WIDTH = 640
# Card long side in the frame, as a share of the frame's shorter side.
MIN_CARD_SHARE, MAX_CARD_SHARE = 0.08, 0.9
ROW_CARD_SCORE = 0.6         # how card-like a row's card is taken to be (its outline is not fitted)


@dataclass(frozen=True, eq=False)
class Blob:
    """One object's outline, read as one card and as a row of cards."""
    quad: np.ndarray | None   # its card quad in full-frame pixels; None where it is not card-shaped
    score: float              # how card-like that quad is (0..1)
    row: list[RowCard]        # its cards read as a row; [] where it is no row (or was not checked)
    outline: np.ndarray       # the outline, Nx2 full-frame pixels


@dataclass(frozen=True, eq=False)
class Proposal:
    """A card proposed, before duplicates are dropped and whole cards are checked."""
    quad: np.ndarray
    covered: bool
    score: float
    blob: int                 # the blob it came from: a row's cards stand or fall with its top card


def find_cards(image: np.ndarray, card_length: float | None = None) -> list[Candidate]:
    """Every card-like region of a BGR frame, as Candidates in full-frame pixels (card_length: see
    find_cards_and_patches)."""
    return find_cards_and_patches(image, card_length)[0]


def find_cards_and_patches(image: np.ndarray, card_length: float | None = None) \
        -> tuple[list[Candidate], list[Patch]]:
    """The Candidates (find_cards), and the Patches (box and outline, full-frame pixels) of the areas
    clearly brighter than the table round them and about a card's size, whether or not a card was
    fitted to them: on a fine check cloth a card's bright face frays into the cloth's light squares,
    too ragged for a card's outline, and the index-corner detector may still find it read enlarged
    (vision.corners).

    card_length: the long side of this frame's cards in full-frame pixels, where something else has
    measured it (the index-corner detector's sure corners): a card-shaped blob of that length is one
    card, and the row check, nearly half the finder's time, is spared it (`one_card`)."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else image
    chan = whiteness(small)
    sh, sw = chan.shape
    short = min(sh, sw)
    lo_side, hi_side = MIN_CARD_SHARE * short, MAX_CARD_SHARE * short
    mean = local_mean(chan, lo_side)
    cues = [bright_blobs(chan, mean, lo_side, by) for by in BRIGHTER_BY] + [edge_loops(chan, lo_side)]
    patches = [to_patch(contour, scale) for contour in cues[PATCH_LEVEL]
               if patch_sized(contour, lo_side, hi_side)]
    fit = CardFits(lo_side, hi_side)
    outlines, others = distinct(cues, fit)
    keep = [i for i, c in enumerate(outlines) if not runs_out_of_view(c, chan.shape)]
    alternates: dict[int, OtherOutlines] = {}  # id of a lone card's quad: the card's other outlines
    blobs: list[Blob] = []
    for b in keep:
        contour = outlines[b]
        quad, score = fit(contour)
        full = None if quad is None else to_full(quad, scale)
        if full is not None and b in others:
            alternates[id(full)] = OtherOutlines(others[b], quad)
        outline = to_full(contour.reshape(-1, 2).astype(np.float32), scale)
        # A card-shaped blob is seldom a row, and one of the frame's card length is none: its row
        # reading is checked in full only if it is one.
        if full is not None and card_length is not None and one_card(full, card_length):
            row = []
        else:
            row = split_row(image, outline, lo_side / scale, hi_side / scale, verify=quad is None)
        blobs.append(Blob(full, score, row if len(row) >= 2 else [], outline))
    # Cards that can only be single cards tell the size of every card in this frame.
    typical = typical_size([blob.quad for blob in blobs if blob.quad is not None and not blob.row])
    found: list[Proposal] = []
    fallback: dict[int, Blob] = {}  # a row's blob, for its single-card reading
    for group, blob in enumerate(blobs):
        row = blob.row
        if row and blob.quad is not None:  # one card with lines across it, or a row shaped like a card?
            if typical is not None:
                # Sized as one card by its snapped outline: an edge loop takes in the card's shadow.
                snapped = snap(image, blob.quad)
                single = snapped.quad if snapped.support >= MIN_EDGE_SUPPORT else blob.quad
                as_row = size_gap(typical_size([card.quad for card in row]), typical) < \
                    size_gap(typical_size([single]), typical)
                row = split_row(image, blob.outline, lo_side / scale, hi_side / scale) if as_row else []
            else:
                row = split_row(image, blob.outline, lo_side / scale, hi_side / scale)
                as_row = len(row) >= 3
            row = row if as_row and len(row) >= 2 else []
        elif row and typical is not None and row_off_size([card.quad for card in row], typical):
            row = []  # a card with lines across whose outline is not card-shaped (merged with its shadow)
        if row:
            found.extend(Proposal(card.quad, card.covered, ROW_CARD_SCORE, group) for card in row
                         if card.index_seen or not card.covered)
            if blob.quad is not None:
                fallback[group] = blob
        elif blob.quad is not None:
            found.append(Proposal(blob.quad, False, blob.score, group))
    kept = _suppress(found)
    # Whole cards (lone, or on top of a row) must show a card's edge all round and a margin of another
    # tone than the table; a row whose top card does not is texture, and all its cards go.
    whole: dict[int, np.ndarray] = {}
    rejected: set[int] = set()
    # A lone card's snapped sides must lie straight on its edges: an outline off the card (a shadow's
    # far side, a court card's frame) seldom does.  A row's top card meets the card under it in a
    # faint edge, and is spared.
    rows = {proposal.blob for proposal in kept if proposal.covered}
    for i, proposal in enumerate(kept):
        if proposal.covered:
            continue
        snapped = best_snap(image, proposal.quad, alternates.get(id(proposal.quad)), fit, scale,
                            0.0 if proposal.blob in rows else MIN_STRAIGHT)
        if snapped is not None:
            whole[i] = snapped
        else:
            rejected.add(proposal.blob)
    out = []
    for i, proposal in enumerate(kept):
        if proposal.blob in rejected or (not proposal.covered and i not in whole):
            continue
        quads = index_orderings(whole[i], None) if i in whole else [proposal.quad]
        out.append(Candidate(tuple(q.astype(np.float32) for q in quads), proposal.covered, float(proposal.score)))
    # A blob read as a row that did not hold up may still be one card with lines across it.
    for group in sorted(rejected & fallback.keys()):
        blob = fallback[group]
        snapped = best_snap(image, blob.quad, None, fit, scale, MIN_STRAIGHT)
        if snapped is not None and all(iou(snapped, c.quad) < 0.5 for c in out):
            out.append(Candidate(tuple(q.astype(np.float32) for q in index_orderings(snapped, None)),
                                 False, float(blob.score)))
    return out, patches


def _suppress(found: list[Proposal]) -> list[Proposal]:
    """Drop duplicates (the same card from both cues): keep the best-scored of quads that overlap much."""
    kept: list[Proposal] = []
    for proposal in sorted(found, key=lambda p: -p.score):
        if all(iou(proposal.quad, k.quad) < 0.7 for k in kept):
            kept.append(proposal)
    return kept

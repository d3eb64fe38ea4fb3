"""Find card-shaped things in a frame: whole cards, and cards half covered in an overlapping row.

Two cues mark a card against any table: its face is brighter than the table around it, and its
outline is a closed loop of edges (cues).  The cues' outlines are merged, one per object (outlines).
A blob that is one card-shaped quad is a card (fitting); a long blob is split into the cards of a row
by the straight card edges that cross it (row_lines, rows), each covered card's corner fitted to the
edges beside it and kept only where an index shows there (covered_corner).  Cards that can only be
single cards tell the size of every card in the frame (sizes).  A whole card is kept only if its
sides, snapped to the full-resolution edges, show a card's edge all round and a margin of another
tone than the table (snapping).  pipeline runs these in order.  Backs, phones and paper may be
proposed too: the classifier rejects them.  The bright patches of about a card's size are reported
too, outlined or not (find_cards_and_patches): the index-corner detector reads again, enlarged,
those no card explains (vision.corners).  Where the detector has measured the frame's card length, a
card-shaped blob of that length is taken for one card without looking for a row in it: nearly half
the finder's time went on that look, and a court card's picture frame could be taken for a row's edges.

Known limits: a light, grey table under grey-faced cards, blurred above all (their snapped sides
seldom lie straight: they go unproposed rather than misplaced); rows whose card edges are too faint
to see (white on white with the shadow on the far side); blobs running out of view across the frame;
short rows, which read about as well laid either way (the top card shows both its indices).
"""

from vision.finder.candidate import Candidate
from vision.finder.cues import Patch
from vision.finder.pipeline import find_cards, find_cards_and_patches
from vision.finder.sizes import CardSize, typical_size

__all__ = ["Candidate", "CardSize", "Patch", "find_cards", "find_cards_and_patches", "typical_size"]

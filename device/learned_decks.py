"""Where the device keeps learned decks, and the deck the config names for its recognizer.

Decks live in the state directory's `decks/` folder (`--decks-dir` names another): the state
directory is $MUGGINS_STATE_DIR where set, else the config's `state_dir`. A deck named in the config
that is missing or unreadable is told once and the generic reading carries on: a game never stops
for it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

DECKS_FOLDER = "decks"


def config_path(given: Path | None) -> Path | None:
    """The config file: --config, else $MUGGINS_CONFIG, else none (the defaults)."""
    if given is not None:
        return given
    return Path(os.environ["MUGGINS_CONFIG"]) if os.environ.get("MUGGINS_CONFIG") else None


def state_folder(config, state_dir: Path | None = None) -> Path:
    """The state directory: state_dir where given, else $MUGGINS_STATE_DIR where set, else the config's."""
    if state_dir is None and os.environ.get("MUGGINS_STATE_DIR"):
        state_dir = Path(os.environ["MUGGINS_STATE_DIR"])
    return Path(state_dir if state_dir is not None else config.state_dir)


def decks_folder(config, decks_dir: Path | None = None, state_dir: Path | None = None) -> Path:
    """--decks-dir where given, else the state directory's decks/ folder."""
    if decks_dir is not None:
        return Path(decks_dir)
    return state_folder(config, state_dir) / DECKS_FOLDER


def deck_in_play(name: str | None, folder: Path, tell: Callable[[str], None]):
    """The learned deck `name` (None: none named), or None after telling why it cannot be used."""
    from vision.learned_deck import DeckError, load_deck

    if not name:
        return None
    try:
        return load_deck(folder, name)
    except DeckError as exc:
        tell(f"the learned deck is not used: {exc}; reading cards without it")
        return None

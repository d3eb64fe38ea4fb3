"""`muggins run`: the device — camera, pegboard, panel and voice, as the config chooses."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None,
                        help="the TOML config (default: $MUGGINS_CONFIG, else built-in defaults)")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="where the journal lives (default: the config's state_dir)")
    parser.add_argument("--new-game", action="store_true",
                        help="archive the journal and start a new game instead of resuming")
    parser.add_argument("--frames", type=int, default=None, help=argparse.SUPPRESS)  # for tests


def run(args) -> int:
    from device.app import Device
    from device.config import load_config

    path = args.config or (Path(os.environ["MUGGINS_CONFIG"]) if os.environ.get("MUGGINS_CONFIG") else None)
    config = load_config(path)
    state_dir = args.state_dir or (Path(os.environ["MUGGINS_STATE_DIR"])
                                   if os.environ.get("MUGGINS_STATE_DIR") else None)
    device = Device(config, state_dir=state_dir, new_game=args.new_game)
    return device.run(max_frames=args.frames)

"""`muggins run`: the device — camera, pegboard, panel and voice, as the config chooses."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None,
                        help="the TOML config (default: $MUGGINS_CONFIG, else built-in defaults)")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="where the journal lives (default: $MUGGINS_STATE_DIR, else the config's state_dir)")
    parser.add_argument("--new-game", action="store_true",
                        help="archive the journal and start a new game instead of resuming")
    parser.add_argument("--web", metavar="[HOST:]PORT", default=None,
                        help="serve the table's web page here (a PORT alone: on every interface); "
                             "the config's [web] table turns it on too")
    parser.add_argument("--frames", type=int, default=None, help=argparse.SUPPRESS)  # for tests


def web_address(args, config) -> str | None:
    """Where the web page listens: --web, else the config's [web] when enabled, else nowhere."""
    if args.web is not None:
        return args.web
    if config.web.enabled:
        return f"{config.web.host}:{config.web.port}"
    return None


def run(args) -> int:
    from device.app import Device
    from device.config import load_config
    from device.learned_decks import config_path, state_folder

    config = load_config(config_path(args.config))
    listen = web_address(args, config)
    if listen is not None:
        from device.web import require_aiohttp
        from device.web.address import parse_listen

        require_aiohttp()
        parse_listen(listen)  # a bad address is said before the camera is opened
    device = Device(config, state_dir=state_folder(config, args.state_dir), new_game=args.new_game)
    page = None
    if listen is not None:
        from device.web.table import serve

        try:
            page = serve(device, listen)
        except BaseException:
            device.close()
            raise
    try:
        return device.run(max_frames=args.frames)  # closes the device at its end
    finally:
        if page is not None:
            page.close()

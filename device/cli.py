"""The `muggins` command line: one subcommand per module in device/commands/, imported only when run.

Each command module provides `add_arguments(parser)` and `run(args) -> int`; its one-line help lives
in COMMANDS below, so `muggins --help` lists every command without importing any of them.
User errors (bad cards, bad config, a missing camera...) print one clear line and exit with status 2;
they never show a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from cribbage.errors import CribbageError
from device.errors import DeviceError, UsageError
from vision.errors import VisionError

# name -> (module, one-line help). Modules are imported only for the command that runs.
COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("device.commands.score", "count one hand (or a batch) with its breakdown"),
    "peg": ("device.commands.peg", "the points the last card earns in one play series"),
    "stats": ("device.commands.stats", "score distributions over every hand and starter"),
    "coach": ("device.commands.coach", "every lay-away of a dealt hand with its expected points"),
    "recognize": ("device.commands.recognize", "read the cards in photographs of the table"),
    "demo": ("device.commands.demo", "a whole simulated game, no hardware needed"),
    "run": ("device.commands.run", "run the device"),
    "calibrate": ("device.commands.calibrate", "set up the camera view and the table zones"),
    "record": ("device.commands.record", "each player's record from the journals; a deal looked back at"),
    "deck": ("device.commands.deck", "learn the players' own deck from photos; list or forget learned decks"),
    "test-hardware": ("device.commands.test_hardware", "walk the LEDs and report each button"),
}

USER_ERRORS = (CribbageError, VisionError, DeviceError)


def _load(name: str):
    module_name = COMMANDS[name][0]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="muggins", description="Muggins: the cribbage companion.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or name == only:
            module = _load(name)
            if module is not None:
                module.add_arguments(sp)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(first if first in COMMANDS else None)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    module = _load(args.command)
    if module is None:
        print(f"muggins: error: '{args.command}' is not available in this build yet", file=sys.stderr)
        return 2
    try:
        return int(module.run(args) or 0)
    except USER_ERRORS as exc:
        print(f"muggins {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

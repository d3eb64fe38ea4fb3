"""The set-up page's writes: the config file's text, checked by the loader's own rules, saved safely.

A new text is parsed and checked exactly as `muggins run --config` would (device.config), so the page
shows the loader's own message for a mistake; nothing is written until it passes. Saving keeps the
old file beside it (`NAME.old`), then writes the new one to a temporary file, syncs it and renames it
into place, so a power cut leaves the old config or the new one, never half of one.
"""

from __future__ import annotations

import shutil
import tempfile
import tomllib
from pathlib import Path

from device.config import Config, config_from_dict
from device.errors import ConfigError
from device.files import write_text_atomically

MAX_CONFIG_BYTES = 64 * 1024


def check_config_text(text: str, path: Path) -> Config:
    """The Config this text gives, read as if it were the file at `path`; ConfigError if it is wrong."""
    if len(text.encode("utf-8")) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: a config of more than {MAX_CONFIG_BYTES // 1024} KiB is not a config")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return config_from_dict(data, str(path), path.parent).replace(path=path)


def save_config_text(path: Path, text: str) -> Config:
    """Check the text, keep the old file as NAME.old, and put the new one in place atomically."""
    config = check_config_text(text, path)
    path = Path(path)
    if path.exists():
        shutil.copy2(path, old_copy(path))
    write_text_atomically(path, text if text.endswith("\n") else text + "\n")
    return config


def zones_text(path: Path, zones) -> str:
    """The config file's text with its [zones] table replaced by these zones (everything else kept).

    The rewriting is `muggins calibrate`'s own (device.calibration.save_zones), done on a copy."""
    from device.calibration import save_zones

    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / path.name
        if path.exists():
            shutil.copy2(path, copy)
        save_zones(copy, zones)
        return copy.read_text(encoding="utf-8")


def setting_text(path: Path, table: str, key: str, value) -> str:
    """The config file's text with one `key = value` set in [table] (calibrate's own rewriting, on a copy)."""
    from device.calibration import save_setting

    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / path.name
        if path.exists():
            shutil.copy2(path, copy)
        save_setting(copy, table, key, value)
        return copy.read_text(encoding="utf-8")


def old_copy(path: Path) -> Path:
    return path.with_name(path.name + ".old")

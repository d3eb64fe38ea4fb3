"""The set-up page's work, off the server's loop: what it shows, and the zones, card size, table's print
and settings it saves (checked by the config loader's rules, saved by device.web.settings)."""

from __future__ import annotations

from pathlib import Path

from device.errors import UsageError
from device.web import settings


def _config_path(setup) -> Path:
    from device.web.server import NoConfigFile

    path = getattr(setup.config, "path", None)
    if path is None:
        raise NoConfigFile("the device runs on built-in settings: start it with --config FILE to save "
                           "set-up changes")
    return Path(path)


def setup_info(setup) -> dict:
    """The camera picture's size, the zones over it, the cards last read, the config's text."""
    from device.calibration import zones_from_config

    config = setup.config
    camera = setup.camera
    image = None if camera is None else camera.image
    info: dict = {"config_path": None, "toml": "", "camera": image is not None, "width": None, "height": None,
                  "zones": {}, "cards": [], "card_length": None, "players": [],
                  "can_measure": setup.measure_card is not None, "can_learn": setup.learner is not None,
                  "decks": [] if setup.learner is None else setup.learner.known(), "deck": None,
                  "table_print": None if setup.table is None else setup.table.state()}
    if config is None:
        return info
    info["players"] = list(config.game.players)
    info["card_length"] = config.camera.card_length
    info["deck"] = config.camera.deck
    if config.path is not None:
        info["config_path"] = str(config.path)
        try:
            info["toml"] = Path(config.path).read_text(encoding="utf-8")
        except OSError as exc:
            info["toml_error"] = f"cannot read {config.path}: {exc.strerror}"
    if image is not None:
        height, width = image.shape[:2]
        info["width"], info["height"] = width, height
        info["zones"] = zones_from_config(config, width, height).to_config()
        info["cards"] = camera.cards()
    return info


def save_zones(setup, zones: dict) -> dict:
    """Check dragged zones (the tracker's own polygon rules, then the config loader's) and save them."""
    from vision.zones import Zones

    path = _config_path(setup)
    for name, points in zones.items():
        if not isinstance(name, str) or not isinstance(points, list):
            raise UsageError("zones are {name: [[x, y], ...]}")
    try:
        checked = Zones.from_config(zones)
    except ValueError as exc:
        raise UsageError(f"those zones cannot be used: {exc}") from None
    text = settings.zones_text(path, checked)
    settings.save_config_text(path, text)
    return {"saved": str(path), "old": str(settings.old_copy(path)),
            "message": f"zones saved into {path} (the old file is kept as {settings.old_copy(path).name}); "
                       "they are used from the next start"}


def measure_card(setup) -> dict:
    """Measure the one card laid in the camera's view and save it as [camera] card_length."""
    camera = setup.camera
    image = None if camera is None else camera.image
    if image is None or setup.measure_card is None:
        raise UsageError("no camera picture to measure a card in")
    length = round(setup.measure_card(image))
    path = getattr(setup.config, "path", None)
    if path is None:
        return {"card_length": length, "saved": None,
                "message": f"a card is {length} pixels long; no config file to save it into"}
    path = Path(path)
    settings.save_config_text(path, settings.setting_text(path, "camera", "card_length", length))
    return {"card_length": length, "saved": str(path),
            "message": f"a card is {length} pixels long: saved as [camera] card_length in {path}"}


def learn_table(setup) -> dict:
    """Learn the empty table in the camera's view as its print, read past from now on."""
    from device.web.server import NoLearning

    if setup.table is None:
        raise NoLearning("this table has no camera and recognizer to learn the table with")
    image = None if setup.camera is None else setup.camera.image
    if image is None:
        raise UsageError("no camera picture yet to learn the table from")
    return setup.table.learn(image.copy())


def deck_in_config(setup, name: str):
    """Check the config with `[camera] deck = "name"` set (nothing written yet); returns what writes it."""
    path = _config_path(setup)
    text = settings.setting_text(path, "camera", "deck", f'"{name}"')
    settings.check_config_text(text, path)

    def write() -> Path:
        settings.save_config_text(path, text)
        return path

    return write


def save_settings(setup, text: str, save: bool = True) -> dict:
    """Check the config's new text as `muggins run --config` would; save it when asked and it passes."""
    path = _config_path(setup)
    if not save:
        settings.check_config_text(text, path)
        return {"ok": True, "saved": None, "message": "these settings are good"}
    settings.save_config_text(path, text)
    return {"ok": True, "saved": str(path),
            "message": f"saved {path} (the old file is kept as {settings.old_copy(path).name}); "
                       "the settings are used from the next start"}

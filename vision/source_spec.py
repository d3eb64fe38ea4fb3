"""The camera-source setting, checked by one rule: what the config accepts is what the sources open.

    "picamera" or "picamera:1"   the Raspberry Pi camera (its number)
    "usb:0" or "usb:/dev/video2" a USB webcam through OpenCV (a device number or path)
    "replay:PATH"                an image, a folder of images, or a video
    {"kind": "replay", "path": "shots/", "loop": True, "fps": 5, "pace": True}  (the dict form)

Standard library only, so the config can check a source without importing OpenCV.
"""

from __future__ import annotations

from typing import Any

from vision.errors import VisionError

SOURCE_FORMS = "'picamera', 'usb:N' (N a device number or a /dev/video path) or 'replay:PATH'"

#: Options each kind accepts in the dict form, with their defaults.
_OPTIONS: dict[str, dict[str, Any]] = {
    "picamera": {"camera": 0, "size": (1280, 720), "fps": None, "autofocus": True, "timeout": 3.0},
    "usb": {"device": 0, "width": None, "height": None, "fps": None},
    "replay": {"path": None, "loop": False, "fps": None, "pace": False},
}
_KINDS_HELP = f"use {SOURCE_FORMS}"


class SourceConfigError(VisionError, ValueError):
    """A frame-source setting in the config is wrong; the message names the setting and what is allowed."""


def _kind(name: Any) -> str:
    kind = str(name).strip().lower()
    if kind not in _OPTIONS:
        raise SourceConfigError(f"unknown camera source {name!r}: {_KINDS_HELP}")
    return kind


def _given(spec: str | dict) -> tuple[str, dict[str, Any]]:
    """The kind and the options the spec itself sets (no defaults yet)."""
    if isinstance(spec, str):
        head, _, rest = spec.strip().partition(":")
        kind = _kind(head)
        options: dict[str, Any] = {}
        if rest:
            options[{"picamera": "camera", "usb": "device", "replay": "path"}[kind]] = rest
        return kind, options
    if isinstance(spec, dict):
        if "kind" not in spec:
            raise SourceConfigError(f"camera source {spec!r} has no 'kind': {_KINDS_HELP}")
        kind = _kind(spec["kind"])
        options = {k: v for k, v in spec.items() if k != "kind"}
        unknown = sorted(set(options) - set(_OPTIONS[kind]))
        if unknown:
            raise SourceConfigError(f"camera source {kind!r} has no setting {', '.join(map(repr, unknown))}: "
                                    f"it takes {', '.join(_OPTIONS[kind])}")
        return kind, options
    raise SourceConfigError(f"camera source must be text or a table of settings, got {spec!r}")


def parse_source_spec(spec: str | dict, *, size: tuple[int, int] | None = None,
                      fps: float | None = None) -> dict[str, Any]:
    """The spec as a complete dict {"kind": ..., options...}; SourceConfigError if it is wrong.

    size (width, height) and fps fill in what a camera spec leaves unset (the config's
    [camera] resolution and fps); replays keep their own rate and size.
    """
    kind, options = _given(spec)
    if kind == "picamera":
        if size is not None:
            options.setdefault("size", size)
        if fps is not None:
            options.setdefault("fps", fps)
    elif kind == "usb":
        if size is not None:
            options.setdefault("width", size[0])
            options.setdefault("height", size[1])
        if fps is not None:
            options.setdefault("fps", fps)
    return _checked({"kind": kind, **_OPTIONS[kind], **options})


def _checked(spec: dict[str, Any]) -> dict[str, Any]:
    kind = spec["kind"]
    try:
        if kind == "picamera":
            spec["camera"] = int(spec["camera"])
            width, height = spec["size"]
            spec["size"] = (int(width), int(height))
            spec["timeout"] = float(spec["timeout"])
            spec["fps"] = None if spec["fps"] is None else float(spec["fps"])
        elif kind == "usb":
            device = spec["device"]
            spec["device"] = int(device) if str(device).strip().isdigit() else str(device)
            for key in ("width", "height"):
                spec[key] = None if spec[key] is None else int(spec[key])
            spec["fps"] = None if spec["fps"] is None else float(spec["fps"])
        else:
            if not spec["path"]:
                raise SourceConfigError("a replay source needs a path: 'replay:/path/to/images-or-video'")
            spec["path"] = str(spec["path"])
            spec["fps"] = None if spec["fps"] is None else float(spec["fps"])
            spec["loop"], spec["pace"] = bool(spec["loop"]), bool(spec["pace"])
    except (TypeError, ValueError) as exc:
        if isinstance(exc, SourceConfigError):
            raise
        raise SourceConfigError(f"camera source {kind!r} has a bad setting: {exc}") from exc
    return spec


def describe_source(spec: str | dict) -> str:
    """A name for messages: 'the Pi camera', 'USB camera 0', 'replay of shots/'."""
    full = parse_source_spec(spec)
    if full["kind"] == "picamera":
        return "the Pi camera" if full["camera"] == 0 else f"Pi camera {full['camera']}"
    if full["kind"] == "usb":
        return f"USB camera {full['device']}"
    return f"replay of {full['path']}"

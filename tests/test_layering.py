"""Dependencies run one way (DESIGN.md): cribbage imports only the standard library; vision never imports device."""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_top_levels(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return found


def test_rules_import_only_the_standard_library():
    outside = {name: files for name, files in imported_top_levels("cribbage").items()
               if name not in sys.stdlib_module_names and name != "cribbage"}
    assert outside == {}


def test_vision_does_not_import_the_device_layer():
    assert "device" not in imported_top_levels("vision")


def test_camera_and_hardware_libraries_are_not_imported_at_module_top():
    """Optional backends are imported inside the function that chooses them, never at the top of a module."""
    optional = {"picamera2", "lgpio", "spidev", "torch", "libcamera"}
    offenders = []
    for package in ("cribbage", "vision", "device", "models"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                else:
                    continue
                offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in optional]
    assert offenders == []

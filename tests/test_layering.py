"""Dependencies run one way (DESIGN.md): cribbage imports only the standard library; vision never imports device."""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPTIONAL_BACKENDS = {"picamera2", "lgpio", "spidev", "torch", "libcamera"}


def imports_of(path: Path, *, top_only: bool = False) -> set[str]:
    """Top-level package names a module imports (anywhere in it, or only at module level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_only else ast.walk(tree)
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def modules_of(package: str):
    return sorted((ROOT / package).rglob("*.py"))


def runtime_modules():
    """Every module the device itself may import; models/training/ runs only under `make model`."""
    for package in ("cribbage", "vision", "device", "models"):
        for path in modules_of(package):
            if "training" not in path.relative_to(ROOT).parts:
                yield path


def test_rules_import_only_the_standard_library():
    outside = {f"{p.relative_to(ROOT)}: {name}" for p in modules_of("cribbage") for name in imports_of(p)
               if name not in sys.stdlib_module_names and name != "cribbage"}
    assert outside == set()


def test_vision_does_not_import_the_device_layer():
    assert [str(p.relative_to(ROOT)) for p in modules_of("vision") if "device" in imports_of(p)] == []


def test_camera_and_hardware_libraries_are_not_imported_at_module_top():
    """Optional backends are imported inside the function that chooses them, never at the top of a module."""
    offenders = [f"{p.relative_to(ROOT)}: {name}" for p in runtime_modules()
                 for name in imports_of(p, top_only=True) & OPTIONAL_BACKENDS]
    assert offenders == []


def test_nothing_the_device_runs_imports_torch():
    """Inference is onnxruntime only: torch may appear in models/training/ and nowhere else."""
    assert [str(p.relative_to(ROOT)) for p in runtime_modules() if "torch" in imports_of(p)] == []


def test_the_controller_and_the_config_import_no_opencv():
    """Zone names, table events and the camera-source rule live in standard-library modules so that
    the game's logic and the config load (and are tested) without OpenCV or numpy."""
    import subprocess

    code = "import sys, device.controller, device.config; print(sorted({'cv2', 'numpy'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"

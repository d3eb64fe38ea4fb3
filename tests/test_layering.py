"""Dependencies run one way (docs/DESIGN.md): cribbage imports only the standard library; vision never imports
device; the synthetic world (sim) is reached only by the demo command, the tests, the benchmarks and training."""

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


def test_vision_and_the_device_at_run_time_never_import_the_synthetic_world():
    """sim renders and simulates; nothing the device runs needs it. The one door is `muggins demo`
    (device/commands/demo.py), which imports sim inside its run function, so `muggins run` never does."""
    door = ROOT / "device" / "commands" / "demo.py"
    assert [str(p.relative_to(ROOT)) for p in runtime_modules() if p != door and "sim" in imports_of(p)] == []
    assert "sim" not in imports_of(door, top_only=True)


def test_the_renderer_imports_only_the_rules_and_vision():
    """sim/render draws cards, tables and camera looks from the rules' cards and vision's geometry, and
    knows nothing of the device. The rest of sim is the simulated game, which drives the real device
    (its panel events, eyes, controller, journal, board and voice), so those modules may import device;
    the device never imports them back (the test above)."""
    allowed = {"cribbage", "vision", "sim", "numpy", "cv2", "PIL"}
    outside = {f"{p.relative_to(ROOT)}: {name}" for p in modules_of("sim/render") for name in imports_of(p)
               if name not in sys.stdlib_module_names and name not in allowed}
    assert outside == set()


def test_muggins_run_loads_nothing_of_the_synthetic_world():
    import subprocess

    code = ("import sys, device.cli, device.commands.run, device.app; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'sim'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


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

"""`python -m models.training.apt`: the Debian packages `make model` needs that are not installed.

Prints them on one line (nothing when all are there, or where dpkg cannot be asked), so the Makefile
can install them or say what to install. The font list is sim.render.fontdecks.FONT_PACKAGES.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

from sim.render.fontdecks import FONT_PACKAGES

MODEL_PACKAGES = ("kdegames-card-data-kf5", "librsvg2-bin", *FONT_PACKAGES)


def missing(packages=MODEL_PACKAGES) -> list[str]:
    """The packages dpkg does not report installed ([] without dpkg: later steps then say what lacks)."""
    if shutil.which("dpkg-query") is None:
        return []
    result = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\n", *packages],
                            capture_output=True, text=True, check=False)
    installed = {line.split()[0] for line in result.stdout.splitlines() if line.endswith(" installed")}
    return [p for p in packages if p not in installed]


def main() -> int:
    print(" ".join(missing()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

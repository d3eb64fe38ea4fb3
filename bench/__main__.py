"""Run every benchmark (or those named: `python -m bench rules vision`) and print their figures."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

from bench.machine import describe


def main(argv: list[str]) -> int:
    names = sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules([str(Path(__file__).parent)])
                   if m.name.startswith("bench_"))
    chosen = argv or names
    unknown = [n for n in chosen if n not in names]
    if unknown:
        print(f"unknown benchmark(s): {' '.join(unknown)}; known: {' '.join(names)}", file=sys.stderr)
        return 2
    print(describe())
    for name in chosen:
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"bench.bench_{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

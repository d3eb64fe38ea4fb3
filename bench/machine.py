"""Describe the machine a benchmark ran on, pin the process to one core where asked, and estimate a
Raspberry Pi's time from this machine's (sysbench's single-thread score against the Pi's published one)."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def describe() -> str:
    """One line: CPU, core count, Python; printed at the top of every benchmark."""
    return (f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}, "
            f"Python {platform.python_version()}")


def pin_to_one_core() -> None:
    """Run on a single core so figures compare with the issues' 'one core' budgets."""
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[0]})


# A Raspberry Pi is estimated, not measured: sysbench's single-thread CPU test (`sysbench cpu
# --threads=1`, primes up to 10 000, sysbench 1.0.20) is a figure both this machine and a Pi can
# give, and leoncode.co.uk/articles/raspberry-pi-benchmarks publishes the Pi's, in events per second.
PI_SYSBENCH = {"Pi 5": 2737.49, "Pi 4": 1477.83}
# That test is scalar integer work. NEON's vectors are half as wide as AVX2's, so the vectorised
# parts (convolutions, image warps) may be up to twice as much slower again: the upper end of a range.
VECTOR_ALLOWANCE = 2.0


def parse_sysbench(text: str) -> float | None:
    """'events per second:  4809.77' from sysbench's report, or None if it is not there."""
    for line in text.splitlines():
        if line.strip().startswith("events per second:"):
            try:
                return float(line.split(":", 1)[1])
            except ValueError:
                return None
    return None


def sysbench_score(seconds: int = 5) -> float | None:
    """This process's core's sysbench single-thread score, or None where sysbench is not installed."""
    if shutil.which("sysbench") is None:
        return None
    done = subprocess.run(["sysbench", "cpu", "--threads=1", f"--time={seconds}", "run"],
                          capture_output=True, text=True, check=False)
    return parse_sysbench(done.stdout) if done.returncode == 0 else None


def pi_estimate(ms: float, score: float | None) -> str:
    """One line: `ms` measured on this core, scaled to each Pi by the sysbench scores (a range)."""
    if score is None:
        return "Raspberry Pi estimate: needs sysbench on this machine (sudo apt install sysbench)"
    ranges = []
    for pi, pi_score in PI_SYSBENCH.items():
        low = ms * score / pi_score
        ranges.append(f"{pi} {low:.0f}-{low * VECTOR_ALLOWANCE:.0f} ms")
    return (f"Raspberry Pi estimate, one core: {', '.join(ranges)} (scaled by sysbench's single-thread "
            f"score, {score:.0f} here against the Pi's published ones; the upper end allows for "
            f"narrower vectors; estimated, not measured)")

"""Run `muggins run` (or any command) until it announces a count, then stop it as systemd would.

    python3 until_count.py --timeout SECONDS [--pattern REGEX] -- COMMAND...

Its output is passed through, each line as it comes. At the first line matching the pattern (by
default a play announced with its running count: "South plays QC: 10") the command is sent SIGTERM,
which `muggins run` takes as "stop": it closes its parts and its journal and exits 0. Exits 0 when the
count was announced and the command then ended cleanly; 1 if the command ended (or the timeout
passed) first, or failed to stop. Standard library only, so the host's system Python runs it.
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import threading

COUNT_ANNOUNCED = r"\bplays \S+: \d+"
STOP_WAIT_S = 60.0  # emulated, closing can take a while


def run_until(command: list[str], pattern: str, timeout: float, out=sys.stdout) -> tuple[bool, str | None]:
    """(the command announced a count and then stopped cleanly, the matching line or None)."""
    wanted = re.compile(pattern)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               bufsize=1)
    found: list[str] = []
    timer = threading.Timer(timeout, process.terminate)
    timer.start()
    try:
        for line in process.stdout:
            out.write(line)
            out.flush()
            if not found and wanted.search(line):
                found.append(line.strip())
                process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        print(f"until_count: the command did not stop within {STOP_WAIT_S:g} s of SIGTERM", file=out)
        return False, found[0] if found else None
    finally:
        timer.cancel()
    if not found:
        print(f"until_count: no line matched {pattern!r} (exit status {code})", file=out)
        return False, None
    if code != 0:
        print(f"until_count: the command stopped with status {code} after the count", file=out)
    return code == 0, found[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, required=True, help="seconds before giving up")
    parser.add_argument("--pattern", default=COUNT_ANNOUNCED, help="the line to wait for (a regex)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    ok, line = run_until(command, args.pattern, args.timeout)
    if ok:
        print(f"until_count: announced: {line}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

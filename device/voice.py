"""The voice: announcements queued and spoken by a worker thread, so speech never holds up play.

    voice = Voice(config.voice)
    voice.say("fifteen two, and a pair is four")   # returns at once
    voice.close()                                   # speaks what is queued, then stops

Engines: "espeak-ng" (aloud, or into numbered WAV files when wav_dir is set), "print" (to stdout) and
"none". `mute` silences every engine. Every announcement is logged and kept in `voice.spoken`, whatever
the engine. When espeak-ng is not installed the voice says so once and prints instead; it never fails.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, TextIO

from device.errors import HardwareMissingError

log = logging.getLogger("muggins.voice")
ESPEAK_INSTALL = "install espeak-ng: sudo apt install espeak-ng"
SPEAK_TIMEOUT_S = 30
_STOP = object()


def espeak_command(text: str, volume: int, rate: int, voice: str, wav: Path | None = None,
                   program: str = "espeak-ng") -> list[str]:
    """The espeak-ng command line for one announcement (-w writes a WAV file instead of playing)."""
    cmd = [program, "-a", str(volume), "-s", str(rate), "-v", voice]
    if wav is not None:
        cmd += ["-w", str(wav)]
    return cmd + ["--", text]


class Voice:
    """Speaks announcements in order on a worker thread; `say()` never blocks."""

    def __init__(self, config, stream: TextIO | None = None,
                 run: Callable[..., subprocess.CompletedProcess] = subprocess.run,
                 which: Callable[[str], str | None] = shutil.which):
        self.config = config
        self.stream = stream
        self.spoken: list[str] = []
        self.wav_files: list[Path] = []
        self.problems: list[str] = []
        self.closed = False
        self._run = run
        self._wav_count = 0
        self._queue: queue.Queue = queue.Queue()
        self.engine = "none" if config.mute else config.engine
        self._program = None
        if self.engine == "espeak-ng":
            self._program = which("espeak-ng")
            if self._program is None:
                self._problem(str(HardwareMissingError(f"espeak-ng is not installed, so announcements "
                                                       f"are printed instead ({ESPEAK_INSTALL})")))
                self.engine = "print"
        if self.engine == "espeak-ng" and config.wav_dir is not None:
            Path(config.wav_dir).mkdir(parents=True, exist_ok=True)
        self._worker = threading.Thread(target=self._work, name="muggins-voice", daemon=True)
        self._worker.start()

    def say(self, text: str) -> None:
        """Queue an announcement and return at once. Logged and recorded in `spoken` straight away."""
        text = " ".join(str(text).split())
        if not text:
            return
        if self.closed:
            log.warning("voice closed; not said: %s", text)
            return
        log.info("say: %s", text)
        self.spoken.append(text)
        self._queue.put(text)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been spoken (for tests and a clean exit)."""
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def close(self, drain: bool = True) -> None:
        """Speak what is queued (or drop it, drain=False), then stop the worker. Harmless twice."""
        if self.closed:
            return
        self.closed = True
        if not drain:
            try:
                while True:
                    self._queue.get_nowait()
            except queue.Empty:
                pass
        self._queue.put(_STOP)
        self._worker.join(SPEAK_TIMEOUT_S)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the worker ----------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            if isinstance(item, threading.Event):
                item.set()
                continue
            try:
                self._speak(item)
            except Exception as exc:  # speech must never take the device down
                self._problem(f"could not speak {item!r}: {exc}")

    def _speak(self, text: str) -> None:
        if self.engine == "none":
            return
        if self.engine == "print":
            print(f"[voice] {text}", file=self.stream or sys.stdout, flush=True)
            return
        c = self.config
        wav = None
        if c.wav_dir is not None:
            self._wav_count += 1
            wav = Path(c.wav_dir) / f"{self._wav_count:04d}.wav"
        cmd = espeak_command(text, c.volume, c.rate, c.voice, wav, self._program or "espeak-ng")
        result = self._run(cmd, capture_output=True, text=True, timeout=SPEAK_TIMEOUT_S)
        if result.returncode == 0 and wav is not None:
            self.wav_files.append(wav)
        if result.returncode != 0:
            detail = (result.stderr or "").strip().splitlines()
            self._problem(f"espeak-ng failed ({detail[-1] if detail else 'status ' + str(result.returncode)})")

    def _problem(self, message: str) -> None:
        """Report a speech problem once (logged and printed to stderr), never raise."""
        if message in self.problems:
            return
        self.problems.append(message)
        log.warning("%s", message)
        print(f"muggins voice: {message}", file=sys.stderr)

"""The voice: queued, never blocking, logged; espeak-ng command lines; a real WAV of plausible length."""

import io
import shutil
import subprocess
import threading
import wave
from array import array

import pytest

from device.config import VoiceConfig
from device.voice import Voice, espeak_command


class RecordingRun:
    """Stands in for subprocess.run: records each command; can be held to prove say() does not wait."""

    def __init__(self, returncode=0, stderr=""):
        self.commands, self.returncode, self.stderr = [], returncode, stderr
        self.gate = threading.Event()
        self.gate.set()

    def __call__(self, cmd, **kwargs):
        self.gate.wait(10)
        self.commands.append(cmd)
        return subprocess.CompletedProcess(cmd, self.returncode, "", self.stderr)


def test_espeak_command_line_carries_volume_rate_voice_and_wav():
    assert espeak_command("fifteen two", 80, 150, "en-gb") == [
        "espeak-ng", "-a", "80", "-s", "150", "-v", "en-gb", "--", "fifteen two"]
    assert espeak_command("go", 100, 165, "en", wav="/tmp/x.wav")[-4:] == ["-w", "/tmp/x.wav", "--", "go"]


def test_say_returns_at_once_while_speech_is_still_going():
    run = RecordingRun()
    run.gate.clear()  # the "speaker" is stuck until we let it go
    voice = Voice(VoiceConfig(engine="espeak-ng", volume=90, rate=170, voice="en-us"),
                  run=run, which=lambda name: "/usr/bin/espeak-ng")
    voice.say("fifteen two")
    voice.say("and a pair is four")
    assert voice.spoken == ["fifteen two", "and a pair is four"]  # recorded before anything is spoken
    run.gate.set()
    voice.close()
    assert [c[-1] for c in run.commands] == ["fifteen two", "and a pair is four"]
    assert run.commands[0][:7] == ["/usr/bin/espeak-ng", "-a", "90", "-s", "170", "-v", "en-us"]


def test_print_engine_prints_and_logs(caplog):
    out = io.StringIO()
    with caplog.at_level("INFO", logger="muggins.voice"):
        with Voice(VoiceConfig(engine="print"), stream=out) as voice:
            voice.say("thirty-one for two")
    assert out.getvalue() == "[voice] thirty-one for two\n"
    assert "thirty-one for two" in caplog.text


def test_mute_speaks_nothing_but_still_records():
    run, out = RecordingRun(), io.StringIO()
    with Voice(VoiceConfig(engine="espeak-ng", mute=True), stream=out, run=run,
               which=lambda name: "/usr/bin/espeak-ng") as voice:
        voice.say("go")
    assert run.commands == [] and out.getvalue() == "" and voice.spoken == ["go"]


def test_missing_espeak_says_how_to_install_once_and_prints_instead(capsys):
    out = io.StringIO()
    with Voice(VoiceConfig(engine="espeak-ng"), stream=out, which=lambda name: None) as voice:
        voice.say("one for his heels")
        voice.say("one for last")
    assert "sudo apt install espeak-ng" in capsys.readouterr().err
    assert len(voice.problems) == 1
    assert out.getvalue().splitlines() == ["[voice] one for his heels", "[voice] one for last"]


def test_a_failing_espeak_is_reported_not_raised():
    run = RecordingRun(returncode=1, stderr="Failed to read voice 'klingon'")
    with Voice(VoiceConfig(engine="espeak-ng", voice="klingon"), run=run,
               which=lambda name: "/usr/bin/espeak-ng") as voice:
        voice.say("fifteen two")
        voice.say("fifteen four")
    assert voice.problems == ["espeak-ng failed (Failed to read voice 'klingon')"]


def test_close_is_idempotent_and_say_after_close_is_ignored():
    voice = Voice(VoiceConfig(engine="none"))
    voice.close()
    voice.close()
    voice.say("too late")
    assert voice.spoken == []


@pytest.mark.skipif(shutil.which("espeak-ng") is None,
                    reason="espeak-ng is not installed (sudo apt install espeak-ng; .ci/run installs it)")
def test_espeak_writes_a_wav_that_holds_speech_of_a_plausible_length(tmp_path):
    text = "fifteen two, fifteen four, and a pair is six"  # 10 words
    with Voice(VoiceConfig(engine="espeak-ng", rate=165, wav_dir=tmp_path)) as voice:
        voice.say(text)
    assert voice.problems == []
    [path] = voice.wav_files
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2
        rate, frames = w.getframerate(), w.getnframes()
        samples = array("h", w.readframes(frames))
    seconds = frames / rate
    # 10 words at 165 words a minute is about 3.6 s; allow for pauses and espeak's own pacing
    assert 1.5 <= seconds <= 8.0, seconds
    rms = (sum(s * s for s in samples) / len(samples)) ** 0.5
    assert rms > 300, rms  # not silence (full scale is 32767)
    loud = sum(1 for i in range(0, len(samples), rate // 10)
               if max(abs(s) for s in samples[i:i + rate // 10]) > 1000)
    assert loud >= 0.5 * seconds * 10  # sound through most of it, not a click and silence

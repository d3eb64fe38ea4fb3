"""The device loop of `muggins run`: camera frames and panel presses in, journal, board and voice out.

The camera is a scripted source of rendered frames; the recognizer stand-in reports each frame's
known cards (the real recognizer is exercised by the demo tests), so this tests the loop itself:
frames → tracker → controller, dark frames, a dead camera, panel events, LED frames, restart.
"""

from __future__ import annotations

import io

import numpy as np

from device.app import Device
from device.config import GameConfig, load_config
from device.journal import JOURNAL_NAME, read_entries
from device.panel import PanelEvent
from device.parts import Parts
from sim.frames import TablePainter
from sim.table_script import TableStep, build_script
from sketch_table import seen_cards
from vision.errors import CameraError
from vision.sources.fake import ScriptedSource
from vision.types import Recognition


class KnownCards:
    """Recognizer stand-in: the cards laid in each frame, by the frame's identity."""

    def __init__(self):
        self.truth: dict[int, list[Recognition]] = {}

    def add(self, image: np.ndarray, painter: TablePainter, step: TableStep, index: int) -> np.ndarray:
        self.truth[id(image)] = seen_cards(painter.placements(step, np.random.default_rng(index)), step.shadow)
        return image

    def recognize(self, image):
        return self.truth.get(id(image), [])


class Panel:
    def __init__(self, events_at: dict[int, PanelEvent], device_frames):
        self.events_at, self.device_frames = events_at, device_frames
        self.closed = False

    def poll(self):
        event = self.events_at.pop(self.device_frames(), None)
        return [event] if event else []

    def close(self):
        self.closed = True


class Leds:
    def __init__(self):
        self.frames = 0

    def show(self, frame):
        self.frames += 1

    def close(self):
        pass


class Voice:
    def __init__(self):
        self.spoken = []

    def say(self, text):
        self.spoken.append(text)

    def close(self):
        pass


def frames_for(seed: int, steps: int, per_step: int = 7):
    script = build_script(seed, GameConfig())
    painter = TablePainter(seed)
    known = KnownCards()
    frames = []
    for index, step in enumerate(script.steps[:steps]):
        if isinstance(step, TableStep):
            image = painter.draw(step, index)
            known.add(image, painter, step, index)
            frames += [image] * per_step
    return frames, known


def device(tmp_path, frames, known, panel_events=None):
    config = load_config(None).replace(state_dir=tmp_path / "state")
    holder = {}
    parts = Parts(source=ScriptedSource(frames), recognizer=known, leds=Leds(), voice=Voice())
    dev = Device(config, out=io.StringIO(), err=io.StringIO(), parts=parts)
    holder["dev"] = dev
    dev.parts.panel = Panel(panel_events or {}, lambda: holder["dev"].frames)
    return dev


def test_the_loop_plays_from_camera_frames_and_drives_the_leds(tmp_path):
    frames, known = frames_for(1, 14)
    dev = device(tmp_path, frames, known)
    dev.run()
    kinds = [e.event["type"] for e in read_entries(tmp_path / "state" / JOURNAL_NAME)]
    assert kinds.count("CardCutForDeal") == 2 and "RoundStarted" in kinds and "StarterTurned" in kinds
    assert "CardPlayed" in kinds
    assert dev.parts.leds.frames == len(frames)
    assert dev.parts.voice.spoken and dev.ready_at is not None


def test_dark_frames_and_a_dead_camera_are_said_and_nothing_is_lost(tmp_path):
    frames, known = frames_for(1, 6)
    dark = np.zeros_like(frames[0])
    steps = frames[:14] + [CameraError("USB camera 0 stopped delivering frames")] + [dark] * 3 + frames[14:]
    config = load_config(None).replace(state_dir=tmp_path / "state")
    holder = {}
    parts = Parts(source=_resilient(steps, lambda notice: holder["dev"]._camera_notice(notice)),
                  recognizer=known, leds=Leds(), voice=Voice())
    dev = holder["dev"] = Device(config, out=io.StringIO(), err=io.StringIO(), parts=parts)
    dev.parts.panel = None
    dev.run()
    said = " ".join(dev.parts.voice.spoken)
    assert "camera is not answering" in said and "too dark to see the cards" in said
    kinds = [e.event["type"] for e in read_entries(tmp_path / "state" / JOURNAL_NAME)]
    assert kinds.count("CardCutForDeal") == 2


def test_a_restart_takes_the_table_as_it_lies_and_carries_on(tmp_path):
    frames, known = frames_for(1, 14)
    first = device(tmp_path, frames[:70], known)
    first.run()
    before = read_entries(tmp_path / "state" / JOURNAL_NAME)
    again = device(tmp_path, frames[63:], known)   # the camera sees the same table, then play goes on
    again.run()
    after = read_entries(tmp_path / "state" / JOURNAL_NAME)
    assert after[: len(before)] == before
    kinds = [e.event["type"] for e in after]
    assert kinds.count("GameStarted") == 1 and kinds.count("CardCutForDeal") == 2
    assert kinds.count("CardPlayed") > [e.event["type"] for e in before].count("CardPlayed")


def test_panel_presses_reach_the_controller(tmp_path):
    frames, known = frames_for(1, 14)
    dev = device(tmp_path, frames, known, panel_events={60: PanelEvent("dispute")})
    dev.run()
    kinds = [e.event["type"] for e in read_entries(tmp_path / "state" / JOURNAL_NAME)]
    assert "DisputeReadout" in kinds


class Camera(ScriptedSource):
    """A scripted camera that can be reopened after it failed (closing it keeps its place)."""

    def close(self):
        pass


def _resilient(steps, on_notice):
    from vision.sources.resilient import ResilientSource

    camera = Camera(steps)
    return ResilientSource(lambda: camera, delays=(0.0,), sleep=lambda s: None, on_notice=on_notice)

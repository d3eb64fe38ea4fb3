"""The web page put beside a running device: its events followed, its camera watched, presses queued.

`serve(device, "8080")` starts the server and hooks it to a `device.app.Device` from outside: the
presenter's on_present feeds a TableView (in the device's thread), the camera and recognizer are
wrapped so the set-up page sees what they see, and the panel is polled together with the phone's
presses. The device's frame loop itself is not changed and never waits on the server.

Where the page's address must be said before the device says anything (`--json`'s first line), the
two halves are separate: `open_page(...)` starts the server and says where it is, `page.attach(device)`
hooks the device once it is built.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from typing import TextIO

from device.web import require_aiohttp
from device.web.address import page_url, parse_listen
from device.web.camera_view import CameraView, WatchedRecognizer, WatchedSource
from device.web.pairing import Pairing, spoken_pin
from device.web.presses import PanelWithPhone, PhonePresses
from device.web.snapshot import TableView

# What the page shows before the device is attached (a moment at start-up).
STARTING = {"seq": 0, "mode": "starting", "players": [], "sides": [], "scores": {}, "dealer": None,
            "phase": "starting", "count": None, "series": [], "turn": None, "starter": None, "round": 0,
            "game_no": 0, "show_turn": None, "winner": None, "margin": None, "announcement": None,
            "breakdown": None, "log": [], "board": None}


class TablePage:
    """A running web page. `attach(device)` hooks a device to it; `close()` stops it (harmless twice)."""

    def __init__(self, server, url: str, pin: str, *, takes_presses: bool = True, mode: str = "run"):
        self.server, self.url, self.pin = server, url, pin
        self.takes_presses = takes_presses
        self.mode = mode
        self.view: TableView | None = None

    def attach(self, device) -> "TablePage":
        from device.web.server import SetUp

        controller = device.controller
        presenter = controller.presenter
        view = TableView(controller, device.board, muggins=device.rules.muggins, mode=self.mode,
                         publish=self.server.publish)
        view.restore(getattr(controller, "restored", ()))
        view.seq = controller.seq
        earlier = presenter.on_present

        def on_present(seq, event):
            if earlier is not None:
                earlier(seq, event)
            view.on_present(seq, event)

        presenter.on_present = on_present
        parts = device.parts
        camera = CameraView()
        if parts.source is not None:
            parts.source = WatchedSource(parts.source, camera)
        measure, watched = None, None
        if parts.recognizer is not None:
            watched = parts.recognizer = WatchedRecognizer(parts.recognizer, camera)

            class Alone:  # the recognizer as calibration.card_length asks for it, taking its turn
                recognize = staticmethod(watched.alone)

            def measure(image):
                from device.calibration import card_length

                return card_length(image, Alone())
        if self.takes_presses:
            phone = PhonePresses()
            parts.panel = PanelWithPhone(parts.panel, phone)
            self.server.presses = phone
        self.server.state_dir = device.state_dir
        self.server.setup = SetUp(config=device.config, camera=camera, measure_card=measure,
                                  learner=_deck_learner(device, camera, watched),
                                  table=_table_learner(device, watched))
        self.server.dial_max = device.config.panel.dial_max
        self.view = view
        self.server.publish(view.snapshot())
        if parts.voice is not None:
            parts.voice.say(spoken_pin(self.pin))
        return self

    def wait_until_interrupted(self) -> None:
        """Keep serving (the final board) until Ctrl-C (SIGINT) or SIGTERM. Both are caught here, so
        SIGINT ends it even where it was started ignoring SIGINT (a shell's background job)."""
        stop = threading.Event()
        previous = {}
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                previous[sig] = signal.signal(sig, lambda *_: stop.set())
            except ValueError:  # not the main thread
                pass
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def close(self) -> None:
        self.server.stop()


def _deck_learner(device, camera: CameraView, watched: WatchedRecognizer | None):
    """Learning the deck from the page: suit_row with a generic recognizer of its own (as calibrate
    learns), made on first use and run only in the device recognizer's turn."""
    from device.learned_decks import decks_folder
    from device.web.deck_learning import DeckLearner

    made = threading.Lock()
    turn = watched.turn() if watched is not None else threading.Lock()
    generic = []

    def read_suit(image, suit):
        from device.calibration import suit_row

        with made:
            if not generic:
                from vision.recognizer import Recognizer

                generic.append(Recognizer(card_length=device.config.camera.card_length))
        with turn:
            return suit_row(generic[0], image, suit)

    return DeckLearner(read_suit, decks_folder(device.config, state_dir=device.state_dir), camera)


def _table_learner(device, watched: WatchedRecognizer | None):
    """Learning the table's print from the page, saved where `muggins run` looks (None: no recognizer)."""
    if watched is None:
        return None
    from device.table_print import print_path
    from device.web.table_learning import TableLearner

    return TableLearner(watched, device.config, print_path(device.config, device.state_dir))


def open_page(listen: str, *, json_lines: bool = False, out: TextIO | None = None,
              pairing: Pairing | None = None, takes_presses: bool = True, mode: str = "run") -> TablePage:
    """Start the web server at listen ([HOST:]PORT) and say its address and PIN: with json_lines as
    the line {"web": {"url": ..., "pin": ...}}. UsageError when the address is bad or taken."""
    require_aiohttp()
    from device.web.server import WebServer

    host, port = parse_listen(listen)
    pairing = pairing or Pairing()
    server = WebServer(host, port, STARTING, pairing=pairing).start()
    url = page_url(host, server.port)
    out = out or sys.stdout  # the stream of this call, not of the import
    if json_lines:
        out.write(json.dumps({"web": {"url": url, "pin": pairing.pin}}) + "\n")
    else:
        out.write(f"the table's web page: {url}  (pairing PIN {pairing.pin})\n")
    out.flush()
    return TablePage(server, url, pairing.pin, takes_presses=takes_presses, mode=mode)


def serve(device, listen: str, *, mode: str = "run", json_lines: bool = False,
          out: TextIO | None = None, pairing: Pairing | None = None, takes_presses: bool = True) -> TablePage:
    """Start the table's web page for this device and say where it is and its PIN (printed and spoken)."""
    page = open_page(listen, json_lines=json_lines, out=out, pairing=pairing, takes_presses=takes_presses,
                     mode=mode)
    try:
        return page.attach(device)
    except BaseException:
        page.close()
        raise

"""The web page put beside a running device: its events followed, its camera watched, presses queued.

`serve(device, "8080")` starts the server and hooks it to a `device.app.Device` from outside: the
presenter's on_present feeds a TableView (in the device's thread), the camera and recognizer are
wrapped so the set-up page sees what they see, and the panel is polled together with the phone's
presses. The device's frame loop itself is not changed and never waits on the server.
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

from device.web import require_aiohttp
from device.web.address import page_url, parse_listen
from device.web.camera_view import CameraView, WatchedRecognizer, WatchedSource
from device.web.pairing import Pairing, spoken_pin
from device.web.presses import PanelWithPhone, PhonePresses
from device.web.snapshot import TableView


class TablePage:
    """A running web page for one device. `close()` stops the server; harmless twice."""

    def __init__(self, server, view: TableView, url: str, pin: str):
        self.server, self.view, self.url, self.pin = server, view, url, pin

    def close(self) -> None:
        self.server.stop()


def serve(device, listen: str, *, mode: str = "run", json_lines: bool = False,
          out: TextIO = sys.stdout, pairing: Pairing | None = None) -> TablePage:
    """Start the table's web page for this device and say where it is and its PIN (printed and spoken)."""
    require_aiohttp()
    from device.web.server import SetUp, WebServer

    host, port = parse_listen(listen)
    controller = device.controller
    presenter = controller.presenter
    pairing = pairing or Pairing()
    server_ref: list = []
    view = TableView(controller, device.board, muggins=device.rules.muggins, mode=mode,
                     publish=lambda snapshot: server_ref[0].publish(snapshot) if server_ref else None)
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
    measure = None
    if parts.recognizer is not None:
        recognizer = parts.recognizer
        parts.recognizer = WatchedRecognizer(recognizer, camera)

        def measure(image):
            from device.calibration import card_length

            return card_length(image, recognizer)
    phone = PhonePresses()
    parts.panel = PanelWithPhone(parts.panel, phone)
    server = WebServer(host, port, view.snapshot(), pairing=pairing, presses=phone,
                       state_dir=device.state_dir,
                       setup=SetUp(config=device.config, camera=camera, measure_card=measure),
                       dial_max=device.config.panel.dial_max).start()
    server_ref.append(server)
    url = page_url(host, server.port)
    if json_lines:
        out.write(json.dumps({"web": {"url": url, "pin": pairing.pin}}) + "\n")
    else:
        out.write(f"the table's web page: {url}  (pairing PIN {pairing.pin})\n")
    out.flush()
    if parts.voice is not None:
        parts.voice.say(spoken_pin(pairing.pin))
    return TablePage(server, view, url, pairing.pin)

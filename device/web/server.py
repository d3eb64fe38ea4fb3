"""The table's web server: aiohttp in a thread of its own, beside the device's frame loop.

Looking (the pages, GET /api/state, the event stream, the games and their record, the camera) needs
nothing.
Changing anything needs a paired session (device.web.pairing): without one a request answers 401,
and from another origin 403, before its body is even read. Bodies are small JSON objects read
strictly (device.web.actions); anything else answers 4xx and changes nothing. Files are served from
a fixed list made at start, so no path reaches outside the page's own files.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from aiohttp import web

from device.errors import ConfigError, DeviceError, UsageError
from device.web.actions import ACTION_FIELDS, BadRequest, press_for, read_body
from device.web.pairing import Pairing, PairingLocked
from device.web.stream import Hub

STATIC = Path(__file__).with_name("static")
PAGES = {"/": "index.html", "/games": "games.html", "/setup": "setup.html"}
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
         ".png": "image/png", ".ico": "image/x-icon"}
MAX_BODY = 64 * 1024
COOKIE = "muggins_session"
KEEP_ALIVE_S = 15.0
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'self'",
}


@dataclass
class SetUp:
    """What the set-up page reads and writes; each None is a part this table does not have."""

    config: object = None                              # device.config.Config in use
    camera: object = None                              # device.web.camera_view.CameraView
    measure_card: Callable | None = None               # image -> a card's long side in pixels
    learner: object = None                             # device.web.deck_learning.DeckLearner
    table: object = None                               # device.web.table_learning.TableLearner
    extra: dict = field(default_factory=dict)


class WebServer:
    """The server and its thread. `start()` binds (UsageError when it cannot), `stop()` ends it."""

    def __init__(self, host: str, port: int, snapshot: dict, *, pairing: Pairing | None = None,
                 presses=None, state_dir: Path | None = None, setup: SetUp | None = None,
                 dial_max: int = 29):
        self.host, self.port = host, port
        self.pairing = pairing or Pairing()
        self.presses = presses
        self.state_dir = state_dir
        self.setup = setup or SetUp()
        self.dial_max = dial_max
        self._first = snapshot
        self.hub: Hub | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._files = {f"/static/{p.name}": p for p in STATIC.iterdir() if p.suffix in TYPES}

    # ---- lifetime ----------------------------------------------------------------------------

    def start(self) -> "WebServer":
        self._thread = threading.Thread(target=self._serve, name="muggins-web", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self

    def publish(self, snapshot: dict) -> None:
        """From the device's thread: the newest snapshot, sent to every watching phone."""
        if self.hub is not None:
            self.hub.publish_threadsafe(snapshot)
        else:
            self._first = snapshot

    def stop(self) -> None:
        """Close every stream and the listening socket; harmless twice."""
        loop, thread = self.loop, self._thread
        if loop is None or thread is None or not thread.is_alive():
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.loop = loop
        runner = web.AppRunner(self._app(), access_log=None, shutdown_timeout=1.0)
        try:
            loop.run_until_complete(runner.setup())
            site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
            loop.run_until_complete(site.start())
            self.port = runner.addresses[0][1]
        except OSError as exc:
            self._error = UsageError(f"the web page cannot listen on {self.host}:{self.port}: "
                                     f"{exc.strerror or exc}")
            loop.run_until_complete(runner.cleanup())
            loop.close()
            self._ready.set()
            return
        self.hub = Hub(loop, self._first)
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self.hub.close()
            loop.run_until_complete(runner.cleanup())
            loop.close()

    # ---- the application ---------------------------------------------------------------------

    def _app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/events", self._events)
        app.router.add_get("/api/games", self._games)
        app.router.add_get("/api/record", self._record)
        app.router.add_get("/api/deal", self._deal)
        app.router.add_get("/api/setup", self._setup_info)
        app.router.add_get("/api/camera.jpg", self._camera_jpeg)
        app.router.add_post("/api/pair", self._pair)
        for action in ACTION_FIELDS:
            app.router.add_post(f"/api/{action}", self._action)
        app.router.add_post("/api/zones", self._zones)
        app.router.add_post("/api/card-length", self._card_length)
        app.router.add_post("/api/table-print", self._table_print)
        app.router.add_post("/api/settings", self._settings)
        app.router.add_post("/api/deck/suit", self._deck_suit)
        app.router.add_post("/api/deck/save", self._deck_save)
        app.router.add_post("/api/deck/forget", self._deck_forget)
        app.router.add_get("/{tail:.*}", self._file)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        """Changing requests: same origin, then a paired session (except pairing itself)."""
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            if not _same_origin(request):
                return _error(403, "a changing request from another page is refused")
            if request.path != "/api/pair" and not self._paired(request):
                return _error(401, "pair this phone first: enter the PIN the device said")
            if request.content_type != "application/json":
                return _error(415, "send the body as application/json")
        try:
            response = await handler(request)
        except BadRequest as exc:
            response = _error(400, str(exc))
        except NoLearning as exc:
            response = _error(409, str(exc))
        except web.HTTPRequestEntityTooLarge:
            response = _error(413, f"the body is over {MAX_BODY // 1024} KiB")
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    def _paired(self, request: web.Request) -> bool:
        return self.pairing.is_paired(request.cookies.get(COOKIE))

    async def _body(self, request: web.Request, fields, required=()) -> dict:
        raw = await request.read()
        try:
            return read_body(raw, fields, required)
        except UnicodeDecodeError:
            raise BadRequest("the body is not UTF-8 text") from None

    # ---- looking -----------------------------------------------------------------------------

    async def _state(self, request):
        return web.json_response({**self.hub.snapshot, "paired": self._paired(request)})

    async def _events(self, request):
        if self.hub.full:
            return _error(503, "too many phones are watching; try again shortly")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        try:
            async for item in self.hub.follow(KEEP_ALIVE_S):
                if item is None:
                    await response.write(b": keep-alive\n\n")
                else:
                    version, data = item
                    await response.write(b"id: %d\nevent: state\ndata: %s\n\n" % (version, data))
        except (ConnectionResetError, ConnectionError):
            pass  # the phone went away mid-stream: nothing to do
        return response

    async def _games(self, request):
        if self.state_dir is None:
            return web.json_response({"games": [], "unreadable": []})
        from device.web.games import games_in

        return web.json_response(await asyncio.get_running_loop().run_in_executor(None, games_in,
                                                                                   self.state_dir))

    async def _record(self, request):
        """Each player's record and each game's points per deal by source (device.record)."""
        from device.record import record, record_of
        from device.record_games import Journals

        if self.state_dir is None:
            return web.json_response(record(Journals([], [], [])))
        return web.json_response(await asyncio.get_running_loop().run_in_executor(None, record_of,
                                                                                   self.state_dir))

    async def _deal(self, request):
        """?game=N&deal=M: that deal looked back at (device.record_lookback)."""
        from device.record import deal_of

        try:
            game, deal = int(request.query["game"]), int(request.query["deal"])
        except (KeyError, ValueError):
            return _error(400, "give ?game=N&deal=M, two whole numbers")
        if self.state_dir is None:
            return _error(404, "there is no journal here")
        try:
            back = await asyncio.get_running_loop().run_in_executor(None, deal_of, self.state_dir, game, deal)
        except LookupError as exc:
            return _error(404, str(exc.args[0]))
        return web.json_response(back)

    async def _setup_info(self, request):
        from device.web.setup_info import setup_info

        info = await asyncio.get_running_loop().run_in_executor(None, setup_info, self.setup)
        learner, paired = self.setup.learner, self._paired(request)
        learning = learner.state(request.cookies.get(COOKIE)) if learner is not None and paired else None
        return web.json_response({**info, "paired": paired, "learning": learning})

    async def _camera_jpeg(self, request):
        camera = self.setup.camera
        got = None if camera is None else await asyncio.get_running_loop().run_in_executor(None, camera.jpeg)
        if got is None:
            return _error(404, "no camera picture yet")
        data, width, height = got
        return web.Response(body=data, content_type="image/jpeg",
                            headers={"Cache-Control": "no-store", "X-Width": str(width), "X-Height": str(height)})

    async def _file(self, request):
        name = PAGES.get(request.path)
        path = STATIC / name if name else self._files.get(request.path)
        if path is None:
            return _error(404, "no such page")
        return web.Response(body=path.read_bytes(), content_type=TYPES[path.suffix],
                            charset="utf-8" if path.suffix in (".html", ".js", ".css", ".svg") else None,
                            headers={"Cache-Control": "no-cache"})

    # ---- changing ----------------------------------------------------------------------------

    async def _pair(self, request):
        body = await self._body(request, {"pin": str}, ("pin",))
        try:
            token = self.pairing.pair(body["pin"])
        except PairingLocked as exc:
            return _error(429, str(exc), headers={"Retry-After": str(max(1, round(exc.retry_after)))})
        if token is None:
            return _error(401, "that is not the PIN the device said")
        response = web.json_response({"paired": True})
        # kept for a day of play; the device forgets every session when it restarts (a new PIN)
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/", max_age=24 * 3600)
        return response

    async def _action(self, request):
        action = request.path.rsplit("/", 1)[1]
        fields, required = ACTION_FIELDS[action]
        body = await self._body(request, fields, required)
        sides = len((self.hub.snapshot.get("board") or {}).get("names", [])) or 2
        press = press_for(action, body, dial_max=self.dial_max, sides=sides)
        if self.presses is None:
            return _error(409, "this table takes no presses from a phone (a demo plays by its script)")
        queued = self.presses.press(press)
        return web.json_response({"queued": queued, "action": action}, status=202)

    async def _zones(self, request):
        body = await self._body(request, {"zones": dict}, ("zones",))
        from device.web.setup_info import save_zones

        return await self._saving(save_zones, self.setup, body["zones"])

    async def _card_length(self, request):
        await self._body(request, {})
        from device.web.setup_info import measure_card

        return await self._saving(measure_card, self.setup)

    async def _table_print(self, request):
        await self._body(request, {})
        from device.web.setup_info import learn_table

        return await self._saving(learn_table, self.setup)

    async def _settings(self, request):
        body = await self._body(request, {"toml": str, "save": bool}, ("toml",))
        from device.web.setup_info import save_settings

        return await self._saving(save_settings, self.setup, body["toml"], body.get("save", True))

    async def _deck_suit(self, request):
        body = await self._body(request, {"name": str, "suit": str}, ("name", "suit"))
        learner = self._learner()
        return await self._saving(learner.learn_suit, request.cookies[COOKIE], body["name"], body["suit"])

    async def _deck_save(self, request):
        body = await self._body(request, {"use": bool})
        learner = self._learner()
        from device.web.setup_info import deck_in_config

        use = (lambda name: deck_in_config(self.setup, name)) if body.get("use") else None
        return await self._saving(learner.save, request.cookies[COOKIE], use)

    async def _deck_forget(self, request):
        await self._body(request, {})
        return web.json_response(self._learner().forget(request.cookies[COOKIE]))

    def _learner(self):
        if self.setup.learner is None:
            raise NoLearning("this table has no camera to learn a deck from")
        return self.setup.learner

    async def _saving(self, work, *args):
        """Run a set-up change off the loop; the user's mistake answers 400 (409: nowhere to save)."""
        try:
            result = await asyncio.get_running_loop().run_in_executor(None, work, *args)
        except NoConfigFile as exc:
            return _error(409, str(exc))
        except (ConfigError, UsageError, ValueError) as exc:
            return _error(400, str(exc))
        except DeviceError as exc:
            return _error(409, str(exc))
        return web.json_response(result)


class NoConfigFile(DeviceError):
    """The device runs on built-in settings: there is no file to save set-up changes into."""


class NoLearning(DeviceError):
    """The page runs without a camera (a table served on its own): there is no deck or table to learn."""


def _same_origin(request: web.Request) -> bool:
    """Origin (or failing it, Sec-Fetch-Site) says the request comes from this server's own page."""
    origin = request.headers.get("Origin")
    if origin is not None:
        return origin == f"{request.scheme}://{request.host}"
    return request.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")


def _error(status: int, message: str, headers: dict | None = None) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=headers)

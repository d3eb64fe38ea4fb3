"""The device's configuration: one TOML file read into frozen dataclasses, every value checked once.

`load_config(None)` gives the defaults; `load_config(path)` reads a file. Anything wrong — TOML syntax,
an unknown key, a wrong type, a value out of range — raises ConfigError naming the file, the key and what
is expected, so a typo in /etc/muggins/config.toml is found at start-up, not mid-game.
hardware/muggins.example.toml documents every key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from cribbage.game import Game
from cribbage.variants import VARIANTS, Options
from device.errors import ConfigError
from vision.source_spec import SOURCE_FORMS, parse_source_spec

MODES = ("referee", "auto")
SCORING_LINES = ("lurch", "skunk")
LED_DRIVERS = ("ws2812-spi", "simulated")
COLOUR_ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")
VOICE_ENGINES = ("espeak-ng", "print", "none")
DEFAULT_PLAYERS = ("North", "South", "East", "West")
DEFAULT_COLOURS = ("#ff3000", "#0060ff", "#00d040", "#ffc000")
DEFAULT_MUGGINS_PINS = (5, 6, 26)
GPIO_PINS = range(0, 28)


def parse_colour(text: str) -> tuple[int, int, int]:
    """'#rrggbb' (or 'rrggbb') -> (r, g, b); ValueError for anything else."""
    s = text.strip().lstrip("#")
    if len(s) != 6:
        raise ValueError(text)
    return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))


@dataclass(frozen=True)
class GameConfig:
    """Which cribbage is played, by whom, and how strictly the device referees it."""

    variant: str = "six-card"
    players: tuple[str, ...] = ("North", "South")
    mode: str = "referee"
    muggins: bool = True
    overclaim_penalty: bool = False
    scoring_lines: str = "lurch"

    def to_dict(self) -> dict:
        """The settings as plain data: the journal's header keeps them to recognise its own game."""
        return {"variant": self.variant, "players": list(self.players), "mode": self.mode,
                "muggins": self.muggins, "overclaim_penalty": self.overclaim_penalty,
                "scoring_lines": self.scoring_lines}

    def new_game(self) -> Game:
        """A fresh rules-engine game with these settings."""
        options = Options(muggins=self.muggins, overclaim_penalty=self.overclaim_penalty,
                          ending=self.scoring_lines)
        return Game(self.players, self.variant, options)

    @property
    def target(self) -> int:
        """Points to win: 61, 121 or 181."""
        return VARIANTS[self.variant].target

    @property
    def sides(self) -> int:
        """Tracks on the board: one per player, but four players peg as two partnerships."""
        return VARIANTS[self.variant].sides

    def side_of(self, player: int) -> int:
        """The track a player pegs on (partners 0 & 2 share track 0, 1 & 3 track 1)."""
        return VARIANTS[self.variant].side_of(player)


@dataclass(frozen=True)
class StripConfig:
    """One physical LED strip (chain): the SPI device that drives it and its colour byte order."""

    device: str = "/dev/spidev0.0"
    order: str = "GRB"
    leds: int | None = None  # None: as many as the layout uses


@dataclass(frozen=True)
class RunConfig:
    """Holes first_hole..last_hole of a track lie on consecutive LEDs from first_led, stepping by step."""

    first_hole: int
    last_hole: int
    first_led: int
    step: int = 1


@dataclass(frozen=True)
class TrackConfig:
    """Where one track's holes are: runs of holes on one strip, plus its start, game and dealer LEDs."""

    strip: int = 0
    runs: tuple[RunConfig, ...] = ()
    start: int | None = None
    game: int | None = None
    dealer: int | None = None


@dataclass(frozen=True)
class BoardConfig:
    """The LED pegboard: holes per track, layout, brightness, power budget and player colours."""

    driver: str = "ws2812-spi"
    holes: int = 120
    brightness: float = 0.5
    current_budget_ma: int = 2500
    colours: tuple[tuple[int, int, int], ...] = tuple(parse_colour(c) for c in DEFAULT_COLOURS)
    strips: tuple[StripConfig, ...] = (StripConfig(),)
    tracks: tuple[TrackConfig, ...] = ()  # empty: the standard layout (see device/leds/layout.py)
    serpentine: bool = True
    dealer_leds: bool = True
    walk_s_per_hole: float = 0.05


@dataclass(frozen=True)
class PanelConfig:
    """BCM GPIO numbers of the dial and buttons, and the timings that turn presses into actions."""

    encoder_a: int = 17
    encoder_b: int = 27
    encoder_button: int = 22
    muggins: tuple[int, ...] = (5, 6)
    dispute: int = 16
    go: tuple[int, ...] = ()
    long_press_s: float = 1.5
    new_game_hold_s: float = 3.0
    bounce_s: float = 0.02
    repeat_s: float = 0.25
    dial_max: int = 29

    def pins(self) -> dict[str, int]:
        """Every pin by its role name, e.g. {'encoder_a': 17, 'muggins[0]': 5, ...}."""
        out = {"encoder_a": self.encoder_a, "encoder_b": self.encoder_b,
               "encoder_button": self.encoder_button, "dispute": self.dispute}
        out.update({f"muggins[{i}]": p for i, p in enumerate(self.muggins)})
        out.update({f"go[{i}]": p for i, p in enumerate(self.go)})
        return out


@dataclass(frozen=True)
class VoiceConfig:
    """How announcements are spoken: engine, loudness, speed, voice, and an optional WAV folder."""

    engine: str = "espeak-ng"
    mute: bool = False
    volume: int = 100
    rate: int = 165
    voice: str = "en-gb"
    wav_dir: Path | None = None


@dataclass(frozen=True)
class CameraConfig:
    """Where frames come from (a source as vision.source_spec reads it), at what size and rate."""

    source: str = "picamera"
    resolution: tuple[int, int] = (1280, 720)
    fps: float = 10.0
    card_length: float | None = None  # a card's long side in pixels, as `muggins calibrate --card` measured it
    deck: str | None = None           # the learned deck in play (`muggins deck learn`), by name


@dataclass(frozen=True)
class WebConfig:
    """The table's web page (device/web/): off unless asked for, on every interface at this port."""

    enabled: bool = False
    host: str = "0.0.0.0"
    port: int = 8080


@dataclass(frozen=True)
class Config:
    """The whole configuration. `path` is the file it came from (None for the defaults)."""

    game: GameConfig = GameConfig()
    board: BoardConfig = BoardConfig()
    panel: PanelConfig = PanelConfig()
    voice: VoiceConfig = VoiceConfig()
    camera: CameraConfig = CameraConfig()
    web: WebConfig = WebConfig()
    zones: Mapping[str, tuple[tuple[float, float], ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    state_dir: Path = Path("/var/lib/muggins")
    path: Path | None = None

    def replace(self, **changes: Any) -> "Config":
        """A copy with some fields changed (e.g. state_dir from the command line)."""
        return replace(self, **changes)


# ---------------------------------------------------------------------------------------------------
# Reading and checking


class _Table:
    """One TOML table being read: each key taken once, wrong ones reported with file and key."""

    def __init__(self, source: str, name: str, data: Any):
        self.source, self.name = source, name
        if not isinstance(data, dict):
            self.fail(None, "a table", data)
        self.data = dict(data)
        self.known: list[str] = []

    def where(self, key: str | None) -> str:
        if key is None:
            return f"{self.source}: [{self.name}]" if self.name else f"{self.source}:"
        prefix = f"[{self.name}] " if self.name else ""
        return f"{self.source}: {prefix}{key}"

    def fail(self, key: str | None, expected: str, got: Any) -> None:
        raise ConfigError(f"{self.where(key)}: expected {expected}, got {got!r}")

    def has(self, key: str) -> bool:
        return key in self.data

    def take(self, key: str, default: Any, convert, expected: str) -> Any:
        self.known.append(key)
        if key not in self.data:
            return default
        value = self.data.pop(key)
        try:
            ok, result = convert(value)
        except (TypeError, ValueError):
            ok, result = False, None
        if not ok:
            self.fail(key, expected, value)
        return result

    def sub(self, key: str) -> "_Table | None":
        self.known.append(key)
        if key not in self.data:
            return None
        return _Table(self.source, f"{self.name}.{key}" if self.name else key, self.data.pop(key))

    def finish(self) -> None:
        if self.data:
            key = sorted(self.data)[0]
            raise ConfigError(f"{self.where(key)}: unknown key (known keys: {', '.join(self.known)})")


def _boolean(v):
    return isinstance(v, bool), v


def _integer(lo=None, hi=None):
    def conv(v):
        ok = isinstance(v, int) and not isinstance(v, bool)
        ok = ok and (lo is None or v >= lo) and (hi is None or v <= hi)
        return ok, v
    return conv


def _number(lo=None, hi=None, lo_open=False):
    def conv(v):
        ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        ok = ok and (lo is None or (v > lo if lo_open else v >= lo)) and (hi is None or v <= hi)
        return ok, float(v) if ok else None
    return conv


def _choice(options):
    return lambda v: (isinstance(v, str) and v in options, v)


def _text(v):
    return isinstance(v, str) and v.strip() != "", v


def _optional_int(lo=0):
    return lambda v: (isinstance(v, int) and not isinstance(v, bool) and v >= lo, v)


def _list_of(item_conv, min_len=0, max_len=None):
    def conv(v):
        if not isinstance(v, list) or len(v) < min_len or (max_len is not None and len(v) > max_len):
            return False, None
        out = []
        for item in v:
            ok, x = item_conv(item)
            if not ok:
                return False, None
            out.append(x)
        return True, tuple(out)
    return conv


def _colour(v):
    if not isinstance(v, str):
        return False, None
    return True, parse_colour(v)


def _gpio(v):
    return isinstance(v, int) and not isinstance(v, bool) and v in GPIO_PINS, v


def _read_game(t: _Table) -> GameConfig:
    variant = t.take("variant", "six-card", _choice(VARIANTS), f"one of {', '.join(VARIANTS)}")
    seats = VARIANTS[variant].players
    players = t.take("players", DEFAULT_PLAYERS[:seats], _list_of(_text, seats, seats),
                     f"a list of {seats} non-empty names for variant '{variant}'")
    if len(set(players)) != len(players):
        t.fail("players", "different names", list(players))
    game = GameConfig(
        variant=variant,
        players=players,
        mode=t.take("mode", "referee", _choice(MODES), "'referee' or 'auto'"),
        muggins=t.take("muggins", True, _boolean, "true or false"),
        overclaim_penalty=t.take("overclaim_penalty", False, _boolean, "true or false"),
        scoring_lines=t.take("scoring_lines", "lurch", _choice(SCORING_LINES), "'lurch' or 'skunk'"),
    )
    t.finish()
    return game


def _read_run(source: str, where: str, v: Any) -> RunConfig:
    t = _Table(source, where, v)
    holes = t.take("holes", None, _list_of(_integer(0), 2, 2), "[first_hole, last_hole]")
    if holes is None:
        t.fail("holes", "[first_hole, last_hole]", None)
    run = RunConfig(first_hole=holes[0], last_hole=holes[1],
                    first_led=t.take("first_led", 0, _integer(0), "an LED index >= 0"),
                    step=t.take("step", 1, lambda x: (x in (1, -1) and not isinstance(x, bool), x),
                                "1 or -1"))
    if run.last_hole < run.first_hole:
        t.fail("holes", "first_hole <= last_hole", list(holes))
    if run.step < 0 and run.first_led - (run.last_hole - run.first_hole) < 0:
        t.fail("first_led", "room for the run below it (step = -1)", run.first_led)
    t.finish()
    return run


def _read_track(source: str, where: str, v: Any) -> TrackConfig:
    t = _Table(source, where, v)
    strip = t.take("strip", 0, _integer(0), "a strip index >= 0")
    raw_runs = t.take("runs", (), lambda x: (isinstance(x, list) and len(x) > 0, x),
                      "a non-empty list of {holes = [a, b], first_led = N, step = 1 or -1}")
    runs = tuple(_read_run(source, f"{where}.runs[{i}]", r) for i, r in enumerate(raw_runs))
    track = TrackConfig(
        strip=strip, runs=runs,
        start=t.take("start", None, _optional_int(), "an LED index >= 0"),
        game=t.take("game", None, _optional_int(), "an LED index >= 0"),
        dealer=t.take("dealer", None, _optional_int(), "an LED index >= 0"),
    )
    if not runs:
        t.fail("runs", "at least one run of holes", None)
    t.finish()
    return track


def _read_strip(source: str, where: str, v: Any) -> StripConfig:
    t = _Table(source, where, v)
    strip = StripConfig(
        device=t.take("device", "/dev/spidev0.0", _text, "an SPI device path like /dev/spidev0.0"),
        order=t.take("order", "GRB", _choice(COLOUR_ORDERS), f"one of {', '.join(COLOUR_ORDERS)}"),
        leds=t.take("leds", None, _integer(1, 4096), "an LED count from 1 to 4096"),
    )
    t.finish()
    return strip


def _read_board(t: _Table, game: GameConfig) -> BoardConfig:
    d = BoardConfig()
    holes = t.take("holes", d.holes, lambda v: (v in (60, 120) and not isinstance(v, bool), v),
                   "60 or 120 holes per track")
    colours = t.take("colours", DEFAULT_COLOURS[: game.sides], _list_of(_colour, game.sides),
                     f"a list of at least {game.sides} colours like \"#ff3000\" (one per track)")
    if isinstance(colours[0], str):
        colours = tuple(parse_colour(c) for c in colours)
    raw_strips = t.take("strips", None, lambda x: (isinstance(x, list) and len(x) > 0, x),
                        "a non-empty array of [[board.strips]] tables")
    strips = d.strips if raw_strips is None else tuple(
        _read_strip(t.source, f"board.strips[{i}]", s) for i, s in enumerate(raw_strips))
    raw_tracks = t.take("tracks", None, lambda x: (isinstance(x, list), x),
                        "an array of [[board.tracks]] tables")
    tracks = () if raw_tracks is None else tuple(
        _read_track(t.source, f"board.tracks[{i}]", r) for i, r in enumerate(raw_tracks))
    if tracks and len(tracks) != game.sides:
        t.fail("tracks", f"{game.sides} [[board.tracks]] tables (one per side)", f"{len(tracks)}")
    for i, track in enumerate(tracks):
        if track.strip >= len(strips):
            raise ConfigError(f"{t.source}: [board.tracks[{i}]] strip: expected an index below "
                              f"{len(strips)} (the number of [[board.strips]]), got {track.strip}")
    board = BoardConfig(
        driver=t.take("driver", d.driver, _choice(LED_DRIVERS), "'ws2812-spi' or 'simulated'"),
        holes=holes,
        brightness=t.take("brightness", d.brightness, _number(0, 1, lo_open=True),
                          "a number above 0, at most 1"),
        current_budget_ma=t.take("current_budget_ma", d.current_budget_ma, _integer(100, 100_000),
                                 "milliamps from 100 to 100000"),
        colours=colours, strips=strips, tracks=tracks,
        serpentine=t.take("serpentine", d.serpentine, _boolean, "true or false"),
        dealer_leds=t.take("dealer_leds", d.dealer_leds, _boolean, "true or false"),
        walk_s_per_hole=t.take("walk_s_per_hole", d.walk_s_per_hole, _number(0, 1),
                               "seconds from 0 to 1"),
    )
    t.finish()
    return board


def _read_panel(t: _Table, game: GameConfig) -> PanelConfig:
    d = PanelConfig()
    pins = {
        "encoder_a": t.take("encoder_a", d.encoder_a, _gpio, "a BCM GPIO number 0-27"),
        "encoder_b": t.take("encoder_b", d.encoder_b, _gpio, "a BCM GPIO number 0-27"),
        "encoder_button": t.take("encoder_button", d.encoder_button, _gpio, "a BCM GPIO number 0-27"),
        "dispute": t.take("dispute", d.dispute, _gpio, "a BCM GPIO number 0-27"),
    }
    muggins = t.take("muggins", DEFAULT_MUGGINS_PINS[: game.sides],
                     _list_of(_gpio, game.sides, game.sides),
                     f"a list of {game.sides} BCM GPIO numbers (one Muggins button per side)")
    go = t.take("go", (), _list_of(_gpio, 0, len(game.players)),
                f"a list of at most {len(game.players)} BCM GPIO numbers (Go buttons, optional)")
    panel = PanelConfig(
        **pins, muggins=muggins, go=go,
        long_press_s=t.take("long_press_s", d.long_press_s, _number(0.2, 10), "seconds from 0.2 to 10"),
        new_game_hold_s=t.take("new_game_hold_s", d.new_game_hold_s, _number(1, 30),
                               "seconds from 1 to 30"),
        bounce_s=t.take("bounce_s", d.bounce_s, _number(0, 0.5), "seconds from 0 to 0.5"),
        repeat_s=t.take("repeat_s", d.repeat_s, _number(0, 5), "seconds from 0 to 5"),
        dial_max=t.take("dial_max", d.dial_max, _integer(1, 200), "a count from 1 to 200"),
    )
    seen: dict[int, str] = {}
    for role, pin in panel.pins().items():
        if pin in seen:
            raise ConfigError(f"{t.source}: [panel] {role}: GPIO{pin} is already used by {seen[pin]}")
        seen[pin] = role
    t.finish()
    return panel


def _read_voice(t: _Table, base: Path) -> VoiceConfig:
    d = VoiceConfig()
    wav_dir = t.take("wav_dir", None, _text, "a folder path")
    voice = VoiceConfig(
        engine=t.take("engine", d.engine, _choice(VOICE_ENGINES), "'espeak-ng', 'print' or 'none'"),
        mute=t.take("mute", d.mute, _boolean, "true or false"),
        volume=t.take("volume", d.volume, _integer(0, 200), "an espeak-ng amplitude from 0 to 200"),
        rate=t.take("rate", d.rate, _integer(80, 450), "words per minute from 80 to 450"),
        voice=t.take("voice", d.voice, _text, "an espeak-ng voice name like 'en-gb'"),
        wav_dir=None if wav_dir is None else (base / Path(wav_dir).expanduser()),
    )
    t.finish()
    return voice


def _camera_source(v):
    if not isinstance(v, str):
        return False, None
    parse_source_spec(v)  # SourceConfigError (a ValueError) for a source the sources would refuse
    return True, v


def _deck_name(v):
    from vision.learned_deck import NAME_PATTERN

    return isinstance(v, str) and NAME_PATTERN.fullmatch(v) is not None, v


def _read_camera(t: _Table) -> CameraConfig:
    d = CameraConfig()
    camera = CameraConfig(
        source=t.take("source", d.source, _camera_source, SOURCE_FORMS),
        resolution=t.take("resolution", d.resolution, _list_of(_integer(64, 8192), 2, 2),
                          "[width, height] in pixels, each 64-8192"),
        fps=t.take("fps", d.fps, _number(0, 120, lo_open=True), "frames per second above 0, up to 120"),
        card_length=t.take("card_length", d.card_length, _number(8, 8192),
                           "a card's long side in pixels, 8-8192 (`muggins calibrate --card` measures it)"),
        deck=t.take("deck", d.deck, _deck_name, "a learned deck's name: 1-40 letters, digits, '-' or '_'"),
    )
    t.finish()
    return camera


def _read_web(t: _Table) -> WebConfig:
    d = WebConfig()
    web = WebConfig(
        enabled=t.take("enabled", d.enabled, _boolean, "true or false"),
        host=t.take("host", d.host, _text, "an address to listen on, like \"0.0.0.0\" (every one)"),
        port=t.take("port", d.port, _integer(1, 65535), "a TCP port from 1 to 65535"),
    )
    t.finish()
    return web


def _point(v):
    ok = (isinstance(v, list) and len(v) == 2
          and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v))
    return ok, (float(v[0]), float(v[1])) if ok else None


def _read_zones(t: _Table) -> Mapping[str, tuple[tuple[float, float], ...]]:
    zones = {}
    for name in list(t.data):
        zones[name] = t.take(name, None, _list_of(_point, 3),
                             "a polygon: a list of at least 3 [x, y] points")
    t.finish()
    return MappingProxyType(zones)


def config_from_dict(data: Mapping[str, Any], source: str = "<config>",
                     base: Path = Path(".")) -> Config:
    """Check a parsed TOML document and build the Config (load_config's work after parsing)."""
    top = _Table(source, "", data)

    def section(name):
        return top.sub(name) or _Table(source, name, {})

    game = _read_game(section("game"))
    board = _read_board(section("board"), game)
    panel = _read_panel(section("panel"), game)
    voice = _read_voice(section("voice"), base)
    camera = _read_camera(section("camera"))
    web = _read_web(section("web"))
    zones = _read_zones(section("zones"))
    state_dir = top.take("state_dir", "/var/lib/muggins", _text, "a folder path")
    top.finish()
    return Config(game=game, board=board, panel=panel, voice=voice, camera=camera, web=web,
                  zones=zones, state_dir=(base / Path(state_dir).expanduser()))


def load_config(path: str | Path | None = None) -> Config:
    """Read and check a TOML config file; None gives the defaults. Raises ConfigError on any problem."""
    if path is None:
        return config_from_dict({}, "<defaults>")
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    config = config_from_dict(data, str(path), path.parent)
    return config.replace(path=path)

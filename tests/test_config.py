"""Configuration: defaults, the example file, and a clear ConfigError for every kind of mistake."""

from pathlib import Path

import pytest

from device.config import Config, ConfigError, load_config

EXAMPLE = Path(__file__).resolve().parent.parent / "hardware" / "muggins.example.toml"


def write(tmp_path, text):
    path = tmp_path / "muggins.toml"
    path.write_text(text)
    return path


def test_defaults_need_no_file():
    c = load_config(None)
    assert isinstance(c, Config) and c.path is None
    assert (c.game.variant, c.game.target, c.game.sides) == ("six-card", 121, 2)
    assert c.game.mode == "referee" and c.game.muggins is True
    assert c.panel.muggins == (5, 6) and c.voice.engine == "espeak-ng"
    assert str(c.state_dir) == "/var/lib/muggins"


def test_the_commented_example_loads(tmp_path):
    c = load_config(EXAMPLE)
    assert c.path == EXAMPLE
    assert c.game.players == ("Ann", "Bob")
    assert c.board.strips[0].device == "/dev/spidev0.0"
    assert c.board.colours[:2] == ((255, 48, 0), (0, 96, 255))


def test_every_example_key_is_a_real_key(tmp_path):
    # uncommenting an example's commented-out lines must still give a valid config
    text = EXAMPLE.read_text()
    lines = []
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("# leds =", "# wav_dir =", '# "seat:', "# centre =")):
            line = line.replace("# ", "", 1)
        lines.append(line)
    c = load_config(write(tmp_path, "\n".join(lines)))
    assert c.board.strips[0].leds == 369
    assert set(c.zones) == {"seat:0", "seat:1", "centre"}
    assert c.voice.wav_dir is not None and c.voice.wav_dir.name == "voice"


def test_a_full_file(tmp_path):
    path = write(tmp_path, """
state_dir = "state"
[game]
variant = "four-player"
players = ["A", "B", "C", "D"]
mode = "auto"
scoring_lines = "skunk"
[board]
driver = "simulated"
holes = 60
brightness = 0.25
[panel]
muggins = [5, 6]
go = [23, 24, 25, 12]
[camera]
source = "replay:table.mp4"
resolution = [640, 480]
deck = "home-2"
[zones]
centre = [[1, 2], [3, 4.5], [5, 6]]
""")
    c = load_config(path)
    assert c.game.sides == 2 and c.game.side_of(2) == 0 and c.game.side_of(3) == 1
    assert c.state_dir == tmp_path / "state"
    assert c.board.holes == 60 and c.board.driver == "simulated"
    assert c.panel.go == (23, 24, 25, 12)
    assert c.camera.resolution == (640, 480) and c.camera.deck == "home-2"
    assert c.zones["centre"] == ((1.0, 2.0), (3.0, 4.5), (5.0, 6.0))


def test_three_players_get_three_muggins_buttons_and_colours_by_default(tmp_path):
    c = load_config(write(tmp_path, '[game]\nvariant = "three-player"\n'))
    assert c.game.sides == 3 and len(c.panel.muggins) == 3 and len(c.board.colours) == 3
    assert c.game.players == ("North", "South", "East")


@pytest.mark.parametrize("text, words", [
    ("[board]\nbrightness = 1.5\n", ["[board] brightness", "at most 1", "1.5"]),
    ("[board]\nbrightness = \"high\"\n", ["[board] brightness", "'high'"]),
    ("[board]\nbrigthness = 0.5\n", ["[board] brigthness", "unknown key", "brightness"]),
    ("[bord]\n", ["bord", "unknown key"]),
    ("[game]\nvariant = \"cribbage\"\n", ["[game] variant", "six-card"]),
    ("[game]\nplayers = [\"Ann\"]\n", ["[game] players", "2"]),
    ("[game]\nplayers = [\"Ann\", \"Ann\"]\n", ["[game] players", "different"]),
    ("[game]\nmuggins = \"yes\"\n", ["[game] muggins", "true or false"]),
    ("[panel]\ndispute = 40\n", ["[panel] dispute", "GPIO"]),
    ("[panel]\ndispute = 5\n", ["GPIO5", "muggins[0]"]),
    ("[panel]\nmuggins = [5]\n", ["[panel] muggins", "2"]),
    ("[voice]\nrate = 20\n", ["[voice] rate", "80 to 450"]),
    ("[voice]\nengine = \"festival\"\n", ["[voice] engine"]),
    ("[camera]\nsource = \"webcam\"\n", ["[camera] source", "usb:N"]),
    ("[camera]\ndeck = \"../home\"\n", ["[camera] deck", "learned deck"]),
    ("[zones]\ncentre = [[1, 2], [3, 4]]\n", ["[zones] centre", "at least 3"]),
    ("[board]\nholes = 100\n", ["[board] holes", "60 or 120"]),
    ("[board]\ncolours = [\"red\", \"#00ff00\"]\n", ["[board] colours", "#ff3000"]),
    ("[board]\ncolours = [123, \"#00ff00\"]\n", ["[board] colours", "#ff3000", "123"]),
    ("[[board.strips]]\norder = \"XYZ\"\n", ["board.strips[0]", "order", "GRB"]),
    ("[game]\nmuggins = true\n[game]\n", ["not valid TOML", "line 3"]),
    ("state_dir = 5\n", ["state_dir", "folder"]),
])
def test_mistakes_name_the_file_the_key_and_what_is_expected(tmp_path, text, words):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(str(path))
    for word in words:
        assert word in message, (word, message)


def test_track_layouts_are_checked(tmp_path):
    ok = """
[[board.tracks]]
runs = [{ holes = [1, 60], first_led = 0 }, { holes = [61, 120], first_led = 119, step = -1 }]
[[board.tracks]]
strip = 1
runs = [{ holes = [1, 120], first_led = 0 }]
[[board.strips]]
device = "/dev/spidev0.0"
[[board.strips]]
device = "/dev/spidev1.0"
"""
    c = load_config(write(tmp_path, ok))
    assert len(c.board.tracks) == 2 and c.board.tracks[0].runs[1].step == -1
    with pytest.raises(ConfigError, match=r"board.tracks\[1\]\] strip"):
        load_config(write(tmp_path, ok.replace('[[board.strips]]\ndevice = "/dev/spidev1.0"', "")))
    with pytest.raises(ConfigError, match="2 \\[\\[board.tracks\\]\\]"):
        load_config(write(tmp_path, "[[board.tracks]]\nruns = [{ holes = [1, 120] }]\n"))
    with pytest.raises(ConfigError, match="step"):
        load_config(write(tmp_path, ok.replace("step = -1", "step = 2")))


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")


def test_config_is_frozen():
    c = load_config(None)
    with pytest.raises(AttributeError):
        c.game.variant = "five-card"
    assert c.replace(state_dir=Path("/tmp/x")).state_dir == Path("/tmp/x")


@pytest.mark.parametrize("source", ["picamera", "picamera:1", "usb:0", "usb:/dev/video0", "replay:table.mp4",
                                    "webcam", "usb:x", "replay:", "telescope:1"])
def test_the_config_takes_the_camera_sources_the_sources_open(tmp_path, source):
    from vision.source_spec import SourceConfigError, parse_source_spec

    path = write(tmp_path, f'[camera]\nsource = "{source}"\n')
    try:
        parse_source_spec(source)
    except SourceConfigError:
        with pytest.raises(ConfigError, match=r"\[camera\] source"):
            load_config(path)
    else:
        assert load_config(path).camera.source == source


def test_a_usb_camera_by_device_path(tmp_path):
    c = load_config(write(tmp_path, '[camera]\nsource = "usb:/dev/video0"\n'))
    assert c.camera.source == "usb:/dev/video0"


def test_the_web_page_is_off_unless_asked_for(tmp_path):
    assert load_config(None).web.enabled is False
    c = load_config(write(tmp_path, "[web]\nenabled = true\nport = 8123\n"))
    assert (c.web.enabled, c.web.host, c.web.port) == (True, "0.0.0.0", 8123)
    for text, words in [("[web]\nport = 0\n", ["[web] port", "1 to 65535"]),
                        ("[web]\nenabled = \"yes\"\n", ["[web] enabled", "true or false"]),
                        ("[web]\nlisten = 80\n", ["[web] listen", "unknown key"])]:
        with pytest.raises(ConfigError) as info:
            load_config(write(tmp_path, text))
        assert all(w in str(info.value) for w in words), str(info.value)

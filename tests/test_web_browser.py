"""The web page in a real browser (Debian's chromium, driven by chromedriver through Selenium), used
the way a person would: pair with the PIN, claim a count, read the board, drag a zone and save it, read a
suit of the deck, learn the table's print.

Needs `chromium` and `chromium-driver` (.ci/run installs them); skipped, saying so, without them.
Set MUGGINS_SCREENSHOTS=DIR to keep a picture of each page there (docs/screenshots/ holds the ones
committed); otherwise they go to the test's temporary folder.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("aiohttp", reason="the web page needs aiohttp: pip install 'muggins[web]'")
webdriver = pytest.importorskip("selenium.webdriver", reason="the browser tests need selenium: pip install selenium")

from web_table import WebTable, table  # noqa: E402,F401 (table: a fixture)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="the browser tests need Debian's chromium and chromium-driver: apt-get install chromium chromium-driver")

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
WAIT_S = 10


@pytest.fixture
def browser(tmp_path):
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")   # never let Selenium look for a browser to download
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    options.add_experimental_option("mobileEmulation",
                                    {"deviceMetrics": {"width": 360, "height": 760, "pixelRatio": 1.5}})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("MUGGINS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(driver, path: Path) -> None:
    """The whole page, top to bottom, as a PNG (the phone's width)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 360, "height": height, "deviceScaleFactor": 1.5, "mobile": True})
    png = driver.get_screenshot_as_png()
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    try:  # a palette of 256 colours keeps the committed pictures small
        import io

        from PIL import Image

        Image.open(io.BytesIO(png)).convert("RGB").quantize(256).save(path, optimize=True)
    except ImportError:
        path.write_bytes(png)


def wait_for(driver, check, message):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S, poll_frequency=0.05).until(lambda d: check(d), message)


def by_css(driver, css):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, css)


def text_of(driver, css) -> str:
    """What a person reads there now (read in one go: the live page redraws as events come)."""
    return driver.execute_script("const n = document.querySelector(arguments[0]); return n ? n.innerText : '';",
                                 css)


def pair(driver, pin):
    box = by_css(driver, "#pair input")
    box.clear()
    box.send_keys(pin)
    by_css(driver, "#pair button").click()


def test_pair_claim_and_read_the_board(browser, table, tmp_path):
    url = f"http://127.0.0.1:{table.port}"
    browser.get(url + "/")
    wait_for(browser, lambda d: text_of(d, '.score[data-side="1"] .points') == "0", "the scores drawn")
    assert "cutting for deal" in text_of(browser, "#facts")
    assert not by_css(browser, "#actions").is_displayed()

    table.deal_and_play()                        # the cards on the table, as the camera reports them
    south = table.controller.game.score("South")
    wait_for(browser, lambda d: text_of(d, '.score[data-side="1"] .points') == str(south), "the play's points")
    wait_for(browser, lambda d: "the show" in text_of(d, "#facts"), "the show's turn")
    assert "South" in text_of(browser, '[data-fact="counting"]')

    pair(browser, "111111")                       # a wrong PIN is told, and nothing opens
    wait_for(browser, lambda d: "not the PIN" in text_of(d, "#pair .message"), "the wrong PIN told")
    assert not by_css(browser, "#actions").is_displayed()
    pair(browser, "246810")
    wait_for(browser, lambda d: by_css(d, "#actions").is_displayed(), "the settling buttons")
    fits_the_phone(browser)

    actual = table.controller.game.correct_count().total
    for _ in range(actual):
        by_css(browser, "#more").click()
    assert text_of(browser, "#points") == str(actual)
    by_css(browser, "#claim").click()
    wait_for(browser, lambda d: text_of(d, '.score[data-side="1"] .points') == str(south + actual),
             "the claim pegged")
    assert table.controller.game.score("South") == south + actual
    title = text_of(browser, "#breakdown-title").lower()       # the heading is drawn in capitals
    assert f"claimed {actual}, {actual} in it" in title and "south" in title
    seen = browser.execute_script(
        "return [...document.querySelectorAll('#breakdown-cards .card')].map((c) => c.dataset.card);")
    assert sorted(seen) == sorted(["5S", "5C", "3S", "7D", "4H"])
    # the board drawn: South's front peg in the hole of its score, the back peg where it was before
    pegs = browser.execute_script(
        "const g = document.querySelector('g[data-side=\"1\"]');"
        "return [g.querySelector('[data-peg=front]').dataset.hole, g.querySelector('[data-peg=back]').dataset.hole];")
    assert [int(h) for h in pegs] == [south + actual, south]
    assert "pegs" in text_of(browser, "#said").lower() or str(actual) in text_of(browser, "#said")
    screenshot(browser, shots(tmp_path) / "board.png")


@pytest.fixture
def painted_table(tmp_path):
    from web_table import PaintedTable, ReadOnce

    t = WebTable(tmp_path, camera=PaintedTable(), recognizer=ReadOnce())
    t.run_loop()
    yield t
    t.close()


def fits_the_phone(driver):
    """Nothing on the page is wider than the phone (a wide page shifts every tap)."""
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide"


def test_drag_a_zone_and_save_it(browser, painted_table, tmp_path):
    table = painted_table
    url = f"http://127.0.0.1:{table.port}"
    browser.get(url + "/setup")
    wait_for(browser, lambda d: d.execute_script("return document.getElementById('view').naturalWidth") > 0,
             "the camera's picture")
    pair(browser, "246810")
    wait_for(browser, lambda d: not by_css(d, "#pair").is_displayed(), "paired")
    browser.execute_script("document.getElementById('camera').scrollIntoView({block: 'center'})")
    # where the corner is, read in one go (the overlay is redrawn as the camera's readings come)
    corner = """const c = document.querySelector('circle.corner[data-zone="seat:0"][data-corner="0"]');
                const r = c.getBoundingClientRect(), s = document.getElementById('zones').getBoundingClientRect();
                return [+c.getAttribute('cx'), +c.getAttribute('cy'), r.x + r.width / 2 - (s.x + s.width / 2),
                        r.y + r.height / 2 - (s.y + s.height / 2), s.width,
                        document.getElementById('zones').viewBox.baseVal.width];"""
    x0, y0, dx, dy, svg_width, camera_width = browser.execute_script(corner)
    scale = camera_width / svg_width      # camera pixels per CSS pixel
    from selenium.webdriver.common.action_chains import ActionChains

    svg = by_css(browser, "#zones")       # the overlay itself stays; its shapes are redrawn
    ActionChains(browser).move_to_element_with_offset(svg, round(dx), round(dy)).click_and_hold() \
        .move_by_offset(20, 15).move_by_offset(10, 5).release().perform()
    x1, y1 = browser.execute_script(corner)[:2]
    assert abs((x1 - x0) - 30 * scale) < 3 * scale and abs((y1 - y0) - 20 * scale) < 3 * scale
    by_css(browser, "#save-zones").click()
    wait_for(browser, lambda d: "zones saved" in text_of(d, "#zones-message"), "the zones saved")
    saved = tomllib.loads(table.config_path.read_text())["zones"]["seat:0"][0]
    assert abs(saved[0] - x1) < 0.2 and abs(saved[1] - y1) < 0.2
    assert table.config_path.with_name("muggins.toml.old").exists()

    fits_the_phone(browser)
    # what is read is drawn over the view; a measurement needs one card alone, and says so
    wait_for(browser, lambda d: len(d.find_elements("css selector", "#zones polygon.card")) >= 5, "cards outlined")
    by_css(browser, "#measure").click()
    wait_for(browser, lambda d: "lay one card" in text_of(d, "#card-message"), "the measuring refused")
    assert "cards" in text_of(browser, "#card-message") and "card_length" not in table.config_path.read_text()

    # learning the deck: a row that is not one suit's thirteen cards is told as calibrate tells it, nothing learned
    by_css(browser, "#deck-name").send_keys("home")
    assert by_css(browser, "#save-deck").get_attribute("disabled") is not None
    by_css(browser, "#read-suit").click()
    wait_for(browser, lambda d: "not thirteen" in text_of(d, "#deck-message"), "the row refused")
    assert text_of(browser, "#deck-message").startswith("I see 9 cards, not thirteen: lay the thirteen clubs")
    assert text_of(browser, "#deck-progress") == "no suit learned yet"
    assert not (table.config_path.parent / "state" / "decks").exists()

    # a setting the config loader refuses is refused here with its words, and the file is kept
    before = table.config_path.read_text()
    box = by_css(browser, "#toml")
    box.clear()
    box.send_keys('[voice]\nrate = 20\n')
    by_css(browser, "#check").click()
    wait_for(browser, lambda d: "[voice] rate" in text_of(d, "#settings-message"), "the loader's message")
    assert "80 to 450" in text_of(browser, "#settings-message")
    by_css(browser, "#save").click()
    wait_for(browser, lambda d: "[voice] rate" in text_of(d, "#settings-message"), "still refused")
    assert table.config_path.read_text() == before
    browser.get(url + "/setup")
    wait_for(browser, lambda d: d.execute_script("return document.getElementById('view').naturalWidth") > 0,
             "the camera's picture again")
    screenshot(browser, shots(tmp_path) / "setup.png")


def test_learn_a_suit_of_the_deck_and_save_it(browser, tmp_path):
    """Clubs laid in a row under the camera, read from the phone, saved and named in the config."""
    import numpy as np

    from cribbage.cards import Card
    from tests.deck_photos import photo
    from vision.learned_deck import load_deck
    from web_table import StillCamera

    camera = StillCamera(1920, 480)
    camera.image = photo(np.random.default_rng(40), [Card(rank, "C") for rank in range(1, 14)], size=(1920, 480),
                         height=0.27)
    table = WebTable(tmp_path, camera=camera)
    table.run_loop()
    try:
        browser.get(f"http://127.0.0.1:{table.port}/setup")
        wait_for(browser, lambda d: d.execute_script("return document.getElementById('view').naturalWidth") > 0,
                 "the camera's picture")
        pair(browser, "246810")
        wait_for(browser, lambda d: not by_css(d, "#pair").is_displayed(), "paired")
        by_css(browser, "#deck-name").send_keys("home")
        by_css(browser, "#read-suit").click()
        wait_for(browser, lambda d: "learned" in text_of(d, "#deck-message"), "the clubs read")
        assert text_of(browser, "#deck-message") == "I see thirteen cards: the clubs are learned."
        assert "deck home: \u2663 clubs learned (13 cards)" == text_of(browser, "#deck-progress")
        assert by_css(browser, "#deck-suit").get_attribute("value") == "D"      # the next suit to lay
        fits_the_phone(browser)
        browser.execute_script("document.getElementById('learn').scrollIntoView()")
        by_css(browser, "#save-deck").click()
        wait_for(browser, lambda d: "saved" in text_of(d, "#deck-message"), "the deck saved")
        assert 'deck = "home" is set' in text_of(browser, "#deck-message")
        assert "decks learned here: home" in text_of(browser, "#decks-known")
        assert 'deck = "home"' in by_css(browser, "#toml").get_attribute("value")
        assert tomllib.loads(table.config_path.read_text())["camera"]["deck"] == "home"
        assert len(load_deck(table.config_path.parent / "state" / "decks", "home").cards) == 13
        screenshot(browser, shots(tmp_path) / "setup-deck.png")
    finally:
        table.close()


def test_learn_the_printed_mat_from_the_phone(browser, tmp_path):
    """The demo's mat, printed with two aces, learnt empty from the set-up page: read past at once."""
    from sim.frames import TablePainter
    from sim.table_script import TableStep
    from vision.recognizer import Recognizer
    from web_table import StillCamera

    camera = StillCamera()
    camera.image = TablePainter(1, printed=True).draw(TableStep(zones=()), 0)
    table = WebTable(tmp_path, camera=camera, recognizer=Recognizer())
    table.run_loop()
    try:
        browser.get(f"http://127.0.0.1:{table.port}/setup")
        wait_for(browser, lambda d: len(d.find_elements("css selector", "#zones polygon.card")) == 2,
                 "the printed aces outlined as cards")
        assert text_of(browser, "#print-now") == "the empty table is not learned: cards are read as on a plain table"
        pair(browser, "246810")
        wait_for(browser, lambda d: not by_css(d, "#pair").is_displayed(), "paired")
        browser.execute_script("document.getElementById('print').scrollIntoView()")
        by_css(browser, "#learn-table").click()
        wait_for(browser, lambda d: "Saved in" in text_of(d, "#print-message"), "the table learnt")
        assert text_of(browser, "#print-message").startswith("the empty table shows 2 things the device reads")
        assert text_of(browser, "#print-now").startswith("reading past the table's print: the ace of ")
        wait_for(browser, lambda d: not d.find_elements("css selector", "#zones polygon.card"),
                 "the print no longer outlined as cards")
        assert len(browser.find_elements("css selector", "#zones circle.print")) == 2   # circled as print
        assert (table.config_path.parent / "state" / "table_print.json").is_file()
        fits_the_phone(browser)
        screenshot(browser, shots(tmp_path) / "setup-print.png")
    finally:
        table.close()


def test_the_games_page_draws_each_games_race(browser, table, tmp_path):
    table.deal_and_play()
    with table.lock:
        table.controller.on_panel(__import__("device.panel", fromlist=["PanelEvent"]).PanelEvent(
            "claim", value=table.controller.game.correct_count().total))
    browser.get(f"http://127.0.0.1:{table.port}/games")
    wait_for(browser, lambda d: d.find_elements("css selector", "section.race"), "a game drawn")
    lines = browser.find_elements("css selector", "section.race polyline")
    assert len(lines) == 2
    north, south = (table.controller.game.score(p) for p in ("North", "South"))
    assert text_of(browser, "section.race .result") == f"in progress: North {north}, South {south}"
    fits_the_phone(browser)


def test_a_whole_demo_game_watched_and_its_race(browser, tmp_path):
    import json
    import signal
    import subprocess
    import sys

    from test_web_demo import DEMO

    root = Path(__file__).resolve().parent.parent
    demo = subprocess.Popen([sys.executable, "-c", DEMO], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        url = json.loads(demo.stdout.readline())["web"]["url"]
        final = next(json.loads(line)["final"] for line in demo.stdout if '"final"' in line)
        browser.get(url)
        winner = final["winner"]
        side = ["North", "South"].index(winner)
        wait_for(browser, lambda d: text_of(d, f'.score[data-side="{side}"] .points') == "121", "the final score")
        assert "winner" in text_of(browser, f'.score[data-side="{side}"] .tag')
        assert "game over" in text_of(browser, "#facts")
        assert not by_css(browser, "#pair").is_displayed() and by_css(browser, "#demo-note").is_displayed()
        fits_the_phone(browser)
        screenshot(browser, shots(tmp_path) / "demo-final-board.png")
        browser.get(url + "games")
        wait_for(browser, lambda d: d.find_elements("css selector", "section.race polyline"), "the race drawn")
        loser = [s for n, s in final["scores"].items() if n != winner][0]
        assert text_of(browser, "section.race .result") == f"{winner} won 121 to {loser}"
        points = browser.execute_script(
            "return [...document.querySelectorAll('section.race polyline')].map((p) => p.points.length);")
        assert points == [final["rounds"] + 1] * 2          # a point a deal, and the start
        fits_the_phone(browser)
        screenshot(browser, shots(tmp_path) / "games.png")
    finally:
        demo.send_signal(signal.SIGINT)
        try:
            demo.wait(timeout=15)
        except subprocess.TimeoutExpired:
            demo.kill()
            demo.wait()


def test_the_games_page_shows_each_players_record_and_a_deal_looked_back_at(browser, tmp_path):
    import io

    from sketch_table import KnowsTheCards

    from device.record import deal_of, record_of
    from device.web.server import WebServer
    from sim.demo_game import DemoOptions, run_demo

    state_dir = tmp_path / "state"
    for variant in ("three-player", "six-card"):  # the first is set aside when the settings change
        knows = KnowsTheCards()
        assert run_demo(DemoOptions(seed=1, speed="max", mute=True, state_dir=state_dir, variant=variant),
                        io.StringIO(), io.StringIO(), recognizer=knows, painter_for=knows) == 0
    (state_dir / "journal.sqlite3.corrupt-20260101T000000Z").write_bytes(b"SQLite format 3\x00" + b"\xff" * 99)
    rec = record_of(state_dir)
    with WebServer("127.0.0.1", 0, {}, state_dir=state_dir) as server:
        browser.get(f"http://127.0.0.1:{server.port}/games")
        wait_for(browser, lambda d: d.find_elements("css selector", "svg.sources rect[data-deal]"), "the sources drawn")
        assert "Over 2 games (2 finished" in text_of(browser, "#covers")
        assert "set aside as corrupt" in text_of(browser, "#covers")
        heads = browser.execute_script("return [...document.querySelectorAll('#record th')].map((n) => n.innerText);")
        assert heads[1:] == [p["name"] for p in rec["players"]]
        north = next(p for p in rec["players"] if p["name"] == "North")
        column = heads.index("North")
        claims = browser.execute_script(
            "const rows = [...document.querySelectorAll('#record tr')];"
            "return rows.find((r) => r.cells[0].innerText.startsWith('claims')).cells[arguments[0]].innerText;", column)
        assert claims == f"{north['claims']['right']}/{north['claims']['over']}/{north['claims']['short']}"
        # each bar is one source of one player's points in one deal: they add up to the record's points
        newest = rec["games"][-1]
        drawn = browser.execute_script(
            "const t = {}; for (const r of document.querySelector('section.race svg.sources')"
            ".querySelectorAll('rect[data-deal]')) { const k = r.dataset.player + ' ' + r.dataset.source;"
            " t[k] = (t[k] || 0) + Number(r.dataset.points); } return t;")
        for p in newest["record"]:
            for source, points in p["points"].items():
                assert drawn.get(f"{p['name']} {source}", 0) == points
        # a deal with a better card held: clicking its bar looks it back
        looked = [deal_of(state_dir, newest["number"], d["deal"]) for d in newest["per_deal"]]
        deal = next(d for d in looked if any(r.get("better") for r in d["play"]))
        browser.execute_script(
            "document.querySelector(`section.race svg.sources rect[data-deal='${arguments[0]}']`)"
            ".dispatchEvent(new MouseEvent('click', {bubbles: true}));", deal["deal"])
        wait_for(browser, lambda d: d.find_elements("css selector", f".deal [data-deal='{deal['deal']}']"),
                 "the deal looked back at")
        better = next(r for r in deal["play"] if r.get("better"))["better"]
        assert f"would have made {better['count']} for {better['points']}" in text_of(browser, ".deal tr.better")
        shown = browser.execute_script("return document.querySelectorAll('.deal .show').length;")
        assert shown == len(deal["shows"])
        fits_the_phone(browser)
        screenshot(browser, shots(tmp_path) / "games-record.png")

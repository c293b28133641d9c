"""The simulator in a real browser: Debian's headless Chromium, driven through its chromedriver, plays both
games on the page by dragging, clicking and the keyboard (a capture, an illegal placement put right, a jump
chain, an undo), checks that every LED on the page shows the firmware's frame, replays a script and a
record, and fits a phone. Screenshots of each board go to build/screenshots/ (the CI keeps them).

Chromium is installed here if it is missing (apt-get, as the README's test command runs on a fresh
machine as root); elsewhere the test says how to install it."""

import asyncio
import os
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request

import pytest
from ludus_host.cmd_sim import listen, serve, url_of
from ludus_host.sim_server import HUB, Settings, make_app
from ludus_host.sim_table import LiveTable
from ludus_host.simboard import Simulator, load_board, parse_script

pytestmark = [pytest.mark.cpython_only, pytest.mark.slow]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = os.path.join(ROOT, "build", "screenshots")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SEED = "00" * 32


def ensure_chromium():
    if os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER):
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail(
            "the browser tests need Debian's chromium and chromium-driver:"
            " apt-get install chromium chromium-driver"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium", "chromium-driver"]
    if subprocess.run(cmd, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=False)
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            pytest.fail("apt-get could not install chromium: %s" % r.stderr[-2000:])


@pytest.fixture(scope="module")
def browser():
    ensure_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="ludus-chromium-")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--user-data-dir=" + profile,
        "--window-size=1280,1000",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(20)
    os.makedirs(SHOTS, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


class Served:
    """`ludus sim`'s server in a thread of this process, so a test can ask its table what the page
    should show."""

    def __init__(self, preset, start_s=20, **settings):
        self.app = make_app(Settings(preset, seed=SEED, **settings))
        sock = listen("127.0.0.1", 0)
        self.url = url_of(sock, "127.0.0.1")
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def main():
            asyncio.set_event_loop(self.loop)
            self.task = self.loop.create_task(serve(self.app, sock, started.set))
            try:
                self.loop.run_until_complete(self.task)
            except asyncio.CancelledError:
                pass

        self.thread = threading.Thread(target=main, daemon=True)
        self.thread.start()
        assert started.wait(start_s), "the simulator did not start"

    def call(self, fn):
        """fn(hub) run in the server's thread (where the table runs), its result."""

        async def go():
            return fn(self.app[HUB])

        return asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)

    def close(self):
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(20)
        # (the page's open socket is closed at shutdown: the server does not wait for it)
        assert not self.thread.is_alive(), "the simulator did not stop"


@pytest.fixture
def served(request):
    s = Served(request.param)
    yield s
    s.close()


def js(d, script, *args):
    return d.execute_script(script, *args)


def wait_for(d, check, what, timeout=15):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    state = js(d, "return window.ludus.state")
    log = state["log"][-5:] if state else None
    raise AssertionError("waited %.0f s for %s; the page's log ends %s" % (timeout, what, log))


def state(d):
    return js(d, "return window.ludus.state")


def open_page(d, served):
    d.get(served.url)
    # (window.ludus itself may not exist yet: the page's script can still be loading when get() returns)
    wait_for(
        d,
        lambda: js(d, "return !!(window.ludus && window.ludus.state && window.ludus.board)"),
        "the page's hello",
    )


def cell(d, name):
    from selenium.webdriver.common.by import By

    return d.find_element(By.CSS_SELECTOR, 'g.cell[data-cell="%s"]' % name)


def button(d, ident):
    from selenium.webdriver.common.by import By

    return d.find_element(By.ID, ident)


def moves(d):
    return state(d)["moves"]


def drag(d, a, b):
    from selenium.webdriver import ActionChains

    ActionChains(d).move_to_element(cell(d, a)).click_and_hold().pause(0.05).move_by_offset(12, 12).pause(
        0.1
    ).move_to_element(cell(d, b)).pause(0.05).release().perform()


def click(d, name):
    from selenium.webdriver import ActionChains

    ActionChains(d).move_to_element(cell(d, name)).click().perform()


def press_die(d, held=0.1):
    from selenium.webdriver import ActionChains

    ActionChains(d).move_to_element(button(d, "die-button")).click_and_hold().pause(held).release().perform()


def settled(d, situation, count=None):
    def check():
        st = state(d)
        return st["situation"] == situation and (count is None or len(st["moves"]) == count)

    wait_for(d, check, "situation %s%s" % (situation, "" if count is None else " after %d moves" % count))


def glyph(d, name):
    return js(
        d,
        "return document.querySelector('g.cell[data-cell=\"' + arguments[0] + '\"] .glyph').textContent",
        name,
    )


def page_leds(d):
    """One look at the page: the frame it holds, its moment, and that every LED element shows that
    frame's colour (the number of LEDs lit)."""
    grb, t, shown = js(
        d,
        """const svg = document.getElementById('board');
           return [svg.dataset.grb, window.ludus.frameT, [...svg.querySelectorAll('[data-led]')].map(e =>
             [parseInt(e.dataset.led), e.dataset.rgb,
              getComputedStyle(e)[e.classList.contains('led') ? 'stroke' : 'fill']])]""",
    )
    frame = bytes.fromhex(grb)
    assert len(shown) == len(frame) // 3
    lit = 0
    for led, rgb, colour in shown:
        g, r, b = frame[3 * led], frame[3 * led + 1], frame[3 * led + 2]
        assert rgb == "%d,%d,%d" % (r, g, b), led
        if r or g or b:
            lit += 1
            assert colour == "rgb(%d, %d, %d)" % (r, g, b), (led, colour)
    return grb, t, lit


def check_leds(d, served):
    """Every LED on the page shows the frame the page was sent, and that frame is the firmware's: the
    referee's light scene rendered at the same moment gives the same bytes."""
    time.sleep(0.3)
    grb, t, lit = page_leds(d)
    frame = bytearray(len(grb) // 2)
    served.call(lambda hub: hub.table.referee.render(t, frame))
    assert grb == frame.hex(), "the page's frame at t=%d differs from the referee's" % t
    return lit


def shot(d, name):
    path = os.path.join(SHOTS, name + ".png")
    d.save_screenshot(path)
    return path


@pytest.mark.parametrize("served", ["checkers/2"], indirect=True)
def test_chinese_checkers_by_dragging_and_the_keyboard(browser, served):
    d = browser
    open_page(d, served)
    assert state(d)["phase"] == "setup"
    button(d, "setup").click()  # the start's pieces out: the referee sees a start and begins
    wait_for(d, lambda: state(d)["phase"] == "play", "the game to start")
    assert js(d, "return document.querySelectorAll('g.cell').length") == 121
    # a move by the keyboard: go to a cell, Enter lifts, go to another, Enter puts down
    from selenium.webdriver.common.keys import Keys

    goto = button(d, "goto")
    goto.send_keys("h7", Keys.ENTER)
    d.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(d, lambda: state(d)["hand"] == ["red"], "h7's piece in the hand")
    goto.clear()
    goto.send_keys("h16", Keys.ENTER)
    d.switch_to.active_element.send_keys(Keys.ENTER)
    settled(d, "idle", 1)
    drag(d, "h112", "h104")
    settled(d, "idle", 2)
    # a jump chain: touched down on h7 between jumps, the next jump lit, then on to h29
    drag(d, "h2", "h7")
    settled(d, "pending")
    assert glyph(d, "h29") == "•"  # a destination, marked for players who cannot tell colours
    assert check_leds(d, served) >= 2
    drag(d, "h7", "h29")
    settled(d, "idle", 3)
    assert moves(d) == ["h7-h16", "h112-h104", "h2-h29"]
    # an illegal placement, shown, and put right
    drag(d, "h111", "h26")
    settled(d, "illegal")
    assert glyph(d, "h111") == "↩" and glyph(d, "h26") == "✕"
    assert "illegal: h111-h26" in button(d, "log").text
    check_leds(d, served)
    shot(d, "checkers-illegal")
    drag(d, "h26", "h111")
    settled(d, "idle", 3)
    # undo: a long press, then the piece back where the lights say
    press_die(d, held=1.2)
    settled(d, "undo", 2)
    assert glyph(d, "h29") == "↑" and glyph(d, "h2") == "↓"
    check_leds(d, served)
    drag(d, "h29", "h2")
    settled(d, "idle", 2)
    assert state(d)["pieces"]["h2"] == ["red"]
    check_leds(d, served)
    shot(d, "checkers")


def first_roll(position):
    t = LiveTable("ludo/classic/4", seed=SEED)
    t.act({"do": "start", "position": position})
    t.act({"do": "button", "down": True})
    t.advance(t.now + 100)
    t.act({"do": "button", "down": False})
    t.advance(t.now + 400)
    return t.state()["die"][0]


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_ludo_capture_by_clicking(browser, served):
    d = browser
    v = first_roll("ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t30,base,base,base")
    target = "t%d" % (2 + v)
    position = "ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=%s,base,base,base" % target
    open_page(d, served)
    button(d, "position").send_keys(position)
    button(d, "play-from").click()
    wait_for(d, lambda: state(d)["phase"] == "play", "the position to be in play")
    assert state(d)["pieces"][target] == ["red"]
    press_die(d)
    wait_for(d, lambda: state(d)["die"] == [v], "the roll")
    assert "Green threw a %d" % v in button(d, "log").text
    check_leds(d, served)
    # click to lift, click to put down: the victim off to its base, then green onto its square
    click(d, target)
    wait_for(d, lambda: state(d)["hand"] == ["red"], "red in the hand")
    click(d, "red.base.3")
    click(d, "t2")
    wait_for(d, lambda: state(d)["hand"] == ["green"], "green in the hand")
    click(d, target)
    wait_for(d, lambda: len(moves(d)) == 2, "the capture")
    assert moves(d) == ["roll %d" % v, "%d green.0 t2-%s x red.0" % (v, target)]
    assert "Red's token is captured: put it back in Red's base" in button(d, "log").text
    assert state(d)["pieces"][target] == ["green"]
    assert "Dice commitment" in button(d, "commitment").text
    check_leds(d, served)
    shot(d, "ludo-capture")
    # an illegal placement: green's token put back on a square it cannot reach
    drag(d, target, "t40")
    wait_for(d, lambda: state(d)["situation"] in ("illegal", "mismatch"), "the wrong placement seen")
    drag(d, "t40", target)
    wait_for(d, lambda: state(d)["situation"] == "idle", "the board put right")
    # the capture the other way round: onto the victim first, then the victim lifted from under it
    button(d, "play-from").click()
    wait_for(
        d, lambda: state(d)["moves"] == [] and state(d)["pieces"].get("t2") == ["green"], "the position again"
    )
    press_die(d)
    wait_for(d, lambda: state(d)["die"] == [v], "the roll")
    drag(d, "t2", target)
    wait_for(d, lambda: state(d)["pieces"].get(target) == ["red", "green"], "the stack")
    drag(d, target, "red.base.3")  # a player takes the victim, not the piece just put down
    wait_for(d, lambda: len(moves(d)) == 2, "the capture")
    assert state(d)["pieces"][target] == ["green"] and state(d)["pieces"]["red.base.3"] == ["red"]


def ludus_play_end(path, board, game):
    text = open(path).read()
    b = load_board(board)
    items = list(Simulator(b, game, seed=SEED, frames="none").run(parse_script(text, b)))
    return items[-1]


@pytest.mark.parametrize("served", ["checkers/2"], indirect=True)
def test_replay_of_a_script_and_of_a_record(browser, served, tmp_path):
    d = browser
    open_page(d, served)
    example = os.path.join(ROOT, "examples", "checkers-jump-chain.play")
    button(d, "load").send_keys(example)
    wait_for(d, lambda: js(d, "return !!window.ludus.replay"), "the replay")
    steps = js(d, "return window.ludus.replay.steps.length")
    button(d, "step-last").click()
    end = ludus_play_end(example, "checkers", "checkers/2")
    shown = js(d, "return window.ludus.stepView(window.ludus.replay.k)")
    assert shown["moves"] == end["actions"]
    # the board drawn shows that step's pieces
    drawn = js(
        d,
        "return Object.fromEntries([...document.querySelectorAll('g.cell')].filter(g => g.dataset.pieces)"
        ".map(g => [g.dataset.cell, g.dataset.pieces]))",
    )
    assert drawn == {k: " ".join(v) for k, v in shown["pieces"].items()}
    assert button(d, "step-label").get_attribute("data-step") == str(steps - 1)
    shot(d, "checkers-replay-end")
    button(d, "step-back").click()
    assert button(d, "step-label").get_attribute("data-step") == str(steps - 2)
    button(d, "step-first").click()
    assert js(d, "return window.ludus.replay.k") == 0
    button(d, "step-live").click()
    assert js(d, "return window.ludus.replay") is None
    # a record saved from the page's own game, replayed move by move
    button(d, "setup").click()
    wait_for(d, lambda: state(d)["phase"] == "play", "the game to start")
    drag(d, "h7", "h16")
    settled(d, "idle", 1)
    with urllib.request.urlopen(served.url + "api/record", timeout=10) as r:
        record = tmp_path / "game.json"
        record.write_bytes(r.read())
    button(d, "load").send_keys(str(record))
    wait_for(d, lambda: js(d, "return window.ludus.replay && window.ludus.replay.kind") == "record", "it")
    assert js(d, "return window.ludus.replay.steps.length") == 2
    button(d, "step-next").click()
    assert "Red moved from h7 to h16" in button(d, "log").text
    # a malformed script: a message naming its line, and the page goes on
    bad = tmp_path / "bad.play"
    bad.write_text("# ludus play x --board checkers --game checkers/2\nsetup\nmove h7 h999\n")
    button(d, "load").send_keys(str(bad))
    wait_for(d, lambda: button(d, "error").is_displayed(), "the error message")
    assert "line 3" in button(d, "error").text and "h999" in button(d, "error").text


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_the_page_fits_a_phone(browser, served):
    d = browser
    d.set_window_size(390, 844)
    try:
        open_page(d, served)
        button(d, "setup").click()
        wait_for(d, lambda: state(d)["phase"] == "play", "the game to start")
        width = js(d, "return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], "the page scrolls sideways on a phone: %s" % width
        box = js(d, "return document.getElementById('board').getBoundingClientRect().width")
        assert 300 <= box <= 390
        shot(d, "ludo-phone")
    finally:
        d.set_window_size(1280, 1000)


@pytest.fixture
def twin():
    from ludus.errors import LudusError
    from ludus_host import pico

    try:
        pico.assets()
    except LudusError as exc:
        pytest.skip(str(exc))
    s = Served("checkers/2", start_s=600, pico=True)
    yield s
    s.close()


def test_the_page_drives_the_firmware_on_the_emulated_pico(browser, twin):
    d = browser
    open_page(d, twin)
    assert js(d, "return document.getElementById('mirror-note').hidden") is False
    wait_for(d, lambda: "self-test passed" in button(d, "log").text, "the emulated Pico's self-test", 240)
    button(d, "setup").click()  # the pieces onto its sensor lines
    wait_for(d, lambda: state(d)["phase"] == "play", "the firmware's new game", 120)
    drag(d, "h7", "h16")
    wait_for(d, lambda: moves(d) == ["h7-h16"], "the firmware's move", 120)
    assert "Red moved from h7 to h16" in button(d, "log").text
    # the LEDs on the page are the frames decoded from the emulated chain's data pin; yellow's turn LED
    # at least is lit in one of them (it breathes: dark for a moment at this brightness, so one
    # equal frame may have nothing lit)
    equal = lit_seen = 0
    for _ in range(60):
        grb, _t, lit = page_leds(d)
        if grb == twin.call(lambda hub: bytes(hub.table.render()).hex()):
            equal += 1
            lit_seen = max(lit_seen, lit)
            if lit_seen >= 1:
                break
        time.sleep(0.2)
    assert equal, "the page's LEDs never equalled the emulated chain's last frame"
    assert lit_seen >= 1, "no LED lit in %d frames equal to the emulated chain's" % equal
    shot(d, "checkers-emulated-pico")


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_every_board_is_drawn_from_its_definition(browser, served):
    from selenium.webdriver.support.ui import Select

    d = browser
    open_page(d, served)
    for preset, name in (
        ("ludo/classic/4", "ludo52"),
        ("ludo/hebrew-40/4", "ludo40"),
        ("ludo/hebrew-56/4", "ludo56"),
        ("checkers/2", "checkers"),
    ):
        if preset != "ludo/classic/4":
            Select(button(d, "game")).select_by_value(preset)
            assert button(d, "settings-note").is_displayed()  # not in force until New table
            button(d, "new-game").click()
        # set up as the game chosen (once the server's new table has reached the page)
        wait_for(d, lambda p=preset: button(d, "start").get_attribute("value") == p, preset)
        wait_for(d, lambda n=name: js(d, "return document.getElementById('board').dataset.board") == n, name)
        board = load_board(name)
        assert js(d, "return document.querySelectorAll('g.cell').length") == board.cell_count
        leds = js(d, "return document.querySelectorAll('#board [data-led]').length")
        assert leds == board.led_count  # every LED of the chain, beside its cell or as an indicator
        button(d, "setup").click()
        wait_for(d, lambda: state(d)["phase"] == "play", "the game to start on " + name)
        check_leds(d, served)
        shot(d, "board-" + name)

"""The simulator in a real browser: Debian's headless Chromium, driven through its chromedriver, plays both
games on the page by pointer (dragging, clicking, tapping) and by keyboard, at a desktop's width and a
phone's: a whole Ludo game with a capture and a token home, a Chinese Checkers jump chain, illegal
placements put right, undo by the long press and by its button, a power cut, bots, and each defect of
issue 38 (the piece lifted from a shared square, full home slots, Play from it, the set-up list). It
checks that every LED on the page shows the firmware's frame, drawn as light; that the page says whose turn
it is, the throws waiting and what to do in the words `ludus play --words` prints; that sounds follow the
piezo's cues; that holes are touch targets of 40 px on a phone; that the arrow keys follow the board. It
replays a script and a record. Screenshots of the key moments go to build/screenshots/ (the CI keeps
them).

Chromium is installed here if it is missing (apt-get, as the README's test command runs on a fresh
machine as root); elsewhere the test says how to install it."""

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pytest
from ludus_host.commands.sim import listen, serve, url_of
from ludus_host.sim.server import HUB, Settings, make_app
from ludus_host.sim.table import LiveTable
from ludus_host.virtual.board import load_board
from ludus_host.virtual.runner import Simulator
from ludus_host.virtual.script import parse_script

pytestmark = [pytest.mark.cpython_only, pytest.mark.slow]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = os.path.join(ROOT, "build", "screenshots")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SEED = "00" * 32
DESKTOP = (1400, 1000)
PHONE = (420, 900)


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
        "--window-size=%d,%d" % DESKTOP,
        "--autoplay-policy=no-user-gesture-required",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
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
def served(request, browser):
    s = Served(request.param)
    browser.set_window_size(*DESKTOP)
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
            drawn = [int(v) for v in colour[4:-1].split(",")]
            assert_light(drawn, (r, g, b), led)
    return grb, t, lit


def assert_light(drawn, frame_rgb, led):
    """A lit LED is drawn as light: the frame's hue at full brightness (however dim the frame, the
    budget's dimming included), lifted toward white, so that every colour shows on the board."""
    top = max(frame_rgb)
    assert max(drawn) == 255, (led, drawn, frame_rgb)  # as bright as a colour gets
    for k in range(3):
        if frame_rgb[k] == top:
            assert drawn[k] == 255, (led, drawn, frame_rgb)
        elif frame_rgb[k] == 0:
            assert drawn[k] == min(drawn) >= 40, (led, drawn, frame_rgb)  # lifted toward white
        # the channels keep their order: the hue is the frame's
        for j in range(3):
            if frame_rgb[k] < frame_rgb[j]:
                assert drawn[k] < drawn[j], (led, drawn, frame_rgb)


def check_leds(d, served):
    """Every LED on the page shows the frame the page was sent, and that frame is the firmware's: the
    referee's light scene rendered at the same moment gives the same bytes."""
    time.sleep(0.3)
    grb, t, lit = page_leds(d)
    frame = bytearray(len(grb) // 2)
    served.call(lambda hub: hub.table.referee.render(t, frame))
    assert grb == frame.hex(), "the page's frame at t=%d differs from the referee's" % t
    return lit


def shot(d, name, at=None):
    """A screenshot of the page, scrolled to its top (or to the element `at`), kept for people to look
    at: build/screenshots/NAME.png."""
    if at is None:
        js(d, "window.scrollTo(0, 0)")
    else:
        js(d, "arguments[0].scrollIntoView({block: 'start'})", button(d, at))
    time.sleep(0.15)
    path = os.path.join(SHOTS, name + ".png")
    d.save_screenshot(path)
    return path


def text(d, ident):
    return js(d, "return document.getElementById(arguments[0]).textContent", ident)


def marks(d):
    """The page's own marks in the holes: {cell: meaning} (a dot where a piece may go, a ring round one
    to take up), as drawn."""
    return js(
        d,
        "return Object.fromEntries([...document.querySelectorAll('g.cell .marks')].filter(g =>"
        " g.childElementCount).map(g => [g.parentNode.dataset.cell, g.dataset.mark]))",
    )


def last_move(d):
    """The last move as the page draws it: [the cells it left, the cells it reached]."""
    return js(d, "const g = document.getElementById('last-move'); return [g.dataset.from, g.dataset.to]")


def play_from(d, position, accept=True):
    """Type a position and press Play from it; if a game is in play the page asks first (answered)."""
    from selenium.common.exceptions import NoAlertPresentException

    box = button(d, "position")
    box.clear()
    box.send_keys(position)
    button(d, "play-from").click()
    try:
        alert = d.switch_to.alert
    except NoAlertPresentException:
        return None
    asked = alert.text
    alert.accept() if accept else alert.dismiss()
    return asked


def go_to(d, name):
    """The keyboard: the Cell box takes a cell's name and puts the focus there."""
    from selenium.webdriver.common.keys import Keys

    box = button(d, "goto")
    box.clear()
    box.send_keys(name, Keys.ENTER)


def key(d, *keys):
    d.switch_to.active_element.send_keys(*keys)


def lit_cells(d, meaning):
    return [name for _, name, m, _ in state(d)["lit"] if m == meaning]


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
    # whose turn, large and in words: red's again, its colour on the banner
    assert text(d, "turn-who") == "Red" and "move a piece" in text(d, "prompt")
    assert js(d, "return document.getElementById('status-box').dataset.colour") == "red"
    # the last move drawn: a line from h112 to h104
    assert last_move(d) == ["h112", "h104"]
    # a jump chain: touched down on h7 between jumps, the next jump lit, then on to h29
    drag(d, "h2", "h7")
    settled(d, "pending")
    assert glyph(d, "h29") == "•"  # a destination, marked for players who cannot tell colours
    assert marks(d).get("h29") == "destination"  # and a dot in the hole
    assert check_leds(d, served) >= 2
    assert "go on, or press the die button" in text(d, "prompt") and "pending" in text(d, "status")
    shot(d, "checkers-jump-chain-touched-down")
    drag(d, "h7", "h29")
    settled(d, "idle", 3)
    assert moves(d) == ["h7-h16", "h112-h104", "h2-h29"]
    assert "Red jumped from h2 to h29" in button(d, "log").text
    # an illegal placement, shown, and put right
    drag(d, "h111", "h26")
    settled(d, "illegal")
    assert glyph(d, "h111") == "↩" and glyph(d, "h26") == "✕"
    assert marks(d) == {"h111": "way back", "h26": "illegal"}
    assert "Not allowed, h111 to h26" in button(d, "log").text
    assert text(d, "prompt") == "Not allowed: put the piece back on h111"
    check_leds(d, served)
    shot(d, "checkers-illegal")
    drag(d, "h26", "h111")
    settled(d, "idle", 3)
    # undo: a long press, then the piece back where the lights say
    press_die(d, held=1.2)
    settled(d, "undo", 2)
    assert glyph(d, "h29") == "↑" and glyph(d, "h2") == "↓"
    assert text(d, "prompt").startswith("Undo: put the pieces back as lit")
    check_leds(d, served)
    shot(d, "checkers-undo")
    drag(d, "h29", "h2")
    settled(d, "idle", 2)
    assert state(d)["pieces"]["h2"] == ["red"]
    check_leds(d, served)


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
    assert play_from(d, position) is None  # (no game in play: nothing to ask)
    wait_for(d, lambda: state(d)["phase"] == "play", "the position to be in play")
    assert state(d)["pieces"][target] == ["red"]
    assert text(d, "prompt") == "Green: throw the die" and text(d, "dice") == ""
    press_die(d)
    wait_for(d, lambda: state(d)["die"] == [v], "the roll")
    assert "Green threw a %d" % v in button(d, "log").text
    # the throw waiting, drawn as a die with its pips, and what to do with it
    assert js(d, "return document.getElementById('dice').dataset.values") == str(v)
    assert js(d, "return document.querySelectorAll('#dice .die circle').length") == v
    assert text(d, "prompt") == "Move a token %d" % v
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
    play_from(d, position)
    wait_for(
        d, lambda: state(d)["moves"] == [] and state(d)["pieces"].get("t2") == ["green"], "the position again"
    )
    press_die(d)
    wait_for(d, lambda: state(d)["die"] == [v], "the roll")
    drag(d, "t2", target)
    wait_for(d, lambda: state(d)["pieces"].get(target) == ["red", "green"], "the stack")
    assert marks(d)[target] == "capture victim" and text(d, "prompt").startswith(
        "Capture: take the lit token"
    )
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


def touch_targets(d):
    """Each cell's touch target on the page, in px: {cell: (width, height)} of the element a finger hits
    (its hit circle; for a small slot of a Ludo home, its home's triangle)."""
    return js(
        d,
        """const out = {};
           for (const g of document.querySelectorAll('g.cell')) {
             const id = g.dataset.cell, zone = window.ludus.zoneOf[id];
             const tri = zone && document.querySelector('.zone-hit[data-zone="' + zone + '"]');
             const r = (tri || g.querySelector('.hit')).getBoundingClientRect();
             out[id] = [r.width, r.height];
           }
           return out;""",
    )


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_the_page_fits_a_phone_with_holes_a_finger_can_hit(browser, served):
    from selenium.webdriver.support.ui import Select

    d = browser
    d.set_window_size(*PHONE)
    open_page(d, served)
    for preset in ("ludo/classic/4", "checkers/2"):
        if preset != "ludo/classic/4":
            Select(button(d, "game")).select_by_value(preset)
            button(d, "new-game").click()
            wait_for(
                d, lambda: js(d, "return document.getElementById('board').dataset.board") == "checkers", "it"
            )
        button(d, "setup").click()
        wait_for(d, lambda: state(d)["phase"] == "play", "the game to start")
        # the page itself never scrolls sideways: the board pans inside its own frame
        width = js(d, "return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], "the page scrolls sideways on a phone: %s" % width
        small = {c: wh for c, wh in touch_targets(d).items() if min(wh) < 40 - 0.5}
        assert not small, "touch targets under 40 px at %d px wide: %s" % (PHONE[0], sorted(small)[:8])
        # whose turn comes before the board on a phone, and the whole board is a button away
        assert js(d, "return document.getElementById('status-box').getBoundingClientRect().top") < js(
            d, "return document.getElementById('board').getBoundingClientRect().top"
        )
        shot(d, "phone-" + preset.replace("/", "-"))
        button(d, "fit").click()
        box = js(d, "return document.getElementById('board').getBoundingClientRect().width")
        assert box <= PHONE[0]
        button(d, "fit").click()
        assert js(d, "return document.getElementById('board').getBoundingClientRect().width") > PHONE[0]


@pytest.fixture
def twin():
    from ludus.errors import LudusError
    from ludus_host.emulator import harness as pico

    try:
        pico.assets()
    except LudusError as exc:
        pytest.skip(str(exc))
    s = Served("checkers/2", start_s=600, pico=True)
    yield s
    s.close()


@pytest.mark.long  # (many emulated minutes: pytest -m long)
def test_the_page_drives_the_firmware_on_the_emulated_pico(browser, twin):
    d = browser
    open_page(d, twin)
    assert js(d, "return document.getElementById('mirror-note').hidden") is False
    # the firmware starts games from the pieces and keeps its own records: nothing offered that it refuses
    assert not button(d, "save-record").is_displayed() and not button(d, "play-from").is_displayed()
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


# ---- issue 38: the defects, each as a player met it -------------------------------------------------


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_the_piece_lifted_from_a_shared_square_is_the_one_on_top(browser, served):
    # red's token drawn on top of green's on t8 (a star: both stand there): a click lifts red's, the
    # mover's, and the move puts red's on t9 (the page took the other colour, as if green were a victim)
    d = browser
    open_page(d, served)
    play_from(d, "ludo classic seats=gr turn=r rolls=1 g=t8,base,base,base r=t8,base,base,base")
    wait_for(d, lambda: state(d)["pieces"].get("t8") == ["green", "red"], "the shared square")
    assert text(d, "turn-who") == "Red" and text(d, "prompt") == "Move a token 1"
    click(d, "t8")
    wait_for(d, lambda: state(d)["hand"], "a piece in the hand")
    assert state(d)["hand"] == ["red"]
    click(d, "t9")
    wait_for(d, lambda: len(moves(d)) == 1, "the move")
    assert moves(d) == ["1 red.0 t8-t9"]
    pieces = state(d)["pieces"]
    assert pieces["t9"] == ["red"] and pieces["t8"] == ["green"]
    assert "Red moved a token 1: t8 to t9" in button(d, "log").text


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_on_a_phone_by_keyboard_a_full_home_slot_is_not_lit_and_a_drop_there_lands_in_a_free_one(
    browser, served
):
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.set_window_size(*PHONE)
    open_page(d, served)
    play_from(d, "ludo classic seats=gr turn=g rolls=2 g=home,home,home,c3 r=t5,base,base,base")
    wait_for(d, lambda: state(d)["phase"] == "play", "the position")
    full = sorted(c for c in state(d)["pieces"] if c.startswith("green.home."))
    assert len(full) == 3
    go_to(d, "green.c3")
    key(d, Keys.ENTER)  # lifted
    wait_for(d, lambda: state(d)["hand"] == ["green"], "green's token in the hand")
    wait_for(d, lambda: state(d)["situation"] == "moving", "the lift seen (once settled)")
    shown = marks(d)
    homes = {c: m for c, m in shown.items() if c.startswith("green.home.")}
    assert list(homes.values()) == ["destination"] and not set(homes) & set(full)
    assert all(glyph(d, c) == "" for c in full)
    check_leds(d, served)
    shot(d, "phone-ludo-home-lifted")
    go_to(d, full[0])  # a full slot: the token goes into the free one, and the game ends
    key(d, Keys.ENTER)
    wait_for(d, lambda: state(d)["phase"] == "over", "the game's end")
    assert text(d, "turn-who") == "Green" and text(d, "prompt") == "Green wins"
    assert all(state(d)["pieces"]["green.home.%d" % k] == ["green"] for k in range(4))
    shot(d, "phone-ludo-green-wins")


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_play_from_it_asks_before_it_ends_a_game_in_play(browser, served):
    d = browser
    open_page(d, served)
    from selenium.webdriver.support.ui import Select

    Select(button(d, "start")).select_by_value("ludo/classic/2")
    button(d, "setup").click()
    wait_for(d, lambda: state(d)["phase"] == "play", "the game to start")
    assert text(d, "prompt") == "Roll-off for who starts: Green, throw the die"  # the roll-off, named
    press_die(d)
    wait_for(d, lambda: len(moves(d)) == 1, "the first roll-off throw")
    assert "in the roll-off" in button(d, "log").text
    before = state(d)["moves"]
    asked = play_from(
        d, "ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t9,base,base,base", False
    )
    assert asked and "ends for everyone" in asked
    time.sleep(0.5)
    assert state(d)["moves"] == before and "t2" not in state(d)["pieces"]  # nothing lost
    assert play_from(d, "ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t9,base,base,base")
    wait_for(d, lambda: state(d)["pieces"].get("t2") == ["green"] and not moves(d), "the position")


@pytest.mark.parametrize("served", ["checkers/2"], indirect=True)
def test_the_set_up_list_names_starts_in_words_and_keeps_the_one_in_play_after_a_reload(browser, served):
    from selenium.webdriver.support.ui import Select

    d = browser
    d.get_log("browser")  # (what earlier tests' pages logged: read and dropped)
    open_page(d, served)
    options = js(d, "return [...document.getElementById('start').options].map(o => [o.value, o.textContent])")
    assert ["checkers/3", "3 players"] in options and ["checkers/2x2", "2 players, 2 sets each"] in options
    assert not [t for _, t in options if "…" in t or "/" in t or "=" in t]  # words, not notation
    Select(button(d, "start")).select_by_value("checkers/3")
    assert len(js(d, "return document.querySelectorAll('#bots .seat')")) == 3  # the start's seats only
    button(d, "setup").click()
    wait_for(d, lambda: state(d)["phase"] == "play", "the game to start")
    d.refresh()
    open_page(d, served)
    assert button(d, "start").get_attribute("value") == "checkers/3"
    assert len(js(d, "return document.querySelectorAll('#bots .seat')")) == 3
    # and the page asks its server for nothing it does not have (a favicon's 404 included)
    errors = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_a_whole_ludo_game_by_clicking_with_a_capture_and_tokens_home(browser, served, tmp_path):
    # From a typed position, with the table's seeded dice (2, 3, 6, 4): green throws 2 and captures red
    # on t46, throws again (the capture's throw) 3 and brings its token on c2 home, throws again (home's)
    # 6 and, with it, 4: the token on t46 goes 6 to c1 and 4 home. Green wins; the record verifies.
    d = browser
    open_page(d, served)
    play_from(d, "ludo classic seats=gr turn=g rolls=- g=home,home,t44,c2 r=t46,base,base,base")
    wait_for(d, lambda: state(d)["phase"] == "play", "the position")
    # the log beside the board, in view without scrolling; the rules and the seats in play below
    board = js(d, "return document.getElementById('board').getBoundingClientRect().toJSON()")
    log = js(d, "return document.getElementById('log-box').getBoundingClientRect().toJSON()")
    assert log["left"] >= board["right"] and log["top"] < DESKTOP[1] / 2
    assert len(js(d, "return document.querySelectorAll('#rules li')")) >= 8
    assert "A capture earns another throw." in text(d, "rules")
    seats = [r.get_attribute("data-seat") for r in d.find_elements("css selector", "#bots .seat")]
    assert seats == ["green", "red"]
    assert text(d, "turn-who") == "Green" and text(d, "turn-what") == "to play"
    press_die(d)
    wait_for(d, lambda: state(d)["rolls"] == [[2, "green"]], "the 2")
    assert text(d, "prompt") == "Move a token 2"
    click(d, "t44")
    wait_for(d, lambda: marks(d).get("t46") == "capture victim", "the capture lit")
    base = lit_cells(d, "capture base")
    assert len(base) == 1 and marks(d)[base[0]] == "capture base"
    assert marks(d)["t44"] == "lifted"  # where the piece in the hand came from
    check_leds(d, served)
    shot(d, "ludo-capture-lifted")
    click(d, "t46")  # onto the victim first
    wait_for(d, lambda: state(d)["pieces"].get("t46") == ["red", "green"], "the stack")
    click(d, "t46")  # a player takes the victim off
    wait_for(d, lambda: state(d)["hand"] == ["red"], "red's token in the hand")
    click(d, base[0])
    wait_for(d, lambda: len(moves(d)) == 2, "the capture")
    assert moves(d)[-1] == "2 green.2 t44-t46 x red.0"
    assert "Red's token is captured: put it back in Red's base" in button(d, "log").text
    assert text(d, "prompt") == "Green: throw the die"  # the capture's throw
    assert last_move(d) == ["t44", "t46"]
    # a cue for the move, as the piezo sounds it
    cues = js(d, "return window.ludus.cues")
    played = js(d, "return window.ludus.played")
    assert [(p["name"], p["notes"], p["muted"]) for p in played] == [("your_turn", cues["your_turn"], False)]
    press_die(d)
    wait_for(d, lambda: state(d)["rolls"] == [[3, "green"]], "the 3")
    click(d, "green.c2")
    wait_for(d, lambda: state(d)["situation"] == "moving", "the lift seen")
    free = [c for c, m in marks(d).items() if m == "destination"]
    assert sorted(free) == sorted(
        c for c in ("green.home.%d" % k for k in range(4)) if c not in state(d)["pieces"]
    )
    click(d, "green.home.0")  # a full slot: into a free one
    wait_for(d, lambda: len(moves(d)) == 4, "the token home")
    assert moves(d)[-1] == "3 green.3 c2-home" and "Green brought a token home" in button(d, "log").text
    # home's throw: a 6 and (the 6's) a 4, both waiting, drawn as green's dice
    press_die(d)
    wait_for(d, lambda: state(d)["rolls"] == [[6, "green"]], "the 6")
    assert text(d, "prompt") == "Green threw a 6: roll again"
    press_die(d)
    wait_for(d, lambda: state(d)["rolls"] == [[6, "green"], [4, "green"]], "the 4")
    assert js(d, "return document.getElementById('dice').dataset.values") == "6 4"
    assert js(d, "return document.querySelectorAll('#dice .die circle').length") == 10
    assert text(d, "prompt") == "Move a token for each throw: 6 and 4, in either order"
    shot(d, "ludo-two-throws-waiting")
    click(d, "t46")
    click(d, "green.c1")
    wait_for(d, lambda: len(moves(d)) == 7, "the 6 played")
    assert last_move(d) == ["t46", "green.c1"]
    assert js(d, "return document.getElementById('dice').dataset.values") == "4"  # the 4 still waiting
    button(d, "mute").click()
    assert text(d, "mute") == "Sound: off"
    click(d, "green.c1")
    click(d, "green.home.1")
    wait_for(d, lambda: state(d)["phase"] == "over", "the game's end")
    assert moves(d)[-1] == "4 green.2 c1-home"
    assert text(d, "turn-who") == "Green" and text(d, "turn-what") == "Game over"
    assert (
        text(d, "prompt") == "Green wins" and "Green wins. Places: 1. Green, 2. Red" in button(d, "log").text
    )
    assert "verified: 4 rolls and 4 moves agree with the seed" in button(d, "log").text
    played = js(d, "return window.ludus.played")
    assert played[-1]["name"] == "your_turn" and played[-1]["muted"] is True
    check_leds(d, served)
    shot(d, "ludo-green-wins")
    # the page's log is what `ludus play --words` prints for the page's own script
    with urllib.request.urlopen(served.url + "api/script", timeout=10) as r:
        lines = r.read().decode().splitlines()
    script = tmp_path / "page.play"
    script.write_text("\n".join(lines) + "\n")
    header = lines[1].split()
    run = subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", "play", str(script), *header[4:], "--words"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    page = js(d, "return [...document.querySelectorAll('#log li')].map(li => li.textContent)")
    # The same sentences, each after its time in the same form. (The table's own lines aside: the
    # record's check and the season are no events of the referee. The times may differ by a tick or two:
    # the page's presses go through the firmware's button driver and its debounce, a script's press is
    # given to the referee as it is let go.)
    own = re.compile(r"^[0-9.]+ s  (verified: |the record does NOT verify|season)")
    form = re.compile(r"^[0-9]+\.[0-9] s  ")
    events = [line for line in page if not own.match(line)]
    words = run.stdout.splitlines()
    assert all(form.match(line) for line in events + words)
    assert [form.sub("", line) for line in events] == [form.sub("", line) for line in words[:-1]]
    assert len(events) >= 10 and words[-1].endswith("Now: Green wins")


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_a_bot_plays_red_then_a_power_cut_keeps_the_game(browser, served):
    from selenium.webdriver.support.ui import Select

    d = browser
    open_page(d, served)
    play_from(d, "ludo classic seats=gr turn=r rolls=- g=t2,base,base,base r=t30,base,base,base")
    wait_for(d, lambda: state(d)["phase"] == "play", "the position")
    Select(button(d, "bot-red")).select_by_value("preferred")
    wait_for(d, lambda: state(d)["bots"] == {"red": "preferred"}, "red a bot")
    assert text(d, "bot-words-red").startswith(
        "Board plays: preferred. On its turn 2 lights pulse on its base; it plays what the board plays"
    )
    # the board throws for red after a second of a still board (a 2, the seed's first), and lights the
    # move it chose
    wait_for(d, lambda: "chose" in text(d, "prompt"), "the bot's move")
    assert text(d, "prompt") == "Red (preferred bot) chose a token 2: t30 to t32. Carry it out as lit"
    assert marks(d) == {"t30": "move from", "t32": "move to"}
    shot(d, "ludo-bot-move-lit")
    click(d, "t30")
    click(d, "t32")
    wait_for(d, lambda: moves(d) == ["roll 2", "2 red.0 t30-t32"], "the bot's move carried out")
    # green's turn: its player's name on the banner, and no die drawn (red's 2 is not green's to play)
    button(d, "name-green").send_keys("Anna\t")
    wait_for(d, lambda: text(d, "turn-who") == "Anna (Green)", "green's name on the banner")
    assert text(d, "dice") == "" and text(d, "prompt") == "Anna (Green): throw the die"
    # only the seats in play are listed
    assert len(d.find_elements("css selector", "#bots .seat")) == 2
    button(d, "power").click()
    wait_for(d, lambda: "Power cut" in button(d, "log").text, "the power cut")
    wait_for(d, lambda: state(d)["situation"] == "idle", "the board back")
    assert moves(d) == ["roll 2", "2 red.0 t30-t32"] and state(d)["bots"] == {"red": "preferred"}
    assert "The game goes on from what the board kept" in button(d, "log").text


@pytest.mark.parametrize("served", ["checkers/2"], indirect=True)
def test_a_checkers_jump_chain_by_tapping_on_a_phone_and_undo_by_its_button(browser, served):
    d = browser
    d.set_window_size(*PHONE)
    open_page(d, served)
    button(d, "setup").click()
    wait_for(d, lambda: state(d)["phase"] == "play", "the game to start")
    for a, b, n in (("h7", "h16", 1), ("h112", "h104", 2)):
        click(d, a)
        click(d, b)
        wait_for(d, lambda n=n: len(moves(d)) == n, "move %d" % n)
    click(d, "h2")  # a chain: h2 over h4 to h7, touched down, then over h16 to h29
    click(d, "h7")
    settled(d, "pending")
    click(d, "h7")
    click(d, "h29")
    settled(d, "idle", 3)
    assert moves(d)[-1] == "h2-h29"
    shot(d, "phone-checkers-after-the-chain")
    button(d, "undo").click()  # the die button held past its long press
    settled(d, "undo", 2)
    click(d, "h29")
    click(d, "h2")
    settled(d, "idle", 2)
    assert state(d)["pieces"]["h2"] == ["red"] and "Undo: taken back" in button(d, "log").text


@pytest.mark.parametrize("served", ["checkers/2"], indirect=True)
def test_the_arrow_keys_go_to_the_neighbouring_holes(browser, served):
    import json
    import math

    from ludus.checkers.geometry import adjacent
    from ludus_host import paths
    from selenium.webdriver.common.keys import Keys

    d = browser
    open_page(d, served)
    holes = {c["id"]: c for c in json.loads(open(paths.board_file("checkers")).read())["cells"]}
    number = {h: int(h[1:]) for h in holes}
    got = js(
        d,
        "const out = {}; for (const id in window.ludus.cells) out[id] = ['ArrowLeft', 'ArrowRight',"
        " 'ArrowUp', 'ArrowDown'].map(k => window.ludus.nearest(id, k)); return out",
    )
    for hole, found in got.items():
        c = holes[hole]
        for (dx, dy), to in zip(((-1, 0), (1, 0), (0, -1), (0, 1)), found):
            # the holes next to this one on the star that lie that way (within 67.5 degrees of the arrow)
            that_way = [
                h
                for h, o in holes.items()
                if h != hole
                and adjacent(number[hole], number[h])
                and ((o["x"] - c["x"]) * dx + (o["y"] - c["y"]) * dy)
                / math.hypot(o["x"] - c["x"], o["y"] - c["y"])
                > 0.38
            ]
            if that_way:
                assert to in that_way, (hole, (dx, dy), to, that_way)
    assert got["h60"][:2] == ["h59", "h61"]  # along the row
    # Up from the bottom point's tip climbs the middle of the star straight, zigzagging between the two
    # holes above each one
    go_to(d, "h120")
    climbed = []
    for _ in range(8):
        key(d, Keys.ARROW_UP)
        climbed.append(d.switch_to.active_element.get_attribute("data-cell"))
    assert all(abs(holes[h]["x"] - holes["h120"]["x"]) <= 12.5 for h in climbed), climbed
    assert all(adjacent(number[a], number[b]) for a, b in zip(["h120", *climbed], climbed))


# ---- what the page says and offers ----------------------------------------------------------------


@pytest.mark.parametrize("served", ["checkers/2"], indirect=True)
def test_the_rules_and_what_each_bot_level_does_are_on_the_page(browser, served):
    from ludus.config import BOT_LEVELS
    from ludus_host.virtual.words import bot_words, rules_words
    from selenium.webdriver.support.ui import Select

    d = browser
    open_page(d, served)

    def shown():
        rules = js(d, "return [...document.querySelectorAll('#rules li')].map(li => li.textContent)")
        levels = js(
            d,
            "return [...document.querySelectorAll('#bot-levels dt')].map(dt =>"
            " [dt.textContent, dt.nextElementSibling.textContent])",
        )
        return rules, levels

    rules, levels = shown()
    # Chinese Checkers' rules, then how the board is played, each a sentence of its own
    assert rules == rules_words("checkers/2")
    assert rules[0].startswith("Bring all your pieces across the star into the point opposite your start")
    assert any("A jump goes over one piece next to yours" in r for r in rules)
    assert rules[-2] == "Lift a piece: the board lights where it may go. Put it down there to move."
    # each bot level the seats' lists offer, and what it does
    assert [level for level, _ in levels] == list(BOT_LEVELS["checkers"])
    assert dict(levels) == bot_words("checkers")
    assert all(words for _, words in levels)
    assert "looks three of its own moves ahead" in dict(levels)["strong"]
    offered = js(d, "return [...document.querySelector('#bots select').options].map(o => o.value)")
    assert offered == ["person", *[level for level, _ in levels]]
    assert button(d, "rules-box").is_displayed() and button(d, "bot-levels").is_displayed()
    shot(d, "checkers-rules", at="rules-box")

    # the tools' example of a position to play from is one of this game's starts, not another game's
    def example():
        said = re.fullmatch(
            r"e\.g\. (\S+) or a position's notation",
            button(d, "position").get_attribute("placeholder"),
        )
        starts = js(d, "return [...document.getElementById('start').options].map(o => o.value)")
        assert said and said.group(1) in starts, said
        return said.group(1)

    assert example().startswith("checkers/")
    # a new table of Ludo: its rules and its bots instead
    Select(button(d, "game")).select_by_value("ludo/danish/4")
    button(d, "new-game").click()
    wait_for(d, lambda: js(d, "return document.getElementById('board').dataset.board") == "ludo52", "Ludo")
    rules, levels = shown()
    assert rules == rules_words("ludo/danish/4") and rules[0].startswith("Take your four tokens once round")
    assert not any("across the star" in r for r in rules)
    assert dict(levels) == bot_words("ludo") and "greedy" not in dict(levels)
    assert example().startswith("ludo/danish/")


@pytest.mark.parametrize("served", ["checkers/2"], indirect=True)
def test_a_piece_with_no_move_and_pieces_that_differ_from_the_game_are_said_in_words(browser, served):
    d = browser
    open_page(d, served)
    button(d, "setup").click()
    wait_for(d, lambda: state(d)["phase"] == "play", "the game to start")
    idle = "Red: move a piece (lift it to see where it may go)"
    assert text(d, "prompt") == idle
    # h0, the point's tip, is boxed in by red's own pieces: lifted, it has nowhere to go
    click(d, "h0")
    wait_for(d, lambda: state(d)["situation"] == "mismatch", "the lift seen")
    assert text(d, "prompt") == "No move for this piece: put it back on h0"
    assert "mismatch" in text(d, "status")
    assert marks(d) == {"h0": "missing"} and glyph(d, "h0") == "?"
    assert not lit_cells(d, "destination")
    check_leds(d, served)
    shot(d, "checkers-no-move")
    click(d, "h0")
    settled(d, "idle", 0)
    assert text(d, "prompt") == idle
    # a new piece from the box on an empty hole: the page says what to put right
    d.find_element("css selector", '#spares .tray-piece[data-colour="green"]').click()
    click(d, "h60")
    wait_for(d, lambda: state(d)["pieces"].get("h60") == ["green"], "the piece from the box")
    wait_for(d, lambda: state(d)["situation"] == "mismatch", "the difference seen")
    assert text(d, "prompt") == "Put the pieces as the game has them: none on h60"
    assert "The pieces differ from the game: a piece is not expected on h60" in button(d, "log").text
    check_leds(d, served)
    shot(d, "checkers-pieces-differ")
    click(d, "h60")  # lifted off: into the hand, then aside
    wait_for(d, lambda: state(d)["hand"] == ["green"], "the box's piece lifted")
    button(d, "aside").click()
    settled(d, "idle", 0)
    assert text(d, "prompt") == idle


@pytest.mark.parametrize("served", ["ludo/classic/4"], indirect=True)
def test_the_arrow_keys_go_to_the_neighbouring_squares_of_a_ludo_board(browser, served):
    import json

    from ludus_host import paths
    from selenium.webdriver.common.keys import Keys

    d = browser
    open_page(d, served)
    squares = {c["id"]: c for c in json.loads(open(paths.board_file("ludo52")).read())["cells"]}
    pitch = 25.0
    got = js(
        d,
        "const out = {}; for (const id in window.ludus.cells) out[id] = ['ArrowLeft', 'ArrowRight',"
        " 'ArrowUp', 'ArrowDown'].map(k => window.ludus.nearest(id, k)); return out",
    )
    assert sorted(got) == sorted(squares)
    arrows = ((-1, 0), (1, 0), (0, -1), (0, 1))
    grid = [c for c in squares.values() if c["role"] in ("track", "column")]
    checked = 0
    for c in grid:
        for (dx, dy), to in zip(arrows, got[c["id"]]):
            # the square next to this one on the board's grid that way (the track and the columns are
            # squares one pitch apart), where there is one
            there = [o["id"] for o in grid if (o["x"], o["y"]) == (c["x"] + dx * pitch, c["y"] + dy * pitch)]
            if there:
                assert to == there[0], (c["id"], (dx, dy), to, there)
                checked += 1
            if to is not None:
                # any other arrow goes that way (within about 60 degrees of it), never back or sideways
                o = squares[to]
                along = (o["x"] - c["x"]) * dx + (o["y"] - c["y"]) * dy
                across = abs((o["x"] - c["x"]) * dy - (o["y"] - c["y"]) * dx)
                assert along > 0 and across <= along * 1.8, (c["id"], (dx, dy), to)
    assert checked > 150
    # by the keys: along the top row of the left arm, then up the arm above it
    go_to(d, "t0")
    walked = []
    for _ in range(4):
        key(d, Keys.ARROW_RIGHT)
        walked.append(d.switch_to.active_element.get_attribute("data-cell"))
    assert walked == ["t1", "t2", "t3", "t4"]
    go_to(d, "t5")
    for _ in range(4):
        key(d, Keys.ARROW_UP)
    assert d.switch_to.active_element.get_attribute("data-cell") == "t9"
    # a colour's column, and from a base out onto the board
    go_to(d, "green.c0")
    for _ in range(4):
        key(d, Keys.ARROW_RIGHT)
    assert d.switch_to.active_element.get_attribute("data-cell") == "green.c4"
    go_to(d, "green.base.0")
    key(d, Keys.ARROW_RIGHT)
    assert d.switch_to.active_element.get_attribute("data-cell") == "green.base.1"
    key(d, Keys.ARROW_DOWN)
    assert d.switch_to.active_element.get_attribute("data-cell") == "green.base.3"
    key(d, Keys.ARROW_DOWN)
    out = d.switch_to.active_element.get_attribute("data-cell")
    assert not out.startswith("green.base") and squares[out]["y"] > squares["green.base.3"]["y"], out


def test_mirroring_the_emulated_pico_hides_what_the_firmware_refuses(browser):
    # The page as `ludus sim --pico` serves it, without booting the emulator (many minutes: the long
    # test above does): the server's hello says the table is the emulated Pico, as a PicoTwin's does.
    d = browser
    browser.set_window_size(*DESKTOP)
    s = Served("checkers/2")
    try:
        open_page(d, s)
        offered = ["save-record", "save-script", "play-from", "position", "new-game"]
        assert all(button(d, ident).is_displayed() for ident in offered)  # (a table of its own: all there)
        assert js(d, "return document.getElementById('mirror-note').hidden") is True
        s.call(lambda hub: setattr(hub.table, "mirror", "pico"))
        d.refresh()
        open_page(d, s)
        assert js(d, "return window.ludus.mirror") == "pico"
        assert js(d, "return document.body.classList.contains('mirror-pico')") is True
        hidden = js(
            d,
            "return Object.fromEntries(['.save-row', '.position-row', '#controls'].map(q =>"
            " [q, getComputedStyle(document.querySelector(q)).display]))",
        )
        assert hidden == {".save-row": "none", ".position-row": "none", "#controls": "none"}
        assert not [ident for ident in offered if button(d, ident).is_displayed()]
        assert button(d, "mirror-note").is_displayed() and "emulated Pico" in text(d, "mirror-note")
        # what it does take: the pieces, the die button, the set-up, replaying a file
        for ident in ("die-button", "setup", "load", "board"):
            assert button(d, ident).is_displayed(), ident
        assert not button(d, "bots-box").is_displayed()  # the firmware's own bots are its config's
        shot(d, "checkers-pico-mirror-controls", at="tools-box")
    finally:
        s.close()

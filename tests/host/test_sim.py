"""The browser simulator without a browser: its table (the referee run against the clock), the play script
and record it saves and replays, its web server's answers to good and bad requests, and `ludus sim`."""

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from aiohttp.test_utils import TestClient, TestServer
from ludus.errors import NotationError
from ludus.record import GameRecord
from ludus_host.sim.server import HUB, Settings, make_app
from ludus_host.sim.table import GAMES, LiveTable, replay_record, replay_script, script_options
from ludus_host.virtual.board import load_board
from ludus_host.virtual.runner import Simulator
from ludus_host.virtual.script import parse_script
from sim_play import bots_play_out, carry_out, counts_of, press
from tools import ctrl_c_as_at_a_terminal

pytestmark = pytest.mark.cpython_only
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = "00" * 32


def resolved(result, k):
    """Step k of a replay as the page shows it: its moves carried forward, the log so far joined."""
    steps = result["steps"]
    log = [line for s in steps[: k + 1] for line in s["log_new"]]
    if "moves_upto" in steps[k]:
        moves = result["moves"][: steps[k]["moves_upto"]]
    else:
        moves = next(s["moves"] for s in reversed(steps[: k + 1]) if s["moves"] is not None)
    return dict(steps[k], moves=moves, log=log)


def move(table, a, b, carry=150, rest=500):
    table.act({"do": "lift", "cell": a})
    table.advance(table.now + carry)
    table.act({"do": "place", "cell": b})
    table.advance(table.now + rest)


def checkers_table():
    t = LiveTable("checkers/2", seed=SEED)
    t.act({"do": "setup"})
    t.advance(t.now + 500)
    move(t, "h7", "h16")
    move(t, "h112", "h104")
    move(t, "h2", "h7")  # a touch-down in a jump chain
    move(t, "h7", "h29")
    move(t, "h111", "h26")  # illegal
    return t


def test_checkers_on_the_live_table_jump_chain_illegal_and_undo():
    t = checkers_table()
    st = t.state()
    assert st["moves"] == ["h7-h16", "h112-h104", "h2-h29"]
    assert st["situation"] == "illegal"
    lit = {name: meaning for _, name, meaning, _ in st["lit"]}
    assert lit["h111"] == "way back" and lit["h26"] == "illegal"
    assert "Not allowed, h111 to h26: h26 is neither" in st["log"][-1][1]
    move(t, "h26", "h111")
    assert t.state()["situation"] == "idle"
    press(t, held=1000)  # a long press: undo the last move
    st = t.state()
    assert st["situation"] == "undo" and st["moves"] == ["h7-h16", "h112-h104"]
    lit = {name: meaning for _, name, meaning, _ in st["lit"]}
    assert lit["h29"] == "move from" and lit["h2"] == "move to"
    move(t, "h29", "h2")
    assert t.state()["situation"] == "idle"
    assert t.state()["pieces"]["h2"] == ["red"]


def test_the_saved_script_replays_what_the_page_saw():
    t = checkers_table()
    move(t, "h26", "h111")
    press(t, held=1000)
    script = t.script()
    opts = script_options(script, None, None)
    assert opts == {
        "board": "checkers",
        "game": "checkers/2",
        "seed": SEED,
        "settle_ms": 200,
        "analog": False,
    }
    # ludus play's own simulator, as the command runs it
    board = load_board("checkers")
    sim = Simulator(board, "checkers/2", seed=SEED, frames="lights")
    items = list(sim.run(parse_script(script, board)))
    moves = [e["move"] for e in items if e.get("event") == "move"]
    assert moves == ["h7-h16", "h112-h104", "h2-h29"]
    assert items[-1]["actions"] == t.referee.record.actions
    frames = [e for e in items if "lights" in e]
    lit_here = [[name, meaning] for _, name, meaning, _ in t.state()["lit"]]
    assert [e[:2] for e in frames[-1]["lights"]] == lit_here
    # and the page's own replay of it ends where the table is
    result = replay_script(script)
    last = resolved(result, len(result["steps"]) - 1)
    assert last["pieces"] == t.state()["pieces"]
    assert last["moves"] == t.state()["moves"]


def first_roll(position):
    t = LiveTable("ludo/classic/2", seed=SEED)
    t.act({"do": "start", "position": position})
    press(t)
    return t.state()["die"][0]


def test_ludo_capture_from_a_position_in_words():
    v = first_roll("ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t30,base,base,base")
    target = "t%d" % (2 + v)
    pos = "ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=%s,base,base,base" % target
    t = LiveTable("ludo/classic/2", seed=SEED)
    t.act({"do": "start", "position": pos})
    press(t)
    assert t.state()["log"][-1][1] == "Green threw a %d" % v
    move(t, target, "red.base.3")  # the victim off first,
    move(t, "t2", target)  # then the capture
    st = t.state()
    assert st["moves"][-1] == "%d green.0 t2-%s x red.0" % (v, target)
    assert "Red's token is captured: put it back in Red's base" in st["log"][-1][1]
    assert st["pieces"][target] == ["green"] and st["pieces"]["red.base.3"] == ["red"]
    assert st["commitment"] and len(st["commitment"]) == 64


def test_power_cut_on_the_live_table_keeps_the_game():
    t = checkers_table()
    move(t, "h26", "h111")
    before = t.state()["moves"]
    t.act({"do": "power"})
    t.advance(t.now + 400)
    st = t.state()
    assert st["moves"] == before and st["situation"] == "idle"
    assert any("Power cut" in text for _, text in st["log"])
    assert "power" in t.script()


@pytest.mark.parametrize(
    "message, words",
    [
        ({"do": "fly"}, "unknown action 'fly'"),
        ({"do": "lift", "cell": "h500"}, "no cell 'h500'"),
        ({"do": "lift", "cell": "h60"}, "there is no piece on h60"),
        ({"do": "place", "cell": "h60"}, "no piece in the hand"),
        ({"do": "place", "cell": "h60", "colour": "mauve"}, "'mauve' is not a piece colour"),
        ({"do": "button", "down": "yes"}, '"down" is true'),
        ({"do": "setup", "start": 7}, "setup: the start is a name"),
        ({"do": "setup", "start": "checkers/9"}, "setup:"),
        ({"do": "start", "position": "ludo nonsense"}, "start:"),
        ({"do": "start", "position": ""}, "start: give a position"),
        (["lift"], "a request is a JSON object"),
    ],
)
def test_bad_actions_are_named_and_change_nothing(message, words):
    t = LiveTable("checkers/2", seed=SEED)
    before = (t.state()["pieces"], t.script())
    with pytest.raises(NotationError) as exc:
        t.act(message)
    assert words in str(exc.value)
    assert (t.state()["pieces"], t.script()) == before


def test_replays_of_bad_scripts_and_records_say_what_is_wrong():
    with pytest.raises(NotationError, match="line 2: unknown action 'jump'"):
        replay_script("setup\njump h1\n", "checkers", "checkers/2")
    with pytest.raises(NotationError, match="names no game"):
        replay_script("setup\n")
    with pytest.raises(NotationError, match="a replay names a shipped board"):
        replay_script("# ludus play x --board /etc/passwd --game checkers/2\nsetup\n")
    with pytest.raises(NotationError, match="record"):
        replay_record('{"start": 5}')
    with pytest.raises(NotationError, match="record"):
        replay_record("{not json")


def test_a_record_saved_from_the_table_replays_move_by_move():
    t = checkers_table()
    text = t.record()
    record = GameRecord.from_json(text)
    assert record.actions == ["h7-h16", "h112-h104", "h2-h29"]
    result = replay_record(text)
    steps = [resolved(result, k) for k in range(len(result["steps"]))]
    assert len(steps) == 4
    assert steps[0]["pieces"]["h7"] == ["red"] and "h16" not in steps[0]["pieces"]
    assert steps[1]["pieces"]["h16"] == ["red"] and "h7" not in steps[1]["pieces"]
    assert steps[1]["moves"] == ["h7-h16"] and steps[1]["log"] == ["Red moved from h7 to h16"]
    assert steps[3]["pieces"]["h29"] == ["red"] and steps[3]["moves"] == record.actions
    assert steps[3]["log"][-1] == "Red jumped from h2 to h29" and len(steps[3]["log"]) == 3


def test_a_script_replay_with_a_failed_expectation_shows_it():
    result = replay_script("setup\nmove h7 h16\nexpect turn 0\n", "checkers", "checkers/2")
    assert len(result["steps"]) == 4
    assert "expectation not met" in resolved(result, 3)["log"][-1]


# ---- the server ---------------------------------------------------------------------------------------


async def _client():
    client = TestClient(TestServer(make_app(Settings("checkers/2", seed=SEED))))
    await client.start_server()
    return client


def run(coro):
    return asyncio.run(coro)


async def answer(ws):
    """The next message that answers what the page sent: past the state and frame messages the
    table's clock pushes to every page whenever the table changed (its first beat pushes both to a
    page that connected before it), which may come between an action and its error."""
    while True:
        msg = await ws.receive_json(timeout=5)
        if msg["type"] not in ("state", "frame"):
            return msg


def test_the_server_serves_its_page_and_nothing_else():
    async def go():
        c = await _client()
        try:
            r = await c.get("/")
            assert r.status == 200 and '<svg id="board"' in await r.text()
            assert (await c.get("/static/sim.js")).status == 200
            r = await c.get("/favicon.ico")  # (the page's icon: no 404 in a browser's console)
            assert r.status == 200 and r.content_type == "image/svg+xml" and b"<svg" in await r.read()
            for bad in (
                "/static/../pyproject.toml",
                "/static/%2e%2e%2fpyproject.toml",
                "/static/sim.py",
                "/static/..%2f..%2fREADME.md",
                "/pyproject.toml",
            ):
                r = await c.get(bad)
                assert r.status == 404, bad
            r = await c.get("/api/boards/ludo52")
            assert r.status == 200 and (await r.json())["game"] == "ludo52"
            r = await c.get("/api/boards/..%2fpyproject")
            assert r.status == 404 and "no shipped board" in (await r.json())["error"]
            r = await c.get("/api/record")
            assert r.status == 409 and "no game has started" in (await r.json())["error"]
            r = await c.get("/api/script")
            assert r.status == 200 and "--board checkers" in await r.text()
        finally:
            await c.close()

    run(go())


def test_bad_replay_requests_get_messages():
    async def go():
        c = await _client()
        try:
            r = await c.post("/api/replay", data="garbage")
            assert r.status == 400 and "JSON" in (await r.json())["error"]
            r = await c.post("/api/replay", json={"script": "x"})
            assert r.status == 400 and '{"text"' in (await r.json())["error"]
            r = await c.post("/api/replay", json={"text": "setup\nfly\n"})
            assert r.status == 400 and "line 2" in (await r.json())["error"]
            r = await c.post("/api/replay", data=b"x" * (3 * 1024 * 1024))
            assert r.status == 413
            text = open(os.path.join(ROOT, "examples", "checkers-jump-chain.play")).read()
            r = await c.post("/api/replay", json={"text": text})
            body = await r.json()
            assert r.status == 200 and body["kind"] == "script" and len(body["steps"]) > 10
            assert (await c.get("/")).status == 200  # still serving
        finally:
            await c.close()

    run(go())


def test_the_socket_takes_actions_and_answers_bad_ones():
    async def go():
        c = await _client()
        try:
            ws = await c.ws_connect("/ws")
            hello = await ws.receive_json()
            assert hello["type"] == "hello" and hello["board"]["game"] == "checkers"
            assert "checkers/2" in hello["starts"]
            await ws.send_str("{nope")
            assert (await answer(ws))["type"] == "error"
            await ws.send_json({"do": "lift", "cell": "h60"})
            err = await answer(ws)
            assert err == {"type": "error", "message": "lift h60: there is no piece on h60"}
            await ws.send_bytes(b"\x00")
            err = await answer(ws)
            assert err["type"] == "error" and "JSON text" in err["message"]
            await ws.send_json({"do": "new", "game": "chess"})
            err = await answer(ws)
            assert err["type"] == "error" and "not one this page offers" in err["message"]
            await ws.send_json({"do": "speed", "value": 3})
            assert (await answer(ws))["type"] == "error"
            await ws.send_json({"do": "setup"})
            seen = None
            for _ in range(200):
                msg = await ws.receive_json(timeout=5)
                if msg["type"] == "state" and msg["phase"] == "play":
                    seen = msg
                    break
            assert seen is not None and seen["pieces"]["h7"] == ["red"]
            await ws.close()
            # a page that went away mid-game leaves the table and the server as they were
            ws = await c.ws_connect("/ws")
            assert (await ws.receive_json())["state"]["phase"] == "play"
            await ws.close()
        finally:
            await c.close()

    run(go())


# ---- the command --------------------------------------------------------------------------------------


def _start(args):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludus_host.cli", "sim", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    lines = [proc.stdout.readline()]
    return proc, lines


async def _ctrl_c_with_a_page_open(proc, url):
    # a page's socket open, as a browser keeps it: Ctrl-C stops the server at once all the same
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url + "ws") as ws:
            assert (await ws.receive_json())["type"] == "hello"
            proc.send_signal(signal.SIGINT)
            began = time.monotonic()
            async for _ in ws:  # (until the server closes it)
                pass
            while proc.poll() is None and time.monotonic() - began < 15:
                await asyncio.sleep(0.05)
            return time.monotonic() - began


def test_ludus_sim_starts_on_a_free_port_when_its_own_is_taken():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    proc, lines = _start(["--port", str(port), "--game", "ludo/classic/4"])
    try:
        assert lines[0].startswith("Ludus simulator: http://127.0.0.1:")
        url = lines[0].split()[2]
        assert not url.endswith(":%d/" % port)
        assert "was taken" in proc.stdout.readline()
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200
        with urllib.request.urlopen(url + "api/script", timeout=10) as r:
            assert "--game ludo/classic/4" in r.read().decode()
        stopped_in = run(_ctrl_c_with_a_page_open(proc, url))
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=20)
        taken.close()
    assert stopped_in < 5, "Ctrl-C took %.1f s with a page open" % stopped_in
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_ludus_sim_refuses_bad_options_with_a_message():
    r = subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", "sim", "--no-browser", "--host", "no-such-host.invalid"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "ludus sim: --host no-such-host.invalid" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", "sim", "--seed", "abc"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "--seed: 64 hex digits" in r.stderr


def test_ludus_sim_pico_without_node_or_the_uf2_says_so_in_one_line(tmp_path):
    # Before anything is compiled or served: one line on stderr naming what is missing, no traceback
    def sim_pico(**env):
        return subprocess.run(
            [sys.executable, "-m", "ludus_host.cli", "sim", "--pico", "--no-browser", "--port", "0"],
            capture_output=True,
            text=True,
            timeout=120,
            env=dict(os.environ, **env),
        )

    no_uf2 = tmp_path / "empty"
    no_uf2.mkdir()
    r = sim_pico(LUDUS_PICO_DIR=str(no_uf2))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith("ludus sim: the emulated Pico needs MicroPython's UF2")
    assert str(no_uf2 / "RPI_PICO-v1.28.0.uf2") in r.stderr and "LUDUS_PICO_DIR" in r.stderr
    assert r.stdout == ""  # nothing compiled, no server
    # the UF2 and the bootrom there (as files: they are not read before Node.js is found), Node.js not
    pico = tmp_path / "pico"
    (pico / "emulator").mkdir(parents=True)
    (pico / "RPI_PICO-v1.28.0.uf2").write_bytes(b"")
    (pico / "emulator" / "bootrom.bin").write_bytes(b"")
    r = sim_pico(LUDUS_PICO_DIR=str(pico), PATH=str(no_uf2))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [
        "ludus sim: the emulated Pico needs Node.js and npm (Debian: apt install nodejs npm)"
    ]
    assert r.stdout == ""


# ---- mirrors ------------------------------------------------------------------------------------------


class FakeLink:
    """A board's USB link as ludus_host.link.client.Link gives it: lines in a queue, lines sent kept."""

    def __init__(self, lines):
        import queue

        self.lines = queue.Queue()
        for line in lines:
            self.lines.put(line if isinstance(line, str) else json.dumps(line))
        self.sent = []

    def send(self, line):
        self.sent.append(json.loads(line))

    def close(self):
        pass


def test_a_mirror_shows_what_the_board_says():
    from ludus_host.sim.mirror import DeviceMirror

    board = load_board("ludo52")
    frame = bytearray(3 * board.led_count)
    frame[3 * 104 : 3 * 104 + 3] = b"\x80\x00\x00"  # the green turn LED, G R B
    levels = [0] * board.channel_count
    for cell in ("green.base.0", "green.base.1", "green.base.2", "t3", "red.base.0"):
        levels[board.channel_of_cell[board.cell_ids.index(cell)]] = 1
    pos = "ludo classic seats=gr turn=g rolls=- g=t3,base,base,base r=base,base,base,base"
    record = json.dumps({"start": "ludo/classic/2", "actions": ["roll 6", "6 green.0 base-t0", "roll 3"]})
    link = FakeLink(
        [
            "MicroPython noise that is not JSON",
            {"event": "boot", "protocol": 1, "firmware": "0.1.0", "micropython": "1.28.0", "free": 1},
            {"reply": "hello", "id": "sim-hello", "ok": True, "board": "ludo52", "game": "ludo/classic/2"},
            {"event": "roll", "seat": 0, "value": 3},
            {
                "reply": "state",
                "id": "sim",
                "ok": True,
                "referee": {"phase": "play", "situation": "idle", "turn": 0},
                "position": pos,
                "actions": 3,
                "commitment": "ab" * 32,
            },
            {"reply": "journal", "id": "sim", "ok": True, "state": {"record": record}},
            {"reply": "frame", "id": "sim", "ok": True, "grb": frame.hex()},
            {"reply": "levels", "id": "sim", "ok": True, "levels": levels},
            {"reply": "frame", "id": "sim", "ok": True, "grb": "zz"},  # garbage: the last good frame stays
        ]
    )
    m = DeviceMirror("fake", link=link)
    m.advance()
    st = m.state()
    assert st["mirror"] == "device" and st["board"] == "ludo52"
    assert [text for _, text in st["log"]][:2] == [
        "board started: firmware 0.1.0 on MicroPython 1.28.0, protocol 1, 1 bytes free",
        "Green threw a 3",
    ]
    assert st["phase"] == "play" and st["turn"] == "green" and st["commitment"] == "ab" * 32
    assert st["moves"] == ["roll 6", "6 green.0 base-t0", "roll 3"]
    assert st["pieces"] == {
        "green.base.0": ["green"],
        "green.base.1": ["green"],
        "green.base.2": ["green"],
        "t3": ["green"],
        "red.base.0": ["red"],
    }
    assert bytes(m.render()) == bytes(frame)
    asked = [c["cmd"] for c in link.sent]
    assert asked[0] == "hello" and {"state", "journal", "frame", "levels"} <= set(asked)
    with pytest.raises(NotationError, match="move the pieces on the board itself"):
        m.act({"do": "lift", "cell": "t3"})
    with pytest.raises(NotationError, match="ludus monitor fake --games"):
        m.record()


def test_a_mirror_of_a_board_that_does_not_answer_says_so():
    from ludus_host.sim.mirror import DeviceMirror, MirrorError

    with pytest.raises(MirrorError, match="link closed before it said hello"):
        DeviceMirror("fake", link=_closed())
    with pytest.raises(MirrorError, match="not a board this simulator knows"):
        DeviceMirror("fake", link=FakeLink([{"reply": "hello", "ok": True, "board": "chess", "game": "x"}]))


def _closed():
    link = FakeLink([])
    link.lines.put(None)
    return link


@pytest.mark.slow
def test_a_mirror_of_the_firmware_on_the_unix_port(tmp_path):
    from ludus_host.sim.mirror import DeviceMirror
    from tools import tool

    config = tmp_path / "config.json"
    config.write_text(json.dumps({"board": "checkers", "game": "checkers"}))
    tree = tmp_path / "tree"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "ludus_host.cli",
            "flash",
            "--stage",
            str(tree),
            "--march",
            "x64",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    port = "exec:%s -X heapsize=512K %s %s" % (
        tool("micropython"),
        os.path.join(ROOT, "tests", "unix_board.py"),
        tree,
    )
    m = DeviceMirror(port)
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end:
            m.advance()
            st = m.state()
            if any("self-test passed" in t for _, t in st["log"]) and m.shown.frames:
                break
            time.sleep(0.05)
        st = m.state()
        assert any("self-test passed: 127 LEDs, 128 sensors" in t for _, t in st["log"]), st["log"]
        assert st["board"] == "checkers" and st["phase"] == "setup" and st["pieces"] == {}
        assert m.shown.frames and bytes(m.render()) == bytes(3 * 127)  # an empty board in setup: dark
    finally:
        m.close()


def test_a_dice_game_to_its_end_reveals_the_seed_and_verifies():
    t = LiveTable("ludo/classic/2", seed=SEED)
    t.act(
        {
            "do": "start",
            "position": "ludo classic seats=gr turn=g rolls=- g=home,home,home,c3 r=home,home,home,c3",
        }
    )
    t.advance(t.now + 100)
    commitment = t.state()["commitment"]
    assert commitment and t.state()["seed"] is None  # the seed stays secret while the game is on
    for _ in range(300):
        if t.state()["phase"] == "over":
            break
        game = t.referee.game
        if game.awaiting_roll():
            press(t)
            continue
        carry_out(t, str(game.legal_moves()[0]))
    st = t.state()
    assert st["phase"] == "over", st["log"][-3:]
    assert st["seed"] and st["commitment"] == commitment
    assert st["verified"].startswith("verified: ") and "agree with the seed" in st["verified"]
    assert any(
        text.startswith("Green wins. Places: 1. Green") or text.startswith("Red wins. Places: 1. Red")
        for _, text in st["log"]
    )
    record = GameRecord.from_json(t.record())
    assert record.verify() == [] and record.seed_sha256 == commitment


@pytest.mark.slow
def test_ludus_bench_sim_prints_its_figures(tmp_path):
    out = tmp_path / "sim.json"
    r = subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", "bench", "--sim", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "action -> state over the WebSocket: median" in r.stdout
    figures = json.loads(out.read_text())
    assert figures["replay_steps"] == 16
    assert 0 < figures["beat_median_us"] <= figures["beat_worst_us"]
    assert 0 < figures["action_to_state_median_ms"] <= figures["action_to_state_worst_ms"]


@pytest.mark.parametrize("preset", [p for p, _ in GAMES])
def test_every_game_the_page_offers_sets_up_and_starts_on_its_board(preset):
    from ludus_host.sim.table import board_for

    t = LiveTable(preset, seed=SEED)
    assert t.board_name == board_for(preset)
    t.act({"do": "setup"})
    t.advance(t.now + 600)
    st = t.state()
    assert st["phase"] == "play" and st["log"][-1][1].startswith("New game: ")
    # every piece of the start is on the board, and the game has exactly those
    assert sum(len(v) for v in st["pieces"].values()) == sum(counts_of(t.referee.game)) >= 12


def test_a_review_found_these_and_they_stay_fixed():
    async def go():
        c = await _client()
        try:
            # another site's page may neither open the socket nor post a replay
            r = await c.post(
                "/api/replay", json={"text": "setup\n"}, headers={"Origin": "http://evil.example"}
            )
            assert r.status == 403 and "another site's page" in (await r.json())["error"]
            r = await c.get("/ws", headers={"Origin": "http://evil.example"})
            assert r.status == 403
            # JSON nested deeper than the parser goes: a message, not a traceback
            deep = "[" * 30000 + "]" * 30000
            r = await c.post("/api/replay", data=deep)
            assert r.status == 400 and "nested too deeply" in (await r.json())["error"]
            ws = await c.ws_connect("/ws")
            await ws.receive_json()
            await ws.send_str(deep)
            err = await answer(ws)
            assert err["type"] == "error" and "nested too deeply" in err["message"]
            # a flicker that would keep the simulator from skipping quiet time is refused
            r = await c.post("/api/replay", json={"text": "setup\nflicker h0 10000000\nwait 10000000\n"})
            assert r.status == 400 and "at most 10000 ms" in (await r.json())["error"]
            r = await c.post(
                "/api/replay", json={"text": "# ludus play x --game checkers/2 --seed xyz\nsetup\n"}
            )
            assert r.status == 400 and "--seed 'xyz': 64 hex digits" in (await r.json())["error"]
            # a header naming only the game replays on that game's board
            r = await c.post("/api/replay", json={"text": "# ludus play x --game ludo/classic/4\nsetup\n"})
            assert r.status == 200 and (await r.json())["board"] == "ludo52"
            await ws.send_json({"do": "speed", "value": True})
            err = await answer(ws)
            assert err["type"] == "error" and "speed: one of" in err["message"]
            # a page that goes away holding the die button lets it go
            await ws.send_json({"do": "button", "down": True})
            await asyncio.sleep(0.1)
            await ws.close()
            for _ in range(50):
                if not c.app[HUB].table.state()["button_down"]:
                    break
                await asyncio.sleep(0.05)
            assert not c.app[HUB].table.state()["button_down"]
        finally:
            await c.close()

    run(go())


def test_games_without_a_seed_draw_fresh_ones_and_the_script_keeps_the_rolls():
    pos = "ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t30,base,base,base"
    t = LiveTable("ludo/classic/2")
    commitments = set()
    for _ in range(3):
        t.act({"do": "start", "position": pos})
        t.advance(t.now + 50)
        commitments.add(t.state()["commitment"])
    assert len(commitments) == 3  # a revealed seed never predicts the next game's dice
    press(t)
    rolled = t.referee.record.actions[-1]
    script = t.script()
    assert "--seed" not in script and "\ndie %s\npress" % rolled.split()[1] in script
    board = load_board("ludo52")
    items = list(Simulator(board, "ludo/classic/2", frames="none").run(parse_script(script, board)))
    assert items[-1]["actions"][-1] == rolled


def test_a_mirror_takes_no_harm_from_a_board_that_says_nonsense():
    from ludus_host.sim.mirror import DeviceMirror

    link = FakeLink(
        [
            {"reply": "hello", "id": "sim-hello", "ok": True, "board": "ludo52", "game": "ludo/classic/2"},
            {"reply": "state", "ok": True, "referee": [1, 2], "position": 7, "commitment": {"a": 1}},
            {"reply": "journal", "ok": True, "state": {"record": 5}},
            {"reply": "journal", "ok": True, "state": {"record": "[" * 5000}},
            {"event": "confirm", "moves": 7},
            {"event": "roll", "seat": "x"},
            {"reply": "levels", "ok": True, "levels": "nope"},
        ]
    )
    m = DeviceMirror("fake", link=link)
    m.advance()
    st = m.state()
    assert st["phase"] == "setup" and st["turn"] is None and st["moves"] == [] and st["pieces"] == {}
    assert any("cannot read" in text for _, text in st["log"])


def test_a_mirror_of_a_board_that_names_no_game_says_so():
    from ludus_host.sim.mirror import DeviceMirror, MirrorError

    for game in (None, 5):
        hello = {"reply": "hello", "id": "sim-hello", "ok": True, "board": "ludo52"}
        link = FakeLink([hello if game is None else dict(hello, game=game)])
        with pytest.raises(MirrorError, match="the board says it plays %r" % (game,)):
            DeviceMirror("fake", link=link)


def test_a_mirror_whose_board_goes_away_says_so_and_goes_on():
    from ludus_host.sim.mirror import DeviceMirror

    link = FakeLink(
        [{"reply": "hello", "id": "sim-hello", "ok": True, "board": "ludo52", "game": "ludo/classic/2"}]
    )
    link.generation = 1  # the port's openings, as link.client.Link counts them
    link.lines.put(None)  # the board's link closed
    m = DeviceMirror("fake", link=link)
    for _ in range(3):
        m.advance()
    log = [text for _, text in m.state()["log"]]
    assert log.count("the board's link closed") == 1 and not any("port is back" in text for text in log)
    assert "the board's link is closed" in log[-1]  # (asking it for its frame)


def test_bots_play_a_whole_checkers_game_on_the_table_and_the_script_replays_it():
    t = LiveTable("checkers/2", seed=SEED)
    t.act({"do": "bots", "bots": {"0": "strong", "1": "greedy"}})
    t.act({"do": "setup"})
    t.advance(t.now + 500)
    chosen = bots_play_out(t, 400)
    st = t.state()
    assert st["phase"] == "over" and st["bots"] == {"0": "strong", "1": "greedy"}
    assert st["verified"] == "verified: the record replays, %d moves, all legal" % len(st["moves"])
    assert st["moves"] == chosen  # the referee accepted exactly each bot's move
    assert any("(strong bot) chose" in text for _, text in st["log"])
    # the bots come back on a replay of the saved script: the same moves, the same end
    script = t.script()
    assert "bots 0=strong 1=greedy" in script
    replay = replay_script(script, board=t.board_name, game=t.preset)
    assert resolved(replay, len(replay["steps"]) - 1)["moves"] == st["moves"]


def test_bots_play_a_whole_ludo_game_and_its_record_verifies():
    t = LiveTable("ludo/classic/2", seed=SEED)
    t.act({"do": "bots", "bots": {"green": "strong", "red": "preferred"}})
    t.act({"do": "setup"})
    t.advance(t.now + 500)
    chosen = bots_play_out(t, 3000)
    st = t.state()
    assert st["phase"] == "over", st["log"][-3:]
    played = [m for m in st["moves"] if not m.startswith("roll")]
    assert played == chosen
    assert st["verified"].startswith("verified: ")
    assert GameRecord.from_json(t.record()).verify() == []


def test_bad_bots_are_named_and_change_nothing():
    t = LiveTable("ludo/classic/4", seed=SEED)
    for bots, words in (
        ({"purple": "strong"}, "'purple' is not a seat"),
        ({"red": "greedy"}, "red's level 'greedy' is not one of random, preferred, strong"),
        ("red", "bots: give"),
    ):
        with pytest.raises(NotationError) as exc:
            t.act({"do": "bots", "bots": bots})
        assert words in str(exc.value)
    assert t.state()["bots"] == {} and t.referee.bots is None


def test_a_play_script_names_bad_bots_lines():
    board = load_board("ludo52")
    with pytest.raises(NotationError, match="line 2: bots: 'red': expected SEAT=LEVEL"):
        parse_script("setup\nbots red\n", board)
    sim = Simulator(board, "ludo/classic/4", seed=SEED, frames="none")
    with pytest.raises(NotationError, match="'purple' is not a seat"):
        list(sim.run(parse_script("bots purple=strong\n", board)))
    assert sim.bots == {}


def test_a_token_put_on_a_full_home_slot_goes_into_a_free_one():
    # three tokens home: green's last token, dropped on a full slot, lands in the free one and finishes
    t = LiveTable("ludo/classic/2", seed=SEED)
    pos = "ludo classic seats=gr turn=g rolls=2 g=home,home,home,c3 r=t5,base,base,base"
    t.act({"do": "start", "position": pos})
    t.advance(t.now + 300)
    full = [
        c
        for c in ("green.home.0", "green.home.1", "green.home.2", "green.home.3")
        if c in t.state()["pieces"]
    ]
    assert len(full) == 3
    t.act({"do": "lift", "cell": "green.c3"})
    t.advance(t.now + 300)
    lit = {name for _, name, meaning, _ in t.state()["lit"] if meaning == "destination"}
    assert lit and not lit & set(full)  # only the free slot is lit (the firmware's scene)
    t.act({"do": "place", "cell": full[0]})
    t.advance(t.now + 600)
    st = t.state()
    assert st["moves"][-1] == "2 green.3 c3-home" and st["situation"] != "moving"
    assert all(st["pieces"].get("green.home.%d" % k) == ["green"] for k in range(4))


def test_the_pages_sounds_are_the_piezos_cues():
    # the page sounds a cue for the events the firmware's loop sounds one for, with the piezo's notes
    from types import SimpleNamespace

    from ludus.app import App
    from ludus_host.sim.server import cue_notes
    from ludus_host.sim.table import CUES

    played = []
    fake = SimpleNamespace(buzzer=SimpleNamespace(play=lambda cue, now: played.append(list(cue))))
    names = ["roll", "move", "pass", "illegal", "mismatch", "refused", "resume", "undo", "game_over", "bot"]
    for name in names:
        del played[:]
        App._cue(fake, {"event": name}, 0)
        assert played == ([cue_notes()[CUES[name]]] if name in CUES else []), name
    assert sorted(CUES) == ["illegal", "move", "refused"]


def test_the_words_are_plain_and_leave_out_what_is_not_there():
    from types import SimpleNamespace

    from ludus_host.link.words import describe
    from ludus_host.sim.table import verified_words

    mismatch = describe({"event": "mismatch", "missing": ["t5"], "unexpected": []})
    assert mismatch == "The pieces differ from the game: a piece is missing on t5"
    both = describe({"event": "mismatch", "missing": ["t5", "t9"], "unexpected": ["t7"]})
    assert both.endswith("a piece is missing on t5 and t9; a piece is not expected on t7")

    def record(rolls, moves):
        return SimpleNamespace(verify=lambda: [], counts=lambda: (rolls, moves))

    assert verified_words(record(0, 1), dice=False) == "verified: the record replays, 1 move, all legal"
    assert verified_words(record(1, 1), dice=True).startswith(
        "verified: 1 roll and 1 move agree with the seed"
    )
    assert verified_words(record(12, 10), dice=True).startswith("verified: 12 rolls and 10 moves agree")
    bad = SimpleNamespace(verify=lambda: ["roll #1 differs"], counts=lambda: (1, 0))
    assert verified_words(bad, dice=True) == "the record does NOT verify: roll #1 differs"


def test_the_prompt_names_a_base_or_a_home_as_players_say_it():
    # a token lifted from its base with a 3 (no way out): back into "Green's base", not "green.base"
    t = LiveTable("ludo/classic/4", seed=SEED)
    t.act(
        {
            "do": "start",
            "position": "ludo classic seats=gr turn=g rolls=3 g=t2,base,base,base r=t30,base,base,base",
        }
    )
    t.advance(t.now + 1000)
    t.act({"do": "lift", "cell": "green.base.1"})
    t.advance(t.now + 1000)
    st = t.state()
    assert (
        st["situation"] == "mismatch"
        and st["prompt"] == "No move for this piece: put it back in Green's base"
    )
    # a piece from the box on t20 and red's token off t30: both named, each with its own word
    t.act({"do": "place", "cell": "green.base.1"})
    t.act({"do": "place", "cell": "t20", "colour": "blue"})
    t.act({"do": "lift", "cell": "t30"})
    t.advance(t.now + 1000)
    assert t.state()["prompt"] == "Put the pieces as the game has them: a piece on t30; none on t20"
    from ludus_host.link.words import describe

    said = describe({"event": "mismatch", "missing": ["t5", "red.base"], "unexpected": ["green.home"]})
    assert said == (
        "The pieces differ from the game: a piece is missing on t5 and in Red's base; a piece is not"
        " expected in Green's home"
    )
    illegal = describe({"event": "illegal", "missing": ["green.base"], "unexpected": ["t9"], "reason": "no"})
    assert illegal == "Not allowed, Green's base to t9: no. Put it back in Green's base"


def test_the_table_says_which_seats_the_board_plays_at_which_level_and_lights_it():
    position = "ludo classic seats=gr turn=r rolls=- g=t2,base,base,base r=t30,base,base,base"
    levels = (("random", "1 light pulses"), ("preferred", "2 lights pulse"), ("strong", "3 lights pulse"))
    for level, lights in levels:
        t = LiveTable("ludo/classic/2", seed=SEED)
        t.act({"do": "start", "position": position})
        t.act({"do": "bots", "bots": {"red": level}})
        t.advance(t.now + 100)
        st = t.state()
        assert st["turn_bot"] == "The board plays this seat at %s (%s on its base)" % (level, lights)
        assert st["prompt"] == "Red (%s bot) is thinking" % level
        level_lit = [name for _, name, meaning, colour in st["lit"] if meaning == "turn" and colour == "red"]
        assert len([n for n in level_lit if n.startswith("red.base.")]) == int(lights[0]), st["lit"]
    # a person's seat to act: no words of the board playing it, no level on its base
    t = LiveTable("ludo/classic/2", seed=SEED)
    t.act({"do": "start", "position": position.replace("turn=r", "turn=g")})
    t.act({"do": "bots", "bots": {"red": "strong"}})
    t.advance(t.now + 100)
    st = t.state()
    assert st["turn_bot"] is None and "board plays" not in st["prompt"]
    assert not [name for _, name, meaning, _ in st["lit"] if name.startswith(("red.base.", "green.base."))]


def test_the_words_of_each_level_say_its_lights():
    from ludus_host.virtual.words import level_lights

    assert level_lights("ludo", "strong") == "3 lights pulse on its base"
    assert level_lights("checkers", "greedy") == "2 lights pulse on its point"
    assert level_lights("checkers", "random") == "1 light pulses on its point"

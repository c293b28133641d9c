"""The simulator's server against pages and requests that would wear it down (issue 39): a page that
stops reading, replays that would run for minutes, a page served under another site's name, pages
that vanish while their replies go out, messages over the size limit, and `ludus sim --host 0.0.0.0`."""

import asyncio
import base64
import itertools
import json
import os
import socket
import struct
import subprocess
import sys
import time
import urllib.request

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from ludus_host.sim import server as sim_server
from ludus_host.sim.server import HUB, MAX_MESSAGE, Settings, make_app
from ludus_host.sim.table import Budget, ReplayStopped, replay_record, replay_script
from tools import ROOT, ctrl_c_as_at_a_terminal

pytestmark = pytest.mark.cpython_only
SEED = "00" * 32
# a replay inside every limit (120 KB, 4,991 actions, flickers of 10 s) that takes minutes of work
HEAVY = "setup\n" + "flicker h0 10000 @10000\n" * 4990


def _handshake(port, rcvbuf=None, host=None):
    """A WebSocket opened by hand on /ws (a raw socket: a page that reads only when told to)."""
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            "GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
            % (host or "127.0.0.1:%d" % port, key)
        ).encode()
    )
    return s


def _frame(text):
    # a client's masked text frame (payload under 126 bytes)
    data = text.encode()
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def longest_silence(began, heard):
    """The longest time without a message from `began` to now (heard: the times messages came)."""
    marks = [began, *(t for t in heard if t >= began), time.monotonic()]
    return max(b - a for a, b in itertools.pairwise(marks))


def _busy_app():
    """A server whose table has a full log (400 lines): every state a page is sent is about 37 KB."""
    app = make_app(Settings("checkers/2", seed=SEED, settle_ms=0))
    hub = app[HUB]
    t = hub.table
    t.act({"do": "setup"})
    t.advance(t.now + 100)
    for _ in range(200):  # an illegal placement put back: two lines of the log each time
        for a, b in (("h7", "h60"), ("h60", "h7")):
            t.act({"do": "lift", "cell": a})
            t.act({"do": "place", "cell": b})
            t.advance(t.now + 40)
    hub._rebase()  # (the clock goes on from the table's time)
    assert len(json.dumps(t.state())) > 30000
    return app


def test_a_page_that_stops_reading_holds_up_no_other_page(monkeypatch):
    # one page reads nothing (a 4 KB receive buffer, never read); another makes 600 changes, each a
    # 37 KB state for every page; a third reads: it must hear the table all along and see its last
    # change, and the page that reads nothing is dropped once a message has waited SEND_S for it
    # (before: the third page heard nothing once the silent page's buffers were full, ~3 MB in, and
    # never again)
    monkeypatch.setattr(sim_server, "SEND_S", 2.0)  # (10 s in use: the test stays short)

    async def go():
        app = _busy_app()
        server = TestServer(app, port=0)
        await server.start_server()
        hub = app[HUB]
        silent = _handshake(server.port, rcvbuf=4096)
        try:
            async with aiohttp.ClientSession() as session:
                url = "http://127.0.0.1:%d/ws" % server.port
                actor = await session.ws_connect(url)
                watcher = await session.ws_connect(url)
                await actor.receive_json()
                await watcher.receive_json()
                heard = []
                last = {}

                async def watch():
                    async for msg in watcher:
                        heard.append(time.monotonic())
                        item = json.loads(msg.data)
                        if item["type"] == "state":
                            last.update(item)
                            if item["names"] and "at" not in last:
                                last["at"] = time.monotonic()

                async def drain():
                    async for _ in actor:
                        pass

                tasks = [asyncio.ensure_future(watch()), asyncio.ensure_future(drain())]
                began = time.monotonic()
                for k in range(600):
                    await actor.send_json({"do": "lift" if k % 2 == 0 else "place", "cell": "h7"})
                await actor.send_json({"do": "names", "names": {"0": "Last"}})  # (the last change)
                while time.monotonic() - began < 10 and (
                    len(hub.pages) > 2 or last.get("names") != {"0": "Last"}
                ):
                    await asyncio.sleep(0.05)
                seen = time.monotonic() - began
                silence = longest_silence(began, heard)
                for task in tasks:
                    task.cancel()
                print(
                    "the reading page saw the last of 600 changes after %.2f s, longest silence %.2f s;"
                    " the silent page dropped after %.2f s"
                    % (last.get("at", began + 99) - began, silence, seen)
                )
                assert last.get("names") == {"0": "Last"}, "the last change never reached the reading page"
                assert last["pieces"]["h7"] == ["red"] and last["hand"] == []
                assert silence < 1.0, "the reading page heard nothing for %.1f s" % silence
                assert len(hub.pages) == 2, "the page that reads nothing is still served"
        finally:
            silent.close()
            await server.close()

    asyncio.run(go())


def test_a_page_that_answers_no_ping_is_closed(monkeypatch):
    # nothing changes on the table, so nothing waits for the silent page: the heartbeat finds it
    monkeypatch.setattr(sim_server, "HEARTBEAT_S", 1.0)  # (20 s in use)

    async def go():
        app = make_app(Settings("checkers/2", seed=SEED))
        server = TestServer(app, port=0)
        await server.start_server()
        silent = _handshake(server.port, rcvbuf=4096)
        try:
            began = time.monotonic()
            while not app[HUB].pages and time.monotonic() - began < 5:
                await asyncio.sleep(0.05)
            assert app[HUB].pages
            while app[HUB].pages and time.monotonic() - began < 5:
                await asyncio.sleep(0.05)
            assert not app[HUB].pages and time.monotonic() - began < 3
        finally:
            silent.close()
            await server.close()

    asyncio.run(go())


def test_a_heavy_replay_is_stopped_and_the_table_goes_on_meanwhile():
    # the heavy script needs minutes of work: it is stopped after its budget, named; 8 at once are
    # taken one at a time with at most 2 waiting (the rest told to come back), and meanwhile a new
    # page gets its hello at once and the table's clock keeps running (before: no hello, no beat,
    # no answer for minutes: each waiting replay held a thread the clock needed)
    budget = sim_server.Budget
    sim_server.Budget = lambda: budget(1.0)  # (the same bound, shorter: the test stays short)

    async def go():
        app = make_app(Settings("checkers/2", seed=SEED, settle_ms=0))
        client = TestClient(TestServer(app))
        await client.start_server()
        try:
            watcher = await client.ws_connect("/ws")
            await watcher.receive_json()
            heard = []

            async def watch():
                async for _ in watcher:
                    heard.append(time.monotonic())

            async def post():
                r = await client.post("/api/replay", json={"text": HEAVY})
                return r.status, (await r.json())["error"]

            watching = asyncio.ensure_future(watch())
            began = time.monotonic()
            posts = [asyncio.ensure_future(post()) for _ in range(8)]
            await asyncio.sleep(0.3)
            page = await client.ws_connect("/ws")
            hello = await page.receive_json(timeout=2)
            hello_s = time.monotonic() - began - 0.3
            assert hello["type"] == "hello"
            await page.send_json({"do": "setup"})  # the table takes actions meanwhile
            answers = await asyncio.wait_for(asyncio.gather(*posts), 30)
            took = time.monotonic() - began
            silence = longest_silence(began, heard)
            watching.cancel()
            print(
                "hello after %.2f s; replays answered in %.1f s: %s; longest silence %.2f s"
                % (hello_s, took, [a[0] for a in answers], silence)
            )
            stopped = [why for status, why in answers if status == 503 and "took more than 1 s" in why]
            busy = [why for status, why in answers if status == 503 and "busy" in why]
            assert len(stopped) == 3 and len(busy) == 5, answers  # one running, two waiting
            assert "stopped at line" in stopped[0]
            assert took < 10 and silence < 1.0
            assert hello_s < 1.0
            await page.close()
            await watcher.close()
        finally:
            await client.close()

    try:
        asyncio.run(go())
    finally:
        sim_server.Budget = budget


def test_a_replay_stops_when_its_budget_is_spent_or_cancelled():
    budget = Budget(0.5)
    began = time.monotonic()
    with pytest.raises(ReplayStopped, match=r"stopped at line \d+: it took more than 0.5 s"):
        replay_script(HEAVY, "checkers", "checkers/2", budget)
    assert time.monotonic() - began < 2
    budget = Budget()
    budget.cancel()
    with pytest.raises(ReplayStopped, match="its page went away"):
        replay_record('{"start": "checkers/2"}', budget)
    # a real game replays well inside the budget
    text = open(os.path.join(ROOT, "examples", "checkers-jump-chain.play")).read()
    began = time.monotonic()
    assert len(replay_script(text, budget=Budget())["steps"]) > 10
    assert time.monotonic() - began < 2


def test_a_replay_whose_page_goes_away_is_cancelled():
    # the page posts the heavy replay and closes its connection: the replay stops at its next tick,
    # and the next replay starts at once (before: it ran to its end, minutes, holding the queue)
    async def go():
        app = make_app(Settings("checkers/2", seed=SEED))
        server = TestServer(app, port=0)
        await server.start_server()
        try:
            body = json.dumps({"text": HEAVY}).encode()
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(
                b"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % (server.port, len(body)) + body
            )
            await asyncio.sleep(0.5)
            assert app[HUB].replays == 1
            s.close()
            began = time.monotonic()
            async with aiohttp.ClientSession() as session:
                short = "setup\nmove h7 h16\n"
                async with session.post(
                    "http://127.0.0.1:%d/api/replay" % server.port, json={"text": short}
                ) as r:
                    assert r.status == 200 and len((await r.json())["steps"]) == 3
            took = time.monotonic() - began
            print("the next replay answered %.2f s after the page went away" % took)
            assert took < 2
        finally:
            await server.close()

    asyncio.run(go())


def test_only_the_names_it_serves_are_answered():
    # DNS rebinding: a site's name pointed at 127.0.0.1 gets the page's origin right, but not the Host
    async def go():
        client = TestClient(TestServer(make_app(Settings("checkers/2", seed=SEED))))
        await client.start_server()
        port = client.port
        try:
            for host in ("evil.example:%d" % port, "evil.example", "127.0.0.1.evil.example", "[::2]:1"):
                headers = {"Host": host, "Origin": "http://%s" % host}
                for method, path in (
                    ("GET", "/"),
                    ("GET", "/ws"),
                    ("POST", "/api/replay"),
                    ("GET", "/api/script"),
                ):
                    r = await client.request(method, path, headers=headers, json={"text": "setup\n"})
                    assert r.status == 403, (host, path)
                    assert "answers to" in (await r.json())["error"]
            for host in ("127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port, "LOCALHOST"):
                r = await client.get("/", headers={"Host": host})
                assert r.status == 200, host
                r = await client.post(
                    "/api/replay",
                    json={"text": "setup\n"},
                    headers={"Host": host, "Origin": "http://" + host},
                )
                assert r.status == 200, host
        finally:
            await client.close()

    asyncio.run(go())
    names = sim_server.served_names("0.0.0.0")
    assert {"localhost", "127.0.0.1", "::1", socket.gethostname().lower()} <= names
    assert sim_server.served_names("studio.local") == {"localhost", "127.0.0.1", "::1", "studio.local"}


def test_pages_that_vanish_while_replies_go_out_leave_no_traceback(tmp_path):
    # 30 pages each send 300 bad actions to `ludus sim` and are gone (a reset) while the replies go
    # out: the server says nothing on stderr and goes on serving (before: a "Cannot write to closing
    # transport" traceback on stderr for nearly every page)
    with open(tmp_path / "err", "w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ludus_host.cli", "sim", "--no-browser", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
            preexec_fn=ctrl_c_as_at_a_terminal,
        )
    try:
        url = proc.stdout.readline().split()[2]
        port = int(url.rsplit(":", 1)[1].strip("/"))
        for _ in range(30):
            s = _handshake(port)
            s.settimeout(5)
            assert s.recv(65536).startswith(b"HTTP/1.1 101")
            s.sendall(_frame('{"do": "lift", "cell": "h60"}') * 300)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()  # (a reset: whatever the server writes next finds a closing transport)
        time.sleep(1.0)
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200
    finally:
        proc.send_signal(2)
        proc.communicate(timeout=20)
    said = (tmp_path / "err").read_text()
    assert "Traceback" not in said and "Cannot write" not in said, said[-3000:]


def test_a_message_over_the_limit_closes_the_connection_with_1009():
    # (docs/bad-input.md and docs/simulator.md say so: the page connects again)
    async def go():
        client = TestClient(TestServer(make_app(Settings("checkers/2", seed=SEED))))
        await client.start_server()
        try:
            ws = await client.ws_connect("/ws")
            await ws.receive_json()
            await ws.send_str("x" * (MAX_MESSAGE + 1))
            while True:
                msg = await ws.receive(timeout=5)
                if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                    break
            assert ws.close_code == 1009
            ws = await client.ws_connect("/ws")  # the next connection is served
            assert (await ws.receive_json())["type"] == "hello"
            await ws.close()
        finally:
            await client.close()

    asyncio.run(go())


def test_ludus_sim_on_every_address_warns_and_prints_an_address_others_can_use():
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludus_host.cli", "sim", "--no-browser", "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("Ludus simulator: http://"), line
        url = line.split()[2]
        host = url.split("//")[1].rsplit(":", 1)[0]
        assert host not in ("0.0.0.0", "[::]"), line
        with urllib.request.urlopen(url, timeout=10) as r:  # the address printed answers, Host and all
            assert r.status == 200
    finally:
        proc.send_signal(2)
        _out, err = proc.communicate(timeout=20)
    assert "warning" in err and "any machine" in err and "Traceback" not in err, err

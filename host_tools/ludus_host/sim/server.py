"""The simulator's web server (aiohttp): the page and its files, one WebSocket per open page carrying the
table's state and LED frames out and the player's actions in, and small HTTP calls for saving and
replaying. One table is shared by every page open on it, as one board is shared by everyone at it.

    app = make_app(Settings(preset="ludo/classic/4"))
    web.run_app(app, host="127.0.0.1", port=8765)

Every request that cannot be served gets a message naming the problem (a JSON {"error": ...} or a
WebSocket {"type": "error"}) and the server goes on; files are served from the page's own folder only."""

import asyncio
import collections
import ipaddress
import json
import logging
import socket as sockets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any, Protocol
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Handler
from ludus.config import BOT_LEVELS
from ludus.errors import LudusError
from ludus.hw import buzzer
from ludus.referee.presets import adapter_for

from ludus_host import paths
from ludus_host.sim.mirror import DeviceMirror, PicoTwin
from ludus_host.sim.table import (
    GAMES,
    SPEEDS,
    Budget,
    Club,
    LiveTable,
    ReplayStopped,
    board_for,
    bot_seat_names,
    replay_record,
    replay_script,
    seats_in_play,
)
from ludus_host.virtual.words import bot_words, level_lights, rules_words, start_words

FRAME_MS = 20  # how often the table runs and the page gets a frame that changed (50 Hz, the board's tick)
MAX_REQUEST = 2 * 1024 * 1024  # a replayed script or record, at most
MAX_MESSAGE = 64 * 1024  # one WebSocket message from a page
MAX_BEHIND = 250  # messages waiting for one page besides its latest state and frame (Page)
SNAPSHOTS = ("state", "frame")  # messages that are the whole of what they show: a newer one replaces
SEND_S = 10.0  # the longest one message may take to leave: a page that reads nothing is dropped then
HEARTBEAT_S = 20.0  # a page that answers no ping in half this is closed
REPLAYS_WAITING = 2  # replays waiting behind the one that runs; more are refused (503)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
STATIC = "static"
PAGE_FILES = ("index.html", "sim.js", "sim.css")


class Table(Protocol):
    """What the server drives: the live table (sim.table.LiveTable), the mirror of a board on a port
    (sim.mirror.DeviceMirror) or the emulated Pico's twin (sim.mirror.PicoTwin). mirror: None for the
    server's own game, "device" or "pico" for a mirror, whose game and clock are its own."""

    preset: str
    board_name: str

    @property
    def mirror(self) -> str | None: ...

    @property
    def now(self) -> int: ...

    @property
    def version(self) -> int: ...

    def advance(self, until_ms: int) -> object: ...

    def act(self, message: dict) -> None: ...

    def state(self) -> dict: ...

    def render(self) -> bytes | bytearray: ...

    def script(self) -> str: ...

    def record(self) -> str: ...

    def close(self) -> None: ...


class Settings:
    """What `ludus sim` was started with."""

    def __init__(
        self,
        preset: str = "checkers/2",
        board: str | None = None,
        settle_ms: int = 200,
        analog: bool = False,
        seed: str | None = None,
        speed: float = 1.0,
        device: str | None = None,
        pico: bool = False,
        wiring: str | None = None,
        say: Callable[[str], object] | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        self.host = host  # the address it listens on: the Host names it answers to (served_names)
        self.say = say  # where a slow start says what it is doing (ludus sim prints it)
        self.wiring = wiring  # the mirrored board's wiring map (ludus calibrate's wiring.json)
        self.device = device  # a board's port to mirror (ludus sim --device)
        self.pico = pico  # the emulated Pico as the table (ludus sim --pico)
        self.preset = preset
        self.board = board
        self.settle_ms = settle_ms
        self.analog = analog
        self.seed = seed
        self.speed = speed


class Hub:
    """The shared table, the clock that runs it and the pages that watch it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pages: dict[web.WebSocketResponse, Page] = {}
        self.speed = settings.speed
        self.lock = threading.Lock()  # the table runs in a worker thread: one caller at a time
        # the clock's own thread and the replays' own thread: neither ever waits for the other's
        self.clock_thread = ThreadPoolExecutor(1, thread_name_prefix="sim-clock")
        self.replay_thread = ThreadPoolExecutor(1, thread_name_prefix="sim-replay")
        self.replays = 0  # replays running or waiting
        self.club = Club()  # the names and seasons, kept from table to table
        self.table: Table
        if settings.device:
            self.table = DeviceMirror(settings.device, wiring=settings.wiring)
        elif settings.pico:
            self.table = PicoTwin(settings.preset, settings.board, say=settings.say)
        else:
            self.table = LiveTable(
                settings.preset,
                settings.board,
                settle_ms=settings.settle_ms,
                analog=settings.analog,
                seed=settings.seed,
                club=self.club,
            )
        self._rebase()
        self.sent_version = -1
        self.sent_frame = b""
        self.button_page: web.WebSocketResponse | None = None  # the page holding the die button down

    def _rebase(self) -> None:
        self.wall0 = time.monotonic()
        self.sim0 = self.table.now

    def target_ms(self) -> int:
        return self.sim0 + int((time.monotonic() - self.wall0) * 1000 * self.speed)

    def run(self) -> list[dict]:
        """One beat of the clock: the referee's ticks up to now; what changed, for the pages."""
        with self.lock:
            return self._run()

    def _run(self) -> list[dict]:
        self.table.advance(self.target_ms())
        out: list[dict] = []
        if self.table.version != self.sent_version:
            self.sent_version = self.table.version
            out.append(self.table.state())
        frame = bytes(self.table.render())
        if frame != self.sent_frame:
            self.sent_frame = frame
            out.append({"type": "frame", "t": self.table.now, "grb": frame.hex()})
        return out

    def hello(self) -> dict:
        with self.lock:
            return self._hello()

    def _hello(self) -> dict:
        t = self.table
        mirror = t.mirror
        adapter = adapter_for(t.preset)
        starts = [] if mirror == "device" else list(adapter.starts())
        family = "ludo" if t.preset.startswith("ludo/") else "checkers"
        return {
            "type": "hello",
            "mirror": mirror,
            "source": self.settings.device if mirror == "device" else None,
            "games": [[p, w] for p, w in GAMES],
            "speeds": list(SPEEDS),
            "speed": self.speed,
            "preset": t.preset,
            "board_name": t.board_name,
            "board": json.loads(paths.read_text(paths.board_file(t.board_name) or t.board_name, "board")),
            "starts": [name for name, _ in starts],
            # each start in words, and its seats as [key, colour] (the seats listed before a game begins)
            "start_words": {name: start_words(adapter, name, game) for name, game in starts},
            "start_seats": {
                name: [[k, c] for k, c, _ in seats_in_play(adapter, game) or ()] for name, game in starts
            },
            "bot_seats": bot_seat_names(t.preset),
            "bot_levels": list(BOT_LEVELS[family]),
            "bot_words": bot_words(family),
            "bot_lights": {level: level_lights(family, level) for level in BOT_LEVELS[family]},
            "rules": rules_words(t.preset),
            "cues": cue_notes(),
            "state": t.state(),
            "frame": bytes(t.render()).hex(),
            "frame_t": t.now,
        }

    def control(self, message: Any) -> list[dict]:
        """A page's message: a table action, or new/speed. Returns the messages for every page."""
        with self.lock:
            return self._control(message)

    def _control(self, message: Any) -> list[dict]:
        do = message.get("do") if isinstance(message, dict) else None
        mirror = self.table.mirror
        if mirror is not None and do in ("new", "speed"):
            raise LudusError(
                "this page shows %s: its game and clock are its own"
                % ("the board on " + str(self.settings.device) if mirror == "device" else "the emulated Pico")
            )
        if do == "new":
            preset = message.get("game", self.table.preset)
            if not isinstance(preset, str) or preset not in [p for p, _ in GAMES]:
                raise LudusError("new: game %r is not one this page offers" % (preset,))
            assert isinstance(self.table, LiveTable)  # (a mirror was refused above)
            settle = message.get("settle_ms", self.table.settle_ms)
            if not isinstance(settle, int) or isinstance(settle, bool) or not 0 <= settle <= 5000:
                raise LudusError("new: settle_ms is a whole number of ms, 0..5000")
            analog = message.get("analog", False)
            if not isinstance(analog, bool):
                raise LudusError("new: analog is true or false")
            self.table = LiveTable(
                preset,
                board_for(preset),
                settle_ms=settle,
                analog=analog,
                seed=self.settings.seed,
                club=self.club,
            )
            self._rebase()
            self.sent_frame = b""
            return [self._hello()]
        if do == "speed":
            value = message.get("value")
            if isinstance(value, bool) or value not in SPEEDS:
                raise LudusError("speed: one of %s" % ", ".join(str(s) for s in SPEEDS))
            self.table.advance(self.target_ms())
            self.speed = value
            self._rebase()
            return [{"type": "speed", "speed": value}]
        self.table.advance(self.target_ms())  # the action lands at this moment of the game
        self.table.act(message)
        return self._run()

    def broadcast(self, items: list[dict]) -> None:
        """Queue items for every open page; never waits for any of them (Page.put)."""
        for page in list(self.pages.values()):
            page.put(items)


log = logging.getLogger("ludus.sim")


class Page:
    """One open page: its socket and the messages waiting for it, sent by a task of its own, so that a
    page that reads slowly or not at all holds up no other page and no clock. A state or a frame
    waiting is replaced by a newer one (each is the whole of it), so a slow page skips to the latest;
    a page with MAX_BEHIND other messages waiting, or whose one message takes SEND_S to leave, is
    dropped: its connection is cut (a page connects again and gets the table afresh in its hello)."""

    def __init__(self, hub: Hub, ws: web.WebSocketResponse, transport: asyncio.Transport | None) -> None:
        self.hub = hub
        self.ws = ws
        self.transport = transport
        self.waiting: collections.deque = collections.deque()
        self.ready = asyncio.Event()
        self.dropped: str | None = None  # why it was dropped
        self.sender = asyncio.ensure_future(self._send())

    def put(self, items: list[dict]) -> None:
        """Queue items for the page (never waits)."""
        if self.dropped is not None:
            return
        waiting = self.waiting
        for item in items:
            kind = item.get("type")
            if kind in SNAPSHOTS:
                for k, old in enumerate(waiting):
                    if old.get("type") == kind:
                        del waiting[k]
                        break
            if len(waiting) >= MAX_BEHIND:
                self.drop("%d messages behind" % MAX_BEHIND)
                return
            waiting.append(item)
        self.ready.set()

    async def _send(self) -> None:
        waiting = self.waiting
        while True:
            if not waiting:
                self.ready.clear()
                await self.ready.wait()
                continue
            item = waiting.popleft()
            try:
                await asyncio.wait_for(self.ws.send_json(item), SEND_S)
            except TimeoutError:
                self.drop("a message took over %g s to leave" % SEND_S)
                return
            except (ConnectionError, RuntimeError):  # closing, closed: the handler ends it
                self.close()
                return

    def drop(self, why: str) -> None:
        """Cut a page that does not keep up (said on the server's log, not to the page: it reads
        nothing). Its connection is aborted: a close would wait to send what the page does not read."""
        if self.dropped is None:
            self.dropped = why
            log.info("a page was dropped: %s", why)
        self.close()
        if self.transport is not None:
            self.transport.abort()

    def close(self) -> None:
        """The page is gone: nothing more is sent to it."""
        self.hub.pages.pop(self.ws, None)
        if asyncio.current_task() is not self.sender:
            self.sender.cancel()


def cue_notes() -> dict[str, list[int]]:
    """The piezo's cues as the firmware plays them, {name: [Hz, ms, Hz, ms, ...]} (0 Hz: a rest)."""

    cues = {"illegal": buzzer.ILLEGAL, "your_turn": buzzer.YOUR_TURN, "refused": buzzer.REFUSED}
    return {name: list(notes) for name, notes in cues.items()}


HUB = web.AppKey("hub", Hub)
CLOCK = web.AppKey("clock", asyncio.Future)


async def _clock(app: web.Application) -> None:
    hub = app[HUB]
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(FRAME_MS / 1000)
        try:
            items = await loop.run_in_executor(hub.clock_thread, hub.run)
        except Exception as exc:  # the referee must never take the server down: say it, keep serving
            items = [{"type": "error", "message": "the table stopped: %s: %s" % (type(exc).__name__, exc)}]
            hub.sent_version = hub.table.version  # (said once, not on every beat)
        if items:
            hub.broadcast(items)


async def _start_clock(app: web.Application) -> None:
    app[CLOCK] = asyncio.ensure_future(_clock(app))


async def _stop_clock(app: web.Application) -> None:
    hub = app[HUB]
    app[CLOCK].cancel()
    await asyncio.to_thread(hub.table.close)
    await _close_sockets(app)
    hub.clock_thread.shutdown(wait=False, cancel_futures=True)
    hub.replay_thread.shutdown(wait=False, cancel_futures=True)


async def _close_sockets(app: web.Application) -> None:
    # at shutdown, before the server waits for its handlers: an open page's socket would hold it
    # (Ctrl-C on `ludus sim` waited up to a minute while a page was open); a page that reads nothing
    # gets 2 s to take its close, then its connection is cut
    async def shut(ws: web.WebSocketResponse, page: Page | None) -> None:
        try:
            await asyncio.wait_for(ws.close(), 2.0)
        except (TimeoutError, ConnectionError, RuntimeError):
            if page is not None:
                page.drop("the server stops")

    hub = app[HUB]
    await asyncio.gather(*(shut(ws, page) for ws, page in list(hub.pages.items())))


def _static_text(name: str) -> bytes:
    return resources.files("ludus_host.sim").joinpath(STATIC, name).read_bytes()


_TYPES = {"html": "text/html", "js": "text/javascript", "css": "text/css"}


async def page(request: web.Request) -> web.Response:
    name = request.match_info.get("name") or "index.html"
    if name not in PAGE_FILES:  # the page's own files, by name: nothing else on the disk is reachable
        raise web.HTTPNotFound(text="no such file: %s" % name)
    return web.Response(
        body=_static_text(name),
        content_type=_TYPES[name.rpartition(".")[2]],
        charset="utf-8",
        headers={"Cache-Control": "no-store"},
    )


# the page's icon: a die showing three (asked for by the page, and by browsers that ask /favicon.ico)
FAVICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="1" y="1" width="14" height="14"'
    b' rx="3" fill="#35587a"/><circle cx="5" cy="5" r="1.6" fill="#fff"/><circle cx="8" cy="8" r="1.6"'
    b' fill="#fff"/><circle cx="11" cy="11" r="1.6" fill="#fff"/></svg>'
)


async def favicon(request: web.Request) -> web.Response:
    return web.Response(
        body=FAVICON, content_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
    )


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


async def board_file(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in paths.board_names():
        return _error(404, "no shipped board %r (there are %s)" % (name, ", ".join(paths.board_names())))
    return web.Response(
        text=paths.read_text(paths.shipped_board(name), "board"), content_type="application/json"
    )


def _download(request: web.Request, what: str, content_type: str, filename: str) -> web.Response:
    # the table's script or record as a file to save; a table that has none says why (409)
    try:
        text = getattr(request.app[HUB].table, what)()
    except LudusError as exc:
        return _error(409, str(exc))
    return web.Response(
        text=text,
        content_type=content_type,
        headers={"Content-Disposition": 'attachment; filename="%s"' % filename},
    )


async def script(request: web.Request) -> web.Response:
    return _download(request, "script", "text/plain", "ludus-sim.play")


async def record(request: web.Request) -> web.Response:
    return _download(request, "record", "application/json", "ludus-game.json")


def _json(text: str | bytes) -> Any:
    # JSON text of a page's request: ValueError with the reason for anything unreadable (a nesting
    # deeper than the parser goes included)
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


async def replay(request: web.Request) -> web.Response:
    hub = request.app[HUB]
    try:
        body = _json(await request.text())
    except ValueError as exc:
        return _error(400, 'a replay request is JSON {"text": ...}: %s' % exc)
    except UnicodeDecodeError:
        return _error(400, "a replay request is UTF-8 JSON text")
    except web.HTTPRequestEntityTooLarge:
        return _error(413, "too large: a script or record of at most %d bytes" % MAX_REQUEST)
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        return _error(400, 'a replay request is JSON {"text": "..."} with the script or record as text')
    if hub.replays > REPLAYS_WAITING:
        return _error(503, "the simulator is busy with %d replays: try again in a moment" % hub.replays)
    text = body["text"]
    table = hub.table
    # in a thread of its own, one replay at a time, each within its Budget: the table's clock and the
    # other pages go on meanwhile, and a replay whose page goes away stops at its next tick
    job = replay_record if text.lstrip().startswith("{") else replay_script
    budget = Budget()
    args = (text, budget) if job is replay_record else (text, table.board_name, table.preset, budget)
    hub.replays += 1
    try:
        work = asyncio.get_running_loop().run_in_executor(hub.replay_thread, _replay_job, job, args)
        while True:
            done, _ = await asyncio.wait({work}, timeout=0.2)
            if done:
                break
            if request.transport is None or request.transport.is_closing():
                budget.cancel()  # the page went away: nobody is waiting for the answer
                work.add_done_callback(_quietly)
                return _error(503, "the page went away")
        result = work.result()
    except asyncio.CancelledError:
        budget.cancel()
        raise
    except LudusError as exc:
        return _error(503 if isinstance(exc, ReplayStopped) else 400, str(exc))
    finally:
        hub.replays -= 1
    return web.json_response(result)


def _replay_job(job: Callable[..., dict], args: tuple) -> dict:
    try:
        return job(*args)
    except RecursionError:
        raise LudusError("the record is nested too deeply") from None


def _quietly(work: asyncio.Future) -> None:
    # a replay nobody waits for any more: its end (a ReplayStopped, mostly) is not said anywhere
    if not work.cancelled():
        work.exception()


def served_names(host: str) -> set[str]:
    """The names in a request's Host that this server answers to: localhost and the loopback
    addresses, the address it was told to listen on, and, listening on every address (0.0.0.0, ::),
    this machine's names (and any address written as an IP: _host_refused). A page served under
    another name (DNS rebinding: a site's name made to point here) is refused."""
    names = {*LOOPBACK_NAMES, host.strip("[]").lower()}
    if host in ("0.0.0.0", "::", ""):
        names |= {sockets.gethostname().lower(), sockets.getfqdn().lower()}
    return names


def _host_refused(request: web.Request, names: set[str]) -> str | None:
    """Why a request's Host is refused, or None (see served_names)."""
    given = request.headers.get("Host")
    if given is None:  # HTTP/1.0 and some tools send none; a browser always does
        return None
    try:
        name = urlsplit("//" + given).hostname or ""
    except ValueError:
        name = ""
    if name.rstrip(".") in names:
        return None
    if request.app[HUB].settings.host in ("0.0.0.0", "::", ""):
        try:
            ipaddress.ip_address(name)
            return None  # an address typed as digits: no name a site could point here
        except ValueError:
            pass
    return "this simulator answers to %s, not to %r: open the address `ludus sim` printed" % (
        ", ".join(sorted(names)),
        given[:100],
    )


def _foreign(request: web.Request) -> str | None:
    """Why a request from another site's page is refused, or None. A browser names the page's origin
    in every WebSocket handshake and POST; only this server's own page may drive its table."""
    origin = request.headers.get("Origin")
    if origin is None:  # not a browser's page: a tool or a test, which a web page cannot be
        return None
    if urlsplit(origin).netloc != request.host:
        return "requests from another site's page (%s) are refused: open the simulator's own page" % origin
    return None


@web.middleware
async def same_origin(request: web.Request, handler: Handler) -> web.StreamResponse:
    why = _host_refused(request, request.app[NAMES])
    if why is None and (request.method == "POST" or request.path == "/ws"):
        why = _foreign(request)
    if why is not None:
        return _error(403, why)
    return await handler(request)


async def socket(request: web.Request) -> web.WebSocketResponse:
    hub = request.app[HUB]
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=HEARTBEAT_S)
    await ws.prepare(request)
    hello = await asyncio.to_thread(hub.hello)
    page = Page(hub, ws, request.transport)
    hub.pages[ws] = page  # (after hello is made, before it is sent: nothing newer can come first)
    page.put([hello])
    try:
        async for msg in ws:
            if page.dropped is not None:
                break
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.ERROR:
                    break
                page.put([{"type": "error", "message": "messages are JSON text"}])
                continue
            try:
                message = _json(msg.data)
            except ValueError as exc:
                page.put([{"type": "error", "message": "not JSON: %s" % exc}])
                continue
            if isinstance(message, dict) and message.get("do") == "button":
                hub.button_page = ws if message.get("down") is True else None
            try:
                items = await asyncio.to_thread(hub.control, message)
            except LudusError as exc:
                page.put([{"type": "error", "message": str(exc)}])
                continue
            hub.broadcast(items)
    finally:
        if ws.close_code == WSCloseCode.ABNORMAL_CLOSURE:  # no pong to a ping: nothing it is sent leaves
            page.drop("no answer to a ping in %g s" % (HEARTBEAT_S / 2))
        page.close()
        if hub.button_page is ws:  # the page went away holding the die button: let it go
            hub.button_page = None
            # here, not in a worker thread: aiohttp cancels the handler of a closed connection, and a
            # cancelled wait would drop the job (the clock sends the state that follows)
            try:
                hub.control({"do": "button", "down": False})
            except LudusError:
                pass
    return ws


NAMES = web.AppKey("names", set)


def make_app(settings: Settings) -> web.Application:
    app = web.Application(client_max_size=MAX_REQUEST, middlewares=[same_origin])
    app[HUB] = Hub(settings)
    app[NAMES] = served_names(settings.host)
    app.router.add_get("/", page)
    app.router.add_get("/static/{name}", page)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_get("/api/boards/{name}", board_file)
    app.router.add_get("/api/script", script)
    app.router.add_get("/api/record", record)
    app.router.add_post("/api/replay", replay)
    app.router.add_get("/ws", socket)
    app.on_startup.append(_start_clock)
    app.on_shutdown.append(_close_sockets)
    app.on_cleanup.append(_stop_clock)
    return app

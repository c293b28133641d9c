"""The simulator's web server (aiohttp): the page and its files, one WebSocket per open page carrying the
table's state and LED frames out and the player's actions in, and small HTTP calls for saving and
replaying. One table is shared by every page open on it, as one board is shared by everyone at it.

    app = make_app(Settings(preset="ludo/classic/4"))
    web.run_app(app, host="127.0.0.1", port=8765)

Every request that cannot be served gets a message naming the problem (a JSON {"error": ...} or a
WebSocket {"type": "error"}) and the server goes on; files are served from the page's own folder only."""

import asyncio
import json
import threading
import time
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web
from ludus.config import BOT_LEVELS
from ludus.errors import LudusError
from ludus.referee.presets import adapter_for

from ludus_host import paths
from ludus_host.sim_table import (
    GAMES,
    SPEEDS,
    Club,
    LiveTable,
    board_for,
    bot_seat_names,
    replay_record,
    replay_script,
    seats_in_play,
)
from ludus_host.sim_words import bot_words, rules_words, start_words

FRAME_MS = 20  # how often the table runs and the page gets a frame that changed (50 Hz, the board's tick)
MAX_REQUEST = 2 * 1024 * 1024  # a replayed script or record, at most
MAX_MESSAGE = 64 * 1024  # one WebSocket message from a page
STATIC = "sim_static"
PAGE_FILES = ("index.html", "sim.js", "sim.css")


class Settings:
    """What `ludus sim` was started with."""

    def __init__(
        self,
        preset="checkers/2",
        board=None,
        settle_ms=200,
        analog=False,
        seed=None,
        speed=1.0,
        device=None,
        pico=False,
        wiring=None,
        say=None,
    ):
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

    def __init__(self, settings):
        self.settings = settings
        self.sockets = set()
        self.speed = settings.speed
        self.lock = threading.Lock()  # the table runs in a worker thread: one caller at a time
        self.club = Club()  # the names and seasons, kept from table to table
        # a LiveTable, or one of ludus_host.sim_mirror's: the same few methods and state() keys
        self.table: Any
        if settings.device:
            from ludus_host.sim_mirror import DeviceMirror

            self.table = DeviceMirror(settings.device, wiring=settings.wiring)
        elif settings.pico:
            from ludus_host.sim_mirror import PicoTwin

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
        self.button_page = None  # the page holding the die button down, if one is

    def _rebase(self):
        self.wall0 = time.monotonic()
        self.sim0 = self.table.now

    def target_ms(self):
        return self.sim0 + int((time.monotonic() - self.wall0) * 1000 * self.speed)

    def run(self):
        """One beat of the clock: the referee's ticks up to now; what changed, for the pages."""
        with self.lock:
            return self._run()

    def _run(self):
        self.table.advance(self.target_ms())
        out = []
        if self.table.version != self.sent_version:
            self.sent_version = self.table.version
            out.append(self.table.state())
        frame = bytes(self.table.render())
        if frame != self.sent_frame:
            self.sent_frame = frame
            out.append({"type": "frame", "t": self.table.now, "grb": frame.hex()})
        return out

    def hello(self):
        with self.lock:
            return self._hello()

    def _hello(self):
        t = self.table
        mirror = getattr(t, "mirror", None)
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
                name: [[k, c] for k, c, _ in seats_in_play(adapter, game)] for name, game in starts
            },
            "bot_seats": bot_seat_names(t.preset),
            "bot_levels": list(BOT_LEVELS[family]),
            "bot_words": bot_words(family),
            "rules": rules_words(t.preset),
            "cues": cue_notes(),
            "state": t.state(),
            "frame": bytes(t.render()).hex(),
            "frame_t": t.now,
        }

    def control(self, message):
        """A page's message: a table action, or new/speed. Returns the messages for every page."""
        with self.lock:
            return self._control(message)

    def _control(self, message):
        do = message.get("do") if isinstance(message, dict) else None
        mirror = getattr(self.table, "mirror", None)
        if mirror is not None and do in ("new", "speed"):
            raise LudusError(
                "this page shows %s: its game and clock are its own"
                % ("the board on " + str(self.settings.device) if mirror == "device" else "the emulated Pico")
            )
        if do == "new":
            preset = message.get("game", self.table.preset)
            if not isinstance(preset, str) or preset not in [p for p, _ in GAMES]:
                raise LudusError("new: game %r is not one this page offers" % (preset,))
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

    async def broadcast(self, items):
        for ws in list(self.sockets):
            for item in items:
                try:
                    await ws.send_json(item)
                except (ConnectionError, RuntimeError):
                    self.sockets.discard(ws)
                    break


def cue_notes():
    """The piezo's cues as the firmware plays them, {name: [Hz, ms, Hz, ms, ...]} (0 Hz: a rest)."""
    from ludus.hw import buzzer

    cues = {"illegal": buzzer.ILLEGAL, "your_turn": buzzer.YOUR_TURN, "refused": buzzer.REFUSED}
    return {name: list(notes) for name, notes in cues.items()}


HUB = web.AppKey("hub", Hub)
CLOCK = web.AppKey("clock", asyncio.Future)


async def _clock(app):
    hub = app[HUB]
    while True:
        await asyncio.sleep(FRAME_MS / 1000)
        try:
            items = await asyncio.to_thread(hub.run)
        except Exception as exc:  # the referee must never take the server down: say it, keep serving
            items = [{"type": "error", "message": "the table stopped: %s: %s" % (type(exc).__name__, exc)}]
            hub.sent_version = hub.table.version  # (said once, not on every beat)
        if items and hub.sockets:
            await hub.broadcast(items)


async def _start_clock(app):
    app[CLOCK] = asyncio.ensure_future(_clock(app))


async def _stop_clock(app):
    app[CLOCK].cancel()
    close = getattr(app[HUB].table, "close", None)
    if close is not None:
        await asyncio.to_thread(close)
    for ws in list(app[HUB].sockets):
        await ws.close()


async def _close_sockets(app):
    # at shutdown, before the server waits for its handlers: an open page's socket would hold it
    # (Ctrl-C on `ludus sim` waited up to a minute while a page was open)
    for ws in list(app[HUB].sockets):
        await ws.close()


def _static_text(name):
    return resources.files("ludus_host").joinpath(STATIC, name).read_bytes()


_TYPES = {"html": "text/html", "js": "text/javascript", "css": "text/css"}


async def page(request):
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


async def favicon(request):
    return web.Response(
        body=FAVICON, content_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
    )


def _error(status, message):
    return web.json_response({"error": message}, status=status)


async def board_file(request):
    name = request.match_info["name"]
    if name not in paths.board_names():
        return _error(404, "no shipped board %r (there are %s)" % (name, ", ".join(paths.board_names())))
    return web.Response(
        text=paths.read_text(paths.board_file(name), "board"), content_type="application/json"
    )


def _download(request, what, content_type, filename):
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


async def script(request):
    return _download(request, "script", "text/plain", "ludus-sim.play")


async def record(request):
    return _download(request, "record", "application/json", "ludus-game.json")


def _json(text):
    # JSON text of a page's request: ValueError with the reason for anything unreadable (a nesting
    # deeper than the parser goes included)
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


REPLAYS = threading.Lock()  # one replay at a time, each in a worker thread


def _one_replay(job, *args):
    with REPLAYS:
        return job(*args)


async def replay(request):
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
    text = body["text"]
    table = request.app[HUB].table
    # in a worker thread, so that the table's clock and the other pages go on meanwhile
    job = replay_record if text.lstrip().startswith("{") else replay_script
    args = (text,) if job is replay_record else (text, table.board_name, table.preset)
    try:
        result = await asyncio.to_thread(_one_replay, job, *args)
    except LudusError as exc:
        return _error(400, str(exc))
    except RecursionError:
        return _error(400, "the record is nested too deeply")
    return web.json_response(result)


def _foreign(request):
    """Why a request from another site's page is refused, or None. A browser names the page's origin
    in every WebSocket handshake and POST; only this server's own page may drive its table."""
    origin = request.headers.get("Origin")
    if origin is None:  # not a browser's page: a tool or a test, which a web page cannot be
        return None
    from urllib.parse import urlsplit

    if urlsplit(origin).netloc != request.host:
        return "requests from another site's page (%s) are refused: open the simulator's own page" % origin
    return None


@web.middleware
async def same_origin(request, handler):
    if request.method == "POST" or request.path == "/ws":
        why = _foreign(request)
        if why is not None:
            return _error(403, why)
    return await handler(request)


async def socket(request):
    hub = request.app[HUB]
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
    await ws.prepare(request)
    hello = await asyncio.to_thread(hub.hello)
    hub.sockets.add(ws)  # (after hello is made, before it is sent: nothing newer can come first)
    try:
        await ws.send_json(hello)
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.ERROR:
                    break
                await ws.send_json({"type": "error", "message": "messages are JSON text"})
                continue
            try:
                message = _json(msg.data)
            except ValueError as exc:
                await ws.send_json({"type": "error", "message": "not JSON: %s" % exc})
                continue
            if isinstance(message, dict) and message.get("do") == "button":
                hub.button_page = ws if message.get("down") is True else None
            try:
                items = await asyncio.to_thread(hub.control, message)
            except LudusError as exc:
                await ws.send_json({"type": "error", "message": str(exc)})
                continue
            await hub.broadcast(items)
    finally:
        hub.sockets.discard(ws)
        if hub.button_page is ws:  # the page went away holding the die button: let it go
            hub.button_page = None
            # here, not in a worker thread: aiohttp cancels the handler of a closed connection, and a
            # cancelled wait would drop the job (the clock sends the state that follows)
            try:
                hub.control({"do": "button", "down": False})
            except LudusError:
                pass
    return ws


def make_app(settings):
    app = web.Application(client_max_size=MAX_REQUEST, middlewares=[same_origin])
    app[HUB] = Hub(settings)
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

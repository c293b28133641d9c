"""Watch a board over its USB link (docs/usb-protocol.md): every event in words, commands sent, finished
games saved as records that `ludus verify` checks.

    ludus monitor /dev/ttyACM0                        # events in words until Ctrl-C
    ludus monitor /dev/ttyACM0 --send hello --send '{"cmd": "stats"}' --for 2
    ludus monitor /dev/ttyACM0 --games --save games/  # fetch the finished games kept on the board
    ludus monitor /dev/ttyACM0 --save games/          # and save each game as it ends

PORT is a serial port, or exec:COMMAND: a program whose standard input and output are the link (the
firmware under the MicroPython unix port, an emulated Pico). A serial port that goes away (the board
resets and its USB comes back) is opened again as soon as it is back."""

import argparse
import errno
import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

from ludus.errors import LudusError

from ludus_host.args import decimal
from ludus_host.paths import write_atomically

READ_MAX = 64 * 1024  # bytes taken from the port in one read
LINE_MAX = 4 * 1024 * 1024  # a line longer than this is cut (the board's are at most a few KB)
REOPEN_S = 0.25  # between tries to open a port that went away
SEND_WAIT_S = 15.0  # how long a command waits for a port that went away to come back
OPEN_WAIT_S = 3.0  # how long a port that is not there at the start is waited for (a board resetting)


def _serial() -> Any:
    # imported when a port is first opened, so the commands that never touch one (play, sim) run
    # where pyserial (mpremote's own dependency) is not installed
    import serial  # type: ignore[import-untyped]

    return serial


def _port_errors() -> tuple[type[BaseException], ...]:
    return (_serial().SerialException, OSError, ValueError)


class MonitorError(LudusError):
    """A port that cannot be opened, or a command that cannot be sent."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("port", help="the serial port (/dev/ttyACM0, COM3) or exec:COMMAND")
    parser.add_argument(
        "--send",
        action="append",
        default=[],
        metavar="CMD",
        help="a command: a name (hello) or a JSON object",
    )
    parser.add_argument("--games", action="store_true", help="fetch the finished games kept on the board")
    parser.add_argument("--save", default=None, metavar="DIR", help="save finished games' records in DIR")
    parser.add_argument(
        "--for",
        dest="seconds",
        type=decimal(0, 10**7, low_open=True),
        default=None,
        help="stop after SECONDS",
    )
    parser.add_argument("--raw", action="store_true", help="print the JSON lines as they come")


def command_line(text: str, ident: object) -> str:
    """The JSON line of a --send value: a bare name becomes {"cmd": name}; an object gets an id."""
    text = text.strip()
    if text.startswith("{"):
        try:
            cmd = json.loads(text)
        except ValueError as exc:
            raise MonitorError("--send %r is not JSON: %s" % (text, exc)) from None
        if not isinstance(cmd, dict) or not isinstance(cmd.get("cmd"), str):
            raise MonitorError('--send %r: a command is {"cmd": NAME, ...}' % text)
    elif text.isidentifier():
        cmd = {"cmd": text}
    else:
        raise MonitorError("--send %r: give a command name (hello) or a JSON object" % text)
    cmd.setdefault("id", ident)
    return json.dumps(cmd)


def _names(value):
    # a list of names (cell ids, players) the board sent, in words; anything else shown as it came
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    return _shown(value)


def _shown(value, limit=300):
    try:
        return json.dumps(value, sort_keys=True)[:limit]
    except (TypeError, ValueError, RecursionError):
        return "(unreadable)"


def _self_test(e):
    found = "".join("; %s: %s" % (k, _names(e[k])) for k in ("stuck", "noisy", "rail") if e.get(k))
    if e.get("error"):
        found += "; %s" % e["error"]
    return "self-test %s: %s LEDs, %s sensors%s" % (
        "passed" if e.get("ok") is True else "FAILED",
        e.get("leds"),
        e.get("channels"),
        found,
    )


_COUNTED = {"playoff": "a play-off counted", "abandoned": "a game abandoned noted (it counts for nothing)"}


def _season(e):
    ties = e.get("ties")
    tied = "; ".join(_names(g) for g in ties) if isinstance(ties, list) else _shown(ties)
    kind = e.get("counted")
    counted = _COUNTED.get(kind, "the game counted") if isinstance(kind, str) else "the game counted"
    return "season (%s): %s, %s game%s; %s%s" % (
        e.get("rules"),
        counted,
        e.get("games"),
        "" if e.get("games") == 1 else "s",
        "%s leads with %s points" % (e.get("leader"), e.get("points")),
        "; tied: " + tied if ties else "",
    )


def _hello(e):
    dropped = e.get("dropped")
    if isinstance(dropped, int) and not isinstance(dropped, bool):
        return "the board hears this laptop again: %d line%s it could not send meanwhile were dropped" % (
            dropped,
            "" if dropped == 1 else "s",
        )
    return "hello: %s" % _shown({k: v for k, v in e.items() if k != "event"})


_WORDS = {
    "boot": lambda e: (
        "board started: firmware %s on MicroPython %s, protocol %s, %s bytes free"
        % (e.get("firmware"), e.get("micropython"), e.get("protocol"), e.get("free"))
    ),
    "self_test": _self_test,
    "journal": lambda e: "game restored from flash: %s actions" % e.get("restored"),
    "fault": lambda e: "FAULT (%s): %s" % (e.get("where"), e.get("error")),
    "safe_mode": lambda e: "SAFE MODE: %s" % e.get("error"),
    "stopped": lambda e: "firmware stopped (%s): %s" % (e.get("why"), e.get("message")),
    "reseed": lambda e: (
        "dice re-committed after %s actions (%s): seed %s... revealed, new commitment %s..."
        % (e.get("actions"), e.get("why"), str(e.get("seed"))[:16], str(e.get("seed_sha256"))[:16])
    ),
    "hello": _hello,
    "new_game": lambda e: (
        "new game: %s (dice commitment %s...)%s"
        % (e.get("start"), str(e.get("seed_sha256"))[:16], _players_text(e.get("players")))
    ),
    "restored": lambda e: "game continues: %s, %s actions" % (e.get("start"), e.get("actions")),
    "roll": lambda e: "seat %s rolled %s" % (e.get("seat"), e.get("value")),
    "move": lambda e: "seat %s moved %s" % (e.get("seat"), e.get("move")),
    "illegal": lambda e: "illegal: %s" % (e.get("reason") or e.get("why") or "not a legal move"),
    "refused": lambda e: "refused: %s" % e.get("reason"),
    "undo": lambda e: "undo: %s" % e.get("move"),
    "pass": lambda e: "seat %s passes" % e.get("seat"),
    "bot": lambda e: (
        "seat %s (%s bot) chose %s: carry it out as lit" % (e.get("seat"), e.get("level"), e.get("move"))
        if e.get("move")
        else "seat %s (%s bot): the board rolls for it" % (e.get("seat"), e.get("level"))
    ),
    "game_over": lambda e: (
        "game over: %s, dice seed revealed %s..."
        % (_places_text(e.get("placements"), e.get("players")), str(e.get("seed"))[:16])
    ),
    "season": _season,
}


def _players_text(players):
    # ": Anna (seat 0), Bo (seat 2)" of an event's players, {"0": "Anna", ...}
    if not isinstance(players, dict) or not players:
        return ""
    return ": " + ", ".join("%s (seat %s)" % (players[k], k) for k in sorted(players))


def _places_text(placements, players):
    # "places 1st Anna, 2nd Bo" by name where the event names the players, else the seat numbers
    if not isinstance(placements, list):
        return "places %s" % _shown(placements)
    named = players if isinstance(players, dict) else {}
    return "places " + ", ".join(
        "%d. %s" % (k + 1, named.get(str(seat), "seat %s" % _shown(seat)))
        for k, seat in enumerate(placements)
    )


def describe(item: dict) -> str:
    """One line of words for a line the board sent (a dict). A line whose fields are not of the kinds
    the protocol gives them is shown as it came, never a crash."""
    try:
        return _describe(item)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
        return "the board sent a line this tool cannot read: %s" % _shown(item)


def _describe(item):
    if "reply" in item:
        name = item["reply"] if isinstance(item["reply"], str) else _shown(item["reply"])
        fields = {k: v for k, v in item.items() if k not in ("reply", "id", "ok")}
        if item.get("ok") is False:
            return "reply %s: ERROR %s" % (name, item.get("error"))
        return "reply %s: %s" % (name, _shown(fields, 600))
    name = item.get("event")
    if not isinstance(name, str):
        return "the board sent a line with no event name: %s" % _shown(item)
    words = _WORDS.get(name)
    if words is not None:
        return words(item)
    fields = {k: v for k, v in item.items() if k != "event"}
    return "%s: %s" % (name, _shown(fields, 600)) if fields else name


def board_line(line: str) -> dict | None:
    """A line the board sent as a JSON object, or None (REPL text, a traceback, nesting too deep)."""
    try:
        item = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return item if isinstance(item, dict) else None


class Link:
    """The board's side: lines in (a queue filled by a reader thread, None once an exec: program has
    ended), lines out. A serial port is read in blocks; if it goes away (a reset: the board's USB
    disconnects and comes back), it is opened again as soon as it is back, `generation` counts the
    openings (a tool resends a question whose answer was lost), and send() waits for it up to
    SEND_WAIT_S. note: called with a line of words when the port goes away and comes back."""

    def __init__(self, port: str, note: Callable[[str], None] | None = None):
        self.port = port
        self.lines: queue.Queue = queue.Queue()
        self.note = note or (lambda text: None)
        self.proc: subprocess.Popen | None = None
        self.serial: Any = None  # a serial.Serial while the port is open
        self.generation = 1
        self.open = threading.Event()  # set while the port is open
        self.lock = threading.Lock()  # one writer at a time; opening and losing the port
        self.closed = False
        if port.startswith("exec:"):
            argv = shlex.split(port[5:])
            try:
                self.proc = subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
                )
            except OSError as exc:
                raise MonitorError("cannot run %s: %s" % (port[5:], exc)) from None
            assert self.proc.stdout is not None and self.proc.stdin is not None
            self._stdin = self.proc.stdin
            reader = self._read_program
        else:
            end = time.monotonic() + OPEN_WAIT_S
            while self.serial is None:
                try:
                    self.serial = self._open()
                except _port_errors() as exc:  # missing, no permission
                    if getattr(exc, "errno", None) == errno.ENOENT and time.monotonic() < end:
                        time.sleep(REOPEN_S)  # (a board that has just reset: its port comes back)
                        continue
                    raise MonitorError("cannot open %s: %s" % (port, exc)) from None
            reader = self._read_port
        self.open.set()
        threading.Thread(target=reader, daemon=True).start()

    def _open(self):
        return _serial().Serial(self.port, 115200, timeout=0.2)

    def _take(self, pending, chunk):
        # the complete lines of pending + chunk queued; the rest returned
        pending += chunk
        if b"\n" not in chunk and len(pending) <= LINE_MAX:
            return pending
        *lines, pending = pending.split(b"\n")
        while len(pending) > LINE_MAX:  # a board that never ends its line: cut, not kept growing
            lines.append(pending[:LINE_MAX])
            pending = pending[LINE_MAX:]
        for line in lines:
            self.lines.put(line.decode("utf-8", "replace").rstrip("\r"))
        return pending

    def _read_program(self):
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        pending = b""
        while True:
            try:
                chunk = os.read(fd, READ_MAX)
            except (OSError, ValueError):
                chunk = b""
            if not chunk:  # the program ended
                if pending:
                    self.lines.put(pending.decode("utf-8", "replace"))
                self.lines.put(None)
                return
            pending = self._take(pending, chunk)

    def _read_port(self):
        pending = b""
        while not self.closed:
            port = self.serial
            if port is None:
                if not self._reopen():
                    return
                pending = b""  # (a line cut by the reset is not the next line's beginning)
                continue
            try:
                chunk = port.read(min(max(port.in_waiting, 1), READ_MAX))
            except _port_errors() + (TypeError, AttributeError):
                # gone: a real board's USB disconnected, a pty closed (or close() meanwhile)
                self._lost(port)
                continue
            if chunk:
                pending = self._take(pending, chunk)

    def _lost(self, port):
        with self.lock:
            if self.serial is not port or self.closed:
                return
            self.serial = None
            self.open.clear()
        try:
            port.close()
        except Exception:  # (a port that went away may fail to close too: it is gone either way)
            pass
        self.note("%s went away (the board resets?): waiting for it to come back" % self.port)

    def _reopen(self):
        while not self.closed:
            try:
                port = self._open()
            except _port_errors():
                time.sleep(REOPEN_S)
                continue
            with self.lock:
                if self.closed:
                    port.close()
                    return False
                self.serial = port
                self.generation += 1
                self.open.set()
            self.note("%s is back" % self.port)
            return True
        return False

    def send(self, line: str) -> None:
        """Send one line; MonitorError if it cannot be (a program that ended, a port that went away
        and has not come back in SEND_WAIT_S)."""
        data = (line + "\n").encode()
        if self.proc is not None:
            try:
                self._stdin.write(data)
                self._stdin.flush()
            except (OSError, ValueError) as exc:
                raise MonitorError("cannot send to the board: %s" % exc) from None
            return
        end = time.monotonic() + SEND_WAIT_S
        while True:
            if not self.open.wait(max(0.0, end - time.monotonic())):
                raise MonitorError(
                    "cannot send to the board: %s went away and has not come back in %g s"
                    % (self.port, SEND_WAIT_S)
                )
            with self.lock:
                port = self.serial
            if port is None:
                continue
            try:
                port.write(data)
                return
            except _port_errors() + (TypeError, AttributeError):
                self._lost(port)

    def close(self) -> None:
        self.closed = True
        if self.proc is not None:
            try:
                self._stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        with self.lock:
            port, self.serial = self.serial, None
        if port is not None:
            port.close()


class LinkReset(MonitorError):
    """The board's port went away and came back (a reset) while a command that changes the board
    waited for its answer: it may or may not have been done."""


AGAIN_S = 1.0  # after a reset, a question is asked again this often until the booting board answers


def answers(link: Link, cmd: dict, wait_s: float, again: bool = True, every_s: float | None = None):
    """Send cmd (a dict with "cmd" and "id") and yield its reply lines (dicts: the board's replies to
    it, in order) until the caller has what it wants or wait_s has passed. If the port goes away and
    comes back meanwhile (the board reset), cmd is sent again, and again every AGAIN_S until a reply
    comes (again=False: LinkReset instead, for a command that changes the board); every_s: sent again
    that often until a reply comes (a board that is booting). MonitorError if the link closes."""
    line = json.dumps(cmd)
    # (the link's generation before the line goes: a board that resets at once may be back before
    # this thread runs again, and a generation read after the send would miss that reset)
    generation = getattr(link, "generation", 0)
    link.send(line)
    heard = False
    sent = time.monotonic()
    end = sent + wait_s
    while time.monotonic() < end:
        now = getattr(link, "generation", 0)
        if now != generation:
            if not again:
                raise LinkReset("the board started again while it was sent %r" % cmd["cmd"])
            generation, every_s, heard = now, every_s or AGAIN_S, False
            link.send(line)
            sent = time.monotonic()
        elif every_s is not None and not heard and time.monotonic() - sent > every_s:
            link.send(line)
            sent = time.monotonic()
        try:
            got = link.lines.get(timeout=0.05)
        except queue.Empty:
            continue
        if got is None:
            raise MonitorError("the board's link closed before it answered %r" % cmd["cmd"])
        item = board_line(got)
        if item is not None and item.get("reply") == cmd["cmd"] and item.get("id") == cmd.get("id"):
            heard = True
            yield item


# commands that only ask: sent again, unanswered, after the board has reset (a `season` with `new` or
# `rules`, and every command that changes the board, are not: `set_config` again would reset it again)
QUESTIONS = ("hello", "help", "state", "stats", "config", "journal", "levels", "frame", "games", "season")


def _question(line):
    cmd = json.loads(line)
    return cmd["cmd"] in QUESTIONS and not (cmd["cmd"] == "season" and ("new" in cmd or "rules" in cmd))


def _ask_on(link: Link, line: str) -> None:
    # a question the monitor asks by itself: a board gone (a program that ended) leaves the lines
    # it sent still to show, so this is said, not fatal
    try:
        link.send(line)
    except MonitorError as exc:
        print("(not asked: %s)" % exc, flush=True)


def run(args: argparse.Namespace) -> int:
    sends = [command_line(text, k + 1) for k, text in enumerate(args.send)]
    if args.games:
        sends.append(json.dumps({"cmd": "games", "id": "games"}))
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    link = Link(args.port, note=lambda text: print("(%s)" % text, flush=True))
    saved = 0
    try:
        end = time.monotonic() + args.seconds if args.seconds is not None else None
        generation = link.generation  # (before the sends: a reset right after them is seen)
        for line in sends:
            link.send(line)
        # the questions not answered yet, by id: asked again if the board resets first
        unanswered = {json.loads(line)["id"]: line for line in sends if _question(line)}
        while end is None or time.monotonic() < end:
            if link.generation != generation:
                generation = link.generation
                for line in unanswered.values():
                    _ask_on(link, line)
            try:
                line = link.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            if line is None:
                break
            item = board_line(line)
            if item is None:
                print("device: %s" % line)  # REPL output, a traceback: shown as it is
                continue
            if "reply" in item:
                try:
                    unanswered.pop(item.get("id"), None)
                except TypeError:  # (an id that cannot be a key: not one of ours)
                    pass
            print(line if args.raw else describe(item), flush=True)
            if item.get("event") == "game_over" and args.save:
                _ask_on(link, json.dumps({"cmd": "games", "last": 1, "id": "games"}))
            if item.get("reply") == "games" and "record" in item and args.save:
                record = item["record"]
                if not isinstance(record, str):
                    print("not saved: the board sent a record that is not text (%s)" % _shown(record, 80))
                    continue
                saved += 1
                path = os.path.join(args.save, "game-%s-%d.json" % (time.strftime("%Y%m%d-%H%M%S"), saved))
                write_atomically(path, record if record.endswith("\n") else record + "\n")
                print("saved %s (ludus verify %s)" % (path, path), flush=True)
            if item.get("reply") == "games" and item.get("done") and args.games and args.seconds is None:
                break
    except KeyboardInterrupt:
        pass
    finally:
        link.close()
    return 0

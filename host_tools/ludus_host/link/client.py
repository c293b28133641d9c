"""The laptop's end of a board's USB link (docs/usb-protocol.md): a serial port or a program's standard
input and output read on a thread into whole lines, commands written, a port that went away opened
again, and a question asked until the board answers. Knows nothing of what the lines mean."""

import errno
import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ludus.errors import LudusError

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

    def _open(self) -> Any:
        return _serial().Serial(self.port, 115200, timeout=0.2)

    def _take(self, pending: bytes, chunk: bytes) -> bytes:
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

    def _read_program(self) -> None:
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

    def _read_port(self) -> None:
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

    def _lost(self, port: Any) -> None:
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

    def _reopen(self) -> bool:
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


def answers(
    link: Link, cmd: dict, wait_s: float, again: bool = True, every_s: float | None = None
) -> Iterator[dict]:
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

"""The USB link: JSON lines in both directions over the Pico's USB serial (docs/usb-protocol.md).

    link = Link(serial, write)        # serial: readinto(buf) -> bytes read, never blocking (ludus.hw.usb)
    cmd = link.poll()                 # once per tick: a whole command (a dict), or None
    link.reply(cmd, {"ok": True})     # {"reply": "...", "id": ..., "ok": true}

The board sends one JSON object per line: events ({"event": ...}) and replies ({"reply": ...}). It
takes one JSON object per line: {"cmd": NAME, "id": ANY, ...}. poll() reads at most READ_PER_TICK bytes a
tick, so a flood of input cannot hold up the loop or the watchdog; a line longer than `limit` is
dropped whole with an error reply; a line that is no JSON object, or has no "cmd", gets an error reply.
Reading nothing allocates nothing."""

import json

from ludus.runtime import const
from ludus.scan import repeated_key

PROTOCOL = const(1)
LIMIT = const(1024)  # the longest command line taken (a whole config.json fits, ~450 bytes)
READ_PER_TICK = const(512)  # bytes read in one tick at most: 25 KB/s at 50 Hz
QUEUE = const(4)  # whole lines waiting to be handed out, at most


class Link:
    """serial: an object with readinto(buf) -> n, reading what has arrived without waiting. write: one
    line of text out (print on the Pico)."""

    def __init__(self, serial, write, limit=LIMIT):
        self.serial = serial
        self.write = write
        self.limit = limit
        self.line = bytearray(limit)
        self.n = 0
        self.overlong = False  # in a line past the limit: dropped up to its newline
        self.chunk = bytearray(64)
        self.pending = []  # whole lines read but not handed out yet (one command is handed out a call)
        self.received = 0  # counts: lines taken, and lines refused
        self.refused = 0

    def poll(self):
        """A command that arrived whole since the last call, or None. Malformed lines are answered
        here with an error reply and never handed out."""
        budget = READ_PER_TICK
        chunk = self.chunk
        pending = self.pending
        while budget > 0 and len(pending) < QUEUE:
            got = self.serial.readinto(chunk)
            if not got:
                break
            budget -= got
            self._take(chunk, got)
        while pending:
            cmd = self._parse(pending.pop(0))
            if cmd is not None:
                return cmd
        return None

    def _take(self, chunk, got):
        line = self.line
        for i in range(got):
            b = chunk[i]
            if b == 10 or b == 13:
                if self.overlong:
                    self.overlong = False
                    self.refused += 1
                    self._error(None, "line longer than %d bytes: dropped" % self.limit)
                elif self.n:
                    if len(self.pending) < QUEUE:
                        try:
                            self.pending.append(bytes(line[: self.n]))
                        except MemoryError:  # a heap cut up by the game: the line, not the loop, is lost
                            self.refused += 1
                            self._error(None, "out of memory for a %d-byte line: dropped" % self.n)
                    else:
                        self.refused += 1
                        self._error(None, "more than %d commands at once: one dropped" % QUEUE)
                    self.n = 0
                continue
            if self.overlong:
                continue
            if self.n == self.limit:
                self.overlong = True
                self.n = 0
                continue
            line[self.n] = b
            self.n += 1

    def _parse(self, line):
        try:
            text = line.decode()
            key = repeated_key(text)
            cmd = json.loads(text)
        except MemoryError:
            self.refused += 1
            self._error(None, "out of memory for a %d-byte line: dropped" % len(line))
            return None
        except (ValueError, UnicodeError, RuntimeError) as exc:  # (nested too deeply: RuntimeError)
            self.refused += 1
            self._error(None, "not a JSON line (%s)" % (exc,))
            return None
        if not isinstance(cmd, dict):
            self.refused += 1
            self._error(None, 'a command is a JSON object: {"cmd": NAME, ...}')
            return None
        name = cmd.get("cmd")
        if not isinstance(name, str):
            self.refused += 1
            self._error(cmd.get("id"), 'a command needs "cmd": a name (try {"cmd": "help"})')
            return None
        if key is not None:
            self.refused += 1
            self._error(cmd.get("id"), "key %r appears twice in one command" % (key,))
            return None
        self.received += 1
        return cmd

    def reply(self, cmd, fields):
        """Answer a command: {"reply": its name, "id": its id if it had one, **fields}."""
        out = {"reply": cmd.get("cmd")}
        if "id" in cmd:
            out["id"] = cmd["id"]
        out.update(fields)
        self.write(json.dumps(out))

    def error(self, cmd, message):
        """Refuse a command, saying why."""
        self.reply(cmd, {"ok": False, "error": message})

    def _error(self, ident, message):
        out = {"reply": "error", "ok": False, "error": message}
        if ident is not None:
            out["id"] = ident
        self.write(json.dumps(out))

"""A board's USB serial port for the laptop tools' tests: a pseudo-terminal named by a stable path (a
symlink, as `ludus emulate --link` makes one), which goes away and comes back as a real Pico's does
when it resets (its USB disconnects, and the port appears again once it has booted).

    port = PtyPort(tmp_path / "board")      # the tools open str(port.path)
    port.write('{"event": "boot"}\\n')
    port.drop(0.5)                           # gone for half a second: reads fail, opens fail
    port.read()                              # what the tools sent (bytes)

PtyBoard answers the link's commands from a table of replies, in a thread of its own."""

import json
import os
import pty
import select
import threading
import time
import tty


class PtyPort:
    """The board's end of a pseudo-terminal at `path`."""

    def __init__(self, path):
        self.path = str(path)
        self.master = self.slave = None
        self.drops = 0
        self.up()

    def up(self):
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)  # (a tool that opens the path finds the new port, never half of one)
        self.master, self.slave = master, slave

    def down(self):
        if os.path.lexists(self.path):
            os.unlink(self.path)
        master, slave, self.master, self.slave = self.master, self.slave, None, None
        if master is not None:
            os.close(master)  # a tool reading the port now gets an error, as from a board unplugged
            os.close(slave)

    def drop(self, seconds):
        """Gone for `seconds`, then a new port at the same path."""
        self.down()
        self.drops += 1
        time.sleep(seconds)
        self.up()

    def write(self, text):
        """Text to the tools; what does not fit while nobody reads is dropped, as a board's USB drops it."""
        data = text.encode()
        end = time.monotonic() + 2
        while data and self.master is not None and time.monotonic() < end:
            try:
                data = data[os.write(self.master, data) :]
            except BlockingIOError:
                select.select([], [self.master], [], 0.05)
            except OSError:
                return

    def read(self, timeout=0.05):
        """Bytes the tools sent (b"" if none came in `timeout` s, or the port is down)."""
        master = self.master
        if master is None:
            time.sleep(timeout)
            return b""
        try:
            ready, _, _ = select.select([master], [], [], timeout)
            return os.read(master, 65536) if ready else b""
        except OSError:
            return b""

    def close(self):
        self.down()


class PtyBoard(PtyPort):
    """A board that answers commands on a PtyPort: answer(cmd) gives the reply's fields (a dict), a
    list of lines to send, None for no answer, or "reset" for none and a reset; a command named in
    `resets` (or for which resets(cmd) is true) is answered and then the board resets. At a reset
    the port drops for `down_s`, and the board ignores what it is sent for `boot_s` after it is back
    (it is booting), then says `boot`. (pyserial flushes what waits in a port it opens, as what a
    board says before a tool opens its port is lost.)"""

    def __init__(self, path, answer, resets=(), down_s=0.5, boot_s=0.5):
        super().__init__(path)
        self.answer = answer
        self.resets = resets
        self.down_s = down_s
        self.boot_s = boot_s
        self.received = []  # every command, in order
        self.booted_at = 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        pending = b""
        while not self.stop.is_set():
            chunk = self.read()
            if not chunk:
                continue
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if time.monotonic() < self.booted_at + self.boot_s:
                    continue  # booting: not listening yet
                self._take(line)

    def _take(self, line):
        try:
            cmd = json.loads(line)
        except ValueError:
            return
        self.received.append(cmd)
        got = self.answer(cmd)
        if got == "reset":
            self.reset()
            return
        if got is None:
            return
        lines = (
            got if isinstance(got, list) else [{"reply": cmd["cmd"], "id": cmd.get("id"), "ok": True, **got}]
        )
        for item in lines:
            self.write((item if isinstance(item, str) else json.dumps(item)) + "\n")
        if cmd["cmd"] in self.resets if isinstance(self.resets, tuple) else self.resets(cmd):
            time.sleep(0.05)
            self.reset()

    def reset(self):
        self.drop(self.down_s)
        self.booted_at = time.monotonic()
        # (said once booted: a tool opening the port flushes what came before, as from a real board)
        boot = json.dumps({"event": "boot", "protocol": 1}) + "\n"
        threading.Timer(self.boot_s, self.write, (boot,)).start()

    def close(self):
        self.stop.set()
        self.thread.join(timeout=2)
        super().close()

"""The board's lines out, through a port that may not take them (docs/usb-protocol.md, "A host that
stops reading"): MicroPython's rp2 USB driver waits up to 500 ms for room in its 256-byte transmit
FIFO when a host has the port open and reads nothing, and a few such waits would starve the
watchdog. So bytes go out only while the port says it has room (select's POLLOUT), a packet's worth
at a time, and what does not fit waits here, or is dropped and counted.

    writer = LineWriter(UsbSerial(), platform)
    writer.line('{"event": "roll", ...}')      # written now, as far as the port takes it
    writer.flush()                             # every tick: more of what waits
"""

from ludus.runtime import const

# ticks wrap at 2**30: an interval is (now - then) & _TICKS_MASK, ludus.runtime.elapsed_ms inlined
# (a constant folded into the bytecode costs no heap on this resident path)
_TICKS_MASK = const(0x3FFFFFFF)

PIECE = const(64)  # bytes handed to the port at once: one full-speed USB packet
OUT_BYTES = const(2048)  # lines waiting for a slow host, at most; more are dropped and counted
PAUSE_MS = const(1000)  # after a write the port took only in part (it waited), none for this long
WAIT_MS = const(2000)  # a long reply (send) gives up after this long without progress


class LineWriter:
    """The board's lines out through a port that may not take them: port.room() says whether it can
    take a byte now (POLLOUT), port.write(buf) -> bytes taken (ludus.hw.usb.UsbSerial; FakeSerial).

    line(text) queues a line and writes what the port takes at once; flush() (every tick) writes
    more. A host that opens the port and stops reading never stalls the board: lines wait (at most
    OUT_BYTES) and then are dropped, each counted in `dropped`; a write the port took only in part
    (the USB driver's wait) is counted in `stalls` and pauses writing for PAUSE_MS. send() writes a
    long reply (a game record) piece by piece, waiting for room up to WAIT_MS at a time, calling
    feed() meanwhile. clock: ticks_ms() and sleep_ms(ms), the platform's."""

    def __init__(self, port, clock, limit=OUT_BYTES):
        self.port = port
        self.clock = clock
        self.ticks_ms = clock.ticks_ms
        self.limit = limit
        self.lines = []  # waiting, each ended by its newline; the first perhaps written in part
        self.at = 0  # bytes of the first written
        self.waiting = 0  # bytes in lines
        self.dropped = 0  # lines dropped for want of room: a host that took too little too long
        self.stalls = 0  # writes the port took only in part
        self.paused_at = None  # ticks_ms of the last such write, while writing is paused

    def line(self, text):
        """Send one line (text without its newline): written now as far as the port takes it."""
        data = text.encode() + b"\n"
        if self.waiting + len(data) > self.limit:
            self.dropped += 1
            return
        self.lines.append(data)
        self.waiting += len(data)
        self.flush()

    def flush(self):
        """Write what the port takes of the lines waiting. True when none are left."""
        if self.paused_at is not None:
            if (self.ticks_ms() - self.paused_at) & _TICKS_MASK < PAUSE_MS:
                return False
            self.paused_at = None
        lines = self.lines
        port = self.port
        while lines:
            if not port.room():
                return False
            data = lines[0]
            at = self.at
            end = at + PIECE if at + PIECE < len(data) else len(data)
            want = end - at
            taken = port.write(data if want == len(data) else memoryview(data)[at:end]) or 0
            self.at = at = at + taken
            if at >= len(data):
                lines.pop(0)
                self.waiting -= len(data)
                self.at = 0
            if taken < want:
                self.stalls += 1
                self.paused_at = self.ticks_ms()
                return False
        return True

    def drain(self, ms, feed=None):
        """flush() until every line is out or MS have passed (before a reset or the REPL: the last
        lines, the reply that announces it, would otherwise be lost). True if all went out."""
        t0 = self.ticks_ms()
        self.paused_at = None
        while not self.flush():
            if (self.ticks_ms() - t0) & _TICKS_MASK >= ms:
                return False
            if feed is not None:
                feed()
            self.clock.sleep_ms(1)
            self.paused_at = None
        return True

    def send(self, text, feed=None):
        """Write TEXT (part of a long line: the caller ends it with "\n") after the lines waiting,
        waiting for room as long as the host keeps taking some; False once it has taken nothing for
        WAIT_MS (the rest is not sent: the host sees a broken line)."""
        if not self.drain(WAIT_MS, feed):
            return False
        data = text.encode() if isinstance(text, str) else text
        at = 0
        last = self.ticks_ms()
        port = self.port
        while at < len(data):
            if port.room():
                end = at + PIECE if at + PIECE < len(data) else len(data)
                taken = port.write(memoryview(data)[at:end]) or 0
                if taken:
                    at += taken
                    last = self.ticks_ms()
                    continue
            if (self.ticks_ms() - last) & _TICKS_MASK >= WAIT_MS:
                self.stalls += 1
                return False
            if feed is not None:
                feed()
            self.clock.sleep_ms(1)
        return True

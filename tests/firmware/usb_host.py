"""The host's side of the Pico's USB serial port, for tests of the board's own writer (ludus.outgoing):
a FakeSerial whose room() and write(buf) behave as ludus.hw.usb.UsbSerial's over MicroPython's 256-byte
transmit FIFO. While `reading` the host takes everything (`lines()` gives it, or `on_line` takes each
line as it comes); when not, the FIFO fills, room() turns False and a write takes only what fits
(`waits` counts those writes: on a Pico each would have waited half a second for room). A host that
reads again empties it. MicroPython-compatible."""

from ludus.hw.fake import FakeSerial


class HostSerial(FakeSerial):
    FIFO = 256

    def __init__(self, capacity=4096):
        FakeSerial.__init__(self, capacity)
        self.sent = []  # the whole lines the host has read (bytes), unless on_line takes them
        self.on_line = None  # on_line(line): each whole line the host reads, as text
        self.partial = b""
        self.reading = True
        self.fifo = bytearray()  # what waits in the device for a host that does not read
        self.waits = 0

    def room(self):
        self._take()
        return len(self.fifo) < self.FIFO

    def write(self, buf):
        self._take()
        n = min(len(buf), self.FIFO - len(self.fifo))
        self.fifo += bytes(buf[:n])
        if n < len(buf):
            self.waits += 1
        self._take()
        return n

    def _take(self):
        if self.reading and self.fifo:
            pieces = (self.partial + self.fifo).split(b"\n")
            self.fifo = bytearray()
            self.partial = pieces.pop()
            for line in pieces:
                if self.on_line is not None:
                    self.on_line(line.decode())
                else:
                    self.sent.append(line)

    def lines(self):
        """The whole lines the host has read, as text (on_line unset)."""
        self._take()
        return [line.decode() for line in self.sent]

"""The USB serial port as the link reads and writes it: what has arrived on stdin, without waiting,
and room to write on stdout (ludus.link.LineWriter decides what to write).

    serial = UsbSerial()
    n = serial.readinto(buf)        # 0 when nothing has arrived
    if serial.room():               # the USB driver can take a byte now (select's POLLOUT)
        n = serial.write(buf)       # bytes it took: fewer if the host stopped reading meanwhile

MicroPython's stdin is the USB CDC port on a Pico (and the terminal on the unix port). select.poll says
whether a byte is waiting; each is read on its own, because a read of several would wait until all of
them had come. Ctrl-C never arrives here: with the keyboard interrupt left on (as it must stay, so that
mpremote can always stop the firmware), the USB driver turns it into KeyboardInterrupt. Reading nothing
allocates nothing (ipoll reuses its result)."""

import select
import sys


class UsbSerial:
    def __init__(self, stream=None, out=None):
        stream = sys.stdin if stream is None else stream
        self.stream = getattr(stream, "buffer", stream)
        self.poller = select.poll()
        self.poller.register(stream, select.POLLIN)
        self.one = bytearray(1)
        self.ipoll = getattr(self.poller, "ipoll", None)
        out = sys.stdout if out is None else out
        self.sink = getattr(out, "buffer", out)
        self.out_poller = select.poll()
        self.out_poller.register(out, select.POLLOUT)
        self.out_ipoll = getattr(self.out_poller, "ipoll", None)

    def room(self):
        """Whether the port takes a byte now. On the rp2 port: no terminal attached (DTR low), or
        room in the USB driver's transmit FIFO; not when a host holds the port and reads nothing."""
        if self.out_ipoll is not None:
            for _obj, event in self.out_ipoll(0):
                return event & select.POLLOUT
            return 0
        return len(self.out_poller.poll(0))

    def write(self, buf):
        """Bytes of buf written (the driver waits up to 0.5 s for room it lacks, then gives up)."""
        n = self.sink.write(buf)
        return len(buf) if n is None else n

    def _ready(self):
        if self.ipoll is not None:
            for _obj, event in self.ipoll(0):
                return event & select.POLLIN
            return 0
        return len(self.poller.poll(0))

    def readinto(self, buf):
        n = 0
        one = self.one
        while n < len(buf) and self._ready():
            if not self.stream.readinto(one):
                break
            buf[n] = one[0]
            n += 1
        return n

"""The USB serial port as the link reads it: what has arrived on stdin, without waiting.

    serial = UsbSerial()
    n = serial.readinto(buf)        # 0 when nothing has arrived

MicroPython's stdin is the USB CDC port on a Pico (and the terminal on the unix port). select.poll says
whether a byte is waiting; each is read on its own, because a read of several would wait until all of
them had come. Ctrl-C never arrives here: with the keyboard interrupt left on (as it must stay, so that
mpremote can always stop the firmware), the USB driver turns it into KeyboardInterrupt. Reading nothing
allocates nothing (ipoll reuses its result)."""

import select
import sys


class UsbSerial:
    def __init__(self, stream=None):
        stream = sys.stdin if stream is None else stream
        self.stream = getattr(stream, "buffer", stream)
        self.poller = select.poll()
        self.poller.register(stream, select.POLLIN)
        self.one = bytearray(1)
        self.ipoll = getattr(self.poller, "ipoll", None)

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

"""Analog hall sensors (DRV5055 and the like) through CD74HC4067 16-channel multiplexers into the ADC:
the select lines step through the 16 inputs, and at each step every multiplexer's ADC is read.

    select = PinSelect([Pin(n, Pin.OUT) for n in (10, 11, 12, 13)])      # S0..S3
    scanner = MuxScanner(121, select, [ADC(26), ADC(27), ADC(28)], settle_us=5)
    scanner.read(levels)           # levels: array('H'), one ADC reading (0..65535) per channel

Channel c is input c % 16 of multiplexer c // 16. After each change of the select lines the scanner
waits `settle_us` before reading: the mux's own switching time is ~500 ns, but the ADC's sample
capacitor charges through the mux's ~70 ohm and the sensor's output, and a reading taken at once still
carries part of the previous channel. read() allocates nothing."""

import time


def _sleep_us(us):
    # time.sleep_us on MicroPython; CPython (the fakes, the simulator) has none and needs none
    sleep = getattr(time, "sleep_us", None)
    if sleep is not None:
        sleep(us)


class PinSelect:
    """The mux's select lines as separate pins, S0 first (four writes per step). A board that puts
    S0..S3 on consecutive GPIOs can do it in one register write instead (SioSelect: a pass over 48
    channels 2.07 ms instead of 2.69 ms on the emulated RP2040)."""

    def __init__(self, pins):
        self.pins = pins

    def set(self, n):
        pins = self.pins
        for k in range(len(pins)):
            pins[k].value(n >> k & 1)


class MuxScanner:
    """channels: how many sensors. select: an object with set(n) driving S0..S3. adcs: one ADC per
    multiplexer, each with read_u16(). sleep_us: the wait between selecting and reading."""

    def __init__(self, channels, select, adcs, settle_us=5, sleep_us=None):
        if len(adcs) * 16 < channels:
            raise ValueError(
                "%d channels need %d multiplexers, not %d" % (channels, (channels + 15) // 16, len(adcs))
            )
        self.channels = channels
        self.select = select
        self.adcs = adcs
        self.settle_us = settle_us
        self.sleep_us = getattr(time, "sleep_us", _sleep_us) if sleep_us is None else sleep_us

    def read(self, levels):
        """One reading per channel into levels (an array('H') of at least `channels`)."""
        adcs = self.adcs
        n = self.channels
        s = 0
        while s < 16:
            self.select.set(s)
            self.sleep_us(self.settle_us)
            m = 0
            c = s
            while m < len(adcs) and c < n:
                levels[c] = adcs[m].read_u16()
                m += 1
                c += 16
            s += 1


class SioSelect:
    """The select lines on four consecutive GPIOs, S0 on `base`, set with one register write: the
    RP2040's SIO GPIO_OUT_XOR flips exactly the lines that change, so all four switch together (no
    stray channel selected between writes) and a step costs one store instead of four pin calls.
    mem32: machine.mem32 on the Pico (a dict-like fake in tests). The pins must already be outputs."""

    OUT = 0xD0000010  # SIO GPIO_OUT (RP2040 datasheet 2.3.1.7)
    XOR = 0xD000001C  # SIO GPIO_OUT_XOR

    def __init__(self, base, mem32):
        self.base = base
        self.mem32 = mem32
        # the lines' state as they are (GPIO_OUT): the XOR writes are relative to it, and the pins may
        # have been left high by whatever used them before
        self.now = (mem32[self.OUT] >> base) & 15

    def set(self, n):
        self.mem32[self.XOR] = (self.now ^ n) << self.base
        self.now = n

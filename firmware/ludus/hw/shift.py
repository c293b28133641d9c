"""Digital hall switches (DRV5032 and the like) on chained 74HC165 shift registers: every sensor read in
one pass into a preallocated buffer, over SPI or by bit-banged pins.

    spi = SPI(0, 1_000_000, sck=Pin(18), miso=Pin(16))
    scanner = ShiftScanner(channels=121, load=Pin(17, Pin.OUT), spi=spi)
    scanner.read(levels)            # levels[ch] = 1 where a magnet is sensed, 0 elsewhere

A 74HC165 latches its eight inputs while its load pin (SH/LD) is low, then shifts them out on its serial
output, H first, one per clock; chained, the chip whose output goes to the Pico comes out first. Channel
c is input c % 8 (A = 0 ... H = 7) of chip c // 8, chip 0 being the one nearest the Pico (its byte comes
first) unless `far_first`; `lsb_first` for boards wired A first. The switches pull their line low when
they sense a magnet (`active_low`, the DRV5032's open-drain output with a pull-up). read() allocates
nothing.

One byte more than the chips hold is shifted in: the last chip's serial input is tied to ground, so it
reads 0. Anything else (the data line's pull-up reading 1s through a broken wire, a chip without power)
sets `broken`: the readings are then no board's, and the firmware says so rather than see an empty
board (hardware/README.md, "The sensor chain")."""

from ludus.runtime import NATIVE

_unpack = None
if NATIVE:
    from ludus.hw.native import unpack as _unpack  # type: ignore[assignment]


class ShiftScanner:
    """channels: how many sensors (the rest of the last chip is ignored). load: the SH/LD pin (output).
    spi: a machine.SPI (readinto), or clock and data pins to bit-bang. Bit and chip order as above."""

    def __init__(
        self,
        channels,
        load,
        spi=None,
        clock=None,
        data=None,
        lsb_first=False,
        far_first=False,
        active_low=True,
    ):
        if spi is None and (clock is None or data is None):
            raise ValueError("a shift-register scanner needs an SPI bus or clock and data pins")
        self.channels = channels
        self.chips = (channels + 7) // 8
        self.load = load
        self.spi = spi
        self.clock = clock
        self.data = data
        self.lsb_first = lsb_first
        self.far_first = far_first
        self.invert = 0xFF if active_low else 0
        self.buf = bytearray(self.chips + 1)  # the chips' bytes, then the byte past the chain
        self.chip_bytes = memoryview(self.buf)[: self.chips]
        self.broken = False
        self.flags = self.invert | (0x200 if lsb_first else 0) | (0x400 if far_first else 0)
        load.value(1)
        if clock is not None:
            clock.value(0)

    def read(self, levels):
        """Latch every input and shift them in: levels[c] (0 or 1) for each channel."""
        load = self.load
        load.value(0)  # latch (the pulse is longer than the 74HC165's 20 ns at any MicroPython speed)
        load.value(1)
        buf = self.buf
        if self.spi is not None:
            self.spi.readinto(buf)
        else:
            self._bitbang(buf)
        self.broken = buf[self.chips] != 0
        if _unpack is not None:
            _unpack(self.chip_bytes, levels, self.channels, self.flags)
            return
        self._unpack_py(buf, levels)

    def _unpack_py(self, buf, levels):
        # (ludus.hw.native.unpack has this loop as viper code)
        chips = self.chips
        invert = self.invert
        n = self.channels
        c = 0
        k = 0
        while k < chips:
            byte = buf[chips - 1 - k if self.far_first else k] ^ invert
            bit = 0
            while bit < 8 and c < n:
                # the first bit shifted in (the byte's top bit) is input H, unless wired A first
                levels[c] = (byte >> (bit if not self.lsb_first else 7 - bit)) & 1
                bit += 1
                c += 1
            k += 1

    def _bitbang(self, buf):
        clock = self.clock
        data = self.data
        k = 0
        while k < len(buf):
            byte = 0
            i = 0
            while i < 8:
                byte = byte << 1 | data.value()
                clock.value(1)
                clock.value(0)
                i += 1
            buf[k] = byte
            k += 1

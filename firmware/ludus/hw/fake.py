"""Fakes of the hardware the drivers take, with the same small interfaces, for CPython, the unix port and
the simulator: a pin (value()), driven by a test or a script."""


class FakePin:
    """A pin-like object: value() reads it, value(v) sets it (as a test or a script drives the line).
    Starts at `level` (1: a pulled-up input with nothing pressing it)."""

    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0
        return None


class PowerCut(Exception):
    """Raised by FakeFlash when its write budget runs out: the power went in the middle of a write."""


class FakeFlash:
    """NOR flash as rp2.Flash presents it (the block device's extended interface): blocks of
    block_size bytes, erased to 0xFF; programming can only clear bits (it ANDs). cut_after: a number of
    bytes that may still be programmed before the power goes (None: never): the write that crosses it
    programs only its first bytes and raises PowerCut, as a cut at that byte would leave the chip.
    Counts erases and bytes programmed."""

    def __init__(self, blocks, block_size=4096):
        self.block_size = block_size
        self.blocks = blocks
        self.data = bytearray(blocks * block_size)  # (one allocation: filled in place)
        self._erase(0, blocks * block_size)
        self.cut_after = None
        self.erases = 0
        self.programmed = 0

    def _erase(self, at, n):
        data = self.data
        for i in range(at, at + n):
            data[i] = 0xFF

    def readblocks(self, n, buf, offset=0):
        at = n * self.block_size + offset
        buf[:] = self.data[at : at + len(buf)]

    def writeblocks(self, n, buf, offset=0):
        at = n * self.block_size + offset
        if self.cut_after is None:  # the whole write at once: the bits ANDed as big integers
            k = len(buf)
            old = int.from_bytes(self.data[at : at + k], "little")
            self.data[at : at + k] = (old & int.from_bytes(buf, "little")).to_bytes(k, "little")
            self.programmed += k
            return
        for i in range(len(buf)):
            if self.cut_after is not None:
                if self.cut_after == 0:
                    raise PowerCut("power cut at byte %d of a %d-byte write" % (i, len(buf)))
                self.cut_after -= 1
            self.data[at + i] &= buf[i]
            self.programmed += 1

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.block_size
        if op == 6:
            if self.cut_after is not None and self.cut_after == 0:
                raise PowerCut("power cut before an erase")
            self._erase(arg * self.block_size, self.block_size)
            self.erases += 1
            return 0
        return None


class FakeShiftChain:
    """Chained 74HC165s as the Pico sees them: `lines` holds every input's level (1: high, a
    DRV5032 with no magnet; 0: pulled low), chip 0 nearest the Pico. `load` latches the lines while low;
    the latched bits come out chip 0 first, each chip's H input first, through `spi.readinto` or one bit
    per rising edge of `clock` on `data`. Counts latches and clock edges."""

    def __init__(self, chips):
        self.chips = chips
        self.lines = bytearray(b"\x01" * (8 * chips))
        self._latched = bytearray(8 * chips)
        self._pos = 0
        self.latches = 0
        self.edges = 0
        chain = self

        class _Load:
            def value(self, v=None):
                if v == 0:
                    chain._latched[:] = chain.lines
                    chain._pos = 0
                    chain.latches += 1

        class _Clock:
            def __init__(self):
                self.level = 0

            def value(self, v=None):
                if v and not self.level:
                    chain._pos += 1
                    chain.edges += 1
                if v is not None:
                    self.level = 1 if v else 0

        class _Data:
            def value(self, v=None):
                return chain._bit(chain._pos)

        class _Spi:
            def readinto(self, buf):
                for k in range(len(buf)):
                    byte = 0
                    for _ in range(8):
                        byte = byte << 1 | chain._bit(chain._pos)
                        chain._pos += 1
                    buf[k] = byte

        self.load = _Load()
        self.clock = _Clock()
        self.data = _Data()
        self.spi = _Spi()

    def _bit(self, pos):
        # the pos-th bit out: chip pos // 8, input H first
        if pos >= 8 * self.chips:
            return 0  # (the chain's serial input, tied low)
        return self._latched[(pos // 8) * 8 + 7 - pos % 8]


class FakeMuxBank:
    """CD74HC4067 multiplexers into ADCs as the Pico sees them: `inputs` holds every channel's analog
    level (array-like of 0..65535); `select` (set(n)) picks input n of every mux, and each of `adcs`
    (read_u16()) reads its mux's selected input. A reading taken before `settle_us` have passed since
    the last select (by `sleep_us`) still carries the previous input's level, as a real sample
    capacitor does."""

    def __init__(self, muxes, settle_us=5):
        self.inputs = [0] * (16 * muxes)
        self.selected = 0
        self.previous = 0
        self.waited = 0
        self.settle_us = settle_us
        self.selects = 0
        bank = self

        class _Select:
            def set(self, n):
                bank.previous = bank.selected
                bank.selected = n
                bank.waited = 0
                bank.selects += 1

        class _Adc:
            def __init__(self, m):
                self.m = m

            def read_u16(self):
                n = bank.selected if bank.waited >= bank.settle_us else bank.previous
                return bank.inputs[self.m * 16 + n]

        self.select = _Select()
        self.adcs = [_Adc(m) for m in range(muxes)]

    def sleep_us(self, us):
        self.waited += us


class FakeStrip:
    """Stands in for the LED chain: send(buf) keeps a copy of the last frame sent (into a buffer made
    once) and counts frames."""

    def __init__(self, count):
        self.last = bytearray(3 * count)
        self.frames = 0

    def send(self, buf):
        self.last[:] = buf
        self.frames += 1


class FakePWM:
    """A PWM output: freq(hz) and duty_u16(d) set it; `changes` counts the settings, `sounding` says
    whether a tone plays (duty above 0) and at what frequency."""

    def __init__(self):
        self.hz = 0
        self.duty = 0
        self.changes = 0

    def freq(self, hz=None):
        if hz is None:
            return self.hz
        self.hz = hz
        self.changes += 1
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        self.duty = d
        self.changes += 1
        return None

    def sounding(self):
        return self.hz if self.duty else 0

"""Fakes of the hardware the drivers take, with the same small interfaces, for CPython, the unix port and
the simulator: a pin (value()), driven by a test or a script."""


class FakePin:
    """A pin-like object: value() reads it, value(v) sets it (as a test or a script drives the line),
    and irq() calls its handler on the edges it asks for, as machine.Pin does. Starts at `level` (1: a
    pulled-up input with nothing pressing it)."""

    IRQ_FALLING = 4  # (machine.Pin's values on the rp2 port)
    IRQ_RISING = 8

    def __init__(self, level=1):
        self.level = level
        self.handler = None
        self.trigger = 0

    def value(self, v=None):
        if v is None:
            return self.level
        old = self.level
        self.level = 1 if v else 0
        if self.handler is not None and old != self.level:
            if self.trigger & (self.IRQ_FALLING if old else self.IRQ_RISING):
                self.handler(self)
        return None

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        self.handler = handler
        self.trigger = trigger


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
        self.broken = False  # the data line cut: its pull-up reads 1 for every bit
        self.lines = bytearray(b"\x01" * (8 * chips))
        self._latched = bytearray(8 * chips)
        self._pos = 0
        self.latches = 0
        self.edges = 0
        self.load = _ChainLoad(self)
        self.clock = _ChainClock(self)
        self.data = _ChainData(self)
        self.spi = _ChainSpi(self)

    def _bit(self, pos):
        # the pos-th bit out: chip pos // 8, input H first
        if self.broken:
            return 1
        if pos >= 8 * self.chips:
            return 0  # (the chain's serial input, tied low)
        return self._latched[(pos // 8) * 8 + 7 - pos % 8]


class _ChainLoad:
    # the SH/LD pin: low latches the lines
    def __init__(self, chain):
        self.chain = chain

    def value(self, v=None):
        if v == 0:
            chain = self.chain
            chain._latched[:] = chain.lines
            chain._pos = 0
            chain.latches += 1


class _ChainClock:
    # the clock pin: each rising edge shifts one bit out
    def __init__(self, chain):
        self.chain = chain
        self.level = 0

    def value(self, v=None):
        if v and not self.level:
            self.chain._pos += 1
            self.chain.edges += 1
        if v is not None:
            self.level = 1 if v else 0


class _ChainData:
    # the serial output of the chip nearest the Pico
    def __init__(self, chain):
        self.chain = chain

    def value(self, v=None):
        return self.chain._bit(self.chain._pos)


class _ChainSpi:
    # an SPI bus reading the chain, eight bits a byte, first bit out the highest
    def __init__(self, chain):
        self.chain = chain

    def readinto(self, buf):
        chain = self.chain
        for k in range(len(buf)):
            byte = 0
            for _ in range(8):
                byte = byte << 1 | chain._bit(chain._pos)
                chain._pos += 1
            buf[k] = byte


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


class FakeStateMachine:
    """Stands in for an rp2.StateMachine the DMA writes into: the bytes it was given, in order."""

    def __init__(self, size):
        self.got = bytearray(size)
        self.words = 0


class FakeDma:
    """Stands in for an rp2.DMA channel: config() starts a transfer that stays active for `busy` polls
    of active(), and the bytes reach the state machine only when it ends (as a real channel reads its
    source while the frame goes out, so a source written too early would be seen)."""

    def __init__(self, busy=3):
        self.busy = busy
        self.left = 0
        self.started = 0
        self.stopped = 0
        self.ctrl = None
        self.read = bytearray(0)
        self.write = FakeStateMachine(0)
        self.count = 0

    def pack_ctrl(self, **fields):
        return fields

    def config(self, read=None, write=None, count=0, ctrl=None, trigger=False):
        self.ctrl = ctrl
        self.read, self.write, self.count = read, write, count  # (no tuple: the heap may be locked)
        if trigger:
            self.started += 1
            self.left = self.busy
            if not self.busy:
                self._land()

    def _land(self):
        read, count = self.read, self.count
        got = self.write.got
        for i in range(count):  # (a slice would allocate: the frame's path is checked with the heap locked)
            got[i] = read[i]
        self.write.words += count

    def active(self, value=None):
        if value is not None:
            if not value and self.left:
                self.left = 0
                self.stopped += 1
            return None
        if self.left:
            self.left -= 1
            if not self.left:
                self._land()
            return True
        return False


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


class FakeSerial:
    """The USB serial port: feed(data) is what the host sent; readinto(buf) hands it out as the
    port would, never waiting. A ring of `capacity` bytes made once (a real host stops sending when
    the device's buffer is full: feed() beyond it raises OverflowError). Lines the board sends go
    where the device is told (its `out`); tests of the board's own writer (ludus.outgoing) use
    tests/firmware/usb_host.py, whose port models the host's side as well."""

    def __init__(self, capacity=4096):
        self.ring = bytearray(capacity)
        self.head = 0  # the next byte to hand out, and how many wait
        self.count = 0

    def feed(self, data):
        size = len(self.ring)
        if self.count + len(data) > size:
            raise OverflowError("the serial buffer holds %d bytes" % size)
        at = (self.head + self.count) % size
        for b in data:
            self.ring[at] = b
            at = at + 1 if at + 1 < size else 0
        self.count += len(data)

    def readinto(self, buf):
        n = min(len(buf), self.count)
        ring = self.ring
        size = len(ring)
        head = self.head
        for i in range(n):
            buf[i] = ring[head]
            head = head + 1 if head + 1 < size else 0
        self.head = head
        self.count -= n
        return n


class FakeWatchdog:
    """machine.WDT on a clock: feed() notes the time; `starved` counts the gaps longer than its
    timeout (a real one would have reset the board)."""

    def __init__(self, timeout_ms, clock):
        self.timeout = timeout_ms
        self.clock = clock
        self.last = clock()
        self.feeds = 0
        self.starved = 0
        self.stopped = False

    def feed(self):
        now = self.clock()
        if not self.stopped and now - self.last > self.timeout:
            self.starved += 1
        self.last = now
        self.feeds += 1


class Finished(BaseException):
    """FakePlatform's end of time: raised by sleep_ms once the clock passes `until` (a BaseException,
    so the firmware's loop does not take it for a fault and restart)."""


class FakeReset(BaseException):
    """FakePlatform.reset(): machine.reset() on the board."""


def us_clock():
    """A microsecond clock on both runtimes: time.ticks_us, or CPython's perf counter wrapped as the
    ticks are."""
    import time

    ticks_us = getattr(time, "ticks_us", None)
    if ticks_us is not None:
        return ticks_us
    # (CPython, which has no ticks_us; the MicroPython stubs have no perf_counter_ns)
    ns = time.perf_counter_ns  # type: ignore[attr-defined]
    return lambda: ns() // 1000 & 0x3FFFFFFF


class FakePlatform:
    """The Pico as ludus.device.Device sees it (ludus.hw.pico.Platform's interface), made of the fakes
    above: files in a dict, a clock that sleep_ms moves on (ticks_us is the real clock, so the tick's
    own time is measured), the watchdog, and hardware() building the board's drivers on fake lines.

    files: name -> text (config.json). paths: name -> a real file's path (boards/NAME.json). flash:
    the journal's (FakeFlash). serial: the link's port (a FakeSerial; ludus.hw.usb.UsbSerial for a
    terminal). realtime: the real clock instead (the unix port's time.ticks_ms). each_ms:
    called with the time at every sleep, to drive the table (put pieces, press, send commands).
    until: the time sleep_ms stops at (Finished)."""

    name = "fake"

    def __init__(self, files, paths=None, flash=None, each_ms=None, until=None, serial=None, realtime=False):
        self.files = files
        self.paths = paths if paths is not None else {}
        self.realtime = realtime  # the real clock (the firmware run interactively on the unix port)
        self.flash = flash if flash is not None else FakeFlash(4, 1024)
        self.each_ms = each_ms
        self.until = until
        self.now = 0
        self.us = us_clock()
        self.watchdog = None
        self.resets = 0
        self.serial = serial if serial is not None else FakeSerial()
        self.chain = self.bank = self.strip = self.pwm = None
        self.pin = FakePin()
        self.supply = FakePin(0)  # the supply-sense line: 0 on USB alone, 1 with the external supply
        self.board = None
        # the chip as ludus.hw.pico reads it: why it last started and the watchdog resets in a row
        # (a test sets them before a boot), why it cannot run (None: it can), and the KiB of flash
        # the firmware image leaves for the journal (None: not known)
        self.cause = "power_on"
        self.bites = 0
        self.refusal = None
        self.journal_room = None

    def read_file(self, name):
        return self.files.get(name.lstrip("/"))

    def write_file(self, name, text):
        self.files[name.lstrip("/")] = text

    def path(self, name):
        name = name.lstrip("/")
        return self.paths.get(name) or (name if name in self.files else None)

    def ticks_ms(self):
        if self.realtime:
            import time

            return time.ticks_ms()
        return self.now

    def ticks_us(self):
        return self.us()

    def sleep_ms(self, ms):
        if self.realtime:
            import time

            time.sleep_ms(ms)
            return
        end = self.now + ms
        while self.now < end:
            self.now += 1 if self.each_ms is not None else end - self.now
            if self.until is not None and self.now >= self.until:
                raise Finished()
            if self.each_ms is not None:
                self.each_ms(self.now)

    def unsupported(self):
        return self.refusal

    def boot_cause(self):
        return self.cause, self.bites

    def clear_bites(self):
        self.bites = 0

    def journal_room_kb(self):
        return self.journal_room

    def journal_flash(self, journal_kb):
        # (the test's flash, whatever its size; none at all for a journal that has no room)
        return self.flash if journal_kb else FakeFlash(0)

    def start_watchdog(self, timeout_ms):
        self.watchdog = FakeWatchdog(timeout_ms, self.ticks_ms)
        return self.watchdog

    def stop_watchdog(self):
        if self.watchdog is not None:
            self.watchdog.stopped = True

    def reset(self):
        self.resets += 1
        self.cause = "reset"  # (the next boot's: machine.reset() counts no watchdog reset)
        self.bites = 0
        raise FakeReset()

    def alive(self, on):
        pass

    def usb(self):
        return self.serial

    def hardware(self, config, board):
        from ludus.hw.button import Button
        from ludus.hw.buzzer import Buzzer
        from ludus.hw.pixels import Pixels

        self.board = board
        n = board.channel_count
        if board.sensor_kind == "analog":
            from ludus.hw.mux import MuxScanner

            bank = self.bank = FakeMuxBank((n + 15) // 16)
            sensors = MuxScanner(n, bank.select, bank.adcs, sleep_us=bank.sleep_us)  # type: object
        else:
            from ludus.hw.shift import ShiftScanner

            chain = self.chain = FakeShiftChain((n + 7) // 8)
            sensors = ShiftScanner(n, chain.load, spi=chain.spi)
        if self.strip is None or len(self.strip.last) != 3 * board.led_count:
            self.strip = FakeStrip(board.led_count)
        self.pwm = FakePWM()
        return {
            "sensors": sensors,
            "supply": self.supply if config["pins"].get("supply") is not None else None,
            "button": Button(self.pin),
            "pixels": Pixels(None, board.led_count, send=self.strip.send),
            "buzzer": Buzzer(self.pwm) if config["pins"]["buzzer"] is not None else None,
            "flash": self.journal_flash(config["journal_kb"]),
        }

    def put(self, cell, count):
        """`count` pieces on a cell of the board (digital sensors: any is one magnet)."""
        board = self.board
        if board is None:
            raise ValueError("put() before hardware(): the device has not booted")
        ch = board.channel_of_cell[cell]
        chain = self.chain
        bank = self.bank
        if chain is not None:
            chain.lines[ch] = 0 if count else 1  # a magnet pulls the switch's line low
        elif bank is not None:
            bank.inputs[ch] = 32768 + 9000 * count if count else 32768

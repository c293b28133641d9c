"""The Raspberry Pi Pico as the firmware's platform: files, clock, watchdog, and the drivers built from
config.json's pins (docs/firmware.md). The only module of the firmware that imports machine and rp2;
ludus.hw.fake.FakePlatform has the same interface off the board.

    from ludus.device import Device
    from ludus.hw.pico import Platform
    Device(Platform()).run()             # main.py
"""

import os
import time

import machine
import rp2

from ludus.runtime import const

_WATCHDOG_CTRL_CLR = const(0x4005B000)  # WATCHDOG CTRL (0x40058000) through its atomic-clear alias
_WATCHDOG_ENABLE = const(1 << 30)
_SPI_SCK = ((2, 6, 18, 22), (10, 14, 26))  # the GPIOs each SPI bus can clock (RP2040 datasheet 1.4.3)
_SPI_RX = ((0, 4, 16, 20), (8, 12, 28))
JOURNAL_BLOCK = const(4096)


class FlashRange:
    """`count` 4 KiB blocks of the Pico's flash just below the file system, as a block device with
    rp2.Flash's extended interface (what ludus.record.journal.Journal takes).

    The stock RPI_PICO build's firmware ends near 0x53000 and its littlefs starts at 0xA0000: the
    flash between is unused, and littlefs must not be shrunk to make room (its superblock records
    its size, and the boot script formats the whole area when the size disagrees). rp2.Flash() can
    reach below its own start with negative block numbers: the offset arithmetic is 32-bit and
    unchecked in MicroPython 1.28 (ports/rp2/rp2_flash.c), checked in the emulator. So the journal's
    blocks are -count .. -1 of rp2.Flash(): 16 blocks are flash 0x90000..0xA0000. On the ROMFS build
    that is the top of the ROMFS partition, which `ludus flash --mode romfs` keeps clear."""

    def __init__(self, count):
        self.flash = rp2.Flash()
        self.first = -count
        self.count = count

    def readblocks(self, n, buf, offset=0):
        self.flash.readblocks(self.first + n, buf, offset)

    def writeblocks(self, n, buf, offset=0):
        self.flash.writeblocks(self.first + n, buf, offset)

    def ioctl(self, op, arg):
        if op == 4:
            return self.count
        if op == 5:
            return JOURNAL_BLOCK
        if op == 6:
            return self.flash.ioctl(6, self.first + arg)
        return 0


class Watchdog:
    """machine.WDT, and a way to stop it: the RP2040's watchdog cannot be stopped through machine, and
    a board left in the REPL (Ctrl-C from mpremote) must not reset itself under a file copy."""

    def __init__(self, timeout_ms):
        self.wdt = machine.WDT(timeout=timeout_ms)

    def feed(self):
        self.wdt.feed()

    def stop(self):
        machine.mem32[_WATCHDOG_CTRL_CLR] = _WATCHDOG_ENABLE


def _spi_bus(sck, miso):
    for bus in (0, 1):
        if sck in _SPI_SCK[bus] and miso in _SPI_RX[bus]:
            return bus
    return None


class Platform:
    """The Pico: files on its file system, time, the watchdog, and hardware(config, board)."""

    name = "rp2"

    def __init__(self):
        self.status = machine.Pin(25, machine.Pin.OUT)  # the Pico's own LED: on while the loop runs
        self.watchdog = None

    def read_file(self, name):
        try:
            with open(name) as f:
                return f.read()
        except (OSError, ValueError):  # missing, or not UTF-8 text (UnicodeError is a ValueError)
            return None

    def path(self, name):
        """The file's path if it exists, else None."""
        try:
            os.stat(name)
            return name
        except OSError:
            return None

    def write_file(self, name, text):
        # whole or not at all: the new text goes to a file of its own, renamed over the old one
        tmp = name + ".new"
        with open(tmp, "w") as f:
            f.write(text)
        os.rename(tmp, name)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    def start_watchdog(self, timeout_ms):
        self.watchdog = Watchdog(timeout_ms)
        return self.watchdog

    def stop_watchdog(self):
        if self.watchdog is not None:
            self.watchdog.stop()

    def reset(self):
        machine.reset()

    def usb(self):
        from ludus.hw.usb import UsbSerial

        return UsbSerial()

    def alive(self, on):
        self.status.value(1 if on else 0)

    def hardware(self, config, board):
        """The drivers config["pins"] describes, for this board: a dict with sensors, button, pixels,
        buzzer (or None) and flash (the journal's)."""
        from machine import ADC, PWM, SPI, Pin

        from ludus.hw.button import Button
        from ludus.hw.buzzer import Buzzer
        from ludus.hw.pixels import Pixels

        pins = config["pins"]
        s = pins["sensors"]
        if s["kind"] == "shift":
            from ludus.hw.shift import ShiftScanner

            bus = _spi_bus(s["sck"], s["miso"])
            if bus is not None:
                # the bus first: SPI() takes its default MOSI pin (GP19 or GP11), which may be SH/LD
                spi = SPI(bus, 1_000_000, sck=Pin(s["sck"]), miso=Pin(s["miso"]))
                load = Pin(s["load"], Pin.OUT, value=1)
                sensors = ShiftScanner(board.channel_count, load, spi=spi)  # type: object
            else:
                load = Pin(s["load"], Pin.OUT, value=1)
                clock = Pin(s["sck"], Pin.OUT, value=0)
                data = Pin(s["miso"], Pin.IN)
                sensors = ShiftScanner(board.channel_count, load, clock=clock, data=data)
        else:
            from ludus.hw.mux import MuxScanner, PinSelect, SioSelect

            sel = s["select"]
            if sel == list(range(sel[0], sel[0] + 4)):
                for p in sel:
                    Pin(p, Pin.OUT, value=0)
                select = SioSelect(sel[0], machine.mem32)  # type: object
            else:
                select = PinSelect([Pin(p, Pin.OUT, value=0) for p in sel])
            sensors = MuxScanner(board.channel_count, select, [ADC(Pin(p)) for p in s["adc"]])
        buzzer = None
        if pins["buzzer"] is not None:
            buzzer = Buzzer(PWM(Pin(pins["buzzer"])))
        return {
            "sensors": sensors,
            "button": Button(Pin(pins["button"], Pin.IN, Pin.PULL_UP)),
            "pixels": Pixels(Pin(pins["leds"], Pin.OUT), board.led_count),
            "buzzer": buzzer,
            "flash": FlashRange(config["journal_kb"] // 4),
        }

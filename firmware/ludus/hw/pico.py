"""The Raspberry Pi Pico as the firmware's platform: files, clock, watchdog, and the drivers built from
config.json's pins (docs/firmware.md). The part a game runs with; what only the boot needs is
ludus.hw.pico_boot's, loaded for it and dropped. These two are the only modules of the firmware that
import machine and rp2; ludus.hw.fake.FakePlatform has the same interface off the board.

    from ludus.device import Device
    from ludus.hw.pico import Platform
    Device(Platform()).run()             # main.py
"""

import os
import time

import machine
import rp2

from ludus.runtime import const, transient

_WATCHDOG_CTRL_CLR = const(0x4005B000)  # WATCHDOG CTRL (0x40058000) through its atomic-clear alias
_WATCHDOG_ENABLE = const(1 << 30)
# the count of watchdog resets in a row, kept in SCRATCH0 under a mark (ludus.hw.pico_boot.boot_cause)
_WATCHDOG_SCRATCH0 = const(0x4005800C)
_BITES_MARK = const(0x4C550000)
JOURNAL_BLOCK = const(4096)


class FlashRange:
    """`count` 4 KiB blocks of the Pico's flash just below the file system, or on a build with a ROMFS
    partition just below that, as a block device with rp2.Flash's extended interface (what
    ludus.record.journal.Journal takes).

    The stock RPI_PICO build's firmware ends near 0x53000 and its littlefs starts at 0xA0000: the
    flash between is unused, and littlefs must not be shrunk to make room (its superblock records
    its size, and the boot script formats the whole area when the size disagrees). rp2.Flash() can
    reach below its own start with negative block numbers: the offset arithmetic is 32-bit and
    unchecked in MicroPython 1.28 (ports/rp2/rp2_flash.c), checked in the emulator. So the journal's
    blocks are -count .. -1 of rp2.Flash(): 12 blocks are flash 0x94000..0xA0000. A ROMFS build puts
    its partition right below the file system (0x60000..0xA0000 for 256 KiB), and the journal goes
    below that (0x54000..0x60000), so that the whole partition is the code's."""

    def __init__(self, count, below=0):
        self.flash = rp2.Flash()
        self.first = -below - count
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

    def unsupported(self):
        """Why this firmware cannot run on this board, or None (ludus.hw.pico_boot)."""
        return transient("ludus.hw.pico_boot").unsupported()

    def boot_cause(self):
        """(why the chip last started, watchdog resets in a row): ludus.hw.pico_boot."""
        return transient("ludus.hw.pico_boot").boot_cause()

    def clear_bites(self):
        """The board has run well since: watchdog resets are counted afresh."""
        machine.mem32[_WATCHDOG_SCRATCH0] = _BITES_MARK

    def journal_room_kb(self):
        """The most KiB of flash free for the journal, or None (ludus.hw.pico_boot)."""
        return transient("ludus.hw.pico_boot").journal_room_kb()

    def journal_flash(self, journal_kb):
        """The journal's flash: journal_kb KiB just below the file system or the ROMFS partition."""
        return FlashRange(journal_kb // 4, transient("ludus.hw.pico_boot").romfs_blocks())

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
        buzzer (or None), supply (or None) and flash (the journal's): ludus.hw.pico_boot."""
        drivers = transient("ludus.hw.pico_boot").hardware(config, board)
        drivers["flash"] = self.journal_flash(config["journal_kb"])
        return drivers

"""The Pico's boot-time half (ludus.hw.pico has the rest): the chip and the build checked, why it
started, where the journal may go, and the drivers built from config.json's pins. Loaded for the
boot only (ludus.runtime.transient), so that none of it stays on the heap while a game runs.

    from ludus.runtime import transient
    drivers = transient("ludus.hw.pico_boot").hardware(config, board)
"""

import time

import machine
import rp2

from ludus.runtime import const

# RP2040 datasheet 4.7.6: REASON says why the chip last reset (TIMER: the watchdog bit; FORCE: a reset
# it was told to make, as machine.reset() does; neither: power-on or the RUN pin). The scratch
# registers keep their values through a watchdog reset; the SDK's reboot code uses 4 to 7, so SCRATCH0
# holds this firmware's count of watchdog resets in a row, under a mark of its own.
_WATCHDOG_REASON = const(0x40058008)
_WATCHDOG_SCRATCH0 = const(0x4005800C)
_REASON_TIMER = const(1)
_REASON_FORCE = const(2)
_BITES_MARK = const(0x4C550000)  # "LU" in the upper half: the count in the lower half is ours
_SYSINFO_CHIP_ID = const(0x40000000)  # RP2040 datasheet 2.20.2: 0x?0002927 on an RP2040 (part 2)
_FLASH_BASE = const(0x10000000)  # XIP: the flash as memory
_FS_OFFSET = const(0xA0000)  # the RPI_PICO build's file system (1408 KiB) starts here
_FS_BLOCKS = const(352)
# pico-sdk's binary info (crt0.S): a header in the main image's first 256 bytes points at entries;
# the one tagged "RP" with id BINARY_INFO_ID_RP_BINARY_END gives the address the firmware ends at
_BI_START = const(0x7188EBF2)
_BI_END = const(0xE71AA390)
_BI_ID_AND_INT = const(5)
_BI_TAG_RP = const(0x5052)
_BI_BINARY_END = const(0x68F465DE)
_LED_SM = const(4)  # the LED chain's PIO state machine: PIO1's first, leaving PIO0 to a maker's own code
_SPI_SCK = ((2, 6, 18, 22), (10, 14, 26))  # the GPIOs each SPI bus can clock (RP2040 datasheet 1.4.3)
_SPI_RX = ((0, 4, 16, 20), (8, 12, 28))
_BLOCK = const(4096)  # a flash block (the journal's: ludus.hw.pico.FlashRange)


def _word(address):
    return machine.mem32[address] & 0xFFFFFFFF


def romfs_blocks():
    """The 4 KiB blocks of the build's ROMFS partition (0: a build without one, as the stock RPI_PICO)."""
    try:
        import vfs

        if vfs.rom_ioctl(1) > 0:  # (the number of ROMFS segments)
            return vfs.rom_ioctl(2, 0).ioctl(4, 0)
    except (ImportError, AttributeError, OSError, TypeError):
        pass
    return 0


def firmware_end():
    """Where the firmware image ends, as an offset into the flash, read from the binary info the
    pico-sdk puts in every image (None if there is none): code and data reach that far."""
    for at in range(_FLASH_BASE + 0x100, _FLASH_BASE + 0x200, 4):
        if _word(at) == _BI_START and _word(at + 16) == _BI_END:
            first = _word(at + 4)
            last = _word(at + 8)
            if first & 3 or not (_FLASH_BASE < first <= last < _FLASH_BASE + 0x200000):
                return None
            for entry in range(first, last, 4):
                item = _word(entry)
                if (
                    _FLASH_BASE <= item < _FLASH_BASE + 0x200000
                    and not item & 3  # (mem32 reads whole words only)
                    and _word(item) == _BI_ID_AND_INT | _BI_TAG_RP << 16
                    and _word(item + 4) == _BI_BINARY_END
                ):
                    return _word(item + 8) - _FLASH_BASE
            return None
    return None


def held_at_power_up(samples=10):
    """True if the die button is held down as the board starts (every one of SAMPLES readings, 5 ms
    apart, low): main.py then leaves the board to the REPL, the firmware not started and no watchdog
    running (docs/firmware.md, "Back to the REPL"). The button's pin is config.json's, GP14 without it."""
    pin = 14
    try:
        import json

        with open("config.json") as f:
            found = json.load(f)["pins"]["button"]
        if isinstance(found, int) and 0 <= found <= 28:
            pin = found
    except Exception:  # (no file, or no such field: config.json's reader says so later)
        pass
    button = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
    for _ in range(samples):
        time.sleep_ms(5)
        if button.value():
            return False
    return True


def led_frames(pin):
    """How the LED chain on GPIO pin is sent: a ludus.hw.ws2812.DmaFrames (a PIO state machine fed by a
    DMA channel; the CPU free and interrupts on while a frame goes out), or None where the state
    machine or a channel cannot be had (machine.bitstream then: docs/drivers.md)."""
    from ludus.hw.ws2812 import FREQ, DmaFrames, dreq, program

    try:
        sm = rp2.StateMachine(_LED_SM, program(rp2.PIO.OUT_LOW), freq=FREQ, sideset_base=machine.Pin(pin))
        sm.active(1)
        return DmaFrames(sm, rp2.DMA(), dreq(_LED_SM))
    except (AttributeError, OSError, ValueError, TypeError):
        return None


def _spi_bus(sck, miso):
    for bus in (0, 1):
        if sck in _SPI_SCK[bus] and miso in _SPI_RX[bus]:
            return bus
    return None


def unsupported():
    """Why this firmware cannot run on this board, or None: it is written for the RP2040 with the
    RPI_PICO build's flash layout (the watchdog's registers, the journal's place below a file
    system of 1408 KiB at 0xA0000). The RP2350 (Pico 2), the Pico W's build and other layouts
    are refused by name rather than run with a journal in the wrong place."""
    import sys

    machine_name = getattr(sys.implementation, "_machine", "?")
    if _word(_SYSINFO_CHIP_ID) & 0x0FFFFFFF != 0x00002927:
        return "this board is %s, not an RP2040: the firmware is written for the Raspberry Pi Pico" % (
            machine_name,
        )
    blocks = rp2.Flash().ioctl(4, 0) or 0
    if blocks != _FS_BLOCKS:
        return (
            "%s has a file system of %d KiB, not the Raspberry Pi Pico build's 1408 KiB: the"
            " journal's flash would be in the wrong place (flash the RPI_PICO build)"
            % (machine_name, blocks * 4)
        )
    return None


def boot_cause():
    """(why the chip last started, watchdog resets in a row): "power_on" (power or the RUN pin),
    "reset" (machine.reset(): the firmware's own restarts, mpremote's) or "watchdog" (it bit);
    the count goes up with each watchdog reset in a row and back to 0 otherwise."""
    reason = _word(_WATCHDOG_REASON)
    kept = _word(_WATCHDOG_SCRATCH0)
    bites = kept & 0xFFFF if kept & 0xFFFF0000 == _BITES_MARK else 0
    if reason & _REASON_TIMER:
        cause = "watchdog"
        bites += 1
    else:
        cause = "reset" if reason & _REASON_FORCE else "power_on"
        bites = 0
    machine.mem32[_WATCHDOG_SCRATCH0] = _BITES_MARK | (bites & 0xFFFF)
    return cause, bites


def journal_room_kb():
    """The most KiB of flash that the firmware image leaves free below the file system, or below
    the ROMFS partition (the journal's place), or None if the image's end cannot be read."""
    end = firmware_end()
    if end is None:
        return None
    top = _FS_OFFSET - romfs_blocks() * _BLOCK
    return max(0, (top - ((end + 4095) & ~4095)) // 1024)


def _pixels(pin, count):
    from ludus.hw.pixels import Pixels

    frames = led_frames(pin)
    if frames is None:
        return Pixels(machine.Pin(pin, machine.Pin.OUT), count)  # (the pin back from the PIO)
    return Pixels(None, count, send=frames)


def hardware(config, board):
    """The drivers config["pins"] describes, for this board: a dict with sensors, supply (or None),
    button, pixels and buzzer (or None); ludus.hw.pico.Platform adds the journal's flash."""
    from machine import ADC, PWM, SPI, Pin

    from ludus.hw.button import Button
    from ludus.hw.buzzer import Buzzer

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
    supply = pins.get("supply")
    return {
        "sensors": sensors,
        # the external supply's sense line: a divider and a clamp, no pull needed (hardware/README.md)
        "supply": Pin(supply, Pin.IN) if supply is not None else None,
        "button": Button(Pin(pins["button"], Pin.IN, Pin.PULL_UP)),
        "pixels": _pixels(pins["leds"], board.led_count),
        "buzzer": buzzer,
    }

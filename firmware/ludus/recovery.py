"""What the device does when something goes wrong, loaded only then (ludus.runtime.transient): an
exception in the loop reported and the loop built again from the journal, safe mode's loop, the
error pattern on the LEDs, the journal kept in RAM when its flash cannot be used, and the hand-over
to the REPL. None of it runs while a game is played, so none of its code stays on the heap then
(docs/firmware.md, "When something goes wrong")."""

import gc
import json

from ludus.runtime import const

_TICKS_MASK = const(0x3FFFFFFF)
MAX_FAULTS = const(5)  # more exceptions than this in FAULT_WINDOW_MS: safe mode
FAULT_WINDOW_MS = const(60000)
SAFE_REPEAT_MS = const(10000)  # safe mode says why this often
_SAFE_POLL_MS = const(100)  # safe mode's loop: the link polled and the pattern drawn this often
ERROR_GRB = b"\x00\x60\x00"  # red, as G R B (ludus.startup marks a failed self-test's cells so too)
_RECOVERY_GRB = b"\x30\x60\x00"  # amber: a game kept in the journal but not restored


def crashed(device, exc):
    """An exception ended the loop: reported with its traceback, shown, and the loop built again
    from the journal (which kept the game); safe mode after too many in a row. The caller has
    dropped the app already (a MemoryError's report needs the heap it held)."""
    p = device.platform
    now = p.ticks_ms()
    device._fault("loop", "%s: %s" % (type(exc).__name__, exc), device._trace(exc))
    device.faults = [t for t in device.faults if (now - t) & _TICKS_MASK < FAULT_WINDOW_MS]
    device.faults.append(now)
    gc.collect()
    if len(device.faults) > MAX_FAULTS:
        device._enter_safe(
            "%d faults in %d s: the loop is not restarted" % (len(device.faults), FAULT_WINDOW_MS // 1000),
            exc,
        )
        return
    show_error(device, 500)
    if device.hw is not None and device.board is not None:
        device._open_journal()
        device._build_app()
    else:
        device._enter_safe("no board to run", exc)


def safe_loop(device, wdt):
    """The link and the error pattern only, the reason said again every SAFE_REPEAT_MS, until a
    command builds the loop again (or resets the board)."""
    p = device.platform
    said = p.ticks_ms() - SAFE_REPEAT_MS
    while device.safe is not None:
        now = p.ticks_ms()
        if (now - said) & _TICKS_MASK >= SAFE_REPEAT_MS:
            said = now
            try:
                device._say(
                    {
                        "event": "safe_mode",
                        "error": device.safe,
                        "help": 'fix it (ludus config, ludus flash), then send {"cmd": "reset"}',
                    }
                )
            except MemoryError:  # (said again in 10 s: safe mode must not fail on what it says)
                pass
        if device.link is not None:
            cmd = device.link.poll()
            if cmd is not None:
                device._command(cmd)
        if device.writer is not None:
            device.writer.flush()
        error_frame(device, now)
        wdt.feed()
        p.sleep_ms(_SAFE_POLL_MS)


def error_frame(device, now):
    """Every fourth LED red, blinking twice a second: unlike anything a game shows; in recovery (a
    game kept, not restored) amber, once a second. Without LEDs, the Pico's own LED blinks."""
    half = 500 if device.recovery else 250
    hw = device.hw
    if hw is None or device.board is None:
        device.platform.alive((now // half) & 1)
        return
    frame = bytearray(3 * device.board.led_count)
    if (now // half) & 1:
        colour = _RECOVERY_GRB if device.recovery else ERROR_GRB
        for led in range(0, device.board.led_count, 4):
            frame[3 * led : 3 * led + 3] = colour
    hw["pixels"].write(frame)


def show_error(device, ms):
    """The error pattern for ms, the watchdog fed meanwhile."""
    p = device.platform
    end = p.ticks_ms() + ms
    while ((end - p.ticks_ms() + 0x20000000) & _TICKS_MASK) - 0x20000000 > 0:
        error_frame(device, p.ticks_ms())
        device._feed()
        p.sleep_ms(50)


def stopped(device, exc):
    """Ctrl-C or the `stop` command: the watchdog stopped, the journal's game noted as seen by the
    REPL, and the `stopped` event said, before the REPL gets the board."""
    p = device.platform
    p.stop_watchdog()
    p.alive(False)
    why = "Ctrl-C" if isinstance(exc, KeyboardInterrupt) else "the stop command"
    journal = device.journal
    if journal is not None and journal.unfinished():
        # the REPL can read the journal's flash, the dice seed with it: the game's record notes it,
        # and its restore re-commits the dice (docs/dice-and-records.md, "The REPL")
        try:
            journal.note(json.dumps({"stopped": why}))
        except Exception:  # (the REPL all the same: the restore re-commits in any case)
            pass
    device._say(
        {
            "event": "stopped",
            "why": why,
            "message": "the REPL has the board; machine.reset() starts the firmware again",
        }
    )
    if device.writer is not None:
        device.writer.drain(500)


class RamFlash:
    """The journal's stand-in when its flash cannot be used: two blocks of RAM, lost at a power cut
    (the block device protocol of ludus.record.journal)."""

    def __init__(self):
        self.data = bytearray(b"\xff" * 8192)

    def readblocks(self, n, buf, offset=0):
        at = 4096 * n + offset
        buf[:] = self.data[at : at + len(buf)]

    def writeblocks(self, n, buf, offset=0):
        at = 4096 * n + offset
        for i in range(len(buf)):
            self.data[at + i] &= buf[i]

    def ioctl(self, op, arg):
        if op == 6:  # erase a block
            self.data[4096 * arg : 4096 * arg + 4096] = b"\xff" * 4096
            return 0
        return 2 if op == 4 else 4096 if op == 5 else None

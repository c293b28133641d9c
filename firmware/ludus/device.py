# mypy: disable-error-code="union-attr, index"
# (the board, the drivers, the app and the journal are None in safe mode by design; each use is guarded)
"""The firmware around the referee: boot, self-test, the fixed tick under the watchdog, the USB link's
commands, and what happens when something goes wrong (docs/firmware.md, docs/usb-protocol.md).

    Device(platform).run()      # main.py: platform = ludus.hw.pico.Platform(); tests: FakePlatform

Boot reads config.json (a fault is reported, shown, and its default used), loads the board
definition, builds the drivers, runs the self-test (an LED sweep, every sensor channel read), opens
the journal and restores an unfinished game. The loop then ticks every TICK_MS under the watchdog.
An exception in the loop is reported with its traceback, shown on the LEDs, and the loop starts
again from the journal; more than five in a minute (ludus.recovery), or a board that cannot start at
all, leaves the device in safe mode: the link still answers, the LEDs show the error, the reason is
repeated on USB. Only Ctrl-C (mpremote) or a command ends the loop, into the REPL."""

import gc
import io
import json
import sys
from array import array
from binascii import hexlify

from ludus.heap import collect, drop_chain
from ludus.link import Link
from ludus.runtime import CODE_IN_RAM, MICROPYTHON, const, mem_free, transient

# ticks wrap at 2**30: an interval is (now - then) & _TICKS_MASK, ludus.runtime.elapsed_ms inlined
# (a constant folded into the bytecode costs no heap on this resident path)
_TICKS_MASK = const(0x3FFFFFFF)

TICK_MS = const(20)  # 50 ticks a second
# between ticks a digital board's sensors are read this often (0.2 ms a reading), and a change starts
# the next tick at once: a lifted piece waits at most this long to be seen, not a whole tick
SCAN_MS = const(5)
WATCHDOG_MS = const(5000)  # well above a flash erase's worst (400 ms) and a collection (19 ms)
# MicroPython's own collection once this much is allocated since the last: a backstop only. The loop
# collects after each burst (GC_AFTER_MS), and a four-player game's burst leaves 10 KB at most; at
# 32 KB it still fell inside busy ticks when a table played without pause, and took them past 20 ms
GC_THRESHOLD = const(65536)
GC_AFTER_MS = const(40)  # an idle tick this long after the last busy one collects what it left...
GC_ROOM_US = const(1500)  # ...if it has used less than this so far (a collection takes 8-14 ms),
GC_LATE_MS = const(200)  # ...and this long after it if it has used less than that besides reading
# the sensors (a board whose sensors take longer to read, an analog one)
PREPARE_IDLE_MS = const(2000)  # the journal erases ahead once the board has been idle this long
# blocks the journal keeps erased while no game is played: a whole game's writes (a long four-player
# Ludo game fills about 3) then never wait for an erase, which stalls the CPU 45 ms
JOURNAL_AHEAD = const(4)
_BITES_CLEAR_MS = const(10000)  # a loop running this long counts the watchdog's resets afresh
# the commands of ludus.commands (settings and what the board keeps), loaded for each use in files mode
# the commands the device answers itself, often (a mirror polls them); ludus.commands has the rest
_OWN_COMMANDS = ("levels", "frame", "light")
_COMMANDS = (
    "hello",
    "help",
    "state",
    "stats",
    "config",
    "set_config",
    "new_game",
    "bots",
    "names",
    "season",
    "games",
    "journal",
    "journal_clear",
    "levels",
    "frame",
    "light",
    "file",
    "stop",
    "reset",
)


def _commands():
    # ludus.commands: loaded for each use where code sits in the heap, kept where it is read in place
    # (ludus.runtime.CODE_IN_RAM): most commands are seldom sent, and their code would hold some
    # KB of a game's heap for good
    if CODE_IN_RAM:
        return transient("ludus.commands")
    return __import__("ludus.commands", None, None, ("_",))


class Stop(Exception):
    """Raised by the `stop` command: the loop ends into the REPL."""


def _trace(exc):
    # the traceback as text (sys.print_exception on MicroPython, traceback on CPython); here, not in
    # ludus.recovery: a module loaded while a failed build's garbage fills the heap breaks it up
    buf = io.StringIO()
    printer = getattr(sys, "print_exception", None)
    if printer is not None:
        printer(exc, buf)
    else:
        traceback = __import__("traceback")  # (CPython only: the MicroPython stubs have none)
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=buf)
    return buf.getvalue()


class Device:
    """platform: files (read_file, write_file), time (ticks_ms, ticks_us, sleep_ms), the watchdog
    (start_watchdog(ms) -> feed(), stop_watchdog()), reset(), alive(on), usb() (the serial port the
    link reads) and hardware(config, board) -> {sensors, button, pixels, buzzer, flash}. out: one line
    of text to the host."""

    def __init__(self, platform, out=None, seed=None):
        self.platform = platform
        self.out = out if out is not None else print
        self.own_out = out is None  # (then the USB port's own writer, once the link is made)
        self.writer = None  # that writer (ludus.link.LineWriter)
        self.told_dropped = 0  # lines dropped that a `hello` event has owned up to
        self.seed = seed  # dice seed for tests (None: drawn per game from os.urandom)
        self.app = None
        self.wdt = None
        self.hw = None
        self.board = None
        self.link = None
        self.journal = None
        self.safe = None  # the reason, in safe mode
        self.faults = []  # tick times of the loop's recent exceptions
        self.override = None  # a frame the link's `light` command shows instead of the game's
        self.stats = {
            "ticks": 0,
            "late": 0,
            "worst_us": 0,  # of the ticks that served no link command: the game's own
            "command_worst_us": 0,  # of those that did (the first loads ludus.commands: tens of ms)
            "mean_us": 0,
            "window_us": 0,
            "gc": 0,
            "gc_worst_us": 0,
            "free_low": 0,  # the least heap left after a collection (0: none yet)
        }
        self.idle_since = 0
        # the worst tick's us (stats): its step's bookkeeping, referee and frame (ludus.app.App.parts),
        # then the rest (the link, the idle work: an erase, a collection)
        self.worst_parts = array("l", (0, 0, 0, 0))
        self.dirty_heap = False  # a busy tick since the last collection (it allocated)
        self.free_due = False  # a collection done: the heap it left is counted in a later idle tick
        self.config = None
        self.parts = None  # the `file` command's parts so far: [name, text, ...]
        self.builds = 0  # apps built so far (the loop starts again with each)
        self.hooks = None  # ludus_testhooks, on a tree staged with `ludus flash --test-hooks` only
        self.cause = "power_on"  # why the chip started, and the watchdog's resets in a row (boot)
        self.bites = 0
        self.recovery = False  # safe mode with the journal's game kept, not restored
        self.started_ms = 0  # when the loop began with a game (its watchdog resets then forgotten)

    # ---- boot --------------------------------------------------------------------------------------

    def boot(self):
        """Read the configuration, load the board, build the drivers, self-test, open the journal and
        build the loop. Sets safe mode (never raises) when the board cannot run. The work is
        ludus.startup's, loaded for the boot and dropped again: its code is not needed once the loop
        runs, and with `.mpy` files it would hold 2.7 KB of the game's heap."""
        self._make_link()  # (first: the link answers even when nothing else can start, this too)
        drop_chain()  # (built again once the game is: _build_app)
        transient("ludus.startup").boot(self)

    def _make_link(self):
        if self.link is None:
            serial = self.platform.usb()
            if self.own_out and getattr(serial, "room", None) is not None:
                # the lines out wait for room rather than for the host: one that opens the port and
                # stops reading cannot stall the board (docs/usb-protocol.md)
                from ludus.outgoing import LineWriter

                self.writer = LineWriter(serial, self.platform)
                self.out = self.writer.line
            self.link = Link(serial, self.out)

    def _erase_ahead(self):
        # the blocks a whole game needs, erased now rather than in the game's ticks
        while self.journal.prepare(JOURNAL_AHEAD):
            self._feed()

    def _open_journal(self):
        from ludus.record.journal import Journal

        try:
            self.journal = Journal(self.hw["flash"])
        except Exception as exc:
            self._fault(
                "journal",
                "the journal's flash cannot be used (%s): games will not survive a power cut" % (exc,),
            )
            self.journal = Journal(transient("ludus.recovery").RamFlash())

    def _build_app(self):
        # the loop built again (a new game, a restart after a crash): ludus.startup's work
        transient("ludus.startup").build_app(self)

    def _make_app(self, calibration):
        # the app on this device's drivers (ludus.startup.build_app, which handles what goes wrong)
        from ludus.app import App

        hw = self.hw
        return App(
            self.config,
            self.board,
            hw["sensors"],
            hw["button"],
            hw["pixels"],
            self.journal,
            buzzer=hw["buzzer"],
            out=self.out,
            seed=self.seed,
            finished=self._finished,
            calibration=calibration,
            feed=self._feed,
            supply=hw.get("supply"),
            restore=False,
        )

    # ---- the club's season --------------------------------------------------------------------------

    def _finished(self, record):
        # a game has ended and the journal has it: counted into the season kept on the board
        if self.config["season"]:
            game = self.app.referee.game if self.app is not None else None
            transient("ludus.club").report(self, "count", record, game)

    # ---- the loop ----------------------------------------------------------------------------------

    def run(self):
        """Boot, then tick for ever. Ctrl-C (KeyboardInterrupt) and the `stop` command end it into
        the REPL, with the watchdog stopped so the board can be worked on."""
        p = self.platform
        try:
            try:
                refusal = p.unsupported()
                if refusal is None:
                    self.wdt = p.start_watchdog(WATCHDOG_MS)
                threshold = getattr(gc, "threshold", None)
                if threshold is not None:  # (MicroPython)
                    threshold(GC_THRESHOLD)
                if refusal is None:
                    self.boot()
                else:  # (a chip it was not written for: the link only, and no watchdog of ours)
                    self._make_link()
                    self._enter_safe(refusal)
            except Exception as exc:  # anything boot did not foresee: safe mode, never the REPL
                self._make_link()
                self._enter_safe("boot failed: %s: %s" % (type(exc).__name__, exc), exc)
            wdt = self.wdt if self.wdt is not None else _Idle()
            p.alive(True)
            while True:
                try:
                    if self.safe is not None:
                        self._safe_loop(wdt)
                    else:
                        self._loop(wdt)
                except Exception as exc:
                    if isinstance(exc, Stop):
                        raise
                    try:
                        self._crashed(exc)
                    except Exception:  # (out of memory while reporting, say): safe mode, still answering
                        self.app = None
                        self.safe = "the loop failed, and so did its restart"
        except BaseException as exc:  # Ctrl-C, `stop`, SystemExit: the REPL gets the board
            if not isinstance(exc, (KeyboardInterrupt, SystemExit, Stop)):
                raise  # (a test platform's reset or end of time: a real machine.reset() never returns)
            transient("ludus.recovery").stopped(self, exc)
            raise

    def _loop(self, wdt):
        p = self.platform
        # (a count, not the app itself: a local reference would keep the old app alive through a
        # restart's boot, and the board would boot again with half its heap)
        builds = self.builds
        stats = self.stats
        due = self.started_ms = p.ticks_ms()
        while self.safe is None and self.builds == builds:
            self.tick(p.ticks_ms(), wdt)
            due = (due + TICK_MS) & _TICKS_MASK  # (a small int on the Pico after ticks wrap, too)
            occ = self.app.referee.occ if self.app is not None else None
            if occ is not None and occ.unsettled:
                # A change settles settle_ms after it was first read, which need not fall on a tick:
                # the tick goes to that moment. On the grid, a tick that began 1 ms before it left the
                # change to the next, and the lights came 20 ms late (emulated RP2040: 1 lift in 10).
                end = (occ.still_since_ms + occ.settle_ms) & _TICKS_MASK
                ahead = (end - p.ticks_ms()) & _TICKS_MASK  # (huge if it has passed: a flicker holds it)
                if ahead < TICK_MS and ((due - end) & _TICKS_MASK) < TICK_MS:
                    due = end if ahead else end + 1  # (a wait of 0 would count as a late tick)
            wait = (due - p.ticks_ms() + 0x20000000) & _TICKS_MASK
            wait -= 0x20000000
            if wait > 0:
                app = self.app
                while wait > SCAN_MS:
                    p.sleep_ms(SCAN_MS)
                    # a piece lifted or put down: its tick now, and the ticks from it
                    if app.moved(p.ticks_ms()):
                        due = p.ticks_ms()
                        wait = 0
                        break
                    wait = ((due - p.ticks_ms() + 0x20000000) & _TICKS_MASK) - 0x20000000
                if wait > 0:
                    p.sleep_ms(wait)
            else:  # behind: the next tick at once (a zero sleep still lets USB and the scheduler run)
                stats["late"] += 1
                due = p.ticks_ms()
                p.sleep_ms(0)

    def tick(self, now, wdt):
        """One tick, all but the wait for the next: the app's step (sensors, referee, journal, events,
        LEDs), one command from the link, the watchdog fed, and in a tick with nothing to do the
        journal's erase ahead and a collection when due. Its time goes into `stats`."""
        p = self.platform
        t0 = p.ticks_us()
        busy = self.app.step(now)
        t1 = p.ticks_us()
        cmd = self.link.poll()
        served = cmd is not None
        if served:
            self.app.flush(now)  # (the command sees the game booked: the journal, the events said)
            self._command(cmd)
            busy = True
        writer = self.writer
        if writer is not None and writer.lines:
            writer.flush()
        wdt.feed()
        if busy:
            self.idle_since = now
            self.dirty_heap = True
        elif self.bites and (now - self.started_ms) & _TICKS_MASK >= _BITES_CLEAR_MS:
            self.bites = 0  # (the loop has run well: a later reset starts the count again)
            self.platform.clear_bites()
        elif writer is not None and writer.dropped != self.told_dropped and not writer.lines:
            _commands().resync(self)
        elif not self.app.referee.occ.busy():
            # (not while a change is being taken in: the tick that takes it would wait behind an
            # erase or a collection. A collection came GC_AFTER_MS after the last busy tick, and a
            # lift's settle 200 ms after it was seen: they met, and the lift's lights came 20 ms late.)
            idle = (now - self.idle_since) & _TICKS_MASK
            erased = False
            if idle >= PREPARE_IDLE_MS:
                # between games, blocks for the next whole game (one a tick); during one, only the
                # next block once this one is nearly full, should the game outgrow what was erased
                journal = self.journal
                erased = journal.prepare(0 if journal.unfinished() else JOURNAL_AHEAD)
            # the garbage a burst left, collected in a tick that has its time for it (not the one that
            # makes a move table after a commit, nor one that erased): the collection then ends the
            # tick inside its 20 ms, and gc.threshold, which would collect in the middle of a busy
            # tick, is seldom reached
            used = (p.ticks_us() - t0) & _TICKS_MASK
            if idle >= GC_LATE_MS:
                used -= self.app.parts[3]  # (the sensors' reading aside, never the referee's work)
            if self.dirty_heap and not erased and idle >= GC_AFTER_MS and used < GC_ROOM_US:
                self._collect()
            elif self.free_due and not erased and (p.ticks_us() - t0) & _TICKS_MASK < GC_ROOM_US:
                self._count_free()
        stats = self.stats
        spent = (p.ticks_us() - t0) & _TICKS_MASK
        stats["ticks"] += 1
        # the mean over windows of 1,024 ticks: a running total would outgrow a small int (2**30 us is
        # 18 minutes) and allocate on every tick after that
        stats["window_us"] += spent
        if stats["ticks"] & 1023 == 0:
            stats["mean_us"] = stats["window_us"] >> 10
            stats["window_us"] = 0
        if served:
            if spent > stats["command_worst_us"]:
                stats["command_worst_us"] = spent
        elif spent > stats["worst_us"]:
            stats["worst_us"] = spent
            # where the worst tick's time went, in place, so that a tick allocates nothing
            worst = self.worst_parts
            parts = self.app.parts if self.app is not None else worst
            worst[0] = parts[0]
            worst[1] = parts[1]
            worst[2] = parts[2]
            worst[3] = spent - ((t1 - t0) & _TICKS_MASK)

    def _collect(self):
        # A collection takes 8-13 ms with ~100-170 KB live on the RP2040 (ludus.heap.collect: twice
        # that marked in MicroPython's own order, docs/firmware.md): it runs in an idle tick
        # (whose own work is under GC_ROOM_US) GC_AFTER_MS after a busy one, which is when a move's
        # garbage is there; gc.threshold set at boot collects anyway if a burst allocates
        # GC_THRESHOLD first.
        p = self.platform
        g0 = p.ticks_us()
        if MICROPYTHON:  # (CPython collects on its own; a full collection there is the fake board's
            collect()  # slowest step, and planning it is what the fake board tests)
        took = (p.ticks_us() - g0) & _TICKS_MASK
        self.dirty_heap = False
        self.free_due = True
        stats = self.stats
        stats["gc"] += 1
        if took > stats["gc_worst_us"]:
            stats["gc_worst_us"] = took

    def _count_free(self):
        # What a collection left: the game's live data at its largest. gc.mem_free() walks the whole
        # heap (2-4 ms on the RP2040), so it has an idle tick of its own, never the collection's, and
        # idle ticks allocate nothing meanwhile.
        self.free_due = False
        free = mem_free()
        stats = self.stats
        if free < stats["free_low"] or not stats["free_low"]:
            stats["free_low"] = free

    def _crashed(self, exc):
        # reported, shown, and the loop rebuilt from the journal (which kept the game)
        self.app = None  # (first: a MemoryError's report needs the heap the app held)
        gc.collect()
        transient("ludus.recovery").crashed(self, exc)

    def _safe_loop(self, wdt):
        # the link and the error pattern only, the reason said again now and then
        transient("ludus.recovery").safe_loop(self, wdt)

    # ---- errors ------------------------------------------------------------------------------------

    def _trace(self, exc):
        return _trace(exc)

    def _fault(self, where, message, trace=None):
        ev = {"event": "fault", "where": where, "error": message}
        if trace:
            ev["trace"] = trace
        self._say(ev)

    def _enter_safe(self, reason, exc=None):
        self.safe = reason
        self.app = None
        self._fault("safe_mode", reason, _trace(exc) if exc is not None else None)

    def _show_error(self, ms):
        # the error pattern for ms (ludus.recovery)
        transient("ludus.recovery").show_error(self, ms)

    def _feed(self):
        if self.wdt is not None:
            self.wdt.feed()

    def _say(self, ev):
        self.out(json.dumps(ev))

    # ---- commands (docs/usb-protocol.md) -----------------------------------------------------------

    def _command(self, cmd):
        name = cmd["cmd"]
        link = self.link
        hooks = self.hooks
        if hooks is not None and name in hooks.COMMANDS:
            if self.app is None:
                link.error(cmd, "not while in safe mode: %s" % (self.safe,))
                return
            try:
                gc.collect()  # (a position's notation read on a heap the game has broken up)
                hooks.command(self, cmd, link)
            except Exception as exc:
                link.error(cmd, "%s: %s" % (type(exc).__name__, exc))
            return
        if name not in _COMMANDS:
            link.error(cmd, "unknown command %r (known: %s)" % (name, ", ".join(_COMMANDS)))
            return
        needs_game = name in (
            "state",
            "new_game",
            "bots",
            "names",
            "journal",
            "games",
            "levels",
            "frame",
            "light",
        )
        if needs_game and self.app is None and not (self.recovery and name in ("journal", "games")):
            link.error(cmd, "not while in safe mode: %s" % (self.safe,))
            return
        try:
            if name in _OWN_COMMANDS:
                getattr(self, "_cmd_" + name)(cmd, link)
            else:
                getattr(_commands(), name)(self, cmd, link)
        except (Stop, KeyboardInterrupt):
            raise
        except Exception as exc:  # a command's bad argument: said, and nothing changed
            link.error(cmd, "%s: %s" % (type(exc).__name__, exc))

    def _reset_after_reply(self):
        # a reset rather than a boot in place: the chip starts with its whole heap and fresh
        # peripherals, as at power-up (a boot in place hung the emulated Pico after its `boot` line);
        # the journal keeps the game
        self._feed()
        if self.writer is not None:
            self.writer.drain(500, self._feed)
        self.platform.sleep_ms(50)  # (the reply's way out over USB first)
        self.platform.reset()

    def _cmd_levels(self, cmd, link):
        levels = self.app.levels
        link.reply(cmd, {"ok": True, "levels": [levels[c] for c in range(len(levels))]})

    def _cmd_frame(self, cmd, link):
        # the LEDs as last written, GRB bytes in hex: what `ludus sim --device` shows of a real board
        link.reply(cmd, {"ok": True, "grb": hexlify(self.app.sent).decode()})

    def _cmd_light(self, cmd, link):
        # calibration's hook: these LEDs in this colour, the game's lights paused; no leds: resume
        leds = cmd.get("leds")
        app = self.app
        if not leds:
            if self.override is not None:
                app.pixels = self.override
                self.override = None
                app.pixels.write(app.frame)  # the game's frame at once (it has not changed meanwhile)
                app.sent[:] = app.frame
            link.reply(cmd, {"ok": True, "lights": "game"})
            return
        rgb = cmd.get("rgb", [255, 255, 255])
        n = self.board.led_count
        if not (isinstance(leds, list) and all(isinstance(x, int) and 0 <= x < n for x in leds)):
            link.error(cmd, "leds must be a list of LED numbers 0..%d" % (n - 1))
            return
        if not (
            isinstance(rgb, list) and len(rgb) == 3 and all(isinstance(x, int) and 0 <= x < 256 for x in rgb)
        ):
            link.error(cmd, "rgb must be three whole numbers 0..255")
            return
        if self.override is None:
            self.override = app.pixels
            app.pixels = _Idle()
        frame = bytearray(3 * n)
        for led in leds:
            frame[3 * led : 3 * led + 3] = bytes((rgb[1], rgb[0], rgb[2]))
        self.override.write(frame)
        link.reply(cmd, {"ok": True, "lights": leds})


class _Idle:
    # stands in for the LEDs while the link lights them itself, and for the watchdog on a chip the
    # firmware refuses (its registers are elsewhere)
    def write(self, frame):
        pass

    def feed(self):
        pass

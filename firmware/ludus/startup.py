"""What the device does once, as it starts (docs/firmware.md): read config.json, load the board
definition, build the drivers, open the journal, build the loop and run the self-test (an LED sweep,
every sensor channel read). Each is a function of the device it starts (ludus.device.Device). And,
whenever the loop is built, the order its collections mark the modules in (ludus.heap).

Loaded for the boot and dropped again (ludus.runtime.transient): once the loop runs, none of this is
needed, and with `.mpy` files (`ludus flash`'s files mode) its code would hold some 4 KB of the game's
heap for good (2.7 KB). An analog board's calibration is read here too, whenever the loop is built.
The device makes its USB link before it loads this module, so that a board whose copy of it is
missing or damaged still answers, in safe mode."""

import gc
import json
import sys
import time
from array import array

from ludus import MICROPYTHON_VERSION, __version__
from ludus.heap import lead_collections
from ludus.link import PROTOCOL
from ludus.runtime import MICROPYTHON, const, mem_free, transient

# ticks wrap at 2**30: an interval is (now - then) & _TICKS_MASK, ludus.runtime.elapsed_ms inlined
# (a constant folded into the bytecode costs no heap on this resident path)
_TICKS_MASK = const(0x3FFFFFFF)

NOMINAL_LEVELS = (32768, 41768, 50768)  # an analog channel with 0, 1, 2 magnets before calibration
SWEEP_GRB = b"\x18\x18\x18"  # a dim white
FAILED_GRB = b"\x00\x60\x00"  # red, as G R B: a cell that failed the self-test (the error pattern's red)
# Watchdog resets in a row (the chip's count, ludus.hw.pico) after which a boot leaves the journal's
# unfinished game alone: what bit was most likely its restore, and the journal outlives reflashing.
# One more in a row and the board does not even load its board: the USB link only.
_RECOVER_AT = const(2)
_BARE_AT = const(3)


def _test_hooks():
    # present only in a tree staged with `ludus flash --test-hooks` (firmware/testhooks)
    try:
        import ludus_testhooks
    except ImportError:
        return None
    return ludus_testhooks


def boot(device):
    """Device.boot(): sets safe mode (never raises) when the board cannot run."""
    p = device.platform
    device.hooks = _test_hooks()
    device.cause, device.bites = p.boot_cause()
    gc.collect()
    ev = {
        "event": "boot",
        "protocol": PROTOCOL,
        "firmware": __version__,
        "micropython": MICROPYTHON_VERSION,
        "platform": p.name,
        "free": mem_free(),
        "reset_cause": device.cause,
        "watchdog_resets": device.bites,
    }
    if device.hooks is not None:
        ev["test_hooks"] = True
    device._say(ev)
    if device.hooks is not None:
        device._fault("test_hooks", "a test build: dice and positions can be set over USB, not for play")
    config, faults = transient("ludus.config").read_config(p.read_file("config.json"))
    device.config = config
    for fault in faults:
        device._fault("config", fault)
    if device.bites >= _BARE_AT:
        # it bit even with the journal's game left alone: nothing more is tried until someone looks
        device._enter_safe(
            "the watchdog reset the board %d times in a row: only the USB link runs (send"
            ' {"cmd": "journal_clear"} or {"cmd": "reset"}, or reflash)' % device.bites
        )
        return
    _fit_journal(device, config)
    board = _board(device, config)
    if board is None:
        return
    fault = transient("ludus.config").budget_fault(config["budget_ma"], board)
    if fault:  # (the light scene could not run it: the board's own budget instead of no game at all)
        device._fault("config", fault + ": the board's own budget is used")
        config["budget_ma"] = None
    device.board = board
    device._feed()
    try:
        hw = p.hardware(config, board)
    except Exception as exc:  # a pin the port refuses, a driver that cannot start
        device._enter_safe("hardware: %s" % (exc,), exc)
        return
    device.hw = hw
    if faults:
        device._show_error(600)
    # the referee first, while the heap is least broken up; the self-test's scratch after it
    device._open_journal()
    device._feed()
    if device.bites >= _RECOVER_AT and device.journal.unfinished():
        # the restore is what most likely bit (the journal outlives reflashing): it is kept, not run
        device.recovery = True
        device._enter_safe(
            "the watchdog reset the board %d times in a row: the unfinished game is kept in the"
            ' journal but not restored (send {"cmd": "reset"} to try again, {"cmd": "journal"} to'
            ' read it, {"cmd": "journal_clear"} to drop it)' % device.bites
        )
        return
    build_app(device)  # (this module's, not a second copy of it)
    if device.app is None:  # (safe mode: it said why)
        return
    device._feed()
    device._erase_ahead()
    if config["season"]:
        transient("ludus.club").report(device, "sync", device.journal)
    self_test(device)


def build_app(device, retry=True):
    """The app (ludus.app.App) built for the device: its game restored from the journal, the
    order its collections mark the modules in worked out. One whose journal's game cannot be
    restored ends that game and is built afresh, once; one that cannot be built at all leaves the
    device in safe mode."""
    device.app = None
    gc.collect()
    device._feed()
    try:
        cal = calibration(device) if device.board.sensor_kind == "analog" else None
        device.app = device._make_app(cal)
        if device.journal.unfinished():  # (by this module's code: a second copy would need its heap)
            restore(device.app, device.journal, device._feed)
        device.app.clock = device.platform.ticks_us  # (its step's parts timed: stats)
    except Exception as exc:
        # the journal's game cannot be restored (flash damage its checksums missed, a record
        # another firmware wrote): it is ended and kept, and the board starts afresh, once
        if retry and device.journal.unfinished():
            why = "the unfinished game cannot be restored (%s): it is ended" % (exc,)
            device._fault("journal", why, device._trace(exc))
            device.journal.end(json.dumps("unrestorable"))
            build_app(device, False)
            return
        # the configuration's game on this board cannot be refereed
        device._enter_safe("the game cannot start: %s" % (exc,), exc)
        return
    device.override = None
    device.safe = None
    device.dirty_heap = True
    device.builds += 1
    if device.hooks is not None:
        device.hooks.attach(device.app.referee)
    # the modules this game runs on are all loaded now: the order its collections mark them in
    # (about 40 ms on the RP2040, here where a tick's time is not counted)
    lead_collections(collection_order())


def _fit_journal(device, config):
    # the journal's flash sits just below the file system: it must not reach into the firmware image
    # (a frozen build's ends near 0x85000, so 96 KiB or more would erase code)
    room = device.platform.journal_room_kb()
    kb = config["journal_kb"]
    if room is None or kb <= room:
        return
    fit = room - room % 4
    device._fault(
        "config",
        "journal_kb %d would overlap the firmware image, which leaves %d KiB below the file system: %s"
        % (kb, room, ("%d KiB used" % fit) if fit >= 8 else "the journal is kept in RAM only"),
    )
    config["journal_kb"] = fit if fit >= 8 else 0


def _board(device, config):
    # read line by line from its file (a whole board's JSON text at once would take ~40 KB)
    from ludus.board.definition import BoardDefinition

    name = config["board"]
    path = device.platform.path("boards/%s.json" % name)
    if path is None:
        device._enter_safe("board %r: no boards/%s.json on the device (ludus flash copies it)" % (name, name))
        return None
    try:
        board = BoardDefinition.load(path, device._feed)
    except Exception as exc:  # a damaged file: BoardDefinitionError names the problem
        device._enter_safe("board %r: %s" % (name, exc))
        return None
    wiring = device.platform.read_file("wiring.json")
    if wiring is not None:  # what `ludus calibrate` learnt of how this board is really wired
        try:
            for note in transient("ludus.board.wiring").apply(board, wiring):
                device._fault("wiring", note)
        except Exception as exc:
            device._fault("wiring", "wiring.json is not used (%s): run ludus calibrate" % (exc,))
    gc.collect()
    return board


def calibration(device):
    """An analog board's levels from calibration.json (`ludus calibrate`); without them, nominal
    levels and a fault saying so, so that the board still runs and can be calibrated."""
    from ludus.sensing.calibration import Calibration

    n = device.board.channel_count
    text = device.platform.read_file("calibration.json")
    problem = "no calibration.json"
    if text is not None:
        try:
            cal = Calibration.from_json(text)
            if cal.channel_count == n:
                return cal
            problem = "calibration.json has %d channels, the board %d" % (cal.channel_count, n)
        except Exception as exc:
            problem = "calibration.json is not used (%s)" % (exc,)
    device._fault("calibration", problem + ": nominal levels used; run ludus calibrate")
    return Calibration.uniform(n, *NOMINAL_LEVELS)


def self_test(device):
    """An LED sweep (each LED lit in turn, ~4 ms each) and every sensor read eight times: channels
    that cannot be read, that flicker, that sit at a rail (analog), or that are on while the board
    is otherwise empty (fewer pieces than any game starts with) are reported."""
    p = device.platform
    board = device.board
    hw = device.hw
    pixels = hw["pixels"]
    frame = bytearray(3 * board.led_count)
    for led in range(board.led_count):
        frame[3 * led : 3 * led + 3] = SWEEP_GRB
        if led:
            frame[3 * led - 3 : 3 * led] = b"\x00\x00\x00"
        pixels.write(frame)
        device._feed()
        p.sleep_ms(4)
    frame[:] = bytes(len(frame))
    pixels.write(frame)
    analog = board.sensor_kind == "analog"
    n = board.channel_count
    levels = array("H" if analog else "B", bytes((2 if analog else 1) * n))
    ons = bytearray(n)
    low = array("H", [65535] * n if analog else ())  # (an analog channel's range over the readings)
    high = array("H", bytes(2 * n if analog else 0))
    report = {"event": "self_test", "leds": board.led_count, "channels": n}
    chain = getattr(hw["sensors"], "broken", None)
    try:
        for _ in range(8):
            hw["sensors"].read(levels)
            for c in range(n):
                v = levels[c]
                if analog:
                    low[c] = min(low[c], v)
                    high[c] = max(high[c], v)
                elif v:
                    ons[c] += 1
            p.sleep_ms(10)
    except Exception as exc:
        report["ok"] = False
        report["error"] = "the sensors cannot be read: %s" % (exc,)
        device._say(report)
        device._fault("self_test", report["error"])
        return
    on = []
    noisy = []
    rail = []
    for c in range(n):
        if analog:
            if high[c] - low[c] > 8192:
                noisy.append(_channel_name(board, c))
            elif high[c] >= 65000 or low[c] <= 500:
                rail.append(_channel_name(board, c))
        elif ons[c] == 8:
            on.append(c)
        elif ons[c]:
            noisy.append(_channel_name(board, c))
    # every game starts with at least four pieces: fewer on an otherwise empty board are stuck
    stuck = [_channel_name(board, c) for c in on] if 0 < len(on) < 4 else []
    report.update({"on": len(on), "stuck": stuck, "noisy": noisy, "rail": rail})
    broken = bool(hw["sensors"].broken) if chain is not None else False
    if chain is not None:
        report["chain"] = "broken" if broken else "ok"  # (the byte past the last chip: ludus.hw.shift)
    report["ok"] = not (stuck or noisy or rail or broken)
    device._say(report)
    if not report["ok"]:
        bad = stuck + noisy + rail
        frame[:] = bytes(len(frame))
        for cell in range(board.cell_count):
            if board.cell_id(cell) in bad:
                led = board.led_of_cell[cell]
                frame[3 * led : 3 * led + 3] = FAILED_GRB
        pixels.write(frame)
        p.sleep_ms(1500)
    del frame, levels
    gc.collect()


def _channel_name(board, c):
    # the cell a sensor channel belongs to (its id), or "chN" for a channel no cell uses
    for cell in range(board.cell_count):
        if board.channel_of_cell[cell] == c:
            return board.cell_id(cell)
    return "ch%d" % c


# -- the order a collection marks the modules in (ludus.heap, docs/firmware.md "A collection's order")


def collection_order():
    """The loaded modules, each after the modules it refers to (a list; empty on CPython, whose
    collector needs no order, or without the heap to work it out: about 40 ms on the RP2040)."""
    if sys.implementation.name != "micropython":
        return []
    gc.collect()  # (what building the game left, out of the way of the order's tables)
    try:
        modules = sys.modules
        order = [modules[name] for name in module_order(modules)]
    except MemoryError:
        order = []
    gc.collect()  # (and the tables, before the game's objects fill the gaps between them)
    return order


def _home(value):
    # the name of the module a global value comes from: a module's, a function's, a class's or an
    # instance's; None for the rest (numbers, strings, containers, built-in types)
    kind = type(value)
    if kind is _MODULE:
        return value.__name__
    if kind is _FUNCTION:
        return value.__globals__.get("__name__")
    return getattr(value if kind is type else kind, "__module__", None)


_MODULE = type(sys)
_FUNCTION = type(_home)


def module_order(modules):
    """The names of MODULES (a dict name -> module, like sys.modules) in an order that puts each after
    the modules its globals refer to (its imports, and where its functions, classes and objects come
    from), as far as their references allow (a cycle is broken where it is met)."""
    refs = {}
    for name, module in modules.items():
        found = []
        for value in module.__dict__.values():
            home = _home(value)
            if home is not None and home != name and home in modules and home not in found:
                found.append(home)
        refs[name] = found
    order = []
    seen = {}
    for first in refs:  # depth first without recursion (the Pico's C stack is small)
        if first in seen:
            continue
        seen[first] = True
        stack = [[first, 0]]
        while stack:
            top = stack[-1]
            deps = refs[top[0]]
            if top[1] < len(deps):
                dep = deps[top[1]]
                top[1] += 1
                if dep not in seen:
                    seen[dep] = True
                    stack.append([dep, 0])
            else:
                stack.pop()
                order.append(top[0])
    return order


def restore(app, journal, feed):
    """The journal's unfinished game into the app's referee (ludus.app.App, as it is built): read
    straight from flash into the game's record and replayed, feed() called as it goes, the heap
    collected now and then; a `journal` event says how long each part took and the least heap left.
    An error is the caller's: ludus.device ends the game as unrestorable."""
    low = [mem_free(), 0]  # the least heap left after a collection, and the feeds so far

    def fed():
        # the watchdog fed, and every fourth time the heap collected and its free part noted (about
        # 10 ms on the RP2040, every few dozen actions)
        if feed is not None:
            feed()
        low[1] += 1
        if MICROPYTHON and low[1] & 3 == 0:
            gc.collect()
            free = mem_free()
            if free < low[0]:
                low[0] = free

    t0 = _ms()
    state = journal.resume(fed)
    t1 = _ms()
    if MICROPYTHON:
        gc.collect()  # (what the read left, out of the way of the game the replay builds)
    was = state["record"].players
    was = dict(was) if was else None
    app.referee.restore(state, fed)
    state = None
    low[1] = 3
    fed()
    app.kept = len(app.referee.record.actions)
    app._say(
        {
            "event": "journal",
            "restored": app.kept,
            "read_ms": (t1 - t0) & _TICKS_MASK,
            "replay_ms": (_ms() - t1) & _TICKS_MASK,
            "free_low": low[0],
        }
    )
    ref = app.referee
    if was is not None and ref.record.players != was:
        # config.json names other players than the game had (changed while the firmware was not
        # running): noted as the link's `names` is, in the record and the journal
        note = {"names": ref._named(), "was": {}}
        for seat in was:
            note["was"][str(seat)] = was[seat]
        journal.note(json.dumps(note))
        transient("ludus.record.notes").add(ref.record, note)
    if ref.adapter.has_dice and ref.dice is not None:
        recommit(app, journal)


def recommit(app, journal):
    """A dice game restored goes on with fresh dice: its seed was on the journal's flash while the
    firmware was not running (the REPL, BOOTSEL, a power cut: nothing tells them apart), so anyone
    could have read it. The old seed is revealed and a new one committed, in the record's notes
    (ludus.record.notes, which `ludus verify` checks segment by segment) and in the journal, before
    any roll; a `reseed` event says so (docs/dice-and-records.md, "The REPL")."""
    ref = app.referee
    record = ref.record
    notes = transient("ludus.record.notes")
    why = notes.why_reseed(record)
    # None on the board (os.urandom); a test's fixed seed gives each re-commit its own, past any
    # game's (one per note: a re-commit adds one)
    seed = ref._seed_for(0x8000 + len(record.notes or ()))
    note = notes.reseed(record, why, seed)
    ref.dice = record.dice
    ref.dice_used = 0
    kept = {"reseed": why, "seed": note["seed"], "seed_sha256": note["seed_sha256"]}
    kept["next"] = record.dice.seed_hex()  # (the journal's alone: the next restore draws from it)
    journal.note(json.dumps(kept))
    del kept
    app._say(
        {
            "event": "reseed",
            "why": why,
            "actions": note["at"],
            "seed": note["seed"],
            "seed_sha256": note["seed_sha256"],
        }
    )


def _ms():
    # time.ticks_ms on MicroPython; a millisecond clock on CPython (whose time the Pico stubs lack)
    ticks = getattr(time, "ticks_ms", None) or time.perf_counter  # type: ignore[attr-defined]
    return int(ticks() * (1 if MICROPYTHON else 1000)) & _TICKS_MASK

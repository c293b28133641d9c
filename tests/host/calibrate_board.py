"""A mis-wired Ludo 40 board with its firmware (ludus.device on the fake platform, tests/firmware/
calibrate_rig.py) and a person at it, as one program that `ludus calibrate exec:...` talks to: the link's
lines on standard input and output, and what the person types written to a FIFO that is the wizard's
standard input. The person watches the LEDs: puts the magnet on the lit cell, takes it off once the
board has been read a few times with it there, types s at a dark LED, l at an indicator, n when the
sensor under the magnet is dead, and q after --stop-after LEDs. For tests/host/test_calibrate_cli.py.

    python tests/host/calibrate_board.py --words FIFO [--dark 40] [--dead t25] [--stuck red.c1]
        [--stop-after N] [--files OUT.json]"""

import argparse
import json
import os
import select
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "firmware"), os.path.join(HERE, "..", "..", "firmware")]

from calibrate_rig import Table  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", required=True)
    ap.add_argument("--dark", type=int, action="append", default=[])
    ap.add_argument("--dead", action="append", default=[])
    ap.add_argument("--stuck", action="append", default=[])
    ap.add_argument("--stop-after", type=int, default=None)
    ap.add_argument(
        "--files", default=None, help="where to keep the board's files (read at start, written at end)"
    )
    args = ap.parse_args()
    files = {}
    if args.files and os.path.exists(args.files):
        with open(args.files) as f:
            files = json.load(f)
        files.pop("config.json", None)
    out = sys.stdout
    table = Table(dead=args.dead, stuck=args.stuck, dark=args.dark, files=files)
    for line in table.lines:
        out.write(line + "\n")
    del table.lines[:]
    words = open(args.words, "w")
    state = {
        "lit": None,
        "led": None,
        "reads": 0,
        "done": set(),
        "stop_after": args.stop_after,
        "asked_for": [],
    }
    fd = sys.stdin.fileno()
    pending = b""
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], 0.002)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    if b'"levels"' in line and state["led"] is not None:
                        state["reads"] += 1
                    if (
                        b'"light"' in line
                    ):  # what the wizard lit (the game's own lights are not for the person)
                        leds = json.loads(line).get("leds") or []
                        state["lit"] = leds[0] if len(leds) == 1 else None
                    table.platform.serial.feed(line + b"\n")
            table.tick()
            for line in table.lines:
                out.write(line + "\n")
            out.flush()
            del table.lines[:]
            _person(table, state, words)
    finally:
        if args.files:
            with open(args.files, "w") as f:
                json.dump(table.files, f)


def _person(table, state, words):
    lit = table.lit() if state["lit"] is not None else []
    if lit and lit != [state["lit"]]:  # (once the board has shown it)
        return
    if state["led"] is not None:  # the magnet is on: off once the board has been read with it there
        if state["reads"] >= 4:
            if state["cell"] in table.dead or state["cell"] in table.stuck:  # (nothing happened)
                words.write("n\n")
                words.flush()
            table.magnets = {}
            table.sense()
            state["led"] = None
        return
    if not lit and len(state["done"]) == table.board.led_count:
        # the walk is over: the wizard asks by name for the cells of the dark LEDs (it prints which; this
        # person knows them already)
        for k in table.dark:
            cell = table.at_led[k]
            if cell in table.true_channel and cell not in state["asked_for"]:
                state["asked_for"].append(cell)
                table.magnets = {cell: 1}
                table.sense()
                state.update(led=k, cell=cell, reads=0)
                return
        return
    if len(lit) != 1 or lit[0] in state["done"]:
        return
    k = lit[0]
    state["done"].add(k)
    if state.get("stop_after") is not None and len(state["done"]) > state["stop_after"]:
        words.write("q\n")
        words.flush()
        return
    if k in table.dark:
        words.write("s\n")
        words.flush()
        return
    what = table.at_led[k]
    if what not in table.true_channel:
        words.write("l\n")
        words.flush()
        return
    table.magnets = {what: 1}
    table.sense()
    state.update(led=k, cell=what, reads=0)


if __name__ == "__main__":
    main()

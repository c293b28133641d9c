"""Drive the referee with a script of physical actions on a simulated board (sensors, LEDs, button,
clock) and print its events and LED frames as JSON lines. The script format: docs/play-scripts.md."""

import json
import os
import sys

from ludus.errors import BoardDefinitionError, NotationError

from ludus_host.args import is_digits, whole
from ludus_host.paths import read_text
from ludus_host.simboard import Simulator, load_board, parse_script


def add_arguments(parser):
    parser.add_argument("script", help="the play script ('-' reads standard input)")
    parser.add_argument(
        "--board", required=True, help="a board file, or a name in hardware/boards (ludo52, checkers...)"
    )
    parser.add_argument("--game", required=True, help="the game preset: checkers/2, ludo/classic/4, ...")
    parser.add_argument("--seed", default=None, help="dice seed, 64 hex digits (default: a fixed test seed)")
    parser.add_argument(
        "--frames",
        choices=("full", "lights", "none"),
        default="full",
        help="LED frames: lit cells and GRB bytes (full), lit cells only, or none",
    )
    parser.add_argument(
        "--analog", action="store_true", help="simulate analog sensors that count stacked pieces"
    )
    parser.add_argument(
        "--settle-ms", type=whole(0, 60000), default=200, help="how long the board must be still (ms)"
    )
    parser.add_argument(
        "--wiring",
        metavar="FILE",
        help="a wiring map (ludus calibrate's wiring.json) laid over the board: its channels and LEDs",
    )
    parser.add_argument(
        "--pico",
        action="store_true",
        help="play the script on the emulated Pico too, and compare its events with this run's",
    )
    parser.add_argument(
        "--turn-clock",
        nargs="?",
        const="rules",
        default=None,
        metavar="SECONDS",
        help="Ludo turn clock and auto-play: the rule set's clock, or SECONDS",
    )


DEFAULT_SEED = "00" * 32


def _turn_clock(value):
    if value is None:
        return False
    if value == "rules":
        return True
    if not is_digits(value, 4) or int(value) < 1:
        raise NotationError(
            "--turn-clock %r: give a number of seconds 1..9999, or nothing for the rule set's" % value
        )
    return int(value)


def run(args):
    text = read_text(args.script, "script")
    board = load_board(args.board, args.wiring)
    actions = parse_script(text, board)
    if args.pico:
        return _on_the_pico(args, text, board, args.board)
    try:
        sim = Simulator(
            board,
            args.game,
            seed=args.seed or DEFAULT_SEED,
            frames=args.frames,
            analog=True if args.analog else None,
            settle_ms=args.settle_ms,
            turn_clock=_turn_clock(args.turn_clock),
        )
    except BoardDefinitionError as exc:
        # a board for another game differs in every place: one line says so, not one per place
        lines = str(exc).splitlines()
        if len(lines) <= 3:
            raise
        raise BoardDefinitionError(
            "board %s does not fit this game (%s): %d places differ, e.g. %s"
            % (board.name, args.game, len(lines), "; ".join(lines[:2]))
        ) from None
    out = sys.stdout
    for item in sim.run(actions):
        out.write(json.dumps(item) + "\n")
    out.flush()
    return 0


DEVICE_EVENTS = ("boot", "self_test", "journal", "stopped", "fault", "safe_mode", "power_cut")


def _on_the_pico(args, text, board, board_name):
    # the script recorded tick by tick here, replayed as pin levels on the emulated Pico running the
    # flashed firmware with its test hooks (forced dice, `start` positions), and the referee's events
    # and LED frames of both runs compared
    from ludus_host import pico, tape

    if args.seed not in (None, DEFAULT_SEED) or args.analog or args.turn_clock or args.settle_ms != 200:
        raise NotationError(
            "ludus play --pico: only the defaults of --seed, --analog, --settle-ms, --turn-clock"
        )
    if os.sep in board_name or board_name.endswith(".json"):
        raise NotationError("ludus play --pico: name a shipped board (checkers, ludo52, ...), not a file")
    items, ticks = tape.record(text, board_name, args.game)
    steps = pico.session_from_ticks(ticks, board)
    report = pico.run_session(
        pico_tree(board_name, args.game), steps, board, end_ms=max(400, _tail(ticks, steps))
    )
    out = sys.stdout
    for e in report["events"]:
        if "event" in e:
            e = dict(e)
            e["t"] = e.pop("ms") - 200
            out.write(json.dumps(e) + "\n")
    summary = {"pico": compare(items, report, board)}
    out.write(json.dumps(summary) + "\n")
    return 0 if summary["pico"]["events_equal"] and summary["pico"]["frames_equal"] else 1


def pico_tree(board_name, game):
    """The tree `ludus play --pico` runs: `ludus flash`'s files mode with the test hooks, at the
    brightness `ludus play` shows (full), in build/pico-tree-BOARD."""
    from ludus_host.device_tree import stage
    from ludus_host.paths import ROOT

    tree = os.path.join(ROOT, "build", "pico-tree-" + board_name)
    config = json.dumps({"board": board_name, "game": game, "brightness": 255})
    stage(tree, config, "files", "armv6m", test_hooks=True)
    return tree


def _tail(ticks, steps):
    # the emulated time to run after the last step: to the script's end, and 400 ms more
    last = ticks[-1]["t"] if ticks else 0
    return last + 400 - (steps[-1]["at"] if steps else 0)


def compare(items, report, board):
    """How a `ludus play` run (its items) and the emulated Pico's (run_session's report) agree:
    the referee's events one for one, and every LED frame ludus play shows decoded from the chain
    in the same order, the last one last. Frames are compared on the cells' LEDs, by which are lit
    and in which colour (which of green, red and blue are on), not by brightness: breathing lights
    and the die display taking the waiting rolls in turn follow each board's own clock, and the two
    clocks start apart (the indicators, turn and die, are left out for that reason)."""
    here = [_plain(e) for e in items if "event" in e and e["event"] not in DEVICE_EVENTS]
    there = [_plain(e) for e in report["events"] if "event" in e and e["event"] not in DEVICE_EVENTS]
    from ludus.hw.pixels import gamma_table

    table = gamma_table(2.2)  # (as the driver sends them: a dim level can go dark)
    cells = sorted(set(board.led_of_cell))
    shown = _distinct(
        _colours(bytes(table[b] for b in bytes.fromhex(i["grb"])), cells) for i in items if "grb" in i
    )
    sent = _distinct(_colours(bytes.fromhex(grb), cells) for _ms, grb in report["frames"])
    out = {
        "events_equal": here == there,
        "events": len(there),
        "events_here": len(here),
        "frames_equal": bool(shown) and bool(sent) and sent[-1] == shown[-1],
        "frames": len(shown),
        "frames_sent": len(report["frames"]),
        "latches": report["latches"],
        "emulated_ms": report["emulated_ms"],
    }
    k = 0
    for n, grb in enumerate(shown):
        while k < len(sent) and sent[k] != grb:
            k += 1
        if k == len(sent):
            out["frames_equal"] = False
            out["first_missing_frame"] = n
            break
    if here != there:
        for k, (a, b) in enumerate(zip(here, there)):
            if a != b:
                out["first_difference"] = {"index": k, "here": a, "pico": b}
                break
        else:
            out["first_difference"] = {"index": min(len(here), len(there))}
    return out


def _colours(grb, leds):
    # each of these LEDs as the channels it has on: 0 dark, 1..7 a colour (bits green, red, blue)
    return bytes((grb[3 * k] > 0) | (grb[3 * k + 1] > 0) << 1 | (grb[3 * k + 2] > 0) << 2 for k in leds)


def _distinct(frames):
    # consecutive repeats dropped: a frame is sent again only when it changes
    out = []
    for grb in frames:
        if not out or out[-1] != grb:
            out.append(grb)
    return out


def _plain(e):
    # an event as both runs must agree on it: not its time, and not the dice seed's commitment or
    # reveal (the board draws its own seed from its hardware entropy, as it must)
    e = dict(e)
    for key in ("t", "line", "ms", "seed_sha256", "seed"):
        e.pop(key, None)
    return e

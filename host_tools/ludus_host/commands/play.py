"""Drive the referee with a script of physical actions on a simulated board (sensors, LEDs, button,
clock) and print its events and LED frames as JSON lines. The script format: docs/play-scripts.md."""

import argparse
import json
import os
import sys

from ludus.board.definition import BoardDefinition
from ludus.errors import BoardDefinitionError, NotationError
from ludus.hw.pixels import gamma_table
from ludus.light.palette import MEANING_PATTERN, SOLID

from ludus_host.args import is_digits, whole
from ludus_host.build.flash_tree import stage
from ludus_host.emulator import harness as pico
from ludus_host.paths import ROOT, board_names, read_text
from ludus_host.virtual import tape
from ludus_host.virtual.board import load_board
from ludus_host.virtual.colours import MEANING_NAMES
from ludus_host.virtual.runner import Simulator
from ludus_host.virtual.script import parse_script
from ludus_host.virtual.words import log_line, prompt


def add_arguments(parser: argparse.ArgumentParser) -> None:
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
        "--words",
        action="store_true",
        help="the events as sentences, as the simulator's page writes them, instead of JSON lines",
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


def _turn_clock(value: str | None) -> bool | int:
    if value is None:
        return False
    if value == "rules":
        return True
    if not is_digits(value, 4) or int(value) < 1:
        raise NotationError(
            "--turn-clock %r: give a number of seconds 1..9999, or nothing for the rule set's" % value
        )
    return int(value)


def run(args: argparse.Namespace) -> int:
    text = read_text(args.script, "script")
    board = load_board(args.board, args.wiring)
    actions = parse_script(text, board)
    if args.pico:
        if args.words:
            raise NotationError("ludus play --pico compares JSON events: leave out --words")
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
    if args.words:
        sim.narrate = True
        for item in sim.run(actions):
            if "words" in item:
                out.write(log_line(item["t"], item["words"]) + "\n")
        out.write(log_line(sim.now, "Now: " + prompt(sim.referee)) + "\n")
        out.flush()
        return 0
    for item in sim.run(actions):
        out.write(json.dumps(item) + "\n")
    out.flush()
    return 0


DEVICE_EVENTS = ("boot", "self_test", "journal", "stopped", "fault", "safe_mode", "power_cut", "reseed")


def _on_the_pico(args: argparse.Namespace, text: str, board: BoardDefinition, board_name: str) -> int:
    # the script recorded tick by tick here, replayed as pin levels on the emulated Pico running the
    # flashed firmware with its test hooks (forced dice, `start` positions), and the referee's events
    # and LED frames of both runs compared

    if args.seed not in (None, DEFAULT_SEED) or args.analog or args.turn_clock or args.settle_ms != 200:
        raise NotationError(
            "ludus play --pico: only the defaults of --seed, --analog, --settle-ms, --turn-clock"
        )
    if board_name not in board_names():
        raise NotationError("ludus play --pico: name a shipped board (checkers, ludo52, ...), not a file")
    items, ticks = tape.record(text, board_name, args.game)
    steps = pico.session_from_ticks(ticks, board)
    report = pico.run_session(
        pico_tree(board_name, args.game), steps, board, end_ms=max(400, _tail(ticks, steps))
    )
    out = sys.stdout
    for e in ([report["boot"]] if report.get("boot") else []) + report["events"]:
        if "event" in e:
            e = dict(e)
            e["t"] = e.pop("ms") - 200
            out.write(json.dumps(e) + "\n")
    summary = {"pico": compare(items, report, board)}
    out.write(json.dumps(summary) + "\n")
    return 0 if summary["pico"]["events_equal"] and summary["pico"]["frames_equal"] else 1


def pico_tree(board_name: str, game: str) -> str:
    """The tree `ludus play --pico` runs: `ludus flash`'s files mode with the test hooks, at the
    brightness `ludus play` shows (full), in build/pico-tree-BOARD."""

    tree = os.path.join(ROOT, "build", "pico-tree-" + board_name)
    config = json.dumps({"board": board_name, "game": game, "brightness": 255})
    stage(tree, config, "files", "armv6m", test_hooks=True)
    return tree


def _tail(ticks: list[dict], steps: list[dict]) -> int:
    # the emulated time to run after the last step: to the script's end, and 400 ms more
    last = ticks[-1]["t"] if ticks else 0
    return last + 400 - (steps[-1]["at"] if steps else 0)


EDGE_MS = 60  # a frame this close to an event is either side of it: the board says an event a tick
# after the tick that made it, a scene composed later may wait a tick more behind the line (docs/
# firmware.md, "A tick's budget"), and USB may bring a line before or after the chain has a frame


def compare(items: list[dict], report: dict, board: BoardDefinition) -> dict:
    """How a `ludus play` run (its items) and the emulated Pico's (run_session's report) agree.

    Events: the referee's, one for one. Lights: the events cut both runs into the same spans; in each
    span every cell the board lit (in any of its frames in force then) must be one this run's light
    scene lit, in the same colour (which of green, red and blue are on) where this run caught it lit,
    and every steady light of the scene must be on the board. Brightness and the instant are left
    out: blinking and breathing patterns, and the die display taking the waiting rolls in turn,
    follow each board's own clock, and the two clocks start apart (the indicators, turn and die, are
    left out for that reason). docs/play-scripts.md."""

    here = [e for e in items if "event" in e and e["event"] not in DEVICE_EVENTS]
    there = [e for e in report["events"] if "event" in e and e["event"] not in DEVICE_EVENTS]
    out = {
        "events_equal": [_plain(e) for e in here] == [_plain(e) for e in there],
        "events": len(there),
        "events_here": len(here),
        "frames_sent": len(report["frames"]),
        "latches": report["latches"],
        "emulated_ms": report["emulated_ms"],
    }
    if not out["events_equal"]:
        for k, (ours, theirs) in enumerate(zip(here, there)):
            if _plain(ours) != _plain(theirs):
                out["first_difference"] = {"index": k, "here": _plain(ours), "pico": _plain(theirs)}
                break
        else:
            out["first_difference"] = {"index": min(len(here), len(there))}
        out["frames_equal"] = False
        return out
    led_of = {board.cell_ids[i]: board.led_of_cell[i] for i in range(board.cell_count)}
    cells = sorted(set(led_of.values()))
    steady = {MEANING_NAMES[m] for m in range(len(MEANING_NAMES)) if MEANING_PATTERN[m] == SOLID}
    table = gamma_table(2.2)  # (as the driver sends them: a dim level can go dark)
    # this run's frames: (time, the cells' LEDs its scene lit, the steady ones among them, the bytes)
    mine = []
    for i in items:
        if "grb" in i:
            lit = [(led_of[li[0]], li[1] in steady) for li in i["lights"] if li[0] in led_of]
            grb = bytes(table[b] for b in bytes.fromhex(i["grb"]))
            mine.append((i["t"], [led for led, _ in lit], [led for led, s in lit if s], grb))
    # the board's: every cell LED is looked at (the boot's own frames after a restart, its LED sweep,
    # are nothing this run has)
    booting = report.get("restarts", ())
    sent = [
        (ms, cells, None, bytes.fromhex(grb))
        for ms, grb in report["frames"]
        if not [1 for down, up in booting if down <= ms <= up + EDGE_MS]
    ]
    times_here = [e["t"] for e in here]
    times_there = [e["ms"] for e in there]
    spans = 0
    for k in range(len(here)):
        a = _span(mine, times_here, k, 1)
        b = _span(sent, times_there, k, 1, lit_only=True)
        if a is None or b is None:
            continue
        spans += 1
        # every cell the board lit, this run's scene lit, in its colour where this run caught it lit;
        # every steady light of the scene, the board lit (a blinking one may be dark all through a
        # short span on one board and not on the other)
        must = _span(mine, times_here, k, 2)
        assert must is not None  # (the span a was found in)
        if [led for led in b if led not in a or (a[led] and a[led] != b[led])] or [
            led for led in must if led not in b
        ]:
            out["frames_equal"] = False
            out["first_difference_in_lights"] = {
                "after_event": k,
                "here": _lit(a, board),
                "pico": _lit(b, board),
            }
            return out
    out["frames_equal"] = spans > 0
    out["spans_compared"] = spans
    return out


def _span(
    frames: list, times: list[int], k: int, which: int, lit_only: bool = False
) -> dict[int, int] | None:
    # {led: colour bits} of the LEDs frame[which] names, over the frames in force between event k and
    # the next, edges aside (lit_only: only those with a channel on); None if too short to tell
    start = times[k] + EDGE_MS
    end = times[k + 1] - EDGE_MS if k + 1 < len(times) else None
    if end is not None and end <= start:
        return None
    shown = []
    for frame in frames:
        if frame[0] <= start:
            shown = [frame]  # (the one in force when the span starts)
        elif end is None or frame[0] <= end:
            shown.append(frame)
        else:
            break
    lit = {}
    for frame in shown:
        grb = frame[3]
        for led in frame[which]:
            bits = (grb[3 * led] > 0) | (grb[3 * led + 1] > 0) << 1 | (grb[3 * led + 2] > 0) << 2
            if bits or not lit_only:
                lit[led] = lit.get(led, 0) | bits
    return lit


def _lit(lit: dict[int, int], board: BoardDefinition) -> list[str]:
    names = {board.led_of_cell[i]: board.cell_ids[i] for i in range(board.cell_count)}
    return sorted("%s:%d" % (names.get(led, led), bits) for led, bits in lit.items())


def _plain(e: dict) -> dict:
    # an event as both runs must agree on it: not its time, and not the dice seed's commitment or
    # reveal (the board draws its own seed from its hardware entropy, as it must)
    e = dict(e)
    for key in ("t", "line", "ms", "seed_sha256", "seed"):
        e.pop(key, None)
    return e

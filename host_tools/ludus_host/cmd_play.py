"""Drive the referee with a script of physical actions on a simulated board (sensors, LEDs, button,
clock) and print its events and LED frames as JSON lines. The script format: docs/play-scripts.md."""

import json
import sys

from ludus.errors import NotationError

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
    parser.add_argument("--settle-ms", type=int, default=200, help="how long the board must be still (ms)")
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
    if not value.isdigit():
        raise NotationError(
            "--turn-clock %r: give a number of seconds, or nothing for the rule set's" % value
        )
    return int(value)


def run(args):
    if args.script == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(args.script) as f:
                text = f.read()
        except OSError as exc:
            raise NotationError("cannot read script %s: %s" % (args.script, exc.strerror)) from None
    board = load_board(args.board)
    actions = parse_script(text, board)
    sim = Simulator(
        board,
        args.game,
        seed=args.seed or DEFAULT_SEED,
        frames=args.frames,
        analog=True if args.analog else None,
        settle_ms=args.settle_ms,
        turn_clock=_turn_clock(args.turn_clock),
    )
    out = sys.stdout
    for item in sim.run(actions):
        out.write(json.dumps(item) + "\n")
    out.flush()
    return 0

"""Drive the referee with a script of physical actions on a simulated board (sensors, LEDs, button,
clock) and print its events and LED frames as JSON lines. The script format: docs/play-scripts.md."""

import json
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
    board = load_board(args.board)
    actions = parse_script(text, board)
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

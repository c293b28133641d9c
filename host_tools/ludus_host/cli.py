"""The `ludus` command: the rules, the referee and the board tools of the Ludus game board, with simulated
hardware. Each subcommand lives in its own module ludus_host.cmd_<name> with add_arguments(parser) and
run(args) -> exit code."""

import argparse
import importlib
import sys

from ludus.errors import LudusError

from ludus_host.args import Parser

# name -> (module, one-line help)
COMMANDS = {
    "moves": ("cmd_moves", "print the legal moves of a position, one per line"),
    "perft": ("cmd_perft", "count the leaves of the move tree of a position to a depth"),
    "demo": ("cmd_demo", "two bots play Chinese Checkers in the terminal"),
    "selfplay": ("cmd_selfplay", "play random Ludo games and print a JSON summary"),
    "verify": ("cmd_verify", "recompute every die roll of a game record from its revealed seed"),
    "play": ("cmd_play", "drive the referee with a script of physical actions (simulated board)"),
    "boards": ("cmd_boards", "generate, validate or draw board definition files"),
    "bench": ("cmd_bench", "measure speed and memory on CPython and the MicroPython unix port"),
    "fuzz": ("cmd_fuzz", "feed every parser mutated and random input: results or named errors only"),
    "flash": ("cmd_flash", "compile the firmware and copy it to a Pico with mpremote (--dry-run: show how)"),
    "config": ("cmd_config", "write a board's config.json, checked by the firmware's own reader"),
    "emulate": ("cmd_emulate", "an emulated Pico with the board around it, its USB serial on a pty"),
    "calibrate": (
        "cmd_calibrate",
        "learn a board's wiring and analog levels with a magnet, and find its faults",
    ),
    "monitor": ("cmd_monitor", "show a board's USB events readably, send it commands, save its games"),
    "games": ("cmd_games", "the finished games a board keeps (saved as records) and the season it keeps"),
    "season": ("cmd_season", "a club's season table (league points by place) from its games' records"),
    "arena": ("cmd_arena", "bots against bots: many seeded games, win rates and decision times as JSON"),
    "sim": ("cmd_sim", "play on a virtual board in the browser (a local web server)"),
}


def build_parser():
    parser = Parser(
        prog="ludus",
        description="Ludus: referee Ludo and Chinese Checkers on a sensing board, or on a simulated one.",
        epilog="ludus COMMAND --help tells more of each command.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name, (module_name, help_text) in COMMANDS.items():
        try:
            module = importlib.import_module("ludus_host." + module_name)
        except ModuleNotFoundError as exc:
            if exc.name != "ludus_host." + module_name:
                raise
            continue  # tests/host/test_cli.py insists that every command exists
        cmd = sub.add_parser(
            name,
            help=help_text,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(cmd)
        cmd.set_defaults(run=module.run)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except LudusError as exc:
        print("ludus %s: %s" % (args.command, exc), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("ludus %s: interrupted" % args.command, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

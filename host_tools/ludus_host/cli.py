"""The `ludus` command. Each subcommand is a module ludus_host.commands.<name> with add_arguments(parser)
and run(args) -> exit code; its one-line help lives in COMMANDS here, so that `ludus --help` lists every
command while a run imports only the module of the command chosen."""

import argparse
import importlib
import sys
from collections.abc import Sequence

from ludus.errors import LudusError

from ludus_host.args import Parser

# name -> one-line help; the module is ludus_host.commands.<name>
COMMANDS = {
    "moves": "print the legal moves of a position, one per line",
    "perft": "count the leaves of the move tree of a position to a depth",
    "demo": "two bots play Chinese Checkers in the terminal",
    "selfplay": "play random Ludo games and print a JSON summary",
    "verify": "recompute every die roll of a game record from its revealed seed",
    "play": "drive the referee with a script of physical actions (simulated board)",
    "boards": "generate, validate or draw board definition files",
    "bench": "measure speed and memory on CPython and the MicroPython unix port",
    "fuzz": "feed every parser mutated and random input: results or named errors only",
    "flash": "compile the firmware and copy it to a Pico with mpremote (--dry-run: show how)",
    "config": "write a board's config.json, checked by the firmware's own reader",
    "emulate": "an emulated Pico with the board around it, its USB serial on a pty",
    "calibrate": "learn a board's wiring and analog levels with a magnet, and find its faults",
    "monitor": "show a board's USB events readably, send it commands, save its games",
    "games": "the finished games a board keeps (saved as records) and the season it keeps",
    "season": "a club's season table (league points by place) from its games' records",
    "arena": "bots against bots: many seeded games, win rates and decision times as JSON",
    "sim": "play on a virtual board in the browser (a local web server)",
}


def chosen(argv: Sequence[str]) -> str | None:
    """The command named in argv: its first word that is not an option (the top level has only -h)."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv: Sequence[str] | None = None) -> Parser:
    """The parser of `ludus`: every command with its help; the arguments of the command argv names
    (every command's when argv is None, which imports them all)."""
    parser = Parser(
        prog="ludus",
        description="Ludus: referee Ludo and Chinese Checkers on a sensing board, or on a simulated one.",
        epilog="ludus COMMAND --help tells more of each command.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    wanted = set(COMMANDS) if argv is None else {chosen(argv)}
    for name, help_text in COMMANDS.items():
        if name not in wanted:
            sub.add_parser(name, help=help_text)
            continue
        module = importlib.import_module("ludus_host.commands." + name)
        cmd = sub.add_parser(
            name,
            help=help_text,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(cmd)
        cmd.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
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

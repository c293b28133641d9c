"""Print the legal moves of a position, one per line, in the game's move notation. POSITION is a named
start (checkers/2, checkers/3x2, ...) or a notation string (quote it, or give its words as they are)."""

import argparse

from ludus.games import position


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        nargs="+",
        metavar="POSITION",
        help="a named start such as checkers/2, or a notation string",
    )


def run(args: argparse.Namespace) -> int:
    game = position(" ".join(args.position))
    for move in game.legal_moves():
        print(str(move))
    return 0

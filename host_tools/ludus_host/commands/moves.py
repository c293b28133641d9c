"""Print the legal moves of a position, one per line, in the game's move notation. POSITION is a named
start (checkers/2, checkers/3x2, ...) or a notation string (quote it, or give its words as they are)."""

import argparse
import sys

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
    moves = game.legal_moves()
    for move in moves:
        print(str(move))
    if not moves:
        # Say why the list is empty on stderr, so stdout stays a plain list of moves for scripts.
        if getattr(game, "awaiting_roll", None) and game.awaiting_roll():
            print("no moves yet: the player to act must roll first (seat %d)" % game.turn, file=sys.stderr)
        elif game.is_over():
            print("no moves: the game is over", file=sys.stderr)
    return 0

"""Count the leaves of the move tree of a position DEPTH plies deep (a move being a distinct (from, to)
pair; a forced pass counts as one move). Prints the count after each first move when --divide is given,
and always ends with the leaf count alone on the last line."""

import argparse
from typing import Any

from ludus.errors import NotationError
from ludus.games import position

from ludus_host.args import whole

MAX_DEPTH = 20  # far beyond what finishes (perft(6) of checkers/2 is already billions of leaves)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        nargs="+",
        metavar="POSITION",
        help="a named start such as checkers/2, or a notation string",
    )
    parser.add_argument(
        "depth", type=whole(0, MAX_DEPTH), metavar="DEPTH", help="plies to count, 0..%d" % MAX_DEPTH
    )
    parser.add_argument(
        "--divide", action="store_true", help="also print the leaf count under each first move"
    )


def perft(game: Any, depth: int) -> int:
    """Leaves `depth` plies deep: the game's own fast perft where it has one, else push/pop."""
    if hasattr(game, "perft"):
        return game.perft(depth)
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += perft(game, depth - 1)
        game.pop()
    return total


def run(args: argparse.Namespace) -> int:
    depth = args.depth
    game = position(" ".join(args.position))
    if depth > 0 and getattr(game, "awaiting_roll", None) and game.awaiting_roll():
        raise NotationError(
            "a roll is owed (seat %d to roll): perft counts moves, so give the waiting rolls in the position"
            " (rolls=...)" % game.turn
        )
    if args.divide and depth > 0:
        total = 0
        for move in game.legal_moves():
            game.push(move)
            count = perft(game, depth - 1)
            game.pop()
            total += count
            print("%s %d" % (move, count))
        print(total)
        return 0
    print(perft(game, depth))
    return 0

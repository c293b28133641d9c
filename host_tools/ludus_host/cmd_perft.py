"""Count the leaves of the move tree of a position DEPTH plies deep (a move being a distinct (from, to)
pair; a forced pass counts as one move). Prints the count after each first move when --divide is given,
and always ends with the leaf count alone on the last line."""

import argparse

from ludus.errors import NotationError
from ludus.games import position


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "args", nargs="+", metavar="POSITION DEPTH", help="a named start or notation string, then the depth"
    )
    parser.add_argument(
        "--divide", action="store_true", help="also print the leaf count under each first move"
    )


def perft(game, depth: int) -> int:
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
    if len(args.args) < 2:
        raise NotationError("perft needs a POSITION and a DEPTH, e.g. ludus perft checkers/2 4")
    depth_text = args.args[-1]
    if not (depth_text.isascii() and depth_text.isdigit()) or len(depth_text) > 4:
        raise NotationError("depth %r: expected a whole number of plies (digits 0-9)" % depth_text)
    depth = int(depth_text)
    game = position(" ".join(args.args[:-1]))
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

"""Two (or more) bots play Chinese Checkers in the terminal: the board is drawn after every move, each
seat that finishes is announced, and the placements are printed at the end. Deterministic for a given
--seed. --record FILE also writes the game record (seed committed at the start, revealed at the end),
which `ludus verify FILE` checks."""

import argparse
import random
import sys
import time
from typing import TextIO

from ludus.bots.checkers import choose_move
from ludus.checkers import start_position
from ludus.checkers.game import CheckersGame
from ludus.errors import ConfigError
from ludus.record import GameRecord

from ludus_host.args import decimal, output_file, whole
from ludus_host.paths import AtomicWriter
from ludus_host.virtual.terminal import legend, render


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=whole(0, 2**31 - 1), default=1, help="seed of the bots' tie-breaks (default 1)"
    )
    parser.add_argument("--setup", default="2", help="checkers setup: 2, 2x2, 2x3, 3, 3x2, 4, 5, 6, 2/15")
    parser.add_argument("--options", default="-", help="rule options, e.g. noparking,cap=400 (default none)")
    parser.add_argument(
        "--delay",
        type=decimal(0, 60),
        default=None,
        help="seconds between moves, 0..60 (default 0.1 on a terminal, else 0)",
    )
    parser.add_argument(
        "--max-moves", type=whole(0, 10**6), default=1000, help="stop after this many moves (default 1000)"
    )
    parser.add_argument("--colour", "--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--quiet", action="store_true", help="draw only the final position")
    parser.add_argument(
        "--record",
        metavar="FILE",
        type=output_file,
        help="write the game record (JSON) to FILE, for ludus verify (written when the game ends)",
    )


def run(args: argparse.Namespace) -> int:
    if args.max_moves < 0:
        raise ConfigError("--max-moves must be 0 or more, got %d" % args.max_moves)
    out = sys.stdout
    tty = out.isatty()
    delay = args.delay if args.delay is not None else (0.1 if tty else 0.0)
    colour = args.colour == "always" or (args.colour == "auto" and tty)
    game = start_position(args.setup, args.options)
    record = sink = None
    if args.record:
        # made now, so a folder that cannot be written fails before the game; renamed into place only
        # when the record is complete (an interrupt leaves any earlier file as it was)
        sink = AtomicWriter(args.record, "record")
        record = GameRecord.new("checkers/" + game.config.spec, game.options)
    try:
        return _play(args, game, record, sink, out, tty, delay, colour)
    finally:
        if sink is not None:
            sink.discard()


def _play(
    args: argparse.Namespace,
    game: CheckersGame,
    record: GameRecord | None,
    sink: AtomicWriter | None,
    out: TextIO,
    tty: bool,
    delay: float,
    colour: bool,
) -> int:
    rng = random.Random(args.seed)
    print("Chinese Checkers, setup %s, seed %d: %s" % (game.config.spec, args.seed, legend(game, colour)))
    if record is not None:
        print("dice seed committed: sha256 %s" % record.seed_sha256)
    if not args.quiet:
        print(render(game, colour))
    moves = 0
    while moves < args.max_moves and not game.is_over():
        seat = game.turn
        move = choose_move(game, rng)
        if move is None:
            break
        placed = len(game.placements())
        game.push(move)
        moves += 1
        if record is not None:
            record.record_move(move)
        if not args.quiet:
            if tty and delay > 0:
                out.write("\033[H\033[2J")  # redraw in place on a terminal
            path = "-".join("h%d" % h for h in move.path)
            print(
                "\nmove %d: seat %d plays %s (%s)" % (moves, seat, move, path if move.frm >= 0 else "no move")
            )
            for place in range(placed, len(game.placements())):
                print("seat %d takes place %d" % (game.placements()[place], place + 1))
            print(render(game, colour, last_move=move))
            out.flush()
            if delay > 0:
                time.sleep(delay)
    if args.quiet:
        print(render(game, colour))
    print()
    print(game.notation())
    places = game.placements()
    outcome = game.outcome()
    if outcome is None:
        result = "stopped after %d moves" % moves
    elif outcome.reason == "finished":
        result = "finished"
    else:
        result = "draw (%s)" % ("move cap" if outcome.reason == "move cap" else "nobody can move")
    print(
        "%d moves, %s; placements: %s" % (moves, result, ", ".join("seat %d" % s for s in places) or "none")
    )
    if record is not None and sink is not None:
        if game.is_over():
            record.finish(places)
        else:
            record.reveal()  # stopped early: no result, but the seed is published all the same
        record.write_json(sink)
        sink.commit()
        print("dice seed revealed: %s; record written to %s" % (record.seed, args.record))
    return 0

"""The Chinese Checkers strong bot's opening line (ludus.bots.checkers.SOLO_LINE), found the way it was
found: a beam search over whole games of one set alone on the board, from its start to its target.

Each level of the beam holds the `width` best distinct positions (by rows still to go, plus `rear` times
the rows of the piece furthest behind) reached in that many moves; the first level holding a finished set
gives the line. Width 4,000 finds 27 moves, the proven minimum (G. I. Bell, INTEGERS 9 (2009) G01), in
about half a minute on a laptop; that is far beyond what the board's search can do in a move, hence the
line.

    python -m ludus_host.bots.checkers_book          # prints SOLO_LINE as the firmware holds it
"""

import argparse

from ludus.bots.checkers import rows_of_code
from ludus.checkers.game import _generate, start_position


def solo_line(width: int = 4000, rear: float = 1.0, max_moves: int = 60) -> list[tuple[int, int]]:
    """The moves [(from, to), ...] that bring the set of point 0 home alone, from the beam search."""
    game = start_position("2")
    cfg = game.config
    code = cfg.seat_codes[0][0]
    dist = rows_of_code(code)
    start = tuple(sorted(game.pieces(0)))

    def value(p: tuple[int, ...]) -> float:
        return sum(dist[h] for h in p) + rear * max(dist[h] for h in p)

    home = sum(sorted(dist)[:10])  # the target's ten holes: rows 0, 1, 1, 2, 2, 2, 3, 3, 3, 3
    nothing: tuple = ()
    level = [(value(start), start, nothing)]
    board = bytearray(len(game._board))
    for _ in range(max_moves):
        found: dict = {}
        for _v, pieces, path in level:
            for h in pieces:
                board[h] = code
            for c in _generate(cfg, board, list(pieces)):
                frm, to = c >> 7, c & 127
                after = list(pieces)
                after[after.index(frm)] = to
                key = tuple(sorted(after))
                if key not in found:
                    found[key] = (value(key), key, path + ((frm, to),))
            for h in pieces:
                board[h] = 0
        level = sorted(found.values())[:width]
        best = level[0]
        if sum(dist[h] for h in best[1]) == home:
            return list(best[2])
    raise ValueError("no line within %d moves at width %d" % (max_moves, width))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=4000)
    parser.add_argument("--rear", type=float, default=1.0)
    args = parser.parse_args(argv)
    line = solo_line(args.width, args.rear)
    flat = [h for step in line for h in step]
    print("# %d moves" % len(line))
    print("SOLO_LINE = bytes((%s,))" % ", ".join(str(h) for h in flat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

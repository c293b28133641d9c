"""The move generator against a deliberately simple one written here from the rule text: its own star
(two overlapping triangles), its own coordinates, and jump chains found by trying every hole of the
board as the next landing, layer by layer. They must agree on many random positions, and on perft."""

import gc
from array import array

# ---------------------------------------------------------------------------------------------
import ludus.checkers.moves as checkers_moves
import support
from ludus import checkers

# The reference: the star as the union of a triangle pointing up (rows 0..12) and one pointing down
# (rows 4..16); x in half-pitch units, 0 on the vertical axis. Holes numbered row by row, left to right.

HOLES = []
for _r in range(17):
    _xs = []
    if _r <= 12:
        _xs.extend(range(-_r, _r + 1, 2))
    if _r >= 4:
        _xs.extend(range(-(16 - _r), 16 - _r + 1, 2))
    for _x in sorted(set(_xs)):
        HOLES.append((_r, _x))
INDEX = {}
for _i in range(len(HOLES)):
    INDEX[HOLES[_i]] = _i
UNITS = ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
LETTERS = "abcdef"


def point_of(h):
    """0..5 clockwise from the top, or None for the central hexagon."""
    r, x = HOLES[h]
    if r <= 3:
        return 0
    if r >= 13:
        return 3
    if r >= 9 and abs(x) > 16 - r:  # only in the upward triangle: a lower point
        return 2 if x > 0 else 4
    if r <= 7 and abs(x) > r:  # only in the downward triangle: an upper point
        return 1 if x > 0 else 5
    return None


def region(p, big):
    out = [h for h in range(len(HOLES)) if point_of(h) == p]
    if big:  # the 15-piece variant: the row of the hexagon next to the point's base
        row = 4 if p == 0 else 12
        out.extend([h for h in range(len(HOLES)) if HOLES[h][0] == row and abs(HOLES[h][1]) <= 4])
    return sorted(out)


def hop_ok(board, a, b, long_hops):
    """Can a piece on a hop to b (board without the moving piece)? A hop goes along one of the six
    lines over exactly one piece standing at its middle; every other hole of the stretch is empty."""
    ra, xa = HOLES[a]
    rb, xb = HOLES[b]
    dr = rb - ra
    dx = xb - xa
    if dr == 0 and dx != 0 and dx % 2 == 0:
        k = abs(dx) // 2
        unit = (0, 2 if dx > 0 else -2)
    elif dr != 0 and abs(dr) == abs(dx):
        k = abs(dr)
        unit = (1 if dr > 0 else -1, 1 if dx > 0 else -1)
    else:
        return False
    if k % 2 or (k != 2 and not long_hops):
        return False
    for i in range(1, k + 1):
        spot = INDEX.get((ra + unit[0] * i, xa + unit[1] * i))
        if spot is None:
            return False
        occupied = spot in board
        if occupied != (i == k // 2):
            return False
    return True


def reference_moves(board, seat_letters, seat_of, big=False, opts=()):
    """{from * 128 + to: number of jumps of a shortest chain (0 for a step)} for the pieces whose
    letters are in seat_letters. board: {hole: letter}."""
    long_hops = "super" in opts
    result = {}
    own_points = set()
    for letter in seat_letters:
        p = LETTERS.index(letter)
        own_points.add(p)
        own_points.add((p + 3) % 6)
    for h in sorted(board):
        letter = board[h]
        if letter not in seat_letters:
            continue
        p = LETTERS.index(letter)
        target = region((p + 3) % 6, big)
        found = {}
        r, x = HOLES[h]
        for dr, dx in UNITS:
            t = INDEX.get((r + dr, x + dx))
            if t is not None and t not in board:
                found[t] = 0
        rest = dict(board)
        del rest[h]
        reached = {h: 0}
        frontier = [h]
        depth = 0
        while frontier:
            depth += 1
            new = []
            for a in frontier:
                for b in range(len(HOLES)):
                    if b not in reached and b not in rest and hop_ok(rest, a, b, long_hops):
                        reached[b] = depth
                        new.append(b)
            frontier = new
        for b in reached:
            if b != h:
                found[b] = reached[b]
        for t in found:
            if "noparking" in opts and point_of(t) is not None and point_of(t) not in own_points:
                if not (big and t in target):
                    continue
            if "locked" in opts and h in target and t not in target:
                continue
            result[h * 128 + t] = found[t]
    return result


def reference_notation(spec, board, turn, opts="-"):
    rows = []
    h = 0
    for r in range(17):
        row = ""
        run = 0
        while h < len(HOLES) and HOLES[h][0] == r:
            if h in board:
                if run:
                    row += str(run)
                    run = 0
                row += board[h]
            else:
                run += 1
            h += 1
        if run:
            row += str(run)
        rows.append(row)
    return "checkers %s %s %d %s - 0" % (spec, opts, turn, "/".join(rows))


# ---------------------------------------------------------------------------------------------
# A small PRNG of our own, so both runtimes draw the same positions.


class Rng:
    def __init__(self, seed):
        self.x = seed * 2654435 + 12345

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


SEAT_SETS = {
    "2": ("a", "d"),
    "2x2": ("ab", "de"),
    "2x3": ("abc", "def"),
    "3": ("a", "c", "e"),
    "3x2": ("ad", "be", "cf"),
    "4": ("b", "c", "e", "f"),
    "5": ("a", "b", "c", "e", "f"),
    "6": ("a", "b", "c", "d", "e", "f"),
}


def random_board(rng, spec, pieces=10, near=None):
    """Pieces of every set of the setup on random holes (all of them inside rows near[0]..near[1]
    when given, to crowd the board)."""
    board = {}
    holes = list(range(len(HOLES)))
    if near is not None:
        holes = [h for h in holes if near[0] <= HOLES[h][0] <= near[1]]
    for letters in SEAT_SETS[spec]:
        for letter in letters:
            for _ in range(pieces):
                while True:
                    h = holes[rng.below(len(holes))]
                    if h not in board:
                        board[h] = letter
                        break
    return board


def finished_seat(board, spec, big=False):
    for letters in SEAT_SETS[spec]:
        if all(
            all(board.get(h) == letter for h in region((LETTERS.index(letter) + 3) % 6, big))
            for letter in letters
        ):
            return True
    return False


def valid_chain(board, path, long_hops):
    rest = dict(board)
    del rest[path[0]]
    for i in range(1, len(path)):
        if path[i] in rest or not hop_ok(rest, path[i - 1], path[i], long_hops):
            return False
    return True


def compare(spec, board, turn, opts="-", big=False):
    game_spec = spec + ("/15" if big else "")
    text = reference_notation(game_spec, board, turn, opts)
    game = checkers.from_notation(text)
    assert game.notation() == text, (game.notation(), text)
    option_words = () if opts == "-" else tuple(opts.split(","))
    want = reference_moves(board, SEAT_SETS[spec][turn], None, big, option_words)
    if support.IS_MICROPYTHON:
        gc.collect()
    codes = game.legal_move_codes()
    if not want:
        assert list(codes) == [checkers.PASS_CODE] and [str(m) for m in game.legal_moves()] == ["pass"], text
        return 0
    assert len(set(codes)) == len(codes), "a move listed twice in %s" % text
    cfg = game.config
    if not cfg.long_hops:  # perft's counter agrees with the generator
        assert checkers_moves.count_moves(game._board, game.pieces(turn), cfg.ends, cfg.locks) == len(codes)
    assert sorted(codes) == sorted(want), "moves differ in %s:\nengine only %s\nreference only %s" % (
        text,
        sorted(set(codes) - set(want)),
        sorted(set(want) - set(codes)),
    )
    codes = None
    # Paths, piece by piece (destinations() is what the board asks when a piece is lifted).
    sources = sorted(set([key >> 7 for key in want]))
    count = 0
    for h in sources:
        if support.IS_MICROPYTHON:
            gc.collect()
        for m in game.destinations(h):
            count += 1
            key = m.frm * 128 + m.to
            assert m.frm == h and key in want, (text, m)
            assert m.path[0] == m.frm and m.path[-1] == m.to, (text, m)
            if want[key] == 0:
                assert m.path == (m.frm, m.to) and not m.is_jump(), (text, m)
            else:
                assert m.is_jump() and len(m.path) - 1 == want[key], (
                    "path %r not shortest (%d jumps) in %s"
                    % (
                        m.path,
                        want[key],
                        text,
                    )
                )
                assert valid_chain(board, m.path, "super" in option_words), (text, m.path)
    assert count == len(want), text
    if len(want) < 100 or not support.IS_MICROPYTHON:
        assert sorted([m.frm * 128 + m.to for m in game.legal_moves()]) == sorted(want), text
    return len(want)


def _random_comparisons(count, opts="-", near_every=2, specs=("2", "2x2", "2x3", "3", "3x2", "4", "5", "6")):
    rng = Rng(len(opts) * 7 + count)
    total = 0
    for i in range(count):
        spec = specs[i % len(specs)]
        near = (3, 13) if i % near_every == 0 else None
        board = random_board(rng, spec, near=near)
        if finished_seat(board, spec):
            continue
        turn = rng.below(len(SEAT_SETS[spec]))
        total += compare(spec, board, turn, opts)
        if support.IS_MICROPYTHON:
            gc.collect()
    assert total > count  # the positions really had moves to compare


def test_reference_star_matches_the_documented_numbering():
    assert len(HOLES) == checkers.HOLE_COUNT == 121
    lengths = [sum(1 for h in HOLES if h[0] == r) for r in range(17)]
    assert lengths == [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    for h in range(121):
        # the engine's column is the same position, offset so the left edge is column 0
        assert (checkers.ROW[h], checkers.COL[h]) == (HOLES[h][0], HOLES[h][1] + 12)
    for p in range(6):
        assert bytes(region(p, False)) == checkers.POINT_HOLES[p]


def test_random_positions_agree_with_reference():
    _random_comparisons(120 if support.IS_MICROPYTHON else 300)


def test_random_positions_agree_with_reference_long_hops():
    if support.IS_MICROPYTHON:  # 30 pieces with long hops have ~500 moves: too many for the capped heap
        _random_comparisons(30, "super", specs=("2", "3", "4", "5", "6"))
    else:
        _random_comparisons(100, "super")


def test_random_positions_agree_with_reference_noparking_and_locked():
    _random_comparisons(40 if support.IS_MICROPYTHON else 100, "noparking,locked")


def test_random_positions_agree_with_reference_all_generation_options():
    # super, noparking and locked together: long hops may cross foreign points but not stop there, and
    # a piece in its target hops only within it.
    if support.IS_MICROPYTHON:
        _random_comparisons(24, "noparking,locked,super", specs=("2", "3", "4", "6"))
    else:
        _random_comparisons(100, "noparking,locked,super")


def test_bytecode_generator_agrees_with_reference():
    # Under MicroPython the game uses the viper-compiled generator; the bytecode one (the fallback for
    # ports without a native emitter, and the only one on CPython) is checked here too.
    saved = checkers_moves.fast_codes
    checkers_moves.fast_codes = None  # configs made now use the bytecode generator
    try:
        _random_comparisons(40)
    finally:
        checkers_moves.fast_codes = saved


def test_fast_and_bytecode_generators_give_identical_output():
    rng = Rng(77)
    fast = checkers_moves.fast_codes
    slow = checkers_moves.python_generate
    for i in range(30):
        spec = ("2x3", "6", "3x2")[i % 3]
        board = random_board(rng, spec, near=(2, 14))
        if finished_seat(board, spec):
            continue
        game = checkers.from_notation(reference_notation(spec, board, 0))
        sources = game.pieces(0)
        cfg = game.config
        if fast is None:  # CPython: only the bytecode generator exists
            out_fast = []
            slow(game._board, sources, out_fast, cfg.ends, cfg.locks)
        else:
            buf = array("H", bytes(2 * 400))
            n = fast(game._board, sources, buf, cfg)
            out_fast = list(buf[:n])
        chains_fast = bytes(checkers_moves.PARENTS)
        out_slow = []
        slow(game._board, sources, out_slow, cfg.ends, cfg.locks)
        assert out_fast == out_slow, spec
        for code in out_fast:  # the same chain for every destination
            slot = sources.index(code >> 7)
            lo = slot * 121
            assert chains_fast[lo + (code & 127)] == checkers_moves.PARENTS[lo + (code & 127)] or (
                checkers.adjacent(code >> 7, code & 127)
            )


def test_random_positions_agree_with_reference_fifteen_pieces():
    rng = Rng(15)
    for i in range(12 if support.IS_MICROPYTHON else 40):
        board = random_board(rng, "2", pieces=15, near=(2, 14))
        if not finished_seat(board, "2", True):
            opts = ("-", "noparking,locked", "super", "noparking,locked,super")[i % 4]
            compare("2", board, i % 2, opts, big=True)


def test_bot_game_positions_agree_with_reference():
    # Real game positions: pieces bunched the way play bunches them, so long chains are common.
    from ludus.bots.checkers import Lcg, choose_move

    for spec, every in (("2", 3), ("6", 3)):
        game = checkers.start_position(spec)
        rng = Lcg(3)
        n = 0
        while not game.is_over() and n < 120:
            if n % every == 0 or not support.IS_MICROPYTHON and n % 2 == 0:
                board = {}
                for h in range(121):
                    if game.set_at(h) >= 0:
                        board[h] = LETTERS[game.set_at(h)]
                compare(spec, board, game.turn)
            game.push(choose_move(game, rng))
            n += 1


# ---------------------------------------------------------------------------------------------
# perft: the number of leaves of the move tree, a move being a distinct (from, to) pair.


def reference_perft(spec, board, turn, depth):
    if depth == 0:
        return 1
    seats = SEAT_SETS[spec]
    moves = reference_moves(board, seats[turn], None)
    nxt = (turn + 1) % len(seats)
    if not moves:
        return reference_perft(spec, board, nxt, depth - 1)
    if depth == 1:
        return len(moves)
    total = 0
    for key in moves:
        child = dict(board)
        child[key & 127] = child.pop(key >> 7)
        total += reference_perft(spec, child, nxt, depth - 1)
    return total


def start_board(spec):
    """The reference's start of a named setup ("2/15": two sets of 15 in the extended points)."""
    base, big = spec.split("/")[0], spec.endswith("/15")
    board = {}
    for letters in SEAT_SETS[base]:
        for letter in letters:
            for h in region(LETTERS.index(letter), big):
                board[h] = letter
    return base, board


# Pinned from the engine and, for depth <= 3 (<= 2 for the crowded setups), the reference above.
PERFT = {
    "2": (14, 196, 4760, 115600),
    "2x2": (28, 784, 29960),
    "2x3": (42, 1770, 92288),
    "3": (14, 196, 2744),
    "3x2": (28, 790, 22456),
    "4": (14, 199, 2786),
    "5": (14, 199, 2828),
    "6": (14, 199, 2828),
    "2/15": (22, 484, 15752, 512656),
}


def test_perft_pinned_values():
    for spec in PERFT:
        game = checkers.start_position(spec)
        values = PERFT[spec]
        depths = len(values) if not support.IS_MICROPYTHON else min(len(values), 3)
        for d in range(1, depths + 1):
            assert game.perft(d) == values[d - 1], (spec, d, game.perft(d), values[d - 1])
        assert game.notation() == checkers.start_position(spec).notation()  # perft leaves it unchanged


@support.cpython_only
def test_perft_matches_reference():
    for spec in PERFT:
        depth = 3 if spec in ("2", "3", "4", "5", "6", "2/15") else 2
        base, board = start_board(spec)
        for d in range(1, depth + 1):
            assert reference_perft(base, board, 0, d) == PERFT[spec][d - 1], (spec, d)


def test_perft_matches_reference_shallow():
    for spec in ("2", "3x2", "2/15"):
        base, board = start_board(spec)
        assert reference_perft(base, board, 0, 2) == PERFT[spec][1], spec


def test_perft_divide_matches_push_pop():
    game = checkers.start_position("3")
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += game.perft(2)
        game.pop()
    assert total == game.perft(3) == PERFT["3"][2]

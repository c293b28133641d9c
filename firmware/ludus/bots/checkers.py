"""A simple Chinese Checkers bot for demos and benchmarks: it takes the move that carries a piece
furthest toward its target, prefers moving pieces that lag behind, and breaks ties with a given PRNG.

    >>> from ludus.checkers import start_position
    >>> game = start_position("2")
    >>> move = choose_move(game, Lcg(1))
"""

from ludus.checkers.game import _generate
from ludus.checkers.geometry import CENTRE, COL, POINT_HOLES, POINT_OF, POINT_TIPS, ROW, distance

# Score weights: steps gained toward the target's tip dominate; stopping in a point that is neither
# the seat's start nor its target is discouraged (a piece parked there can wedge in for good);
# lagging pieces and entering the target break near-ties; leaving the target is a last resort.
_ADVANCE = 32
_ENTER_TARGET = 8
_LEAVE_TARGET = -200
_PARK_FOREIGN = -100
_A_LO = 1140671485 & 0xFFF
_A_HI = (1140671485 >> 12) & 0xFFF


class Lcg:
    """A small deterministic PRNG with randrange(n), the same on every runtime (its state stays below
    2**24, so it never needs big integers on the Pico)."""

    def __init__(self, seed=1):
        self.state = (seed * 7919 + 1) & 0xFFFFFF

    def next(self):
        # The 24-bit LCG x -> (x * 1140671485 + 12820163) mod 2**24 done with 12-bit halves.
        x = self.state
        lo = x & 0xFFF
        hi = x >> 12
        prod = (lo * _A_LO + (((lo * _A_HI + hi * _A_LO) & 0xFFF) << 12)) & 0xFFFFFF
        self.state = (prod + 12820163) & 0xFFFFFF
        return self.state

    def randrange(self, n):
        if n <= 0:
            raise ValueError("randrange(%r): empty range" % (n,))
        return (self.next() >> 8) % n


def _pick(rng, n):
    if hasattr(rng, "randrange"):
        return rng.randrange(n)
    return rng(n)


def _foreign(cfg, seat, h):
    p = POINT_OF[h]
    if p == CENTRE:
        return False
    for own in cfg.seat_points[seat]:
        if p == own or p == (own + 3) % 6:
            return False
    return True


def score(game, move):
    """How much the bot likes `move` (higher is better)."""
    if move.frm < 0:
        return 0
    cfg = game.config
    point = game.set_at(move.frm)
    seat = cfg.set_seat[point + 1]
    tip = POINT_TIPS[(point + 3) % 6]
    before = distance(move.frm, tip)
    s = (before - distance(move.to, tip)) * _ADVANCE
    in_before = cfg.target_of[move.frm] == point + 1
    in_after = cfg.target_of[move.to] == point + 1
    if in_after and not in_before:
        s += _ENTER_TARGET
    elif in_before and not in_after:
        s += _LEAVE_TARGET
    if _foreign(cfg, seat, move.to):
        s += _PARK_FOREIGN
    # A lagging piece (far from its target's tip) gets a small bonus, so no piece is left behind.
    return s + (before >> 1)


def choose_move(game, rng):
    """The bot's move for the seat to move, or None if the game is over. `rng` is an object with
    randrange(n) (random.Random, Lcg) or a callable rng(n) -> 0..n-1."""
    moves = game.legal_moves()
    if not moves:
        return None
    best = []
    best_score = None
    for move in moves:
        s = score(game, move)
        if best_score is None or s > best_score:
            best_score = s
            best = [move]
        elif s == best_score:
            best.append(move)
    if len(best) == 1:
        return best[0]
    return best[_pick(rng, len(best))]


def play(game, rng, max_moves=2000, on_move=None):
    """Let the bot play every seat until the game is over or max_moves moves were made; returns the
    number of moves played. on_move(game, move) is called after each move."""
    n = 0
    while n < max_moves and not game.is_over():
        move = choose_move(game, rng)
        if move is None:
            break
        game.push(move)
        n += 1
        if on_move is not None:
            on_move(game, move)
    return n


# The strong bot: a depth-first search over the seat's own next moves (the opponents' replies not
# searched), every first move and the WIDTH best by rows gained at each further level; a move scores the
# rows its pieces come nearer their target, with the one-move bot's score to break ties.


LEVELS = ("random", "greedy", "strong")


class RandomBot:
    """Any legal move, uniformly."""

    level = "random"

    def __init__(self, seed=1):
        self.rng = Lcg(seed)

    def choose(self, game):
        moves = game.legal_moves()
        return moves[self.rng.randrange(len(moves))] if moves else None


class GreedyBot:
    """The one-move bot of choose_move(): the move that carries a piece furthest toward its target."""

    level = "greedy"

    def __init__(self, seed=1):
        self.rng = Lcg(seed)

    def choose(self, game):
        return choose_move(game, self.rng)


def bot_for(level, seed=1):
    """A bot of `level` (one of LEVELS) for one seat."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    if level == "strong":
        return StrongBot(seed)
    raise ValueError("no Chinese Checkers bot %r: the levels are %s" % (level, ", ".join(LEVELS)))


class StrongBot:
    """Two-move lookahead for one seat: the first move that, with the best second move after it, brings
    the seat's pieces nearest their target (see docs/bots.md for its figures)."""

    level = "strong"

    def __init__(self, seed=1):
        self.rng = Lcg(seed)
        self._dist = {}

    def dist_table(self, game, seat):
        """Per hole, how many rows it lies from the tip of `seat`'s target, counted along the line from
        the seat's start to its target (one table per set, kept)."""
        cfg = game.config
        key = (id(cfg), seat)
        t = self._dist.get(key)
        if t is None:
            t = self._dist[key] = row_distances((cfg.seat_points[seat][0] + 3) % 6)
        return t

    def choose(self, game):
        moves = game.legal_moves()
        if len(moves) <= 1:
            return moves[0] if moves else None
        seat = game.turn
        cfg = game.config
        if len(cfg.seat_points[seat]) != 1:
            return choose_move(game, self.rng)  # two or three sets per seat: the one-move bot's scoring
        dist = self.dist_table(game, seat)
        board = game._board
        pieces = game._pieces[seat]
        best = None
        best_s = -(1 << 29)
        for move in moves:
            frm, to = move.frm, move.to
            s = (dist[frm] - dist[to]) * 64 + score(game, move) // 4
            s += _play(board, pieces, frm, to, cfg, dist, DEPTH - 1) * 64
            if s > best_s or (s == best_s and self.rng.randrange(2)):
                best, best_s = move, s
        return best


DEPTH = 3  # own moves looked at together
WIDTH = 6  # moves followed at each further level, the best by rows gained


def _play(board, pieces, frm, to, cfg, dist, depth):
    # move frm -> to on the board and piece list, the most rows `depth` more own moves gain after it
    # (following the WIDTH best by rows at each level), the move taken back
    code = board[frm]
    board[frm] = 0
    board[to] = code
    k = pieces.index(frm)
    pieces[k] = to
    v = 0
    if depth:
        v = -99
        for c in _best_codes(_generate(cfg, board, pieces), dist):
            f, t = c >> 7, c & 127
            g = dist[f] - dist[t] + _play(board, pieces, f, t, cfg, dist, depth - 1)
            if g > v:
                v = g
        if v == -99:
            v = 0
    pieces[k] = frm
    board[to] = 0
    board[frm] = code
    return v


def _best_codes(codes, dist):
    # the WIDTH move codes that gain the most rows (insertion into a short list)
    top = []
    gains = []
    for c in codes:
        g = dist[c >> 7] - dist[c & 127]
        if len(top) < WIDTH or g > gains[-1]:
            i = len(top)
            while i and gains[i - 1] < g:
                i -= 1
            top.insert(i, c)
            gains.insert(i, g)
            if len(top) > WIDTH:
                top.pop()
                gains.pop()
    return top


def row_distances(point):
    """Per hole (bytes of 121), its row counted from the tip of `point` (0..5) toward the opposite point:
    0 at the tip, 3 on the point's base row, 16 at the far tip. The rows are the lattice lines parallel
    to the point's base; of the three families of lines, the one where the point's ten holes lie 1, 2, 3
    and 4 to a row."""
    tip = POINT_TIPS[point]
    holes = POINT_HOLES[point]
    for kind in range(3):
        for sign in (1, -1):
            rows = bytearray(121)
            counts = [0] * 17
            ok = True
            for h in range(121):
                if kind == 0:
                    d = (ROW[h] - ROW[tip]) * sign
                elif kind == 1:
                    d = (ROW[h] + COL[h] - ROW[tip] - COL[tip]) * sign // 2
                else:
                    d = (COL[h] - ROW[h] - COL[tip] + ROW[tip]) * sign // 2
                if d < 0:
                    ok = False
                    break
                rows[h] = d
            if not ok:
                continue
            for h in holes:
                counts[rows[h]] += 1
            if counts[:4] == [1, 2, 3, 4]:
                return bytes(rows)
    raise ValueError("no row lines for point %d" % point)

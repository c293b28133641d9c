"""A simple Chinese Checkers bot for demos and benchmarks: it takes the move that carries a piece
furthest toward its target, prefers moving pieces that lag behind, and breaks ties with a given PRNG.

    >>> from ludus.checkers import start_position
    >>> game = start_position("2")
    >>> move = choose_move(game, Lcg(1))
"""

from ludus.checkers.geometry import CENTRE, POINT_OF, POINT_TIPS, distance

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

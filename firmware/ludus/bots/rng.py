"""The bots' small deterministic PRNG and the random bot of both games (kept apart so a Ludo bot does not
load the Chinese Checkers engine)."""

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


class RandomBot:
    """Any legal move, uniformly, from a seeded generator (the same picks on every runtime)."""

    level = "random"

    def __init__(self, seed=1):
        self.rng = Lcg(seed)

    def choose(self, game):
        moves = game.legal_moves()
        if not moves:
            return None
        return moves[self.rng.randrange(len(moves))]

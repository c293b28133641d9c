"""Ludo bots for the seats nobody sits in, for every rule set: `random` (any legal move), `preferred` (the
auto-play move of source 002: home, else capture, else the furthest token) and `strong` (each legal move
scored by what it leaves on the board: progress, safety from the tokens behind, and the opponents'
progress it takes away).

    >>> from ludus.ludo.game import start_position
    >>> game = start_position("classic/4")
    >>> bot = bot_for("strong", seed=1)
    >>> bot.choose(game)                      # None while a roll is owed: the board rolls for the bot

A bot only chooses among game.legal_moves(); it never rolls and never changes the game.
"""

from ludus.bots.rng import RandomBot
from ludus.ludo.gen import _gen
from ludus.ludo.geometry import BASE

LEVELS = ("random", "preferred", "strong")

# The strong bot's weights, in steps of progress (chosen by ludus arena runs: docs/bots.md). A token out
# of base is worth _OUT more than its steps; one in its home column (safe for good) _SAFE more, one
# finished _DONE more. A token that may be captured loses its value times the chance, times _FEAR/8;
# opponents' tokens count _OPP/8 of their value against the bot.
_OUT = 24
_SAFE = 10
_DONE = 14
_FEAR = 24
_OPP = 8
# Positions the plan of several waiting rolls scores at most (about 2 ms each on the Pico, so a
# decision stays within 100 ms; 6, 6 and 4 waiting can have 50 and more).
PLAN_LEAVES = 30


class PreferredBot:
    """The auto-play move of source 002: bring a token home, else capture, else the furthest token."""

    level = "preferred"

    def __init__(self, seed=1):
        pass  # (deterministic: the seed of bot_for's common signature is not needed)

    def choose(self, game):
        return game.preferred_move()


class StrongBot:
    """Each legal move scored by the position it leaves (score()); the best one, ties to the first."""

    level = "strong"

    def __init__(self, seed=1):
        # deterministic (ties go to the first move): the seed of bot_for's signature is not needed
        self.pos = [BASE] * 16  # the position after a candidate move (reused: no list per move)
        self.scratch = None  # a game to ask the engine what opponents could capture
        self.alive = [64] * 16
        self.seen = bytearray(16)
        self.count = bytearray(16)
        self.roll = [0]
        self.budget = 0

    def choose(self, game):
        moves = game.legal_moves()
        if not moves:
            return None
        if len(moves) == 1:
            return moves[0]
        if len(game.rolls) > 1:
            return self._plan(game, moves)
        best = moves[0]
        best_s = -(1 << 29)
        for m in moves:
            s = self.score(game, m)
            if s > best_s:
                best, best_s = m, s
        return best

    def _plan(self, game, moves):
        # several rolls wait (a six lets the player roll again before moving): each first move scored by
        # the best use of the next waiting roll after it, played out on a copy of the game, the first
        # moves that score best alone first, while the budget of scored ends lasts (the rest as they are)
        g = game.copy()
        g.max_undo = -1
        seat = game.mover()
        ranked = []
        for m in moves:
            ranked.append((self.score(game, m), m))
        ranked.sort(key=_first)
        self.budget = PLAN_LEAVES
        best = ranked[0][1]
        best_s = -(1 << 29)
        for s, m in ranked:
            if self.budget > 0:
                g.push(m)
                s = self._rest(g, seat)
                g.pop()
            if s > best_s:
                best, best_s = m, s
        return best

    def _rest(self, g, seat):
        # the best position the next waiting roll leaves (this one if the turn has passed or nothing waits)
        if g.turn == seat and g.phase == 0 and not g.owe and g.rolls:
            moves = g.legal_moves()
            if moves:
                best_s = -(1 << 29)
                for m in moves:
                    s = self.score(g, m)
                    if s > best_s:
                        best_s = s
                self.budget -= len(moves)
                return best_s
        self.budget -= 1
        return evaluate(g, g.pos, seat, self._safety(g, g.pos, seat))

    def score(self, game, move):
        """How much the bot likes `move` (a LudoMove of game.legal_moves()): higher is better."""
        t = move.t
        if t[0] >= 3:  # the Danish start-order choice: start (moving first is worth more than a colour)
            return 1 if t[0] == 3 else 0
        pos = self.pos
        src = game.pos
        for i in range(16):
            pos[i] = src[i]
        pos[t[1]] = t[4]
        if t[9] >= 0:
            pos[t[9]] = t[4]
        for c in t[5]:
            pos[c] = BASE
        seat = t[1] >> 2
        return evaluate(game, pos, seat, self._safety(game, pos, seat))

    def _safety(self, game, pos, seat):
        # per token, its chance (in 64ths) of not being captured before its next turn in pos, asked of the
        # rules engine itself (so stars, arrows, walls, pairs, globes and entries count as the rule set has
        # them) on a scratch game the bot keeps: each opponent in turn, each single roll 1..6, any of its
        # moves that captures the token. None (then evaluate counts the tokens behind instead, _risk, which
        # is right where no star, arrow or wall moves a token on) on plain tracks and where two dice are
        # summed (single rolls are not what happens there).
        if game._dice_sum or not (game._stars or game._arrows or game._walls):
            return None
        scratch = self.scratch
        if scratch is None or scratch.rules is not game.rules or scratch.seats != game.seats:
            scratch = self.scratch = game.copy()
            scratch.max_undo = 0
        sp = scratch.pos
        for i in range(16):
            sp[i] = pos[i]
        scratch._rebuild_occ()
        scratch.captured = game.captured
        scratch.placed = game.placed
        scratch.phase = 0
        scratch.owe = 0
        alive = self.alive
        for i in range(16):
            alive[i] = 64
        teams = game._teams
        seen = self.seen  # per token: the last roll found to capture it
        count = self.count  # per token: how many of one opponent's six rolls capture it
        roll = self.roll
        for o in game.seats:
            if o == seat or (teams and o == (seat + 2) % 4) or o in game.placed:
                continue
            scratch.turn = o
            for i in range(16):
                seen[i] = count[i] = 0
            for r in range(1, 7):
                roll[0] = r
                for m in _gen(scratch, roll):
                    for c in m[5]:
                        if seen[c] != r:
                            seen[c] = r
                            count[c] += 1
            for i in range(16):
                if count[i]:
                    alive[i] = alive[i] * (6 - count[i]) // 6
        return alive


def _first(entry):
    return -entry[0]


def evaluate(game, pos, seat, alive=None):
    """The strong bot's value of position `pos` (16 position codes) for `seat` (with its Team Up partner
    on its side): its tokens' worth minus the risk on them, minus a share of the opponents' worth."""
    geo = game.geo
    L = geo.track_len
    fin = geo.FIN
    turn_in = game.turn_in
    starts = geo.starts
    abs_of = geo.abs_of
    teams = game._teams
    seats = game.seats
    mine = 0
    theirs = 0
    for s in seats:
        own = s == seat or (teams and s == (seat + 2) % 4)
        for i in range(4):
            gi = s * 4 + i
            p = pos[gi]
            if p < 0:
                continue
            v = _OUT + p
            if p >= L:
                v += _SAFE
                if p >= fin:
                    v += _DONE
            elif own:
                if alive is None:
                    risk = _risk(game, pos, s, abs_of[s][p], seats, teams, L, turn_in, starts)
                else:
                    risk = 64 - alive[gi]
                    if game._six_again and risk < 64:
                        risk += (
                            _tail(game, pos, s, abs_of[s][p], seats, teams, L, turn_in) * (64 - risk)
                        ) >> 6
                v -= (v * _FEAR * risk) >> 9
            if own:
                mine += v
            else:
                theirs += v
    return (mine << 3) - theirs * _OPP


def _tail(game, pos, s, a, seats, teams, L, turn_in):
    # the chance (in 64ths) that an opponent token 7..12 squares behind reaches square a with a six and
    # a roll again (one in 36 each)
    if game._safe[a]:
        return 0
    miss = 64
    for o in seats:
        if o == s or (teams and o == (s + 2) % 4):
            continue
        ab = game.geo.abs_of[o]
        for i in range(4):
            q = pos[o * 4 + i]
            if 0 <= q < L:
                d = (a - ab[q]) % L
                if 6 < d <= 12 and q + d < turn_in:
                    miss = miss * 62 >> 6
    return 64 - miss


def _risk(game, pos, s, a, seats, teams, L, turn_in, starts):
    # the chance (in 64ths) that a token of seat s on absolute square a is captured before its next
    # turn, counted from the squares behind it (right where no star or arrow moves a token on; with two
    # dice summed, an approximation): one chance in six for each opponent token 1..6 squares behind,
    # one in 36 for one 7..12 behind (a six and a roll again), one in six on an opponent's start square
    # while it has tokens in base. Safe squares and a pair where pairs are not captured are not at risk.
    if game._safe[a] or _pair_at(pos, s, a, game):
        return 0
    miss = 64
    for o in seats:
        if o == s or (teams and o == (s + 2) % 4):
            continue
        ab = game.geo.abs_of[o]
        in_base = False
        for i in range(4):
            q = pos[o * 4 + i]
            if q < 0:
                in_base = True
            elif q < L:
                d = (a - ab[q]) % L
                if 0 < d <= 12 and q + d < turn_in:
                    miss = miss * (53 if d <= 6 else 62) >> 6
        if in_base and a == starts[o]:
            miss = miss * 53 >> 6
    return 64 - miss


def _pair_at(pos, s, a, game):
    # two tokens of seat s stand on absolute square a in pos (captures need a pair to take a pair
    # under capture_pairs=0, and walls block): counted from pos, not the game's counts
    if game._pairs and not game._walls:
        return False
    n = 0
    ab = game.geo.abs_of[s]
    L = game.track_len
    for i in range(4):
        q = pos[s * 4 + i]
        if 0 <= q < L and ab[q] == a:
            n += 1
    return n >= 2


def bot_for(level, seed=1):
    """A bot of `level` (one of LEVELS) for one seat."""
    if level == "random":
        return RandomBot(seed)
    if level == "preferred":
        return PreferredBot(seed)
    if level == "strong":
        return StrongBot(seed)
    raise ValueError("no Ludo bot %r: the levels are %s" % (level, ", ".join(LEVELS)))

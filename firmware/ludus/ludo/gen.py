"""Ludo move generation: the legal moves of the waiting rolls under the rule set, as tuples (see
ludus.ludo.moves). Methods of LudoGame (bound in ludus.ludo.game), kept in a module of their own so
each module compiles in a small heap."""

import sys

from ludus.ludo.geometry import BASE
from ludus.ludo.moves import (
    COLOUR,
    ENTER,
    R_CAPTURE_FIRST,
    R_DONE,
    R_ENTRY,
    R_EXACT,
    R_OCCUPIED,
    R_PROTECTED,
    R_WALL,
    R_WALL_LAND,
    START,
    STEP,
    WALL,
)
from ludus.runtime import NATIVE as _NATIVE
from ludus.runtime import const

# ludus.ludo.moves's PLAY and CHOICE phases, inlined on the hot path
_PLAY = const(0)
_CHOICE = const(2)


def _legal(self):
    if self.phase != _PLAY:
        if self.phase == _CHOICE:
            return _choices(self.turn * 4)
        return []
    rolls = self.rolls
    if self.owe or not rolls:
        return []
    return _gen(self, rolls)


def _distinct(rolls):
    # the waiting rolls, each value once
    out = []
    for r in rolls:
        if r not in out:
            out.append(r)
    return out


def _choices(gi):
    # the Danish choice after the roll-off, for the winner's first token gi (apart from _legal to keep
    # its frame small: hot path, docs/architecture.md)
    return [(START, gi, 0, -1, -1, (), -1, 0, 0, -1), (COLOUR, gi, 0, -1, -1, (), -1, 0, 0, -1)]


def _gen(self, rolls):
    """The moves for the waiting rolls (each value once), after the compulsory-capture filter. (A module
    function on the hot path: called directly, not looked up through the game's full instance
    dictionary. ludus.ludo.native has it as viper code, used on MicroPython: keep the two alike.)"""
    if len(rolls) > 1:
        rolls = _distinct(rolls)
    s = self.turn
    if self._teams and self._finished(s):
        s = (s + 2) % 4
    pos = self.pos
    base = s * 4
    T = self.turn_in
    # fast path: a plain landing on an empty square with no jump and no walls to check
    absq = self.geo.abs_of[s]
    total = self.total
    plain = self._plain
    simple = self._simple
    out = []
    append = out.append
    anycap = False
    for r in rolls:
        v = r & 31
        entry_ok = self._entry_ok[r]
        entered = False
        for gi in range(base, base + 4):
            p = pos[gi]
            if p < 0:
                # tokens in base are interchangeable: offer the first only
                if entered or not entry_ok:
                    continue
                entered = True
                m = _land(self, gi, s, -1, 0, r, 0, 0)
            else:
                if gi > base and pos.index(p, base) != gi:
                    continue  # tokens sharing a square are interchangeable too
                q = p + v
                if q < T:
                    a = absq[q]
                    if plain[a]:
                        if not total[a]:
                            append((1, gi, r, p, q, (), -1, 0, 0, -1))  # STEP
                            continue
                        if simple:
                            # _land, in short, for shared squares where every opponent is captured
                            # except on a safe square (where all stay)
                            if self._safe[a] or total[a] == self.occ[a * 4 + s]:
                                append((1, gi, r, p, q, (), -1, 0, 0, -1))
                                continue
                            append((1, gi, r, p, q, _tokens_on(self, s, a), -1, 0, 0, -1))
                            anycap = True
                            continue
                    m = _land(self, gi, s, p, q, r, 0, q)
                else:
                    m = _single(self, gi, v, r, entry_ok)
                    if self._capture_lap and p < T and (m.__class__ is int or not m[7]):
                        q2 = q - self.track_len if q >= self.track_len else q
                        m2 = _land(self, gi, s, p, q2, r, 1, q)
                        if m2.__class__ is not int and m2[5]:
                            append(m2)
                            anycap = True
            if m.__class__ is not int:
                if m[5]:
                    anycap = True
                append(m)
        if self._walls:
            _gen_walls(self, s, v, r, out)
            anycap = True  # (wall moves: let the filter look)
    if anycap and self._must_capture:
        return _must_capture(out)
    return out


def _must_capture(out):
    # compulsory capture: the captures, if there are any
    caps = [m for m in out if m[5]]
    return caps if caps else out


def _single(self, gi, v, r, entry_ok):
    """The move of token gi by v squares, or a reason code (int) why it has none."""
    p = self.pos[gi]
    s = gi >> 2
    L = self.track_len
    if p < 0:
        if not entry_ok:
            return R_ENTRY
        return _land(self, gi, s, -1, 0, r, 0, 0)
    geo = self.geo
    if p >= geo.FIN:
        return R_DONE
    if p >= L:
        return _column(self, gi, s, p, p - L + v, r)
    T = self.turn_in
    q = p + v
    if p < T:
        if q < T:
            return _land(self, gi, s, p, q, r, 0, q)
        if self._capture_before_home and not (self.captured >> s) & 1:
            # capture before home: until it has captured, the token goes on round the track
            return _land(self, gi, s, p, q - L if q >= L else q, r, 1, q)
        if self._walls and _wall_between(self, s, p + 1, T - 1, -1):
            return R_WALL
        return _column(self, gi, s, p, q - T, r)
    # on the square after its own home entry (after an extra lap): round again
    return _land(self, gi, s, p, q - L, r, 0, q)


def _column(self, gi, s, p, k, r):
    geo = self.geo
    F = geo.F
    if k > F:
        if self._exact:
            return R_EXACT
        k = F + F - k
        if k < 0:
            return R_EXACT
    L = self.track_len
    if p < L and self._capture_before_home and not (self.captured >> s) & 1:
        return R_CAPTURE_FIRST
    to = L + k
    if k >= geo.C:
        return (STEP, gi, r, p, to, (), -1, 0, 1, -1)
    if not self._share or not geo.has_home:
        pos = self.pos
        for j in range(s * 4, s * 4 + 4):
            if j != gi and pos[j] == to:
                return R_OCCUPIED
    return (STEP, gi, r, p, to, (), -1, 0, 1 if (p < L and not geo.has_home) else 0, -1)


def _wall_between(self, s, d0, d1, skip):
    """True if an opponent wall stands on one of seat s's track squares d0..d1 (wrapping), other
    than absolute square skip."""
    occ = self.occ
    L = self.track_len
    absq = self.geo.abs_of[s]
    opp = self._opp[s]
    for d in range(d0, d1 + 1):
        a = absq[d % L]
        if a == skip:
            continue
        a4 = a * 4
        for c in opp:
            if occ[a4 + c] >= 2:
                return True
    return False


def _tokens_on(self, s, a):
    # the tokens (gi) on absolute track square a that a token of seat s captures in the simple rules
    # (LudoGame._simple: every other seat is an opponent), seat by seat
    won = ()
    for c in range(4):
        if c != s and self.occ[a * 4 + c]:
            won += _tokens_at(self, c, a)
    return won


def _tokens_at(self, c, a):
    """Tokens (gi) of seat c on absolute track square a, where the square counts show one or more."""
    d = (a - self.geo.starts[c]) % self.track_len
    g = self.pos.index(d, c * 4)
    if self.occ[a * 4 + c] == 1:
        return (g,)
    return tuple(k for k in range(g, c * 4 + 4) if self.pos[k] == d)


def _land(self, gi, s, p, q, r, lap, end):
    """Token gi of seat s from p lands on its track square q (end = q before wrapping, for the
    path). Applies walls, star/arrow jumps, occupancy, captures and protection."""
    geo = self.geo
    a = geo.abs_of[s][q]
    if self._walls and _wall_between(self, s, p + 1 if p >= 0 else 0, end, -1):
        return R_WALL
    via = -1
    if self._stars:
        nxt = geo.star_next[a]
        if nxt != 255:  # NONE
            if q == self.turn_in - 1 and self._entry_star_home:
                return (STEP if p >= 0 else ENTER, gi, r, p, geo.HOME, (), q, lap, 1, -1)
            via = q
            q += (nxt - a) % self.track_len
            a = nxt
    elif self._arrows:
        nxt = geo.arrow_next[a]
        if nxt != 255 and q + geo.Q < self.turn_in:
            via = q
            q += geo.Q
            a = nxt
    occ = self.occ
    a4 = a * 4
    others = self.total[a] - occ[a4 + s]
    if self._teams:
        others -= occ[a4 + (s + 2) % 4]
    if not others:
        if not self._share and self.total[a]:
            return R_OCCUPIED
        return (STEP if p >= 0 else ENTER, gi, r, p, q, (), via, lap, 0, -1)
    caps = ()
    if not self._share:
        if self.total[a] != others:
            return R_OCCUPIED
        for c in self._opp[s]:
            if occ[a4 + c]:
                caps = _tokens_at(self, c, a)
        return (STEP if p >= 0 else ENTER, gi, r, p, q, caps, via, lap, 0, -1)
    protected = False
    safe = geo.safe[a]
    for c in self._opp[s]:
        n = occ[a4 + c]
        if not n:
            continue
        if n >= 2 and self._walls:
            return R_WALL_LAND
        if safe:
            if p < 0 and self._globes and n < 2:
                caps += _tokens_at(self, c, a)  # globe: the owner brings a token out
            else:
                protected = True
        elif n >= 2 and not self._pairs:
            protected = True
        else:
            caps += _tokens_at(self, c, a)
    if protected and p >= 0:
        b = self._blocked
        if b == "home":
            return (STEP, gi, r, p, BASE, (), q, lap, 0, -1)
        if b == "forbid":
            return R_PROTECTED
    return (STEP if p >= 0 else ENTER, gi, r, p, q, caps, via, lap, 0, -1)


def _gen_walls(self, s, v, r, out):
    """Master: each wall (two or more tokens of s on one track square) may move as one unit: its two
    first tokens move v squares together; a wall moving as a unit may land on (and capture) an
    opponent wall, but passes none."""
    pos = self.pos
    L, T = self.track_len, self.turn_in
    geo = self.geo
    seen = []
    for i in range(4):
        gi = s * 4 + i
        p = pos[gi]
        if not 0 <= p < L or p in seen:
            continue
        gj = -1
        for j in range(i + 1, 4):
            if pos[s * 4 + j] == p:
                gj = s * 4 + j
                break
        if gj < 0:
            continue
        seen.append(p)
        q = p + v
        lap = 0
        if p < T and q >= T:
            if self._capture_before_home and not (self.captured >> s) & 1:
                lap = 1  # capture before home: on round the track
            else:
                if _wall_between(self, s, p + 1, T - 1, -1):
                    continue
                m = _column(self, gi, s, p, q - T, r)
                if m.__class__ is not int:
                    out.append((WALL,) + m[1:9] + (gj,))
                continue
        end = q
        if q >= L:
            q -= L
        absq = geo.abs_of[s]
        a = absq[q]
        if _wall_between(self, s, p + 1, end, a):
            continue
        a4 = a * 4
        caps = ()
        blocked = False
        for c in self._opp[s]:
            n = self.occ[a4 + c]
            if not n:
                continue
            if geo.safe[a]:
                if n >= 2:
                    blocked = True  # a wall on a safe square cannot be captured
            else:
                caps += _tokens_at(self, c, a)
        if not blocked:
            out.append((WALL, gi, r, p, q, caps, -1, lap, 0, gj))


# Where the port runs native code, _gen compiled by the viper emitter (ludus.ludo.native), several
# times faster.
NATIVE = False  # whether _gen is the viper kernel
if _NATIVE:
    import ludus.ludo.native as _kernel

    _kernel.GEN_MODULE = sys.modules[__name__]  # type: ignore[assignment]
    _gen = _kernel.gen  # type: ignore[assignment]
    NATIVE = True
    del _kernel

"""The Ludo rules core's hot path compiled by MicroPython's viper emitter: the same results as the
bytecode versions in ludus.ludo.gen (_gen) and ludus.ludo.turn (_apply with its _move_token and
_captures, _record), on raw byte pointers and machine ints. MicroPython only: those modules load it
where the port runs native code (ludus.runtime.NATIVE) and hand it themselves (GEN_MODULE,
TURN_MODULE) for the functions it calls back; elsewhere they keep their own versions. The firmware
tests run it under MicroPython and the bytecode versions under CPython.

mpy-cross needs the target architecture for this file: mpy-cross -march=armv6m (the Pico's RP2040)."""

# ruff: noqa: F821 (ptr8 and int() casts are viper built-ins)
# mypy: ignore-errors

import micropython

GEN_MODULE = None  # ludus.ludo.gen, set by it when it loads this module (its functions are looked up there)
TURN_MODULE = None  # ludus.ludo.turn, set by it once loaded
NONE = None  # (viper stores the literal None as the int 0: a name holding it stores None itself)


@micropython.viper
def gen(self, rolls):
    """ludus.ludo.gen._gen: the moves for the waiting rolls (each value once), after the compulsory-capture
    filter."""
    s = int(self.turn)
    if self._teams and self._finished(s):
        s = (s + 2) & 3
    pos = self.pos
    base = s * 4
    # tokens sharing a square (or all in base) are interchangeable: only the first of them is offered
    # (skip: bit gi set for the others)
    p = int(pos[base])
    q = int(pos[base + 1])
    a = int(pos[base + 2])
    v = int(pos[base + 3])
    skip = 0
    if q == p:
        skip = 2 << base
    if a == p or a == q:
        skip |= 4 << base
    if v == p or v == q or v == a:
        skip |= 8 << base
    T = int(self.turn_in)
    absq = ptr8(self.geo.abs_of[s])
    total = ptr8(self.total)
    plain = ptr8(self._plain)
    ok = ptr8(self._entry_ok)
    out = []
    anycap = 0
    n = int(len(rolls))
    k = 0
    while k < n:
        r = int(rolls[k])
        k += 1
        if k > 1 and int(rolls.index(r)) < k - 1:
            continue  # a value already seen: its moves are listed
        v = r & 31
        gi = base
        while gi < base + 4:
            if (skip >> gi) & 1 == 0:
                p = int(pos[gi])
                q = p + v
                got = 0  # m holds a move (a tuple) or the reason for none (an int)
                if p < 0:
                    if ok[r]:
                        m = GEN_MODULE._land(self, gi, s, -1, 0, r, 0, 0)
                        got = 1
                elif q < T:
                    a = int(absq[q])
                    if plain[a] and total[a] == 0:
                        out.append((1, gi, r, p, q, (), -1, 0, 0, -1))  # STEP
                    elif plain[a] and self._simple:
                        # _land, in short, for shared squares where every opponent is captured
                        # except on a safe square (where all stay)
                        if ptr8(self._safe)[a] or total[a] == ptr8(self.occ)[a * 4 + s]:
                            out.append((1, gi, r, p, q, (), -1, 0, 0, -1))
                        else:
                            out.append((1, gi, r, p, q, tokens_on(self, s, a), -1, 0, 0, -1))
                            anycap = 1
                    else:
                        m = GEN_MODULE._land(self, gi, s, p, q, r, 0, q)
                        got = 1
                else:
                    m = GEN_MODULE._single(self, gi, v, r, ok[r])
                    got = 1
                    if self._capture_lap and p < T and (not isinstance(m, tuple) or not m[7]):
                        L = int(self.track_len)
                        m2 = GEN_MODULE._land(self, gi, s, p, q - L if q >= L else q, r, 1, q)
                        if isinstance(m2, tuple) and m2[5]:
                            out.append(m2)
                            anycap = 1
                if got and isinstance(m, tuple):
                    if m[5]:
                        anycap = 1
                    out.append(m)
            gi += 1
        if self._walls:
            GEN_MODULE._gen_walls(self, s, v, r, out)
            anycap = 1  # (wall moves: let the filter look)
    if anycap and self._must_capture:
        return GEN_MODULE._must_capture(out)
    return out


@micropython.viper
def tokens_on(self, s: int, a: int):
    """ludus.ludo.gen._tokens_on: the tokens (gi) on absolute track square a that a token of seat s
    captures in the simple rules (every other seat an opponent), seat by seat, each seat's in order."""
    occ = ptr8(self.occ)
    pos = self.pos
    L = int(self.track_len)
    won = ()
    c = 0
    while c < 4:
        if c != s and occ[a * 4 + c]:
            d = a - c * (L >> 2)  # the square as seat c counts it
            if d < 0:
                d += L
            g = c * 4
            while g < c * 4 + 4:
                if int(pos[g]) == d:
                    won = won + (g,) if won else (g,)
                g += 1
        c += 1
    return won


@micropython.viper
def apply(self, m):
    """ludus.ludo.turn._apply, with its _move_token and _captures: play move tuple m (from the engine's own
    list)."""
    self._cache = NONE
    if int(m[0]) >= 3:  # START, COLOUR
        TURN_MODULE._choose(self, m)
        return
    # _move_token: token m[1] (and m[9], a wall's second token) from m[3] to m[4]
    to = int(m[4])
    g = int(m[1])
    pos = self.pos
    pos[g] = to
    n = 1
    g2 = int(m[9])
    if g2 >= 0:
        pos[g2] = to
        n = 2
    s = g >> 2
    absq = ptr8(self.geo.abs_of[s])
    occ = ptr8(self.occ)
    total = ptr8(self.total)
    inplay = ptr8(self.inplay)
    L = int(self.track_len)
    a = int(m[3])
    if a >= 0:
        if a < L:
            a = int(absq[a])
            occ[a * 4 + s] = occ[a * 4 + s] - n
            total[a] = total[a] - n
        if to < 0 or to >= int(self._in_play_end):
            inplay[s] = inplay[s] - n  # home, or sent back to base
    else:
        inplay[s] = inplay[s] + 1
        self.tries = 0  # a token is in play now
        self._idle = False
    if to >= 0 and to < L:
        a = int(absq[to])
        occ[a * 4 + s] = occ[a * 4 + s] + n
        total[a] = total[a] + n
    caps = m[5]
    if caps:
        # _captures: the captured tokens (gi) go back to their bases
        abs_of = self.geo.abs_of
        i = 0
        k = int(len(caps))
        while i < k:
            c = int(caps[i])
            a = int(ptr8(abs_of[c >> 2])[int(pos[c])]) * 4 + (c >> 2)  # (square, seat) of token c
            occ[a] = occ[a] - 1
            total[a >> 2] = total[a >> 2] - 1
            pos[c] = -1  # BASE
            inplay[c >> 2] = inplay[c >> 2] - 1
            i += 1
        if self._capture_before_home:
            self.captured = int(self.captured) | (1 << s)  # Blitz: may turn into the column now
        if self._capture_again:
            self.bonus = int(self.bonus) + 1
    rolls = self.rolls
    rolls.remove(m[2])
    if m[8]:
        if self._home_again:
            self.bonus = int(self.bonus) + 1
        if self._finished(s):
            if TURN_MODULE._seat_done(self, s):
                return
    if rolls:
        # _settle, in short (after a move nothing is owed and the phase is still PLAY)
        moves = gen(self, rolls)
        self._cache = moves
        if moves:
            return
    elif not self.owe and not self.bonus:
        TURN_MODULE._next_turn(self)
        return
    TURN_MODULE._settle(self)


@micropython.viper
def record(self, m):
    """ludus.ludo.turn._record: the undo record of move m (None: a roll) about to be played."""
    rolls = self.rolls
    if not m:  # (viper: no `is None`)
        k = int(len(rolls))
        kept = self.group
    else:
        kept = self.placed
        if int(m[0]) >= 3:  # START, COLOUR: no roll used
            k = -1
        elif rolls[0] == m[2]:
            k = 0
        else:
            k = int(rolls.index(m[2]))
    x = (
        int(self.turn)
        | int(self.phase) << 2
        | int(self.owe) << 4
        | int(self.sixes) << 5
        | int(self.die1) << 7
        | int(self.captured) << 10
        | int(self._idle) << 14
        | int(self.tries) << 15
    )
    return (m, rolls, k, kept, self.bonus, x)

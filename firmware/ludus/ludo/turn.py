"""Ludo turn flow: rolls (the six rules, the third six void, discarded rolls, the tries to come out,
the roll-off), playing a move, placements and the undo history. Methods of LudoGame (bound in
ludus.ludo.game), kept in a module of their own so each module compiles in a small heap."""

import sys

from ludus.errors import IllegalMoveError, NotationError
from ludus.ludo.gen import _gen, _legal
from ludus.ludo.geometry import BASE
from ludus.ludo.moves import CHOICE, ENTRY_FLAG, ORDER, OVER, PLAY, LudoMove
from ludus.runtime import NATIVE as _NATIVE
from ludus.runtime import const

_START = const(3)  # ludus.ludo.moves.START, inlined where a move is played

# The hot path (push, apply_roll and what they call) calls the module's functions directly: a method
# looked up through the game's instance dictionary (many attributes) costs several hundred instructions
# on MicroPython, a module global about 200.


def _new_turn(self, s):
    self.turn_count += 1
    self.phase = PLAY
    self.turn = s
    self.rolls = []
    self.owe = 1
    self.bonus = 0
    self.sixes = 0
    self.die1 = 0
    self.tries = 0
    self._cache = None
    self._idle = False
    if self._teams and self._finished(s):
        s = (s + 2) % 4
    if self.inplay[s]:
        return
    self._idle = True  # no token in play: only an entry value can move
    self.tries = self._tries


def _next_turn(self):
    s = self._after[self.turn]
    placed = self.placed
    if placed:
        for _ in range(4):
            if s not in placed:
                break
            s = self._after[s]
        else:
            self.phase = OVER
            self.owe = 0
            return
    _new_turn(self, s)


def _settle(self):
    """After a roll or move: discard waiting rolls with no legal move, grant owed rolls, pass the
    turn when nothing is left."""
    if self.phase != PLAY or self.owe:
        return
    if self.rolls:
        moves = self._cache
        if moves is None:
            moves = self._cache = _legal(self)
        if moves:
            return
        self.rolls = []
        self._cache = None
        if self.tries > 0:
            self.tries -= 1
            self.owe = 1
            return
    if self.bonus > 0:
        self.bonus -= 1
        self.owe = 1
        return
    _next_turn(self)


def apply_roll(self, value):
    """The die (or one of two dice) shows value 1..6. Applies the roll-off, the six rules, the third
    six void, discards rolls with no legal move and passes the turn."""
    if self.phase != PLAY or not self.owe or self._dice2:
        _roll_other(self, value)
        return
    if value.__class__ is not int or not 0 < value < 7:
        raise NotationError("die value %r: expected 1..6" % (value,))
    if self.max_undo:
        _keep(self, None)
    elif self.stack:
        self.stack = []  # history turned off: the records kept no longer lead back from here
    self._cache = None
    rolls = self.rolls
    if value == 6 and self._six_again:
        if self._void3:
            self.sixes += 1
            if self.sixes >= 3:
                _next_turn(self)
                return
        rolls.append(6)
        if self._roll_first:
            return  # roll again before moving: owe stays 1
        self.owe = 0
        self.bonus += 1
    else:
        self.sixes = 0
        self.owe = 0
        if not rolls:
            if self._idle and not self._entry_ok[value]:
                # nothing in play and no entry value: the roll has no move (_settle, in short)
                if self.tries > 0:
                    self.tries -= 1
                    self.owe = 1
                elif self.bonus > 0:
                    self.bonus -= 1
                    self.owe = 1
                else:
                    _next_turn(self)
                return
            rolls.append(value)
            moves = self._cache = _gen(self, rolls)
            if moves:
                return
        else:
            rolls.append(value)
    _settle(self)


def _roll_other(self, value):
    """apply_roll outside the common case: errors, the roll-off, two dice."""
    phase = self.phase
    if phase != ORDER and not (phase == PLAY and self.owe):
        if phase == OVER:
            raise IllegalMoveError("the game is over: no more rolls")
        raise IllegalMoveError("no roll is owed: play a waiting roll first")
    if value.__class__ is not int or not 0 < value < 7:
        raise NotationError("die value %r: expected 1..6" % (value,))
    if self.max_undo:
        _keep(self, None)
    elif self.stack:
        self.stack = []
    self._cache = None
    if phase == ORDER:
        _order_roll(self, value)
        return
    if not self.die1:
        self.die1 = value
        return
    d1 = self.die1
    self.die1 = 0
    six = d1 == 6 or value == 6
    if six and self._six_again:
        if self._void3:
            self.sixes += 1
            if self.sixes >= 3:
                _next_turn(self)
                return
        if self._roll_first:
            self.owe = 1
        else:
            self.owe = 0
            self.bonus += 1
    else:
        self.sixes = 0
        self.owe = 0
    if self._dice_sum:
        flag = ENTRY_FLAG if (d1 in self._entry or value in self._entry) else 0
        self.rolls.append((d1 + value) | flag)
    else:
        self.rolls.append(d1)
        self.rolls.append(value)
    _settle(self)


def _order_roll(self, value):
    self.rolls.append(value)
    group = self.group
    if len(self.rolls) < len(group):
        self.turn = group[len(self.rolls)]
        return
    top = max(self.rolls)
    tied = [group[i] for i in range(len(group)) if self.rolls[i] == top]
    self.rolls = []
    if len(tied) > 1:
        self.group = tied
        self.turn = tied[0]
        return
    self.group = []
    if self.rules.start_order == "choice":
        self.phase = CHOICE
        self.turn = tied[0]
        self.owe = 0
    else:
        _new_turn(self, tied[0])


def push(self, move):
    """Play a move from legal_moves() (or parse_move())."""
    cache = self._cache
    if cache is None:
        cache = self._cache = _legal(self)
    t = move.t if move.__class__ is self._Move or isinstance(move, LudoMove) else None
    if t not in cache:
        raise IllegalMoveError("move %s is not legal here" % (move,))
    if self.max_undo:
        stack = self.stack
        stack.append(_record(self, t))
        if 0 < self.max_undo < len(stack):
            del stack[0]
    elif self.stack:
        self.stack = []  # history turned off: the records kept no longer lead back to a position
    _apply(self, t)


def _apply(self, m):
    """Play move tuple m (from the engine's own list). Small functions indexing the tuple (hot path:
    docs/architecture.md). ludus.ludo.native has it with _move_token and _captures as viper code, used
    on MicroPython: keep them alike."""
    self._cache = None
    if m[0] >= _START:
        _choose(self, m)
        return
    _move_token(self, m)
    if m[5]:
        _captures(self, m[1] >> 2, m[5])
    rolls = self.rolls
    rolls.remove(m[2])
    if m[8]:
        if self._home_again:
            self.bonus += 1
        if self._finished(m[1] >> 2):
            if _seat_done(self, m[1] >> 2):
                return
    if rolls:
        # _settle, in short (after a move nothing is owed and the phase is still PLAY)
        moves = self._cache = _gen(self, rolls)
        if moves:
            return
    elif not self.owe and not self.bonus:
        _next_turn(self)
        return
    _settle(self)


def _choose(self, m):
    # the Danish choice after the roll-off: its winner starts, or chooses colour and the next seat starts
    seats = self.seats
    if m[0] == _START:
        _new_turn(self, self.turn)
    else:
        _new_turn(self, seats[(seats.index(self.turn) + 1) % len(seats)])


def _move_token(self, m):
    # token m[1] (and m[9], a wall's second token) from m[3] to m[4]: positions and counts
    to = m[4]
    pos = self.pos
    pos[m[1]] = to
    n = 1
    if m[9] >= 0:
        pos[m[9]] = to
        n = 2
    s = m[1] >> 2
    pos = self.geo.abs_of[s]  # from here: the seat's track squares
    a = m[3]
    if a >= 0:
        if a < self.track_len:
            a = pos[a]
            self.occ[a * 4 + s] -= n
            self.total[a] -= n
        if to < 0 or to >= self._in_play_end:
            self.inplay[s] -= n  # home, or sent back to base
    else:
        self.inplay[s] += 1
        self.tries = 0  # a token is in play now
        self._idle = False
    if 0 <= to < self.track_len:
        a = pos[to]
        self.occ[a * 4 + s] += n
        self.total[a] += n


def _captures(self, s, caps):
    # the captured tokens (gi) go back to their bases
    pos = self.pos
    occ = self.occ
    total = self.total
    abs_of = self.geo.abs_of
    inplay = self.inplay
    for c in caps:
        cs = c >> 2
        a = abs_of[cs][pos[c]]
        occ[a * 4 + cs] -= 1
        total[a] -= 1
        pos[c] = BASE
        inplay[cs] -= 1
    if self._capture_before_home:
        self.captured |= 1 << s  # Blitz: may turn into the column now
    if self._capture_again:
        self.bonus += 1


def _seat_done(self, s):
    """Seat s has just finished. Returns True when the turn (or game) ended here. (placed is replaced,
    never changed in place: an undo record keeps the list it had.)"""
    rules = self.rules
    placed = self.placed[:]
    if rules.teams:
        partner = (s + 2) % 4
        if not self._finished(partner):
            self._idle = False  # the mover changes to the partner
            return False  # keeps playing, with its partner's tokens
        placed.append(self.turn)
        placed.append((self.turn + 2) % 4)
        if rules.play_on:
            for c in self.seats:
                if c not in placed:
                    placed.append(c)
        self.placed = placed
        self.phase = OVER
        self.rolls = []
        self.owe = 0
        return True
    placed.append(s)
    self.placed = placed
    left = [c for c in self.seats if c not in placed]
    if not rules.play_on or len(left) <= 1:
        if rules.play_on:
            placed.extend(left)
        self.phase = OVER
        self.rolls = []
        self.owe = 0
        return True
    _next_turn(self)
    return True


# --- history ------------------------------------------------------------------------------------
# One small tuple per action, of what it may change, copying nothing: the move played (None for a roll);
# the waiting rolls list and how to restore it (a roll only appends to it and a move only removes its
# roll from it; either may then replace it with a new list, which leaves the old one as it was); placed
# (a move) or group (a roll), lists that are replaced, never changed in place; bonus; and the other turn
# scalars packed in one int. pop() plays a move backwards, restoring the positions and square counts.


def _record(self, m):
    # k: where move m's roll stands in the rolls list (-1: a start choice, which uses none), or for a
    # roll (m None) the list's length before it. The scalars: turn and phase (2 bits each), owe (1),
    # sixes (2: at most two stand), the first of two dice (3), captured (4: a bit per seat), _idle (1),
    # tries (the rest). Built in one expression (hot path: docs/architecture.md); ludus.ludo.native has
    # it as viper code.
    if m is None:
        k = len(self.rolls)
    elif m[0] >= _START:
        k = -1
    else:
        k = 0 if self.rolls[0] == m[2] else self.rolls.index(m[2])
    return (
        m,
        self.rolls,
        k,
        self.group if m is None else self.placed,
        self.bonus,
        self.turn
        | self.phase << 2
        | self.owe << 4
        | self.sixes << 5
        | self.die1 << 7
        | self.captured << 10
        | self._idle << 14
        | self.tries << 15,
    )


def _keep(self, m):
    # the record of move m (None: a roll) on the history, the oldest dropped beyond max_undo
    stack = self.stack
    stack.append(_record(self, m))
    if 0 < self.max_undo < len(stack):
        del stack[0]


def pop(self):
    """Take back the last action (a move or a roll)."""
    if not self.stack:
        raise IllegalMoveError("nothing to take back")
    m, rolls, k, kept, self.bonus, x = self.stack.pop()
    self.turn = x & 3
    self.phase = x >> 2 & 3
    self.owe = x >> 4 & 1
    self.sixes = x >> 5 & 3
    self.die1 = x >> 7 & 7
    self.captured = x >> 10 & 15
    self._idle = (x >> 14 & 1) == 1
    self.tries = x >> 15
    self.rolls = rolls
    self._cache = None
    if m is None:
        self.group = kept
        if len(rolls) > k:
            del rolls[k:]
        return
    self.placed = kept
    if k < 0:
        return  # a start choice: nothing moved
    rolls.insert(k, m[2])
    # _move_token and _captures backwards: token m[1] (and m[9]) back from m[4] to m[3], the captured
    # tokens back from their bases to the square the move landed on
    pos = self.pos
    occ = self.occ
    total = self.total
    pos[m[1]] = m[3]
    n = 1
    if m[9] >= 0:
        pos[m[9]] = m[3]
        n = 2
    s = m[1] >> 2
    absq = self.geo.abs_of[s]
    if 0 <= m[4] < self.track_len:
        a = absq[m[4]]
        occ[a * 4 + s] -= n
        total[a] -= n
        for c in m[5]:
            pos[c] = (a - self.geo.starts[c >> 2]) % self.track_len
            occ[a * 4 + (c >> 2)] += 1
            total[a] += 1
            self.inplay[c >> 2] += 1
    if m[3] >= 0:
        if m[3] < self.track_len:
            a = absq[m[3]]
            occ[a * 4 + s] += n
            total[a] += n
        if m[4] < 0 or m[4] >= self._in_play_end:
            self.inplay[s] += n
    else:
        self.inplay[s] -= 1


# On MicroPython _apply (with _move_token and _captures in it) and _record compiled by the viper emitter
# (ludus.ludo.native), which calls back into this module for the rest.
NATIVE = False  # whether _apply and _record are the viper kernels
if _NATIVE:
    import ludus.ludo.native as _kernel

    _kernel.TURN_MODULE = sys.modules[__name__]  # type: ignore[assignment]
    _apply = _kernel.apply
    _record = _kernel.record
    NATIVE = True
    del _kernel

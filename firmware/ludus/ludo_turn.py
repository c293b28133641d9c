"""Ludo turn flow: rolls (the six rules, the third six void, discarded rolls, the tries to come out,
the roll-off), playing a move, placements and the undo history. Methods of LudoGame (bound in ludus.ludo),
kept in a module of their own so each module compiles in a small heap."""

from ludus.errors import IllegalMoveError, NotationError
from ludus.ludo_board import BASE
from ludus.ludo_move import CHOICE, ENTRY_FLAG, ORDER, OVER, PLAY, START, LudoMove


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
    self._new_turn(s)


def _settle(self):
    """After a roll or move: discard waiting rolls with no legal move, grant owed rolls, pass the
    turn when nothing is left."""
    if self.phase != PLAY or self.owe:
        return
    if self.rolls:
        moves = self._cache
        if moves is None:
            moves = self._cache = self._legal()
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
    self._next_turn()


def apply_roll(self, value):
    """The die (or one of two dice) shows value 1..6. Applies the roll-off, the six rules, the third
    six void, discards rolls with no legal move and passes the turn."""
    if self.phase != PLAY or not self.owe or self._dice2:
        self._roll_other(value)
        return
    if value.__class__ is not int or not 0 < value < 7:
        raise NotationError("die value %r: expected 1..6" % (value,))
    if self.max_undo:
        self._record()
    self._cache = None
    rolls = self.rolls
    if value == 6 and self._six_again:
        if self._void3:
            self.sixes += 1
            if self.sixes >= 3:
                self._next_turn()
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
                    self._next_turn()
                return
            rolls.append(value)
            moves = self._cache = self._gen(rolls)
            if moves:
                return
        else:
            rolls.append(value)
    self._settle()


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
        self._record()
    self._cache = None
    if phase == ORDER:
        self._order_roll(value)
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
                self._next_turn()
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
    self._settle()


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
        self._new_turn(tied[0])


def push(self, move):
    """Play a move from legal_moves() (or parse_move())."""
    if self._cache is None:
        self._cache = self._legal()
    if not isinstance(move, LudoMove) or move.t not in self._cache:
        raise IllegalMoveError("move %s is not legal here" % (move,))
    if self.max_undo:
        self._record()
    self._apply(move.t)


def _apply(self, m):
    """Play move tuple m (from the engine's own list)."""
    self._cache = None
    kind, gi, roll, frm, to, caps, _via, _lap, home, gi2 = m
    if kind >= START:
        if kind == START:
            self._new_turn(self.turn)
        else:
            seats = self.seats
            self._new_turn(seats[(seats.index(self.turn) + 1) % len(seats)])
        return
    pos = self.pos
    occ = self.occ
    total = self.total
    s = gi >> 2
    L = self.L
    absq = self.geo.abs_of[s]
    n = 1 if gi2 < 0 else 2
    pos[gi] = to
    if gi2 >= 0:
        pos[gi2] = to
    if frm >= 0:
        if frm < L:
            a = absq[frm]
            occ[a * 4 + s] -= n
            total[a] -= n
        if to < 0 or to >= self._in_play_end:
            self.inplay[s] -= n  # home, or sent back to base
    else:
        self.inplay[s] += 1
        self.tries = 0  # a token is in play now
        self._idle = False
    if 0 <= to < L:
        a = absq[to]
        occ[a * 4 + s] += n
        total[a] += n
    if caps:
        abs_of = self.geo.abs_of
        inplay = self.inplay
        for c in caps:
            cs = c >> 2
            a = abs_of[cs][pos[c]]
            occ[a * 4 + cs] -= 1
            total[a] -= 1
            pos[c] = BASE
            inplay[cs] -= 1
        if self._cbh:
            self.captured |= 1 << s  # Blitz: may turn into the column now
        if self._capture_again:
            self.bonus += 1
    rolls = self.rolls
    rolls.remove(roll)
    if home:
        if self._home_again:
            self.bonus += 1
        if self._finished(s):
            if self._seat_done(s):
                return
    if not rolls and not self.owe and not self.bonus:
        self._next_turn()
    else:
        self._settle()


def _seat_done(self, s):
    """Seat s has just finished. Returns True when the turn (or game) ended here."""
    rules = self.rules
    if rules.teams:
        partner = (s + 2) % 4
        if not self._finished(partner):
            self._idle = False  # the mover changes to the partner
            return False  # keeps playing, with its partner's tokens
        self.placed.append(self.turn)
        self.placed.append((self.turn + 2) % 4)
        if rules.play_on:
            for c in self.seats:
                if c not in self.placed:
                    self.placed.append(c)
        self.phase = OVER
        self.rolls = []
        self.owe = 0
        return True
    self.placed.append(s)
    left = [c for c in self.seats if c not in self.placed]
    if not rules.play_on or len(left) <= 1:
        if rules.play_on:
            self.placed.extend(left)
        self.phase = OVER
        self.rolls = []
        self.owe = 0
        return True
    self._next_turn()
    return True


# --- history ------------------------------------------------------------------------------------


def _record(self):
    # One tuple per action, of copies made in C (no loop here): the token positions, the scalars,
    # placed, group and the waiting rolls. pop() rebuilds the per-square counts from the positions.
    stack = self.stack
    stack.append(
        (
            self.pos[:],
            self.turn,
            self.phase,
            self.owe,
            self.bonus,
            self.sixes,
            self.tries,
            self.die1,
            self.captured,
            self.placed[:],
            self.group[:],
            self.rolls[:],
            self._idle,
        )
    )
    if 0 < self.max_undo < len(stack):
        stack.pop(0)


def pop(self):
    """Take back the last action (a move or a roll)."""
    if not self.stack:
        raise IllegalMoveError("nothing to take back")
    (
        self.pos,
        self.turn,
        self.phase,
        self.owe,
        self.bonus,
        self.sixes,
        self.tries,
        self.die1,
        self.captured,
        self.placed,
        self.group,
        self.rolls,
        self._idle,
    ) = self.stack.pop()
    self._rebuild_occ()
    self._cache = None

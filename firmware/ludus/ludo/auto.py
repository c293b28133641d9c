"""Ludo auto-play (002 l.100): the move the board plays for a player whose turn clock runs out, and the
whole turn it plays. Functions behind LudoGame.preferred_move() and LudoGame.auto_play(), loaded when
first used."""

from ludus.ludo.moves import CHOICE, ORDER, OVER, START


def preferred_move(self):
    """The move auto-play makes when the turn clock runs out, for the first waiting roll that has
    one: bring a token home, else capture, else advance the furthest token. None if no move."""
    moves = self.legal_moves()
    if not moves:
        return None
    if self.phase == CHOICE:
        return moves[0]
    first = None
    for r in self.rolls:
        for m in moves:
            if m.roll == r:
                first = r
                break
        if first is not None:
            break
    moves = [m for m in moves if m.roll == first]
    for m in moves:
        if m.home:
            return m
    for m in moves:
        if m.caps:
            return m
    best = moves[0]
    best_p = -999
    T, L = self.turn_in, self.track_len
    for m in moves:
        p = m.frm
        if T <= p < L:
            p -= L  # just past its own entry after an extra lap: furthest from home
        if p > best_p:
            best, best_p = m, p
    return best


def auto_play(self, next_roll):
    """Auto-play, when the turn clock runs out (002 l.100): roll each roll the player owes with
    next_roll() (a function returning 1..6) and play the preferred move of each waiting roll,
    until the turn passes. Returns the actions taken, as text ("roll 6", "6 green.0 base-t0")."""
    seat = self.turn
    done = []
    while self.phase != OVER and self.turn == seat:
        if self.awaiting_roll():
            order = self.phase == ORDER
            v = next_roll()
            self.apply_roll(v)
            done.append("roll %d" % v)
            if order:
                break  # one roll of the roll-off
        else:
            m = preferred_move(self)
            self.push(m)
            done.append(str(m))
            if m.kind >= START:
                break  # the Danish choice: the turn itself has its own clock
    return done

"""The referee's judgement of a settled board: idle, a move done (commit, or wait for a jump chain or a
confirmation), a move under way, or a difference to put right. A part of ludus.referee."""

# The methods here live on Referee (ludus.referee), which defines the attributes they use.
# mypy: disable-error-code="attr-defined,has-type"

from ludus.referee.infer import classify, diff_places, pair_nearest, saturate, split_difference
from ludus.referee.states import PASS_TEXT, TABLE_DUE
from ludus.runtime import const

# ludus.referee.states' values, inlined (hot path: docs/architecture.md; a test checks they agree)
_PLAY = const(1)
_S_CHAIN = const(7)
_S_IDLE = const(0)
_S_CONFIRM = const(3)
_S_ILLEGAL = const(5)
_S_MISMATCH = const(4)
_S_MOVING = const(1)
_S_PENDING = const(2)
_S_UNDO = const(6)


# The hot path of a settled change (judge, commit, the next position) is module functions: a method
# is looked up through the referee's instance dictionary first, a miss that probes every slot.


def _evaluate(self):
    diffs = self._diffs
    nd = diff_places(self.sensed, self.exp_sat, diffs)
    was = self.situation
    if nd == 0 and not (was == _S_UNDO and self.guide and self._guide_step()):
        if was == _S_MISMATCH or was == _S_ILLEGAL or was == _S_UNDO:
            self._event("resume")
        _reset_move(self)
        return
    if was == _S_UNDO:
        if nd == 0:
            return  # (an unseen step of the guide, still lit)
        if self.guide is None or not self._guide_step():
            self._show_difference(diffs, False)
        self.situation = _S_UNDO
        return
    seen = self.seen
    k = 0
    while k < nd:
        seen[diffs[k]] = 1
        k += 1
    if table_of(self) is None:  # a roll is owed, or the game is in a phase without moves
        self._mismatch(diffs, was)
        return
    _judge_moves(self, diffs, was)


def _judge_moves(self, diffs, was):
    # the board against the move table: a match, a move under way, or neither
    res = classify(self.table, self.sensed, self.exp_sat, diffs, self.seen)
    kind = res[0]
    if kind == 1:  # MATCH
        _matched(self, res[1], res[2])
        return
    if kind == 2:  # PARTIAL
        if was == _S_MISMATCH or was == _S_ILLEGAL:
            self._event("resume")
        self.hold = 0
        self.situation = _S_MOVING
        self.partials = res[2]
        self.pending = None
        self.choices = None
        return
    # FOREIGN: first, does it make sense once the pending move is played?
    if was == _S_PENDING and self.pending is not None:
        if self._try_commit_then(self.pending):
            return
    if self._chain_touchdown(diffs):
        return
    if _on_the_way(self, diffs):
        return
    self._mismatch(diffs, was)


def _one_carried(self, diffs):
    # (a, b) when the board differs on two places only, pieces missing from a and extra on b: a piece
    # carried from a to b; else None
    if len(diffs) != 2:
        return None
    s = self.sensed
    es = self.exp_sat
    a, b = diffs[0], diffs[1]
    if s[a] > es[a]:
        a, b = b, a
    if not (s[a] < es[a] and s[b] > es[b]):
        return None
    return a, b


def _on_the_way(self, diffs):
    # The mover's token rests on a square it passes while counting a roll out: a move under way, its
    # destinations lit, no error until the board has been still for HOLD_MS (then it is judged again).
    if self.hold == 2:  # it has rested there HOLD_MS already
        return False
    ab = _one_carried(self, diffs)
    if ab is None:
        return False
    a, b = ab
    if self.sensed[a] + 1 != self.exp_sat[a] or self.sensed[b] != self.exp_sat[b] + 1:
        return False  # one token, not a stack's worth
    game = self.game
    if not self.adapter.mover_place(game, a) or not self.adapter.on_the_way(game, a, b):
        return False
    table = self.table
    self.partials = [i for i in range(table.count) if self.adapter.key_ends(game, table.keys[i])[0] == a]
    self.situation = _S_MOVING
    self.pending = None
    self.choices = None
    self.hold = 1
    return True


def _matched(self, matches, partials):
    if len(matches) > 1:
        self._ask_confirm([self._move(i) for i in matches])
        return
    i = matches[0]
    move = self.adapter.move(self.game, self.table.keys[i])
    cont = self.adapter.continuations(self.game, move)
    # A move whose arrival the sensors cannot see (onto a square already read as full) looks
    # exactly like a piece just picked up: wait for a press or the next player's action.
    if cont or partials or not self.table.shows_arrival(i, self.exp_sat):
        _hold(self, move, cont, partials)
        return
    if self.adapter.has_dice and len(self.game.rolls) > 1 and self.adapter.revisable(self.game, move):
        # a token counted out square by square rests here, on the way to another of its moves: the
        # commit waits for the board to be still for HOLD_MS (or a press, or another piece touched)
        _hold(self, move, cont, partials)
        self.hold = 1
        return
    _commit(self, move)


def _hold(self, move, cont, partials):
    # a move done that waits: for its jump chain to go on, a press, or the next player
    self.hold = 0
    self.situation = _S_PENDING
    self.pending = move
    self.chain_next = cont
    self.partials = partials
    self._event("pending", move=str(move))


def _commit(self, move):
    # The move's text, for the record and its event, is made after the tick's frame has gone out, when
    # the events are taken or the record read (GameRecord.defer_move): the board answers first.
    game = self.game
    ev = {"seat": game.turn, "move": None, "event": "move"}
    self.record.defer_move(move, ev)
    game.push(move)
    self.die_value = 0  # the roll is used: the die shows what still waits (ludus.referee.lights)
    self.events.append(ev)
    _position_changed(self, move)
    if self.phase == _PLAY and not self.over_due and self.sensed != self.exp_sat:  # (equal: idle)
        _evaluate(self)


def _position_changed(self, played=None):
    # played: the move just pushed, when the adapter can update the expected counts from it
    expected = self.expected
    if played is None or not self.adapter.expect_after(played, expected):
        self.game.fill_counts(expected)
    es = self.exp_sat
    es[:] = expected
    saturate(es, self.cap)
    _reset_move(self)
    self.table = None
    self.auto_move = None
    self.over_due = False
    if self.bots is not None:
        self.bots[3] = None  # (a bot's chosen move, now played or gone with the position)
    _load_moves(self, played is not None)


def _load_moves(self, committed):
    # the new position's move table (none while a roll is owed), or the game's end. The table itself
    # is made when it is first needed (table_of): after a commit the new frame goes out first, and the
    # next tick loads it (docs/referee.md, "Committing"). So does the end of a game a commit ended
    # (over_due; ludus.referee.core.tick): the last move and the end each in a tick of their own.
    game = self.game
    ad = self.adapter
    if ad.has_dice:
        if game.is_over():
            _end(self, committed)
            return
        if game.awaiting_roll():
            return
    elif ad.finished(game):
        _end(self, committed)
        return
    self.table = TABLE_DUE


def _end(self, committed):
    if committed:
        self.over_due = True
    else:
        self._game_over()


def table_of(self):
    """The referee's move table for the position, loaded now if it is due; None when there are no
    moves to judge (a roll is owed, the game is over or not begun)."""
    table = self.table
    while table is TABLE_DUE:
        table = _load_table(self)
    return table


def _load_table(self):
    # the table is made (and a forced pass played, which makes the next one due)
    game = self.game
    self.table = None
    n = self.adapter.load(game, self._table, self.expected)
    if n == 0 and game.is_over():  # (Chinese Checkers, nobody able to move: only then worth asking)
        self._game_over()
        self._dirty = True
        return None
    self.table = self._table
    if n == 1:
        _pass_if_forced(self)
    return self.table


def _pass_if_forced(self):
    # the only legal move is a pass: played at once
    move = self._move(0)
    if str(move) == PASS_TEXT:
        game = self.game
        seat = game.turn
        self.record.record_move(move)
        game.push(move)
        self._event("pass", seat=seat)
        self._dirty = True  # (when loaded on a later tick: the frame shows the next seat)
        _position_changed(self)


def _reset_move(self):
    self.seen[:] = self._zeros
    self.guide = None
    self.hold = 0
    self.situation = _S_IDLE
    self.pending = None
    self.choices = None
    self.partials = None
    self.chain_at = -1


class RefereeJudge:
    """Move inference methods of Referee (see ludus.referee)."""

    _evaluate = _evaluate
    _commit = _commit
    _position_changed = _position_changed
    _reset_move = _reset_move

    def _try_commit_then(self, move):
        # Commit move only if the board then reads as idle, a match or a move in progress.
        game = self.game
        game.push(move)
        expected = bytearray(self.place_count)
        game.fill_counts(expected)
        es = bytearray(expected)
        saturate(es, self.cap)
        ok = True
        if self.sensed != es:
            if game.is_over() or self._awaiting_roll():
                ok = False
            else:
                table = self._scratch_table()
                self.adapter.load(game, table, expected)
                diffs = []
                diff_places(self.sensed, es, diffs)
                kind, _, _ = classify(table, self.sensed, es, diffs)
                ok = kind != 3  # FOREIGN
        game.pop()
        if not ok:
            return False
        self._commit(move)
        return True

    def _chain_touchdown(self, diffs):
        # Chinese Checkers: the mover's piece rests on a hole its jump chain passes but may not end on.
        ab = _one_carried(self, diffs)
        if ab is None:
            return False
        a, b = ab
        game = self.game
        if not self.adapter.mover_place(game, a):
            return False
        reach = self.adapter.chain_reach(game, a)
        if b not in reach:
            return False
        self.situation = _S_CHAIN
        self.chain_at = b
        self.chain_next = [h for h in game.continuations(b, a) if h != a]
        self._chain_from = a
        self._event("chain", at=self.place_names[b])
        return True

    def _ask_confirm(self, moves):
        self.situation = _S_CONFIRM
        self.choices = moves
        self.choice = 0
        self._event("confirm", moves=[str(m) for m in moves])

    # ---- differences ------------------------------------------------------------------------------

    def _show_difference(self, diffs, illegal_ok):
        s = self.sensed
        es = self.exp_sat
        missing, unexpected = split_difference(s, es, diffs)
        changed = missing != self.missing or unexpected != self.unexpected
        self.missing = missing
        self.unexpected = unexpected
        to = missing
        if len(unexpected) > len(missing):
            # a piece with nowhere to go that the sensors see may belong on a stack they read as full
            # (presence sensors: two tokens read as one): such places take it ("move to")
            to = missing[:]
            ex = self.expected
            for p in range(self.place_count):
                k = ex[p] - es[p]
                while k > 0 and s[p] == es[p]:
                    to.append(p)
                    k -= 1
        self.pairs = pair_nearest(to, unexpected, self._xy)
        illegal = (
            illegal_ok
            and len(missing) == 1
            and len(unexpected) == 1
            and self.adapter.mover_place(self.game, missing[0])
        )
        return changed, illegal

    def _xy(self, p):
        return self.places.x[p], self.places.y[p]

    def _mismatch(self, diffs, was):
        changed, illegal = self._show_difference(diffs, table_of(self) is not None)
        new = _S_ILLEGAL if illegal else _S_MISMATCH
        self.pending = None
        self.choices = None
        self.partials = None
        if changed or was != new:
            names = self.place_names
            ev = {
                "event": "illegal" if illegal else "mismatch",
                "missing": [names[p] for p in self.missing],
                "unexpected": [names[p] for p in self.unexpected],
            }
            if illegal:  # the engine's reason, and the moves a rule forces instead (lit: choices)
                ev["reason"], self.choices = self.adapter.why(self.game, self.missing[0], self.unexpected[0])
            self.events.append(ev)
        self.situation = new

    # ---- the button -------------------------------------------------------------------------------

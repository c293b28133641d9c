"""The referee's flow: recognising a start on the board, new games, the button (rolls, confirmation,
undo, the Danish start choice) and the state that survives a power cut. A part of ludus.referee."""

# The methods here live on Referee (ludus.referee), which defines the attributes they use.
# mypy: disable-error-code="attr-defined,has-type,index,arg-type,union-attr"
# (index, arg-type: `choices` holds the moves to confirm or the starts that fit, None between; union-attr:
# `bots` is one list of its levels, its bots, a time and a move)

import hashlib

from ludus.dice import Dice
from ludus.errors import StateError
from ludus.record.actions import roll_values
from ludus.record.game import GameRecord
from ludus.referee.infer import diff_places, pair_nearest, split_difference
from ludus.referee.judge import table_of
from ludus.referee.states import (
    LONG_PRESS,
    OVER,
    PASS_TEXT,
    PLAY,
    S_CHAIN,
    S_CONFIRM,
    S_IDLE,
    S_PENDING,
    S_UNDO,
    SETUP,
    SHORT_PRESS,
)
from ludus.runtime import transient

# why a short press does nothing, by situation (the idle board with nothing to do gets its own)
_PRESS_REFUSED = (
    "nothing to do: the board matches the game",
    "a move is under way: finish it (or put the piece back) first",
    "",
    "",
    "put the board right first: the lit pieces differ from the game",
    "put the piece back first: that move is not allowed",
    "put the pieces back as lit first",
    "",
)


def _excess(sensed, fill):
    # the pieces sensed beyond what fill has, place by place
    d = 0
    for p in range(len(fill)):
        if sensed[p] > fill[p]:
            d += sensed[p] - fill[p]
    return d


class RefereeFlow:
    """Setup, button and saved-state methods of Referee (see ludus.referee)."""

    def _detect_start(self):
        s = self.sensed
        self.start_due = None
        found = []
        for name, fill in self._starts:
            if s == fill:
                found.append(name)
        self.choices = None
        if not found:
            self._no_start()
            return
        self.pairs = []
        if len(found) == 1 or self.preset in found:
            self.start_due = self.preset if self.preset in found else found[0]  # begun next (_begin_due)
            return
        # Presence sensors cannot tell, say, six players from two with three sets each.
        self.choices = found
        self.choice = 0
        self._event("setup_choice", starts=found)

    def _no_start(self, pressed=False):
        # As many pieces as a start has, but on the wrong places (two neighbouring Ludo bases filled when
        # two players sit opposite): the nearest such start's differences are lit as pieces to move and
        # a `refused` event says why, once for each board. Fewer or more pieces than any start: setup is
        # under way, nothing refused unless the button was pressed.
        s = self.sensed
        total = sum(s)
        best = None
        most = 0
        for name, fill in self._starts:
            if sum(fill) == total:
                d = _excess(s, fill)
                if best is None or d < most:
                    best, most = (name, fill), d
        was = self.pairs
        self.pairs = []
        if best is None:
            if pressed:
                self._event("refused", reason="no game starts from these pieces: %d on the board" % total)
            return
        diff_places(s, best[1], self._diffs)
        missing, unexpected = split_difference(s, best[1], self._diffs)
        self.missing = missing
        self.unexpected = unexpected
        self.pairs = pair_nearest(missing, unexpected, self._xy)
        if pressed or not was:  # (not again for each piece moved while putting it right)
            names = self.place_names
            moves = []
            for u, m in self.pairs:
                text = "%s to %s" % (names[u], names[m])
                if text not in moves:
                    moves.append(text)
            more = ""
            for name, fill in self._starts:
                if not more and sum(fill) > total and not _excess(s, fill):
                    more = "; or add pieces for %s" % name
            self._event(
                "refused",
                reason="no game starts from these pieces; the nearest is %s: move %s%s"
                % (best[0], ", ".join(moves), more),
            )

    def _seed_for(self, k):
        if self._seed is None:
            return None
        seed = self._seed
        if isinstance(seed, str):
            from ludus.dice import seed_from_hex

            seed = seed_from_hex(seed)
        if k == 0:
            return bytes(seed)
        return hashlib.sha256(bytes(seed) + bytes([k & 255, k >> 8 & 255])).digest()

    def _begin_due(self):
        # the start seen settled, begun over the next three ticks: what the adapter prepares, its
        # position, then the game (each tick then stays inside 15 ms on a Pico, docs/referee.md)
        due = self.start_due
        if due.__class__ is str:
            self.adapter.prepare(due)
            self.start_due = [due]
        elif len(due) == 1:
            due.append(self.adapter.position(due[0]))
        else:
            self._start_game(due[0], game=due[1])

    def _start_game(self, start, record=None, dice_used=0, seed=None, game=None, feed=None):
        self.start_due = None
        restored = record is not None
        if record is None:
            record = GameRecord.new(start, seed=self._seed_for(self._games_started))
            self._games_started += 1
            if game is None:
                game = self.adapter.position(start)
        else:
            game = record.replay(feed=feed)
            if seed is not None:
                record.dice = Dice(seed)
                for k in range(dice_used):
                    record.dice.roll()
                    if feed is not None and k & 255 == 255:
                        feed()
        if not restored or self.players is not None or record.players is None:
            record.players = self._seat_players(game)  # (a restored game keeps its names unless set anew)
        self.record = record
        self.dice = record.dice
        self.dice_used = dice_used
        self.game = game
        self.phase = PLAY
        self.die_value = 0
        self.die_seat = -1
        if self.bots is not None:  # (the module only for a game with bots)
            transient("ludus.referee.seats").make_bots(self)
        self._dirty = True  # restored between ticks: the next tick recomposes (no setup lights left on)
        if restored:
            self._event("restored", start=start, actions=len(record.actions))
        else:
            self._event("new_game", start=start, seed_sha256=record.seed_sha256, players=self._named())
        self._position_changed()
        if self._started:  # restored before the first tick: that tick reads the board first
            self._evaluate()

    # ---- the position ----------------------------------------------------------------------------

    def _button(self, kind):
        self._dirty = True
        if self.phase != PLAY:
            if self.choices:
                if kind == SHORT_PRESS:
                    self.choice = (self.choice + 1) % len(self.choices)
                    self._event("setup_next", start=self.choices[self.choice])
                else:
                    self.start_due = self.choices[self.choice]  # begun next (_begin_due)
                    self.choices = None
            elif kind == LONG_PRESS and self.phase == OVER:
                self._undo()
            elif self.phase == OVER:
                self._event(
                    "refused", reason="the game is over: put the pieces of a start down for a new one"
                )
            else:
                self._no_start(True)
            return
        sit = self.situation
        if kind == SHORT_PRESS:
            if sit == S_PENDING:
                self._commit(self.pending)
            elif sit == S_CONFIRM:
                self._commit(self.choices[self.choice])
            elif sit == S_CHAIN:
                self._event(
                    "refused", reason="a jump chain may not end on %s" % self.place_names[self.chain_at]
                )
            elif self._awaiting_roll():
                if sit == S_IDLE:
                    self._roll()
                else:
                    self._event("refused", reason="put the board right before rolling")
            elif self._choice_phase():
                self._commit(self._choice_move(3))
            elif sit == S_IDLE and table_of(self) is not None:
                self._invisible_moves()
            elif sit == S_UNDO and self._unseen_step_done():
                pass  # the family says a step the sensors cannot see is done
            elif self.phase == PLAY:
                self._event("refused", reason=_PRESS_REFUSED[sit])
            return
        if sit == S_CONFIRM:
            self.choice = (self.choice + 1) % len(self.choices)
            self._event("confirm_next", move=str(self.choices[self.choice]))
        elif self._choice_phase():
            self._commit(self._choice_move(4))
        elif sit == S_PENDING:
            move = self.pending
            self._reset_move()
            self.situation = S_UNDO
            self._event("undo", move=str(move), committed=False)
            self._evaluate()
        else:
            self._undo()

    def _choice_phase(self):
        # Danish rules: the roll-off winner chooses to start (short press) or to choose colour (long).
        if self.adapter.family != "ludo" or table_of(self) is None:
            return False
        return self.table.count == 2 and self._move(0).kind >= 3

    def _choice_move(self, kind):
        for i in range(self.table.count):
            m = self._move(i)
            if m.kind == kind:
                return m
        raise StateError("no choice move of kind %d" % kind)

    def _invisible_moves(self):
        # A move the sensors cannot see (a token onto its own stack with presence sensors): the player
        # says "I moved" with a press; the board shows its reading for confirmation.
        table = self.table
        found = []
        for i in range(table.count):
            if table.is_match(i, self.sensed, 0, self.exp_sat):
                dup = False
                for j in found:
                    if table.same_effect(i, j):
                        dup = True
                if not dup:
                    found.append(i)
        if found:
            self._ask_confirm([self._move(i) for i in found])
        else:
            self._event("refused", reason="no move to confirm: the board matches the game")

    def _auto_step(self):
        # The turn clock ran out (Ludo): roll what is owed, else light the preferred move for the
        # players to carry out; only that move is then accepted (or a short press plays it).
        game = self.game
        self._dirty = True
        move = self.auto_move
        if move is None:
            if self._awaiting_roll():
                self._event("auto", seat=game.turn)
                self._roll()
                return
            move = game.preferred_move()
            if move is None:
                return
            self._event("auto", seat=game.turn, move=str(move))
            if move.kind >= 3:  # the Danish start choice: nothing to carry out
                self._commit(move)
                return
            self._accept_only(move)
        self._ask_confirm([move])

    # ---- players: who sits where --------------------------------------------------------------------

    def set_players(self, names):
        """What the players are called, {seat: name} (seats as set_bots numbers them; a seat left out is
        called by its colour), from the next game on and in the game in play, whose record takes the
        names. ConfigError names a bad seat or name."""
        transient("ludus.referee.seats").set_players(self, names)

    def _named(self):
        # the game's names for an event, keyed as JSON keys them ({"0": "Anna"}), so an event is the
        # same in the referee's list and on the USB link
        players = self.record.players
        if players is None:
            return None
        out = {}
        for seat in players:
            out[str(seat)] = players[seat]
        return out

    def _seat_players(self, game):
        # {seat: name} for every seat of the game: the names set, the colours' names elsewhere (the
        # module once a game starts: not kept on the heap)
        adapter = self.adapter
        seats = getattr(game, "seats", None)
        if seats is None:
            return None  # (a game without seats: a test's stand-in)
        if seats.__class__ is int:  # (Chinese Checkers counts its seats; Ludo lists them)
            seats = range(seats)
        from ludus.light.palette import COLOUR_NAMES

        if not self.players:  # every seat by its colour, which no two share: no module to load (15 ms
            # from littlefs on a Pico, in the tick that starts a game)
            return {seat: COLOUR_NAMES[adapter.colour(game, seat)] for seat in seats}
        seat_players = transient("ludus.record.players").seat_players
        return seat_players(seats, self.players, lambda seat: COLOUR_NAMES[adapter.colour(game, seat)])

    # ---- bots: the seats the board plays -------------------------------------------------------------

    def set_bots(self, levels):
        """The seats the board plays from the next game on (and in the game in play): {seat: level},
        seat as the game numbers it (Ludo 0 green .. 3 blue; Chinese Checkers 0 ..), level one of the
        family's bot levels. ConfigError names a bad seat or level."""
        transient("ludus.referee.seats").set_bots(self, levels)

    def _bot_turn(self, now):
        # A bot's seat is to act: once the board has been still and matching for bot_pause_ms, roll for
        # it or light its move (the turn clock's way: only that move is accepted, a short press plays it);
        # a move it chose stays chosen, lit again whenever the board is back to idle.
        b = self.bots
        game = self.game
        if b[1] is None:
            return
        bot = b[1].get(game.turn)
        if bot is None or self.situation != S_IDLE:
            b[2] = 0
            return
        if self.auto_move is not None:
            if b[3] is self.auto_move:
                self._show_bot_move()
            return
        if b[2] == 0:
            b[2] = -1 - now
            return
        if (now + 1 + b[2]) & 0x3FFFFFFF < self.bot_pause_ms:
            return
        b[2] = 0
        self._dirty = True
        if self._awaiting_roll():
            self._event("bot", seat=game.turn, level=bot.level, action="roll")
            self._roll()
            return
        if table_of(self) is None:
            return
        move = bot.choose(game)
        if move is None:
            return
        self._event("bot", seat=game.turn, level=bot.level, move=str(move))
        if self.adapter.family == "ludo" and move.kind >= 3:
            self._commit(move)  # the Danish start choice: nothing to carry out
            return
        self._accept_only(move)
        b[3] = move
        self._show_bot_move()

    def _show_bot_move(self):
        # lit from -> to (ludus.referee.lights), accepted alone; a short press plays it as a confirmed
        # reading is played (the board then guides the pieces to it). No `confirm` event: the `bot`
        # event said what it chose.
        self.situation = S_CONFIRM
        self.choices = [self.bots[3]]
        self.choice = 0
        self._dirty = True

    def bot_move(self):
        """The move a bot chose and the board has lit, not yet carried out; None if there is none."""
        return self.bots[3] if self.bots is not None else None

    def bot_levels(self):
        """The seats the board plays, {seat: level}."""
        return dict(self.bots[0]) if self.bots is not None else {}

    def _draw(self):
        if self.forced_rolls:
            return self.forced_rolls.pop(0)
        if self.dice is None:
            raise StateError("this game record has no live dice (restore it with its seed)")
        self.dice_used += 1
        return self.dice.roll()

    def _roll(self):
        game = self.game
        seat = game.turn
        while True:
            value = self._draw()
            self.record.record_roll(value)
            game.apply_roll(value)
            self._event("roll", seat=seat, value=value)
            if not (game.rules.dice == 2 and game.die1):
                break
        self.die_value = value
        self.die_seat = seat
        self._position_changed()
        if self.phase == PLAY:
            self._evaluate()

    def _undo(self):
        rec = self.record
        game = self.game
        if rec is None:
            return
        acts = rec.actions
        if self.phase == OVER and self.adapter.has_dice:
            self._event("refused", reason="the dice seed is revealed: a finished dice game cannot be undone")
            return
        k = len(acts)
        while k > 0 and acts[k - 1] == PASS_TEXT:
            k -= 1
        if k == 0 or roll_values(acts[k - 1]) is not None:
            self._event("refused", reason="nothing to undo: no move since the last roll")
            return
        table = bytearray(self.expected) if self.situation == S_IDLE else None  # what stands on the table
        while len(acts) >= k:
            text = acts.pop()
            game.pop()
        if rec.notes:  # (a note after the moves taken back now comes after the last action)
            transient("ludus.record.notes").clamp(rec)
        if self.phase == OVER:
            self.phase = PLAY
            rec.result = None
            rec.seed = None
        self._event("undo", move=text, committed=True)
        self._position_changed()
        nd = diff_places(self.sensed, self.exp_sat, self._diffs)
        if table is not None:
            self._guide_undo(table, game.parse_move(text))
        if nd or self.guide:  # (a guide with nd 0: a step the sensors cannot see, lit until a press)
            self.situation = S_UNDO
            if self.guide is None or not self._guide_step():
                self._show_difference(self._diffs, False)

    def _guide_undo(self, table, move):
        # The undo, step by step: the moved piece back first, then each victim from its base, one step
        # lit at a time (docs/referee.md, "Undo"). Undoing a capture swaps colours on the capture
        # square, which presence sensors cannot see; a step onto or off a stack they read as one piece
        # is invisible to them. guide: (from, to, the counts before the step) per step, in pieces (not
        # what the sensors can tell); the counts after the last step are the position's. None when the
        # steps do not lead to the position: the plain difference is shown instead.
        frm, to, path, victims = self.adapter.ends(self.game, move)
        self.guide = None
        if frm < 0 or to < 0:
            return
        steps = [(to, frm)]
        for v, base in victims:
            steps.append((base, v))
        guide = []
        for u, m in steps:
            if table[u] == 0:
                return
            guide.append((u, m, bytearray(table)))
            table[u] -= 1
            table[m] += 1
        if table == self.expected:
            self.guide = guide

    def _guide_step(self):
        # The guide's first step not yet done, if the board is at it or part way through: what is left
        # of it lit. A step seen done is dropped for the next. A step the sensors cannot see at all (a
        # piece off one stack onto another, both read as one) stays lit until a short press
        # (_unseen_step_done) or until the next step is seen begun. False when the board has left the
        # guide's path (the plain difference is shown).
        guide = self.guide
        while guide:
            u, m, before = guide[0]
            after = self._after_step(0)
            r = self._guide_at(u, m, before, after)
            if r is None:
                if len(guide) > 1 and self._guide_blind(u, m, before, after):
                    if self._guide_at(guide[1][0], guide[1][1], after, self._after_step(1)) is not None:
                        guide.pop(0)  # the unseen step was done: the next one has begun
                        continue
                return False
            u_todo, m_todo = r
            if self._guide_blind(u, m, before, after):
                u_todo = m_todo = True
            elif not u_todo and not m_todo:
                guide.pop(0)
                continue
            cap = self.cap
            # an end the sensors cannot see stays lit while the other is left
            u_left = u_todo or (m_todo and min(before[u], cap[u]) == min(after[u], cap[u]))
            m_left = m_todo or (u_todo and min(before[m], cap[m]) == min(after[m], cap[m]))
            self.unexpected = [u] if u_left else []
            self.missing = [m] if m_left else []
            self.pairs = [(u, m)] if u_left and m_left else []
            return True
        return False

    def _unseen_step_done(self):
        # a short press while the guide's step is one the sensors cannot see: it is done, the next lit
        guide = self.guide
        if not guide:
            return False
        u, m, before = guide[0]
        after = self._after_step(0)
        if self._guide_at(u, m, before, after) is None or not self._guide_blind(u, m, before, after):
            return False
        guide.pop(0)
        self._event("undo_step")
        self._evaluate()
        return True

    def _after_step(self, k):
        # the counts after the guide's step k: the next step's before, or the position's
        guide = self.guide
        return guide[k + 1][2] if len(guide) > k + 1 else self.expected

    def _guide_at(self, u, m, before, after):
        # None unless the board reads as the step's counts before it, its two places each before or
        # after; else whether each end is still to do (u_todo, m_todo), as far as the sensors tell
        s = self.sensed
        cap = self.cap
        for p in range(self.place_count):
            b = before[p] if before[p] < cap[p] else cap[p]
            if s[p] != b and not ((p == u or p == m) and s[p] == min(after[p], cap[p])):
                return None
        return s[u] != min(after[u], cap[u]), s[m] != min(after[m], cap[m])

    def _guide_blind(self, u, m, before, after):
        # True if the sensors read a step's both ends the same before and after it
        cap = self.cap
        return min(before[u], cap[u]) == min(after[u], cap[u]) and min(before[m], cap[m]) == min(
            after[m], cap[m]
        )

    # ---- the saved state --------------------------------------------------------------------------

    def state(self):
        """What survives a power cut: the game record (JSON text) plus, on the board only, the dice
        seed and how many faces were drawn (None before the first game)."""
        if self.record is None:
            return None
        seed = None
        if self.dice is not None:
            seed = self.dice.seed_hex()
        return {"record": self.record.to_json(), "seed": seed, "dice_used": self.dice_used}

    def start_state(self):
        """state() as a game starts, in the journal's short form: the start, options and commitment
        instead of the record's JSON, so the tick that starts a game need not load the record writer
        (50 ms on a Pico importing it from littlefs; ludus.record.journal turns it back into a record).
        None before the first game."""
        rec = self.record
        if rec is None:
            return None
        seed = self.dice.seed_hex() if self.dice is not None else None
        return {
            "start": rec.start,
            "options": rec.options,
            "players": rec.players,
            "seed_sha256": rec.seed_sha256,
            "seed": seed,
            "dice_used": self.dice_used,
        }

    def restore(self, state, feed=None):
        """Continue the game of a state() taken before a power cut: its "record" as JSON text, or a
        GameRecord (ludus.record.journal's resume(), read straight from flash). feed() is called as
        the game is replayed (the firmware's watchdog: a long game takes seconds on a Pico)."""
        if state is None:
            return
        rec = state["record"]
        if isinstance(rec, str):
            rec = GameRecord.from_json(rec)
        seed = state.get("seed")
        self._games_started += 1
        # a game in play goes first: the replay builds its own, and two at once need a heap in one
        # piece that a long game has broken up
        self.game = None
        try:
            self._start_game(rec.start, rec, state.get("dice_used", 0), seed, feed=feed)
        except Exception:  # (no game to go on with: the board waits for a setup, and the caller is told)
            self.record = None
            self.phase = SETUP
            raise

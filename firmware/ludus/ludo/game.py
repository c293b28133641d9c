"""The Ludo rules core: one engine for every rule set in ludus.ludo.rules (Classic and its Master, Blitz,
Arrow and Team Up variations, Danish club rules, the Hebrew 40/56 boards), with the shared game interface.

    >>> game = start_position("classic/2")      # green and red, roll-off for who starts
    >>> game.apply_roll(6); game.apply_roll(2)  # green rolls 6, red 2: green starts
    >>> game.apply_roll(6); game.apply_roll(4)  # green: a six, then a four; both wait
    >>> [str(m) for m in game.legal_moves()]
    ['6 green.0 base-t0']
"""

import sys

import ludus.ludo.gen as ludo_gen
import ludus.ludo.turn as ludo_turn
from ludus.errors import ConfigError, NotationError
from ludus.ludo.geometry import BASE, COLOURS, LETTERS, geometry
from ludus.ludo.moves import (  # noqa: F401 - the move kinds and phases, re-exported for callers
    CHOICE,
    COLOUR,
    ENTER,
    ENTRY_FLAG,
    ORDER,
    OVER,
    PLAY,
    START,
    STEP,
    WALL,
    LudoMove,
    _move_class,
)
from ludus.ludo.rules import PRESET_NAMES, RuleSet, rules_from_spec  # noqa: F401
from ludus.runtime import CODE_IN_RAM, transient
from ludus.scan import ascii_digits

TEXT_MODULE = "ludus.ludo.text"  # notation: 5 KB of code, off the heap between uses (files mode)


def _text():
    # the notation's module: loaded for each use where the code sits in the heap, kept where it is read
    # in place (ludus.runtime.CODE_IN_RAM)
    if CODE_IN_RAM:
        return transient(TEXT_MODULE)
    return __import__(TEXT_MODULE, None, None, ("_",))


class LudoGame:
    """A Ludo game under one rule set. Drive it with apply_roll(value) whenever awaiting_roll() is
    True and push(move) with one of legal_moves() otherwise; the engine never rolls by itself."""

    # CPython: slots keep attribute access fast (a plain instance dict with this many keys is not shared,
    # which defeats the interpreter's attribute caches). MicroPython has no slots: there the names stay
    # one string, not a tuple built in the heap.
    if sys.implementation.name != "micropython":
        __slots__ = tuple(
            "_Move _after _arrows _blocked _cache _capture_again _capture_before_home _capture_lap _dice2"
            " _dice_sum _entry _entry_ok _entry_star_home _exact _globes _home_again _idle _in_play_end"
            " _must_capture _opp _pairs _plain _roll_first _safe _share _simple _six_again _stars _teams"
            " _tries _void3 _walls bonus captured die1 geo group inplay max_undo occ owe phase place_names"
            " placed pos rolls rules seats sixes stack total tries track_len turn turn_count turn_in".split()
        )

    def __init__(self, rules, seats):
        if not isinstance(rules, RuleSet):
            raise ConfigError("LudoGame needs a RuleSet, got %r" % (rules,))
        rules.check()
        seats = tuple(sorted(seats))
        if not 2 <= len(seats) <= 4 or len(set(seats)) != len(seats) or seats[0] < 0 or seats[-1] > 3:
            raise ConfigError("Ludo seats %r: 2 to 4 players on different seats 0..3" % (seats,))
        if len(seats) == 2 and seats[1] - seats[0] != 2:
            # 002 l.24 seats two players opposite; 001 requires blue+yellow or red+green
            raise ConfigError(
                "Ludo seats %s: two players sit opposite (green+red or yellow+blue)"
                % "+".join(COLOURS[s] for s in seats)
            )
        if rules.teams and len(seats) != 4:
            raise ConfigError("teamup needs 4 players in two pairs, not %d" % len(seats))
        self.rules = rules
        g = self.geo = geometry(rules)
        self._Move = _move_class(g.track_len)
        self.seats = seats
        self.place_names = g.place_names
        self.track_len = g.track_len
        self.turn_in = g.turn_in
        self.pos = [BASE] * 16
        self.occ = bytearray(g.track_len * 4)  # tokens per (track square, seat)
        self.total = bytearray(g.track_len)  # tokens per track square, all colours
        self.inplay = bytearray(4)  # tokens per seat on the track or in the column
        self.turn = seats[0]
        self.phase = PLAY
        self.rolls = []
        self.owe = 1
        self.bonus = 0
        self.sixes = 0
        self.tries = 0
        self.die1 = 0
        self.captured = 0  # bit per seat: has captured (Blitz)
        self.placed = []
        self.group = []  # roll-off: seats still rolling
        self.stack = []
        self.turn_count = 0  # turns started (statistics; not part of the position)
        self.max_undo = 8  # actions kept for pop(); -1: unlimited; 0: no history (push cannot be taken back)
        self._cache = None
        # rule fields used in the hot path, copied once
        r = rules
        self._entry = tuple(r.entry)
        self._share = r.share
        self._walls = r.walls
        self._stars = r.stars
        self._arrows = r.arrows
        self._entry_star_home = r.stars and r.entry_star == "home"
        self._pairs = r.capture_pairs
        self._blocked = r.blocked_landing
        self._globes = g.globes
        self._safe = g.safe
        # landing on a shared square: opponents captured unless on a safe square, where all stay
        self._simple = (
            r.share and not r.walls and not r.teams and r.capture_pairs and r.blocked_landing == "share"
        )
        self._teams = r.teams
        self._exact = r.exact_home
        self._capture_before_home = r.capture_before_home
        self._capture_lap = r.capture_lap
        self._must_capture = r.must_capture
        self._dice_sum = r.dice_sum
        self._capture_again = r.capture_again
        self._home_again = r.home_again
        self._dice2 = r.dice == 2
        self._six_again = r.six_again
        self._roll_first = r.roll_first
        self._void3 = r.third_six_void
        self._plain = bytearray(g.track_len) if r.walls else g.plain  # walls: every landing checks the path
        # may a waiting roll (index) bring a token out of base?
        self._entry_ok = bytearray(64)
        for roll in range(64):
            if r.dice_sum:
                self._entry_ok[roll] = 1 if roll & ENTRY_FLAG else 0
            else:
                self._entry_ok[roll] = 1 if roll in self._entry else 0
        self._idle = False  # the mover has no token in play
        self._tries = r.entry_tries - 1  # extra rolls for a player with no token in play
        # position codes below this are "in play" (track, and the column where there is a home)
        self._in_play_end = g.track_len + g.C if g.has_home else g.track_len
        # the next seat in play after each seat
        self._after = [seats[(seats.index(c) + 1) % len(seats)] if c in seats else seats[0] for c in range(4)]
        self._opp = []  # per seat: opponent seats in play (not the partner)
        for s in range(4):
            self._opp.append(tuple(c for c in seats if c != s and not (r.teams and c == (s + 2) % 4)))

    # move generation (ludus.ludo.gen) and turn flow (ludus.ludo.turn) used as methods; the rest of those
    # modules' functions call each other directly (each class attribute costs heap on MicroPython)
    _legal = ludo_gen._legal
    _single = ludo_gen._single  # (ludus.ludo.why)
    _settle = ludo_turn._settle  # (ludus.ludo.text)
    apply_roll = ludo_turn.apply_roll
    push = ludo_turn.push
    _apply = ludo_turn._apply  # (ludus.bots.selfplay, with _keep)
    _keep = ludo_turn._keep
    pop = ludo_turn.pop

    # --- set-up -------------------------------------------------------------------------------------

    def _set_up_start(self):
        """Start of a game: start tokens out, then the roll-off (or green starts)."""
        for s in self.seats:
            for i in range(self.rules.start_tokens):
                self.pos[s * 4 + i] = 0
        self._rebuild_occ()
        if self.rules.start_order == "seat0":
            ludo_turn._new_turn(self, self.seats[0])
        else:
            self.phase = ORDER
            self.group = list(self.seats)
            self.turn = self.group[0]
            self.owe = 0

    def _rebuild_occ(self):
        occ = self.occ
        total = self.total
        for i in range(len(occ)):
            occ[i] = 0
        L = self.track_len
        for i in range(L):
            total[i] = 0
        inplay = self.inplay
        e = self._in_play_end
        for s in range(4):
            inplay[s] = 0
        for gi in range(16):
            p = self.pos[gi]
            if 0 <= p < e:
                inplay[gi >> 2] += 1
            if 0 <= p < L:
                a = self.geo.abs_of[gi >> 2][p]
                occ[a * 4 + (gi >> 2)] += 1
                total[a] += 1

    def copy(self):
        other = LudoGame(self.rules, self.seats)
        other.pos = self.pos[:]
        other.occ = self.occ[:]
        other.total = self.total[:]
        other.inplay = self.inplay[:]
        other.turn = self.turn
        other.phase = self.phase
        other.rolls = self.rolls[:]
        other.owe = self.owe
        other.bonus = self.bonus
        other.sixes = self.sixes
        other.tries = self.tries
        other.die1 = self.die1
        other.captured = self.captured
        other.placed = self.placed[:]
        other.group = self.group[:]
        other.max_undo = self.max_undo
        return other

    # --- queries ------------------------------------------------------------------------------------

    def awaiting_roll(self):
        """True when the player to act must roll (press the die button) before moving."""
        return self.phase == ORDER or (self.phase == PLAY and self.owe > 0)

    def is_over(self):
        return self.phase == OVER

    def placements(self):
        """Seats in finishing order so far (Team Up: both partners when their pair finishes)."""
        return list(self.placed)

    def outcome(self):
        """How the game ended (ludus.outcome.Outcome: the placements, reason finished; a game of dice
        cannot block), or None while it goes on."""
        if self.phase != OVER:
            return None
        outcome = transient("ludus.outcome")  # (asked once a game: not kept on the heap)
        return outcome.Outcome(self.placed, outcome.FINISHED)

    def mover(self):
        """The seat whose tokens the player to act moves (Team Up: a finished player moves its
        partner's tokens)."""
        s = self.turn
        if self._teams and self._finished(s):
            return (s + 2) % 4
        return s

    def _finished(self, s):
        fin = self.geo.FIN
        n = 0
        for i in range(4):
            if self.pos[s * 4 + i] >= fin:
                n += 1
        return n >= self.rules.finish_tokens

    def token_place(self, gi):
        """Place name of token gi (seat * 4 + index)."""
        return self.place_names[self.geo.place_of[gi >> 2][self.pos[gi] + 1]]

    # --- move generation ----------------------------------------------------------------------------

    def legal_moves(self):
        """The legal moves for the waiting rolls (every roll, every token); empty while a roll is owed.
        In the Danish choice phase: the moves `start` and `colour`."""
        if self._cache is None:
            self._cache = self._legal()
        M = self._Move
        return [M(t) for t in self._cache]

    # --- auto-play (in ludus.ludo.auto, loaded when first used) ----------------------------------------

    def preferred_move(self):
        """The move auto-play makes when the turn clock runs out, for the first waiting roll that has
        one: bring a token home, else capture, else advance the furthest token. None if no move."""
        from ludus.ludo.auto import preferred_move

        return preferred_move(self)

    def auto_play(self, next_roll):
        """Auto-play, when the turn clock runs out (002 l.100): roll each roll the player owes with
        next_roll() (a function returning 1..6) and play the preferred move of each waiting roll,
        until the turn passes. Returns the actions taken, as text ("roll 6", "6 green.0 base-t0")."""
        from ludus.ludo.auto import auto_play

        return auto_play(self, next_roll)

    # --- text forms (ludus.ludo.why, loaded for each use on MicroPython: see ludus.runtime.transient;
    # ludus.ludo.text too where code sits in the heap, but kept through a record's replay: see
    # TEXT_MODULE; ludus.ludo.check, loaded when a position is read) -----------------------------------

    TEXT_MODULE = TEXT_MODULE

    def parse_move(self, text):
        """The legal move written as text (as str(move) prints it; the `via`, `lap` and `x` parts may be
        left out, and `to` may name the square first landed on). NotationError if malformed,
        IllegalMoveError naming the rule if well-formed but not legal here."""
        return _text().parse_move(self, text)

    def notation(self):
        """The position as text: `ludo RULES key=value ...`; from_notation() reads it back."""
        return _text().notation(self)

    def __str__(self):
        return self.notation()

    def check(self):
        """Raise NotationError naming the first impossible thing in this position (used on loading a
        notation, and by the property tests)."""
        from ludus.ludo.check import problem

        found = problem(self)
        if found:
            raise NotationError("ludo position: " + found)

    # --- sensing contract ---------------------------------------------------------------------------

    def fill_counts(self, buf):
        """Write the number of tokens on each place (index = place id) into buf; allocates nothing."""
        for i in range(len(buf)):
            buf[i] = 0
        place_of = self.geo.place_of
        pos = self.pos
        for s in self.seats:
            row = place_of[s]
            for gi in range(s * 4, s * 4 + 4):
                buf[row[pos[gi] + 1]] += 1

    def move_changes(self, move):
        """(place_id, delta) pairs: how the place counts change when move is played."""
        if move.kind >= START:
            return ()
        place_of = self.geo.place_of
        s = move.gi >> 2
        row = place_of[s]
        n = 2 if move.gi2 >= 0 else 1
        deltas = {}
        deltas[row[move.frm + 1]] = deltas.get(row[move.frm + 1], 0) - n
        deltas[row[move.to + 1]] = deltas.get(row[move.to + 1], 0) + n
        for c in move.caps:
            crow = place_of[c >> 2]
            here = crow[self.pos[c] + 1]
            deltas[here] = deltas.get(here, 0) - 1
            deltas[crow[0]] = deltas.get(crow[0], 0) + 1
        return tuple((k, deltas[k]) for k in sorted(deltas) if deltas[k])


def _seats_for(n):
    if n == 2:
        return (0, 2)  # two players sit opposite
    if n == 3:
        return (0, 1, 2)
    if n == 4:
        return (0, 1, 2, 3)
    raise ConfigError("Ludo is for 2 to 4 players, not %d" % n)


def _seat_list(seats, n):
    """Seat indices from seats given as indices 0..3, colour names or seat letters (g y r b), checked
    to be distinct and, if n is given, n of them."""
    if seats.__class__ is str:
        seats = list(seats)  # letters: "yb"
    out = []
    for name in seats:
        s = name
        if s in COLOURS:
            s = COLOURS.index(s)
        elif s.__class__ is str and len(s) == 1 and s in LETTERS:
            s = LETTERS.index(s)
        if s.__class__ is not int or not 0 <= s <= 3:
            raise ConfigError("Ludo seat %r: expected a colour (green yellow red blue) or 0..3" % (name,))
        if s in out:
            raise ConfigError("Ludo seats: %s given twice" % COLOURS[s])
        out.append(s)
    if n is not None and len(out) != n:
        raise ConfigError(
            "Ludo seats %s: %d seats for %d players" % ("+".join(COLOURS[s] for s in out), len(out), n)
        )
    return out


def start_rules(spec):
    """The rule set a named start PRESET/PLAYERS reads ("classic/4": classic), read ahead of
    start_position(spec), which then finds it kept (ludus.ludo.rules)."""
    rules_text, slash, count = spec.rpartition("/")
    return rules_from_spec(rules_text if slash and ascii_digits(count, 1) else spec)


def start_position(spec, seats=None):
    """A new game from a named start PRESET/PLAYERS: "classic/4", "danish/2", "teamup+arrow/4",
    "danish:entry=5.6/3". Two players sit opposite (green and red); three leave blue empty.

    seats chooses who plays instead: seat indices (0..3), colour names or seat letters, in any order,
    as many as PLAYERS (which may then be left out, as may the whole spec be a RuleSet):
    start_position("classic/2", ("yellow", "blue")), start_position("danish", "gyb"),
    start_position(rules, (1, 3)). ConfigError names a wrong count, an unknown or repeated seat, two
    players who do not sit opposite, or Team Up without four."""
    n = None
    if isinstance(spec, RuleSet):
        rules = spec
    else:
        rules_text, slash, count = spec.rpartition("/")
        if slash and ascii_digits(count, 1):
            n = int(count)
        elif seats is None or slash:
            raise NotationError("ludo start %r: expected PRESET/PLAYERS, like classic/4" % spec)
        else:
            rules_text = spec
        rules = rules_from_spec(rules_text)
    if seats is None:
        if n is None:
            raise ConfigError("ludo start: give the players' seats with a rule set")
        seats = _seats_for(n)
    else:
        if n is not None and not 2 <= n <= 4:
            raise ConfigError("Ludo is for 2 to 4 players, not %d" % n)
        seats = _seat_list(seats, n)
    game = LudoGame(rules, seats)
    game._set_up_start()
    return game


def from_notation(text):
    """A game from its notation (as game.notation() prints it). NotationError names the problem."""
    return _text().from_notation(text, LudoGame)

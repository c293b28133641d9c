"""Game records: the start, options, dice commitment (and later the seed) and every action of a game,
saved as JSON, so the game can be rebuilt exactly and its rolls checked against the revealed seed."""

import sys

from ludus.dice import Dice, commitment, seed_from_hex
from ludus.errors import LudusError, NotationError, StateError
from ludus.record.actions import ActionLog, apply_action, is_roll_action, roll_text
from ludus.runtime import const, forget, transient

FEED_EVERY = const(16)  # actions replayed between two calls of replay's feed()


def _codec():
    # The JSON writing, reading and checking (ludus.record.codec), imported when needed: a referee uses
    # it only to save or restore its state and at game end. On MicroPython the module is dropped again
    # after the call, so its code does not stay on the heap for the rest of the game.
    return transient("ludus.record.codec")


def _default_position(start):
    from ludus.games import position

    return position(start)


class GameRecord:
    """Everything needed to rebuild a game and audit its dice.

    GameRecord.new(start) commits to a fresh seed; roll() draws from it and records the value;
    record_move(move) records a move; finish(placements) stores the result and reveals the seed;
    to_json()/from_json(text) save and load; replay() rebuilds the game; verify() lists mismatches.
    players: who played, {seat number: name} (ludus.record.players), or None for a record without
    names (its seats are then known by their colours). notes: what happened besides the play (a seat
    renamed or handed to a bot, the REPL, the dice re-committed, the game abandoned), a list of dicts
    (ludus.record.notes), or None."""

    def __init__(
        self,
        start,
        options=None,
        seed_sha256=None,
        seed=None,
        actions=None,
        result=None,
        players=None,
        notes=None,
    ):
        self.start = start
        self.players = players
        self.notes = notes
        self.options = {} if options is None else dict(options)
        self.seed = seed  # hex text, None until revealed
        if seed_sha256 is None:
            if seed is None:
                raise NotationError("record field 'seed_sha256' is missing")
            seed_sha256 = commitment(seed_from_hex(seed))
        self.seed_sha256 = seed_sha256
        self._actions = ActionLog(() if actions is None else actions)
        self._due = None  # (move, event) of defer_move, not yet written
        self.result = result
        self.dice = None  # the live dice of a game being recorded

    def adopt(self, log):
        """Take LOG (an ActionLog) as this record's actions, in place of the ones it had."""
        self._due = None
        self._actions = log

    @property
    def actions(self):
        """The actions in order (an ActionLog: list-like), a deferred move written first."""
        if self._due is not None:
            self.write_due()
        return self._actions

    def defer_move(self, move, event=None):
        """Record a move object, its text made when the actions are next read or write_due() is
        called: the referee plays a move and shows the new position before it writes it down.
        event: a dict whose "move" gets the text then too."""
        if self._due is not None:
            self.write_due()
        self._due = (move, event)

    def write_due(self):
        """Write the deferred move, if any."""
        due = self._due
        if due is not None:
            self._due = None
            text = due[0].text()  # (str(move) would copy it once more on MicroPython)
            self.record_move(text)
            if due[1] is not None:
                due[1]["move"] = text

    @classmethod
    def new(cls, start, options=None, seed=None, entropy=None):
        """A record for a game about to start: draws (or takes) the dice seed and commits to it.

        The seed stays secret (only seed_sha256 is written) until reveal() or finish()."""
        dice = Dice(seed, entropy)
        record = cls(start, options, dice.commitment())
        record.dice = dice
        return record

    def roll(self, count=1):
        """Roll one or two dice from the committed seed and record them; returns the value (count=1)
        or a tuple of values (count=2)."""
        if self.dice is None:
            raise StateError("record of %r has no live dice: it was loaded, not started" % self.start)
        if count != 1 and count != 2:
            raise NotationError("roll of %r dice: one or two only" % (count,))
        if count == 1:
            value = self.dice.roll()
            self.actions.append(roll_text(value))
            return value
        values = tuple([self.dice.roll() for _ in range(count)])
        self.actions.append(roll_text(values))
        return values

    def record_roll(self, values):
        """Record a roll made elsewhere: one value or a tuple of two."""
        self.actions.append(roll_text(values))

    def record_move(self, move):
        """Record a move: a move object (its str() is its notation) or its text."""
        # a text as given: str() of it would make a new string (a qstr search on MicroPython); so would
        # text[0] or text[-1], while strip() returns the text itself when there is nothing to strip
        text = move if isinstance(move, str) else str(move)
        if not text or text.strip() != text or "\n" in text or is_roll_action(text):
            raise NotationError("move text %r cannot be recorded" % (text,))
        self.actions.append(text)

    def reveal(self):
        """Publish the seed (at game end). Needs the live dice of a record made with new()."""
        if self.seed is None:
            if self.dice is None:
                raise StateError("record of %r has no seed to reveal" % self.start)
            self.seed = self.dice.seed_hex()
        return self.seed

    def finish(self, placements):
        """Store the result (seats in finishing order) and reveal the seed."""
        self.result = list(placements)
        self.reveal()

    def counts(self):
        """(number of roll actions, number of move actions)."""
        rolls = 0
        for action in self.actions:
            if is_roll_action(action):
                rolls += 1
        return rolls, len(self.actions) - rolls

    def write_json(self, stream):
        """Write the record as JSON to stream (anything with write(text)) piece by piece, so a long
        record can go to a file on the Pico without one big string in RAM."""
        _codec().write_json(self, stream.write)

    def to_json(self):
        """The record as JSON text, byte-identical on MicroPython and CPython."""
        pieces = []
        _codec().write_json(self, pieces.append)
        return "".join(pieces)

    @classmethod
    def from_json(cls, text):
        """Load a record; NotationError naming the field for anything malformed."""
        return cls(*_codec().parse(text))

    def _new_game(self, position):
        game = (position or _default_position)(self.start)
        if self.options:
            if not hasattr(game, "set_options"):
                raise NotationError("record options %r: the game accepts no options" % (self.options,))
            game.set_options(self.options)
        return game

    def replay(self, position=None, history=True, feed=None):
        """The game rebuilt by applying every action to the start: rolls with game.apply_roll(v),
        moves with game.push(game.parse_move(text)). Raises the game's error, prefixed with the
        action index, at the first action that does not apply. position(start) -> game defaults to
        ludus.games.position. history=False sets the game's max_undo to 0 (if it has one), so a long
        replay on the Pico keeps no take-back history. feed(), if given, is called every
        FEED_EVERY actions (the firmware's watchdog, through a long game's restore)."""
        game = self._new_game(position)
        if not history and hasattr(game, "max_undo"):
            game.max_undo = 0
        # a game whose notation is loaded for each use (ludus.runtime.transient) keeps it loaded
        # through the replay: one import, not one per move
        text = getattr(game, "TEXT_MODULE", None)
        pinned = None
        if text is not None and text not in sys.modules:
            __import__(text)
            pinned = text
        try:
            for i, action in enumerate(self.actions):
                try:
                    apply_action(game, action)
                except LudusError as exc:
                    raise type(exc)("action #%d %r: %s" % (i, action, exc)) from None
                if feed is not None and i % FEED_EVERY == FEED_EVERY - 1:
                    feed()
        finally:
            if pinned is not None:
                forget(pinned)
        return game

    def verify(self, position=None):
        """Every way the record disagrees with its seed and the rules, as a list of messages (empty when
        all is consistent): an unrevealed seed, a seed that does not match the commitment, each roll the
        seed does not give, the first action the rules reject, a result the replay does not reach."""
        return _codec().verify(self, position)

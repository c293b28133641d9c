"""Game records: the start, options, dice commitment (and later the seed) and every action of a game,
saved as JSON, so the game can be rebuilt exactly and its rolls checked against the revealed seed."""

from ludus.dice import Dice, commitment, seed_from_hex
from ludus.errors import IllegalMoveError, LudusError, NotationError

FORMAT = "ludus-record/1"
ROLL = "roll"


def _codec():
    # The JSON writing, reading and checking (ludus.record_json), imported when needed: a referee uses
    # it only to save or restore its state and at game end. On MicroPython the module is dropped again
    # after the call, so its code does not stay on the heap for the rest of the game.
    import sys

    import ludus.record_json as codec

    if sys.implementation.name == "micropython":
        sys.modules.pop("ludus.record_json", None)
        import ludus

        if hasattr(ludus, "record_json"):
            delattr(ludus, "record_json")
    return codec


def _is_roll(action):
    # the first word is "roll" (checked without allocating: this runs for every recorded action)
    return action.startswith(ROLL) and (len(action) == 4 or action[4] in " \t\r\x0b\x0c")


def roll_values(action):
    """The die values of a roll action ("roll 4" -> (4,), "roll 3 5" -> (3, 5)), or None if the action
    is a move. NotationError if it starts with "roll" but is not one or two values 1..6."""
    words = action.split()
    if not words or words[0] != ROLL:
        return None
    if not 2 <= len(words) <= 3:
        raise NotationError("roll action %r: expected 'roll N' or 'roll N M'" % (action,))
    values = []
    for w in words[1:]:
        if len(w) != 1 or w not in "123456":
            raise NotationError("roll action %r: die value %r is not 1..6" % (action, w))
        values.append(int(w))
    return tuple(values)


def roll_text(values):
    """The action text of one or two die values: 4 -> "roll 4", (3, 5) -> "roll 3 5"."""
    if isinstance(values, int):
        values = (values,)
    if not 1 <= len(values) <= 2:
        raise NotationError("roll of %r: expected one or two dice" % (values,))
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            raise NotationError("roll of %r: die value %r is not 1..6" % (values, v))
    return ROLL + " " + " ".join([str(v) for v in values])


class ActionLog:
    """The actions of a game in order, list-like (append, pop, len, index, iterate, compare with a list),
    kept as UTF-8 text, each action ended by a newline, in fixed 512-byte chunks: an action costs its
    length plus one byte, where a list of str costs about 60 bytes an action on the 64-bit unix port and
    30 on the Pico. A four-player Ludo game runs to a thousand actions and more; its record must not be
    what runs the board out of RAM. Nothing here grows in place: a growing buffer or index would need
    its old and new copy at once, in one block, on a heap fragmented by a long game. Reading an action
    makes its str (a move being undone, a record being saved)."""

    CHUNK = 512

    def __init__(self, actions=()):
        self._chunks = []
        self._fills = []  # bytes used in each chunk
        self._counts = []  # actions in each chunk
        self._n = 0
        for action in actions:
            self.append(action)

    def append(self, text):
        data = text.encode()
        if b"\n" in data:
            raise NotationError("action %r: a newline cannot be recorded" % (text,))
        n = len(data) + 1
        chunks = self._chunks
        if not chunks or self._fills[-1] + n > len(chunks[-1]):
            chunks.append(bytearray(max(self.CHUNK, n)))
            self._fills.append(0)
            self._counts.append(0)
        chunk = chunks[-1]
        fill = self._fills[-1]
        chunk[fill : fill + n - 1] = data
        chunk[fill + n - 1] = 10
        self._fills[-1] = fill + n
        self._counts[-1] += 1
        self._n += 1

    def _locate(self, i):
        # (chunk index, start, end) of action i, 0 <= i < len
        ci = 0
        counts = self._counts
        while i >= counts[ci]:
            i -= counts[ci]
            ci += 1
        chunk = self._chunks[ci]
        start = 0
        for _ in range(i):
            start = chunk.find(b"\n", start) + 1
        return ci, start, chunk.find(b"\n", start)

    def __len__(self):
        return self._n

    def __bool__(self):
        return self._n > 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return list(self)[i]  # a list, as a list's slice is (rare: tools)
        if not isinstance(i, int):
            raise TypeError("action index must be an int, not %s" % type(i).__name__)
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("action index out of range")
        ci, start, end = self._locate(i)
        return str(memoryview(self._chunks[ci])[start:end], "utf-8")

    def pop(self):
        if not self._n:
            raise IndexError("pop from an empty action log")
        ci, start, end = self._locate(self._n - 1)
        text = str(memoryview(self._chunks[ci])[start:end], "utf-8")
        self._n -= 1
        if start == 0:  # its chunk is empty now
            self._chunks.pop()
            self._fills.pop()
            self._counts.pop()
        else:
            self._fills[ci] = start
            self._counts[ci] -= 1
        return text

    def truncate(self, n):
        """Keep the first n actions (a take-back of several at once, without making their strs)."""
        while self._n > n:
            ci = len(self._chunks) - 1
            drop = self._n - n
            if drop >= self._counts[ci]:  # the whole last chunk goes
                self._n -= self._counts[ci]
                self._chunks.pop()
                self._fills.pop()
                self._counts.pop()
                continue
            keep = self._counts[ci] - drop
            chunk = self._chunks[ci]
            end = 0
            for _ in range(keep):
                end = chunk.find(b"\n", end) + 1
            self._fills[ci] = end
            self._counts[ci] = keep
            self._n = n

    def __iter__(self):
        for ci in range(len(self._chunks)):
            chunk = self._chunks[ci]
            start = 0
            for _ in range(self._counts[ci]):
                end = chunk.find(b"\n", start)
                yield str(memoryview(chunk)[start:end], "utf-8")
                start = end + 1

    def __eq__(self, other):
        if len(other) != self._n:
            return False
        i = 0
        for text in self:
            if text != other[i]:
                return False
            i += 1
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    def _rebuild(self, actions):
        self.truncate(0)
        for action in actions:
            self.append(action)

    def __setitem__(self, i, text):
        # rare (tools and tests editing a record): rebuilt from a list
        actions = list(self)
        actions[i] = text
        self._rebuild(actions)

    def insert(self, i, text):
        actions = list(self)
        actions.insert(i, text)
        self._rebuild(actions)

    def __repr__(self):
        return "ActionLog(%r)" % (list(self),)


def _default_position(start):
    from ludus.games import position

    return position(start)


def _apply_roll(game, values):
    # A game with two dice per throw may take both at once (apply_rolls); otherwise each value goes to
    # apply_roll in turn.
    if not hasattr(game, "apply_roll"):
        raise IllegalMoveError("this game takes no dice")
    if len(values) > 1 and hasattr(game, "apply_rolls"):
        _check_roll_owed(game)
        game.apply_rolls(values)
        return
    for value in values:
        _check_roll_owed(game)
        game.apply_roll(value)


def _check_roll_owed(game):
    if hasattr(game, "awaiting_roll") and not game.awaiting_roll():
        raise IllegalMoveError("no roll is owed: the player to act must move")


def _apply(game, action):
    values = roll_values(action)
    if values is None:
        game.push(game.parse_move(action))
    else:
        _apply_roll(game, values)


class GameRecord:
    """Everything needed to rebuild a game and audit its dice.

    GameRecord.new(start) commits to a fresh seed; roll() draws from it and records the value;
    record_move(move) records a move; finish(placements) stores the result and reveals the seed;
    to_json()/from_json(text) save and load; replay() rebuilds the game; verify() lists mismatches."""

    def __init__(self, start, options=None, seed_sha256=None, seed=None, actions=None, result=None):
        self.start = start
        self.options = {} if options is None else dict(options)
        self.seed = seed  # hex text, None until revealed
        if seed_sha256 is None:
            if seed is None:
                raise NotationError("record field 'seed_sha256' is missing")
            seed_sha256 = commitment(seed_from_hex(seed))
        self.seed_sha256 = seed_sha256
        self.actions = ActionLog(() if actions is None else actions)
        self.result = result
        self.dice = None  # the live dice of a game being recorded

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
            raise NotationError("record of %r has no live dice: it was loaded, not started" % self.start)
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
        if not text or text.strip() != text or "\n" in text or _is_roll(text):
            raise NotationError("move text %r cannot be recorded" % (text,))
        self.actions.append(text)

    def reveal(self):
        """Publish the seed (at game end). Needs the live dice of a record made with new()."""
        if self.seed is None:
            if self.dice is None:
                raise NotationError("record of %r has no seed to reveal" % self.start)
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
            if _is_roll(action):
                rolls += 1
        return rolls, len(self.actions) - rolls

    def write_json(self, stream):
        """Write the record as JSON to stream (anything with write(text)) piece by piece, so a long
        record can go to a file on the Pico without one big string in RAM."""
        _codec().emit(self, stream.write)

    def to_json(self):
        """The record as JSON text, byte-identical on MicroPython and CPython."""
        pieces = []
        _codec().emit(self, pieces.append)
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

    def replay(self, position=None, history=True):
        """The game rebuilt by applying every action to the start: rolls with game.apply_roll(v),
        moves with game.push(game.parse_move(text)). Raises the game's error, prefixed with the
        action index, at the first action that does not apply. position(start) -> game defaults to
        ludus.games.position. history=False sets the game's max_undo to 0 (if it has one), so a long
        replay on the Pico keeps no take-back history."""
        game = self._new_game(position)
        if not history and hasattr(game, "max_undo"):
            game.max_undo = 0
        for i, action in enumerate(self.actions):
            try:
                _apply(game, action)
            except LudusError as exc:
                raise type(exc)("action #%d %r: %s" % (i, action, exc)) from None
        return game

    def verify(self, position=None):
        """Every way the record disagrees with its seed and the rules, as a list of messages (empty when
        all is consistent): an unrevealed seed, a seed that does not match the commitment, each roll the
        seed does not give, the first action the rules reject, a result the replay does not reach."""
        return _codec().verify(self, position)

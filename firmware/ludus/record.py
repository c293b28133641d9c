"""Game records: the start, options, dice commitment (and later the seed) and every action of a game,
saved as JSON, so the game can be rebuilt exactly and its rolls checked against the revealed seed."""

import json

from ludus.dice import Dice, commitment, seed_from_hex
from ludus.errors import IllegalMoveError, LudusError, NotationError

FORMAT = "ludus-record/1"
ROLL = "roll"
_HEX = "0123456789abcdef"
# every field a record may carry, in the order to_json writes them
_FIELDS = ("format", "start", "options", "seed_sha256", "seed", "actions", "result")


def _quote(text):
    # A JSON string, escaped the same way on both runtimes (their json.dumps differ on non-ASCII):
    # only quote, backslash and control characters are escaped; the rest is written as UTF-8.
    for ch in text:
        if ch < " " or ch == '"' or ch == "\\" or ch == "\x7f":
            break
    else:
        return '"' + text + '"'  # the usual case: nothing to escape
    out = ['"']
    for ch in text:
        c = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif c < 0x20 or c == 0x7F:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(v):
    if v is None or v is True or v is False:
        return json.dumps(v)
    if isinstance(v, str):
        return _quote(v)
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join([_value(x) for x in v]) + "]"
    if isinstance(v, dict):
        keys = sorted(v)
        return "{" + ", ".join([_quote(k) + ": " + _value(v[k]) for k in keys]) + "}"
    raise NotationError("cannot write %r in a record" % (v,))


def _is_hex64(text):
    if not isinstance(text, str) or len(text) != 64:
        return False
    for ch in text:
        if ch not in _HEX:
            return False
    return True


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
        self.actions = [] if actions is None else actions
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
        text = str(move)
        if not text or text[0] <= " " or text[-1] <= " " or "\n" in text or _is_roll(text):
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
        self._emit(stream.write)

    def to_json(self):
        """The record as JSON text, byte-identical on MicroPython and CPython."""
        pieces = []
        self._emit(pieces.append)
        return "".join(pieces)

    def _emit(self, w):
        w('{\n  "format": ' + _quote(FORMAT))
        w(',\n  "start": ' + _quote(self.start))
        w(',\n  "options": ' + _value(self.options))
        w(',\n  "seed_sha256": ' + _quote(self.seed_sha256))
        if self.seed is not None:
            w(',\n  "seed": ' + _quote(self.seed))
        if self.actions:
            w(',\n  "actions": [')
            sep = "\n    "
            for action in self.actions:
                w(sep)
                w(_quote(action))
                sep = ",\n    "
            w("\n  ]")
        else:
            w(',\n  "actions": []')
        if self.result is not None:
            w(',\n  "result": ' + _value(self.result))
        w("\n}\n")

    @classmethod
    def from_json(cls, text):
        """Load a record; NotationError naming the field for anything malformed."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise NotationError("record is not valid JSON: %s" % (exc,)) from None
        except RuntimeError:  # RecursionError on CPython, RuntimeError on MicroPython
            raise NotationError("record is not valid JSON: nested too deeply") from None
        if not isinstance(data, dict):
            raise NotationError("record must be a JSON object, got %s" % type(data).__name__)
        if "format" not in data:
            raise NotationError("record field 'format' is missing (expected %r)" % FORMAT)
        if data["format"] != FORMAT:
            raise NotationError(
                "record field 'format': unknown format %r, expected %r" % (data["format"], FORMAT)
            )
        for name in data:
            if name not in _FIELDS:
                raise NotationError("record field %r is unknown" % (name,))
        for name in ("start", "options", "seed_sha256", "actions"):
            if name not in data:
                raise NotationError("record field %r is missing" % name)
        start = data["start"]
        if not isinstance(start, str) or not start.strip():
            raise NotationError("record field 'start' must be a non-empty string, got %r" % (start,))
        if not isinstance(data["options"], dict):
            raise NotationError("record field 'options' must be an object, got %r" % (data["options"],))
        if not _is_hex64(data["seed_sha256"]):
            raise NotationError(
                "record field 'seed_sha256' must be 64 lower-case hex digits, got %r" % (data["seed_sha256"],)
            )
        seed = data.get("seed")
        if seed is not None and not _is_hex64(seed):
            raise NotationError("record field 'seed' must be 64 lower-case hex digits, got %r" % (seed,))
        actions = data["actions"]
        if not isinstance(actions, list):
            raise NotationError("record field 'actions' must be a list, got %r" % (actions,))
        for i, action in enumerate(actions):
            if not isinstance(action, str) or not action.strip():
                raise NotationError(
                    "record field 'actions'[%d] must be a non-empty string, got %r" % (i, action)
                )
            try:
                roll_values(action)
            except NotationError as exc:
                raise NotationError("record field 'actions'[%d]: %s" % (i, exc)) from None
        result = data.get("result")
        if result is not None:
            ok = isinstance(result, list)
            for seat in result if ok else ():
                if not isinstance(seat, int) or isinstance(seat, bool):
                    ok = False
            if not ok:
                raise NotationError(
                    "record field 'result' must be a list of seat numbers, got %r" % (result,)
                )
        return cls(start, data["options"], data["seed_sha256"], seed, actions, result)

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
        problems = []
        dice = None
        if self.seed is None:
            problems.append(
                "seed not revealed: the rolls cannot be checked (commitment %s)" % self.seed_sha256
            )
        else:
            dice = Dice(seed_from_hex(self.seed))
            if dice.commitment() != self.seed_sha256:
                problems.append(
                    "seed does not match commitment: sha256(seed) is %s, recorded seed_sha256 is %s"
                    % (dice.commitment(), self.seed_sha256)
                )
        try:
            game = self._new_game(position)
        except LudusError as exc:
            problems.append("start %r: %s" % (self.start, exc))
            return problems
        if hasattr(game, "max_undo"):
            game.max_undo = 0  # verifying never takes back: keep no history (matters on the Pico)
        roll_number = 0
        for i, action in enumerate(self.actions):
            values = roll_values(action)
            if values is not None:
                roll_number += 1
                if dice is not None:
                    expected = tuple([dice.roll() for _ in values])
                    if expected != values:
                        problems.append(
                            "action #%d (roll #%d): recorded %r but the seed gives %r"
                            % (i, roll_number, action, roll_text(expected))
                        )
            if game is None:
                continue  # keep checking rolls after the replay has stopped
            try:
                _apply(game, action)
            except LudusError as exc:
                problems.append("action #%d %r is illegal: %s (replay stopped)" % (i, action, exc))
                game = None
        if game is not None and self.result is not None:
            got = list(game.placements())
            if got != list(self.result):
                problems.append("result: recorded %r but the replay gives %r" % (self.result, got))
        return problems

"""The actions of a game record: roll and move texts, and the log that keeps them compactly. A leaf of
ludus.record that the record itself and its JSON codec both read."""

from ludus.errors import IllegalMoveError, NotationError

FORMAT = "ludus-record/1"
ROLL = "roll"


def is_roll_action(action):
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


# Ludo's colour words, each kept as one byte in an ActionLog (0xF8-0xFB never occur in UTF-8)
_WORDS = ((b"green.", b"\xf8"), (b"yellow.", b"\xf9"), (b"red.", b"\xfa"), (b"blue.", b"\xfb"))


def _packed(text):
    # An action as an ActionLog keeps it: a roll in one byte (0x80 | a, or 0x80 | a << 3 | b for two
    # dice: continuation bytes, which cannot begin UTF-8 text), the colour words of an ASCII move text
    # in one byte each, any other text as its UTF-8 after a 0xFF (never in UTF-8).
    data = text.encode()
    if b"\n" in data:
        raise NotationError("action %r: a newline cannot be recorded" % (text,))
    n = len(data)
    if (n == 6 or n == 8) and data.startswith(b"roll "):
        a = data[5] - 48
        if 1 <= a <= 6:
            if n == 6:
                return bytes((0x80 | a,))
            b = data[7] - 48
            if data[6] == 32 and 1 <= b <= 6:
                return bytes((0x80 | a << 3 | b,))
    if n != len(text):  # (more bytes than characters: not ASCII)
        return b"\xff" + data
    for word, code in _WORDS:
        if word in data:
            data = data.replace(word, code)
    return data


def _unpacked(chunk, start, end):
    # the text of the action kept at chunk[start:end] (see _packed)
    data = bytes(memoryview(chunk)[start:end])
    if end - start == 1 and data[0] & 0xC0 == 0x80:
        a = data[0] & 0x3F
        if a < 8:
            return ROLL + " " + str(a)
        return "%s %d %d" % (ROLL, a >> 3, a & 7)
    if data and data[0] == 0xFF:
        return str(data[1:], "utf-8")
    for word, code in _WORDS:
        if code in data:
            data = data.replace(code, word)
    return str(data, "utf-8")


class ActionLog:
    """The actions of a game in order, list-like (append, pop, len, index, iterate, compare with a list),
    kept in fixed 512-byte chunks, each action ended by a newline: a roll in one byte, a move as its
    text with Ludo's colour words in one byte each (about 12 bytes a Ludo move, 7 a checkers move),
    where a list of str costs about 60 bytes an action on the 64-bit unix port and 30 on the Pico. A
    four-player Ludo game runs to a thousand actions and more; its record must not be what runs the
    board out of RAM. Nothing here grows in place: a growing buffer or index would need its old and
    new copy at once, in one block, on a heap fragmented by a long game. Reading an action makes its
    str (a move being undone, a record being saved)."""

    CHUNK = 512

    def __init__(self, actions=()):
        self._chunks = []
        self._fills = []  # bytes used in each chunk
        self._counts = []  # actions in each chunk
        self._n = 0
        for action in actions:
            self.append(action)

    def append(self, text):
        data = _packed(text)
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
        return _unpacked(self._chunks[ci], start, end)

    def pop(self):
        if not self._n:
            raise IndexError("pop from an empty action log")
        ci, start, end = self._locate(self._n - 1)
        text = _unpacked(self._chunks[ci], start, end)
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
                yield _unpacked(chunk, start, end)
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


def apply_action(game, action):
    """Play one recorded action (a roll or a move's text) on the game."""
    values = roll_values(action)
    if values is None:
        game.push(game.parse_move(action))
    else:
        _apply_roll(game, values)

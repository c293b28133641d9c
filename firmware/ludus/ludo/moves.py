"""Ludo moves: the move value type, its text, and the constants the rules core and its notation
share (move kinds, phases, reasons a move is illegal)."""

from ludus.errors import NotationError
from ludus.ludo.geometry import COLOURS, track
from ludus.scan import ascii_digits

# move kinds
ENTER = 0
STEP = 1
WALL = 2
START = 3  # Danish start-order choice: the roll-off winner starts
COLOUR = 4  # ... or chooses colour (seat), and the next seat starts

# phases
PLAY = 0
ORDER = 1  # roll-off for who starts
CHOICE = 2  # Danish: the roll-off winner chooses
OVER = 3
PHASE_NAMES = ("play", "order", "choice", "over")

ENTRY_FLAG = 32  # on a two-dice sum roll: one die shows an entry value

# reasons a move is not legal (returned as ints by the generator, named by ludus.ludo.why.REASONS)
R_ENTRY = 1
R_DONE = 2
R_EXACT = 3
R_OCCUPIED = 4
R_WALL = 5
R_WALL_LAND = 6
R_PROTECTED = 7
R_CAPTURE_FIRST = 8


# The engine keeps moves as plain tuples (cheap to build by the thousand); LudoMove wraps one for
# callers. Tuple fields:
KIND = 0  # ENTER, STEP, WALL, START, COLOUR
GI = 1  # the token: seat * 4 + index
ROLL = 2  # the waiting roll it uses
FRM = 3  # position code before (relative to the token's seat, see ludus.ludo.geometry)
TO = 4  # position code after (BASE when a protected landing sent it back)
CAPS = 5  # captured tokens (gi), a tuple
VIA = 6  # where it first landed when a star or arrow moved it on, or it was sent back; else -1
LAP = 7  # 1 when it passed its own home entry to capture (an extra lap)
HOME = 8  # 1 when it reached its goal
GI2 = 9  # the second token of a wall moving as one unit, else -1


class LudoMove:
    """One legal move, as legal_moves() lists it: `kind` (ENTER, STEP, WALL, START, COLOUR), the token
    `gi` (seat * 4 + index; a wall move also `gi2`), the waiting `roll` it uses, position codes `frm`
    and `to` (relative to the token's seat, see ludus.ludo.geometry), `via` (where it first landed when a
    star or arrow moved it on or a protected landing sent it back to base, else -1), `caps` (captured
    tokens as gi), `lap` (passed its own home entry to capture) and `home` (reached its goal).
    Moves compare equal when their fields do; str(move) is its notation."""

    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t

    kind = property(lambda self: self.t[0])
    gi = property(lambda self: self.t[1])
    roll = property(lambda self: self.t[2])
    frm = property(lambda self: self.t[3])
    to = property(lambda self: self.t[4])
    caps = property(lambda self: self.t[5])
    via = property(lambda self: self.t[6])
    lap = property(lambda self: self.t[7])
    home = property(lambda self: self.t[8])
    gi2 = property(lambda self: self.t[9])
    seat = property(lambda self: self.t[1] >> 2)
    token = property(lambda self: self.t[1] & 3)

    def __eq__(self, other):
        return isinstance(other, LudoMove) and self.t == other.t

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.t)

    def text(self):
        t = self.t
        if t[0] >= START:
            return "start" if t[0] == START else "colour"
        if t[5] or t[6] >= 0 or t[7] or t[9] >= 0:
            return _full_text(_TRACK_OF_CLASS[type(self)], t)
        return _plain_text(_TRACK_OF_CLASS[type(self)], t)

    def __str__(self):
        return self.text()

    def __repr__(self):
        return "<LudoMove %s>" % self.text()


# One move class per track length, so a move can print itself without carrying its game (text()
# needs only the track's place names, looked up by the move's class).
class _Move52(LudoMove):
    __slots__ = ()


class _Move40(LudoMove):
    __slots__ = ()


class _Move56(LudoMove):
    __slots__ = ()


_TRACK_OF_CLASS = {}


def _move_class(L):
    cls = _Move52 if L == 52 else (_Move40 if L == 40 else _Move56)
    if cls not in _TRACK_OF_CLASS:
        _TRACK_OF_CLASS[cls] = track(L)
    return cls


_TOKEN_TEXT = tuple("%s.%d" % (COLOURS[g >> 2], g & 3) for g in range(16))  # "green.0" .. "blue.3"
_ROLL_TEXT = tuple(str(r) for r in range(13))
# by (from on the track) * 2 + (to on the track): a track square is given by its number
_TEXT_FORMATS = ("%s %s %s-%s", "%s %s %s-t%d", "%s %s t%d-%s", "%s %s t%d-t%d")


def _plain_text(geo, t):
    # one string built (each new string costs a search of the interned strings on MicroPython): kept
    # texts for the roll and the token, a track square's number formatted in place. (Few locals: hot
    # path, docs/architecture.md.)
    f = 0
    a = t[3]
    if 0 <= a < geo.track_len:
        a = geo.abs_of[t[1] >> 2][a]
        f = 2
    else:
        a = geo.place(t[1] >> 2, a)
    b = t[4]
    if 0 <= b < geo.track_len:
        b = geo.abs_of[t[1] >> 2][b]
        f += 1
    else:
        b = geo.place(t[1] >> 2, b)
    x = _ROLL_TEXT[t[2]] if t[2] < 13 else roll_text(t[2])
    return _TEXT_FORMATS[f] % (x, _TOKEN_TEXT[t[1]], a, b)


def _full_text(geo, t):
    # a wall, a jump, a lap or a capture: the plain text and its parts
    kind, gi, roll, frm, to, caps, via, lap, _home, gi2 = t
    s = gi >> 2
    L = geo.track_len
    absq = geo.abs_of[s]
    tok = _TOKEN_TEXT[gi]
    if gi2 >= 0:
        tok += "+" + _TOKEN_TEXT[gi2]
    f = 0
    if 0 <= frm < L:
        a = absq[frm]
        f = 2
    else:
        a = geo.place(s, frm)
    if 0 <= to < L:
        b = absq[to]
        f += 1
    else:
        b = geo.place(s, to)
    out = _TEXT_FORMATS[f] % (_ROLL_TEXT[roll] if roll < 13 else roll_text(roll), tok, a, b)
    if via >= 0:
        out += " via " + geo.place(s, via)
    if lap:
        out += " lap"
    if caps:
        out += " x " + ",".join(_TOKEN_TEXT[c] for c in caps)
    return out


def roll_text(r):
    if r & ENTRY_FLAG:
        return "%de" % (r & 31)
    return str(r)


def _parse_roll(text, what):
    flag = 0
    if text.endswith("e"):
        flag = ENTRY_FLAG
        text = text[:-1]
    if not ascii_digits(text, 2) or not 1 <= int(text) <= 12:
        raise NotationError("%s: roll %r is not a die value" % (what, text))
    return int(text) | flag

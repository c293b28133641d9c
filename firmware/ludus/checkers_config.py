"""Chinese Checkers setups and house-rule options: who plays which points with how many pieces, and
the options (off by default) that change the rules. A CheckersConfig is built once per game."""

from ludus import checkers_moves
from ludus.checkers_board import CENTRE, EXTENDED_POINT_HOLES, HOLE_COUNT, POINT_HOLES, POINT_OF
from ludus.checkers_moves import ALL_HOLES, MAX_COUNT, NO_HOLES, generate_long, whole_number
from ludus.errors import ConfigError

SET_LETTERS = "abcdef"  # the letter of a set in the notation is the point it starts in: a = point 0

# Named starts: per seat (in turn order), the points its sets start in. Each set heads for the point
# opposite its own start. Seat 0 moves first; seats sit clockwise.
SETUPS = {
    "2": ((0,), (3,)),
    "2x2": ((0, 1), (3, 4)),
    "2x3": ((0, 1, 2), (3, 4, 5)),
    "3": ((0,), (2,), (4,)),
    "3x2": ((0, 3), (1, 4), (2, 5)),
    "4": ((1,), (2,), (4,), (5,)),
    "5": ((0,), (1,), (2,), (4,), (5,)),
    "6": ((0,), (1,), (2,), (3,), (4,), (5,)),
}
SETUP_NAMES = ("2", "2x2", "2x3", "3", "3x2", "4", "5", "6")
BIG_SUFFIX = "/15"  # "2/15": two players with 15 pieces each

# Options in the order the notation writes them. All are off by default.
OPTION_NAMES = ("noparking", "locked", "antispoil", "super", "cap")
_FLAG_OPTIONS = ("noparking", "locked", "antispoil", "super")


def parse_options(options):
    """A canonical options dict from a dict, None, "-" or text like "noparking,cap=200".

    Keys: noparking, locked, antispoil, super (True when on) and cap (a positive number of moves).
    ConfigError names an unknown option, a bad value or a clash."""
    out = {}
    if options is None:
        return out
    if isinstance(options, str):
        text = options.strip()
        if text in ("", "-"):
            return out
        for word in text.split(","):
            name, eq, value = word.partition("=")
            if name in out:
                raise ConfigError("option %r given twice in %r" % (name, options))
            if name == "cap":
                n = whole_number(value) if eq else -1
                if n < 0:
                    raise ConfigError("option cap needs a number of moves, as in cap=300: got %r" % word)
                if n > MAX_COUNT:
                    raise ConfigError("option %r: the move cap must be 1..%d" % (word, MAX_COUNT))
                out[name] = n
            elif name in _FLAG_OPTIONS:
                if eq:
                    raise ConfigError("option %r takes no value: got %r" % (name, word))
                out[name] = True
            else:
                raise ConfigError("unknown option %r: expected %s" % (word, ", ".join(OPTION_NAMES)))
        return _check_options(out)
    if isinstance(options, dict):
        for name in options:
            value = options[name]
            if name == "cap":
                if value is None or value is False:
                    continue
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ConfigError("option cap needs a number of moves: got %r" % (value,))
                out[name] = value
            elif name in _FLAG_OPTIONS:
                if value is not True and value is not False:
                    raise ConfigError("option %r is on or off (true/false): got %r" % (name, value))
                if value:
                    out[name] = True
            else:
                raise ConfigError("unknown option %r: expected %s" % (name, ", ".join(OPTION_NAMES)))
        return _check_options(out)
    raise ConfigError("options must be a dict or text such as 'noparking,cap=200': got %r" % (options,))


def _check_options(out):
    if "cap" in out and not 1 <= out["cap"] <= MAX_COUNT:
        raise ConfigError("option cap=%d: the move cap must be 1..%d" % (out["cap"], MAX_COUNT))
    return out


def options_text(options):
    """The notation of an options dict: "-" when none is on, else e.g. "noparking,cap=200"."""
    words = []
    for name in OPTION_NAMES:
        if name in options:
            words.append("cap=%d" % options[name] if name == "cap" else name)
    return ",".join(words) if words else "-"


class CheckersConfig:
    """A setup (who plays which points, 10 or 15 pieces) with its options: what a game is played
    under. Shared by a game and its copies; never changed after it is built."""

    def __init__(self, spec, options=None):
        if not isinstance(spec, str):
            raise ConfigError("checkers setup must be text such as '2' or '3x2': got %r" % (spec,))
        spec = spec.strip()
        big = spec.endswith(BIG_SUFFIX)
        name = spec[: -len(BIG_SUFFIX)] if big else spec
        if name not in SETUPS:
            raise ConfigError(
                "unknown checkers setup %r: expected one of %s (or 2/15 for 15 pieces each)"
                % (spec, ", ".join(SETUP_NAMES))
            )
        if big and name != "2":
            raise ConfigError(
                "setup %r: the 15-piece variant is for two players with one set each (2/15)" % spec
            )
        self.spec = spec
        self.options = parse_options(options)
        self.seat_points = SETUPS[name]
        self.seats = len(self.seat_points)
        self.pieces = 15 if big else 10
        regions = EXTENDED_POINT_HOLES if big else POINT_HOLES
        # Sets are coded 1..6 on the board: code = starting point + 1.
        self.set_seat = bytearray([255] * 7)
        self.start_region = [regions[0][:0]] * 7  # per set code: its holes (empty for unused codes)
        self.target_region = [regions[0][:0]] * 7
        self.target_of = bytearray(HOLE_COUNT)  # the code of the set whose target holds the hole
        self.codes = []
        for seat in range(self.seats):
            for p in self.seat_points[seat]:
                code = p + 1
                self.codes.append(code)
                self.set_seat[code] = seat
                self.start_region[code] = regions[p]
                self.target_region[code] = regions[(p + 3) % 6]
                for h in regions[(p + 3) % 6]:
                    self.target_of[h] = code
        self.seat_codes = tuple(tuple(p + 1 for p in pts) for pts in self.seat_points)
        opts = self.options
        self.cap = opts.get("cap", 0)
        self.antispoil = "antispoil" in opts
        self.long_hops = "super" in opts
        self.generate = generate_long if self.long_hops else checkers_moves.fast_generate
        # perft's leaf counter: counting without listing pays off for the bytecode generator only
        self.count = None
        if self.generate is checkers_moves.python_generate:
            self.count = checkers_moves.count_moves
        # ends[code]: holes where a piece of the set may end a move; locks[code]: its target when a
        # piece standing there may not leave it.
        ends = [ALL_HOLES] * 7
        locks = [NO_HOLES] * 7
        for code in self.codes:
            seat = self.set_seat[code]
            if "noparking" in opts:
                own = []
                for p in self.seat_points[seat]:
                    own.append(p)
                    own.append((p + 3) % 6)
                mask = bytearray(HOLE_COUNT)
                for h in range(HOLE_COUNT):
                    pt = POINT_OF[h]
                    if pt == CENTRE or pt in own:
                        mask[h] = 1
                for h in self.start_region[code] + self.target_region[code]:
                    mask[h] = 1
                ends[code] = bytes(mask)
            if "locked" in opts:
                mask = bytearray(HOLE_COUNT)
                for h in self.target_region[code]:
                    mask[h] = 1
                locks[code] = bytes(mask)
        self.ends = tuple(ends)
        self.locks = tuple(locks)

    def option_text(self):
        return options_text(self.options)

    def describe(self):
        """One line per seat: its sets, where they start and where they head."""
        lines = []
        for seat in range(self.seats):
            parts = []
            for p in self.seat_points[seat]:
                parts.append("%s: point %d -> %d" % (SET_LETTERS[p], p, (p + 3) % 6))
            lines.append("seat %d: %s" % (seat, ", ".join(parts)))
        return lines

"""Chinese Checkers setups and house-rule options: who plays which points with how many pieces, and
the options (off by default) that change the rules. A CheckersConfig is built once per game."""

import ludus.checkers.moves as _moves
from ludus.checkers.geometry import BIG_SUFFIX, HOLE_COUNT, POINT_HOLES, SETUPS, extended_point_holes
from ludus.checkers.moves import ALL_HOLES, NO_HOLES, generate_long
from ludus.errors import ConfigError


def parse_options(options):
    """A canonical options dict from a dict, None, "-" or text like "noparking,cap=200".

    Keys: noparking, locked, antispoil, super (True when on) and cap (a positive number of moves).
    ConfigError names an unknown option, a bad value or a clash."""
    if options is None or options == "" or options == "-" or options == {}:
        return {}  # the common case, without loading the text module
    from ludus.checkers.text import parse_options

    return parse_options(options)


def options_text(options):
    """The notation of an options dict: "-" when none is on, else e.g. "noparking,cap=200"."""
    from ludus.checkers.text import options_text

    return options_text(options)


class CheckersConfig:
    """A setup (who plays which points, 10 or 15 pieces) with its options: what a game is played
    under. Shared by a game and its copies; never changed after it is built."""

    def __init__(self, spec, options=None):
        if not isinstance(spec, str):
            raise ConfigError("checkers setup must be text such as '2' or '3x2': got %r" % (spec,))
        spec = spec.strip()
        big = spec.endswith(BIG_SUFFIX)
        name = spec[: -len(BIG_SUFFIX)] if big else spec
        if name not in SETUPS or (big and name != "2"):
            from ludus.checkers.text import setup_error

            raise setup_error(spec, name)
        self.spec = spec
        self.options = parse_options(options)
        self.seat_points = SETUPS[name]
        self.seats = len(self.seat_points)
        self.pieces = 15 if big else 10
        regions = tuple(extended_point_holes(p) for p in range(6)) if big else POINT_HOLES
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
        self.generate = generate_long if self.long_hops else _moves.generate
        # the viper generator writing into an array (None: legal_move_codes() appends to one)
        self.gen_codes = None if self.long_hops else _moves.fast_codes
        # perft's leaf counter: counting without listing pays off where the moves would be listed by
        # the bytecode generator (CPython); the viper generator lists them faster than it counts
        self.count = None
        if self.gen_codes is None and self.generate is _moves.python_generate:
            self.count = _moves.count_moves
        # ends[code]: holes where a piece of the set may end a move; locks[code]: its target when a
        # piece standing there may not leave it.
        ends = [ALL_HOLES] * 7
        locks = [NO_HOLES] * 7
        if "noparking" in opts or "locked" in opts:  # options were text, so ludus.checkers.text is loaded
            from ludus.checkers.text import option_masks

            option_masks(self, ends, locks)
        self.ends = tuple(ends)
        self.locks = tuple(locks)

    def describe(self):
        """One line per seat: its sets, where they start and where they head."""
        from ludus.checkers.text import describe

        return describe(self)

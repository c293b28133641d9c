"""Board definitions: the physical layout of a Ludus board (cells, sensor channels, LEDs, die display),
loaded from a hardware/boards/*.json file, checked fault by fault, and turned into compact tables.

The file format is documented in docs/boards.md. The API the rest of the firmware uses:

    board = BoardDefinition.load("hardware/boards/ludo52.json")   # or .from_json(text), .from_dict(d)
    # every fault of a bad file at once: BoardDefinitionError, one fault per line

    board.name, board.game ("checkers", "ludo52", "ludo40", "ludo56"), board.direction (None for checkers)
    board.sensor_kind ("digital"/"analog"), board.channel_count, board.bank_size
    board.led_count, board.ma_per_channel, board.idle_ma, board.supply_ma, board.reserved_ma
    board.cell_count, board.cell_ids                   tuple of cell ids in file order (= cell index), made
                                                       on demand; board.cell_id(i) gives one
    board.place_count                                  number of places
    board.channel_of_cell, board.led_of_cell           array('H') by cell index
    board.cell_of_channel                              array('H') by channel, NO_CELL where nothing is wired
    board.role_of_cell, board.colour_of_cell           array('B'): index into ROLES / COLOURS, NO_COLOUR
    board.cell_x, board.cell_y, board.cell_r           array('h'), whole millimetres (for nearest pairing)
    board.place_names                                  tuple, the game's canonical order (place_names_for),
                                                       made on demand
    board.place_of_cell                                array('H'): cell index -> board place id
    board.cells_of_place(place_id)                     tuple of cell indices (4 for a zone, else 1)
    board.place_id(name)                               board place id, BoardDefinitionError if unknown
    board.turn_leds, board.die_pip_leds, board.waiting_leds   array('H') of LED indices (may be empty)
    board.bind(game.place_names)                       array('H'): game place id -> board place id
    board.game_place_of_cell(binding)                  array('H'): cell index -> game place id
    board.count_places(cell_counts, out, place_of_cell=None)   per-cell counts summed per place into a
                                                       preallocated bytearray; allocates nothing
    DIE_FACES[value]                                   bit mask of die_pip_leds to light for 1..6
    validate(d)                                        the list of faults of a parsed definition
    place_names_for(game), start_square(game, seat)    the places a game's board must have; t{s*L/4}

Reading and checking a definition and building the tables live in ludus.boardcheck, imported only while
a definition is being read and dropped again on MicroPython (only the tables stay in RAM).
"""

from array import array

from ludus.errors import BoardDefinitionError

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


FORMAT = "ludus-board/1"
GAMES = ("checkers", "ludo52", "ludo40", "ludo56")
COLOURS = ("green", "yellow", "red", "blue")
ROLES = ("hole", "track", "column", "base", "home")
INDICATOR_ROLES = ("turn", "die-pip", "die-waiting")
SENSOR_KINDS = ("digital", "analog")
DIRECTIONS = ("clockwise", "counterclockwise")

ROLE_HOLE = const(0)
ROLE_TRACK = const(1)
ROLE_COLUMN = const(2)
ROLE_BASE = const(3)
ROLE_HOME = const(4)
NO_COLOUR = const(255)
NO_CELL = const(0xFFFF)

CHECKERS_HOLES = const(121)
CHECKERS_POINTS = const(6)
ZONE_SLOTS = const(4)
DIE_PIPS = const(7)
# game -> (track squares, home column squares, has a home zone)
LUDO_SHAPES = {"ludo52": (52, 5, True), "ludo40": (40, 4, False), "ludo56": (56, 6, True)}

# Pips in die_pip_leds order: 0 top left, 1 top right, 2 middle left, 3 centre, 4 middle right,
# 5 bottom left, 6 bottom right. DIE_FACES[v] has bit i set when pip i shows for value v (1..6).
DIE_FACES = (0, 0x08, 0x41, 0x49, 0x63, 0x6B, 0x77)


def place_count(game):
    """How many places a board for `game` has."""
    if game == "checkers":
        return CHECKERS_HOLES
    track, column, home = LUDO_SHAPES[game]
    return track + len(COLOURS) * (column + 1 + (1 if home else 0))


def place_spec(game, pid):
    """(name, role, colour index or -1, cell count) of board place id `pid` (canonical order), worked
    out rather than looked up, so no table of every place has to be held."""
    if game == "checkers":
        return "h%d" % pid, ROLE_HOLE, -1, 1
    track, column, home = LUDO_SHAPES[game]
    if pid < track:
        return "t%d" % pid, ROLE_TRACK, -1, 1
    per = column + 1 + (1 if home else 0)
    s, k = divmod(pid - track, per)
    colour = COLOURS[s]
    if k < column:
        return "%s.c%d" % (colour, k), ROLE_COLUMN, s, 1
    if k == column:
        return colour + ".base", ROLE_BASE, s, ZONE_SLOTS
    return colour + ".home", ROLE_HOME, s, ZONE_SLOTS


def _number_after(name, prefix, limit):
    # the n of prefix + str(n) written canonically (no sign or leading zero), if below limit; else None
    digits = name[len(prefix) :]
    if not name.startswith(prefix) or not digits or not digits.isdigit():
        return None
    if len(digits) > 1 and digits[0] == "0":
        return None
    v = int(digits)
    return v if v < limit else None


def place_lookup(game, name):
    """The board place id of a place name for `game`, or None; the inverse of place_spec."""
    if game == "checkers":
        return _number_after(name, "h", CHECKERS_HOLES)
    track, column, home = LUDO_SHAPES[game]
    if name.startswith("t"):
        return _number_after(name, "t", track)
    dot = name.find(".")
    if dot < 0 or name[:dot] not in COLOURS:
        return None
    s = COLOURS.index(name[:dot])
    rest = name[dot + 1 :]
    k = _number_after(rest, "c", column)
    if k is None:
        if rest == "base":
            k = column
        elif rest == "home" and home:
            k = column + 1
        else:
            return None
    return track + s * (column + 1 + (1 if home else 0)) + k


def place_specs(game):
    """The places a board for `game` must have: a list of (name, role, colour index or -1, cell count)
    in canonical order (board place ids follow it)."""
    return [place_spec(game, pid) for pid in range(place_count(game))]


def place_names_for(game):
    """The logical place names of a game's board, in canonical order (docs/architecture.md)."""
    if game not in GAMES:
        raise BoardDefinitionError("unknown game %r: expected one of %s" % (game, ", ".join(GAMES)))
    return tuple(spec[0] for spec in place_specs(game))


def seat_count(game):
    return CHECKERS_POINTS if game == "checkers" else len(COLOURS)


def start_square(game, seat):
    """The track place index of a Ludo seat's start square: seat * L / 4."""
    return seat * LUDO_SHAPES[game][0] // len(COLOURS)


def validate(d):
    """Every fault of a parsed board definition, as a list of one-line messages (empty when sound)."""
    from ludus.boardcheck import check_dict

    return check_dict(d).faults


class BoardDefinition:
    """A checked board definition with the lookup tables the referee, sensing and light scene use.
    ludus.boardcheck builds one (its _build sets every attribute below)."""

    name: str
    game: str
    cell_count: int
    place_count: int
    _id_bytes: bytes
    _id_end: array
    _place_start: array
    _by_place: array
    place_of_cell: array

    @classmethod
    def load(cls, path):
        """Read and check a board definition file. A file laid out one cell per line (as the generator
        writes it) is read line by line, so the whole document is never in memory at once."""
        from ludus.boardcheck import load

        return _loaded(load(cls, path))

    @classmethod
    def from_json(cls, text, source="board definition"):
        """Parse and check a board definition from JSON text."""
        from ludus.boardcheck import from_json

        return _loaded(from_json(cls, text, source))

    @classmethod
    def from_dict(cls, d, source="board definition"):
        """Check a parsed definition; raise BoardDefinitionError listing every fault, one per line."""
        from ludus.boardcheck import from_dict

        return _loaded(from_dict(cls, d, source))

    @property
    def place_names(self):
        """The board's place names in canonical order (place_names_for(game)); made on each call."""
        return place_names_for(self.game)

    @property
    def cell_ids(self):
        """The cell ids in file order (a tuple made on each call: host tools, messages)."""
        return tuple([self.cell_id(i) for i in range(self.cell_count)])

    def cell_id(self, cell):
        """The id of one cell, as in the definition file."""
        return str(self._id_bytes[self._id_end[cell - 1] if cell else 0 : self._id_end[cell]], "utf-8")

    def cells_of_place(self, place_id):
        """The cell indices of a place (a tuple): one for a square or hole, all slots for a zone."""
        a = self._place_start[place_id]
        b = self._place_start[place_id + 1]
        if b == a + 1:
            return (self._by_place[a],)
        return tuple(self._by_place[a:b])

    def place_id(self, name):
        """The board place id of a place name."""
        pid = place_lookup(self.game, name) if isinstance(name, str) else None
        if pid is None:
            raise BoardDefinitionError("board %s (%s) has no place %r" % (self.name, self.game, name))
        return pid

    def bind(self, game_place_names):
        """Map a game's place ids to this board's place ids (array('H'), indexed by game place id).

        The two sets of names must be equal: a game place the board lacks, or a board place the game
        does not know (say a 52-square board for a 40-square game), is a fault, each named."""
        # by place_lookup, with a byte per board place: no table of names (a load-time heap peak)
        faults = []
        seen = bytearray(self.place_count)
        unknown = []
        out = array("H", bytes(2 * len(game_place_names)))
        for g in range(len(game_place_names)):
            name = game_place_names[g]
            pid = place_lookup(self.game, name) if isinstance(name, str) else None
            if seen[pid] if pid is not None else name in unknown:
                faults.append("game place %s appears twice" % name)
            if pid is None:
                unknown.append(name)
                faults.append("board %s (%s) lacks game place %s" % (self.name, self.game, name))
            else:
                seen[pid] = 1
                out[g] = pid
        for pid in range(self.place_count):
            if not seen[pid]:
                faults.append(
                    "board %s (%s) has place %s, which the game lacks"
                    % (self.name, self.game, place_spec(self.game, pid)[0])
                )
        if faults:
            raise BoardDefinitionError("\n".join(faults))
        return out

    def game_place_of_cell(self, binding):
        """From bind()'s result: each cell's game place id, for count_places in the game's order."""
        board_to_game = array("H", bytes(2 * self.place_count))
        for g in range(len(binding)):
            board_to_game[binding[g]] = g
        return array("H", [board_to_game[p] for p in self.place_of_cell])

    def count_places(self, cell_counts, out, place_of_cell=None):
        """Sum per-cell piece counts into per-place counts in `out` (a preallocated bytearray of one
        entry per place), using board place ids, or game place ids if given game_place_of_cell's
        table. Allocates nothing."""
        if place_of_cell is None:
            place_of_cell = self.place_of_cell
        for i in range(len(out)):
            out[i] = 0
        for i in range(self.cell_count):
            out[place_of_cell[i]] += cell_counts[i]


def _loaded(board):
    _forget_checks()
    return board


def _forget_checks():
    # The reader and checks are needed only while a definition is read: on the board their module would
    # keep about 18K of RAM for the whole game, so it is dropped (a later load imports it again).
    import sys

    if sys.implementation.name == "micropython":
        sys.modules.pop("ludus.boardcheck", None)
        import ludus

        if hasattr(ludus, "boardcheck"):
            delattr(ludus, "boardcheck")

"""Board definitions: the physical layout of a Ludus board (cells, sensor channels, LEDs, die display),
loaded from a hardware/boards/*.json file, checked fault by fault, and turned into compact tables.

The file format is documented in docs/boards.md. The API the rest of the firmware uses:

    board = BoardDefinition.load("hardware/boards/ludo52.json")   # or .from_json(text), .from_dict(d)
    # every fault of a bad file at once: BoardDefinitionError, one fault per line

    board.name, board.game ("checkers", "ludo52", "ludo40", "ludo56"), board.direction (None for checkers)
    board.sensor_kind ("digital"/"analog"), board.channel_count, board.bank_size
    board.led_count, board.ma_per_channel, board.idle_ma, board.supply_ma, board.reserved_ma
    board.cell_count, board.cell_ids                   tuple of cell ids in file order (= cell index)
    board.channel_of_cell, board.led_of_cell           array('H') by cell index
    board.cell_of_channel                              array('H') by channel, NO_CELL where nothing is wired
    board.role_of_cell, board.colour_of_cell           array('B'): index into ROLES / COLOURS, NO_COLOUR
    board.cell_x, board.cell_y, board.cell_r           array('h'), whole millimetres (for nearest pairing)
    board.place_names                                  tuple, the game's canonical order (place_names_for)
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

The checks themselves live in ludus.boardcheck, imported only while a definition is being read.
"""

import json
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


def place_specs(game):
    """The places a board for `game` must have: a list of (name, role, colour index or -1, cell count)
    in canonical order (board place ids follow it)."""
    if game == "checkers":
        return [("h%d" % h, ROLE_HOLE, -1, 1) for h in range(CHECKERS_HOLES)]
    track, column, home = LUDO_SHAPES[game]
    specs = [("t%d" % t, ROLE_TRACK, -1, 1) for t in range(track)]
    for s in range(len(COLOURS)):
        colour = COLOURS[s]
        for k in range(column):
            specs.append(("%s.c%d" % (colour, k), ROLE_COLUMN, s, 1))
        specs.append((colour + ".base", ROLE_BASE, s, ZONE_SLOTS))
        if home:
            specs.append((colour + ".home", ROLE_HOME, s, ZONE_SLOTS))
    return specs


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
    """A checked board definition with the lookup tables the referee, sensing and light scene use."""

    @classmethod
    def load(cls, path):
        """Read and check a board definition file. A file laid out one cell per line (as the generator
        writes it) is read line by line, so the whole document is never in memory at once."""
        from ludus.boardcheck import check_dict, stream

        try:
            f = open(path)
        except OSError as exc:
            raise BoardDefinitionError("cannot read board definition %s: %s" % (path, exc)) from None
        try:
            checker = stream(f)
            if checker is None:
                f.seek(0)
                try:
                    d = json.load(f)
                except ValueError as exc:
                    raise BoardDefinitionError("%s is not valid JSON: %s" % (path, exc)) from None
                checker = check_dict(d)
                checker.header = d
        finally:
            f.close()
        return cls._from_checker(checker, path)

    @classmethod
    def from_json(cls, text, source="board definition"):
        """Parse and check a board definition from JSON text."""
        try:
            d = json.loads(text)
        except ValueError as exc:
            raise BoardDefinitionError("%s is not valid JSON: %s" % (source, exc)) from None
        return cls.from_dict(d, source)

    @classmethod
    def from_dict(cls, d, source="board definition"):
        """Check a parsed definition; raise BoardDefinitionError listing every fault, one per line."""
        from ludus.boardcheck import check_dict

        checker = check_dict(d)
        checker.header = d
        return cls._from_checker(checker, source)

    @classmethod
    def _from_checker(cls, checker, source):
        if checker.faults:
            from ludus.boardcheck import fail

            fail(source, checker.faults)
        board = cls()
        board._build(checker)
        _forget_checks()
        return board

    def _build(self, checker):
        d = checker.header
        self.name = d["name"]
        self.game = d["game"]
        self.direction = d.get("direction")
        sensors = d["sensors"]
        leds = d["leds"]
        power = d.get("power", {})
        self.sensor_kind = sensors["kind"]
        self.channel_count = sensors["channels"]
        self.bank_size = sensors.get("bank_size", self.channel_count)
        self.led_count = leds["count"]
        self.ma_per_channel = leds["ma_per_channel"]
        self.idle_ma = leds.get("idle_ma", 0)
        self.supply_ma = power.get("supply_ma", 500)
        self.reserved_ma = power.get("reserved_ma", 0)

        specs = checker.specs
        names = [s[0] for s in specs]
        for i in range(checker.cell_total):
            if checker.labels[i] == names[checker.place[i]]:
                names[checker.place[i]] = checker.labels[i]  # share the cell id's string
        self.place_names = tuple(names)

        n = checker.cell_total
        self.cell_count = n
        self.cell_ids = tuple(checker.labels[:n])
        self.channel_of_cell = array("H", checker.channel)
        self.led_of_cell = array("H", checker.led[:n])
        self.role_of_cell = array("B", checker.role)
        self.colour_of_cell = array("B", checker.colour)
        self.cell_x = array("h", [int(checker.x[i] + 0.5) for i in range(n)])
        self.cell_y = array("h", [int(checker.y[i] + 0.5) for i in range(n)])
        self.cell_r = array("h", [int(checker.r[i] + 0.5) for i in range(n)])
        self.place_of_cell = array("H", checker.place)
        members = [()] * len(specs)
        for i in range(n):
            pid = checker.place[i]
            members[pid] = members[pid] + (i,)
        self._cells_of_place = tuple(members)
        self.cell_of_channel = array("H", [NO_CELL] * self.channel_count)
        for i in range(n):
            self.cell_of_channel[self.channel_of_cell[i]] = i

        groups = {"turn": {}, "die-pip": {}, "die-waiting": {}}
        for k in range(len(checker.ind_role)):
            groups[checker.ind_role[k]][checker.ind_index[k]] = checker.led[n + k]
        self.turn_leds = _ordered(groups["turn"])
        self.die_pip_leds = _ordered(groups["die-pip"])
        self.waiting_leds = _ordered(groups["die-waiting"])

    def cells_of_place(self, place_id):
        """The cell indices of a place: one for a square or hole, all slots for a zone."""
        return self._cells_of_place[place_id]

    def place_id(self, name):
        """The board place id of a place name."""
        try:
            return self.place_names.index(name)
        except ValueError:
            raise BoardDefinitionError(
                "board %s (%s) has no place %r" % (self.name, self.game, name)
            ) from None

    def bind(self, game_place_names):
        """Map a game's place ids to this board's place ids (array('H'), indexed by game place id).

        The two sets of names must be equal: a game place the board lacks, or a board place the game
        does not know (say a 52-square board for a 40-square game), is a fault, each named."""
        faults = []
        seen = {}
        index = {}
        for i in range(len(self.place_names)):
            index[self.place_names[i]] = i
        for name in game_place_names:
            if name in seen:
                faults.append("game place %s appears twice" % name)
            seen[name] = True
            if name not in index:
                faults.append("board %s (%s) lacks game place %s" % (self.name, self.game, name))
        for name in self.place_names:
            if name not in seen:
                faults.append(
                    "board %s (%s) has place %s, which the game lacks" % (self.name, self.game, name)
                )
        if faults:
            raise BoardDefinitionError("\n".join(faults))
        return array("H", [index[name] for name in game_place_names])

    def game_place_of_cell(self, binding):
        """From bind()'s result: each cell's game place id, for count_places in the game's order."""
        board_to_game = array("H", [0] * len(self.place_names))
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


def _forget_checks():
    # The checks are needed only while a definition is read: on the board their module would keep
    # about 16K of RAM for the whole game, so it is dropped (a later load imports it again).
    import sys

    if sys.implementation.name == "micropython":
        sys.modules.pop("ludus.boardcheck", None)
        import ludus

        if hasattr(ludus, "boardcheck"):
            delattr(ludus, "boardcheck")


def _ordered(by_index):
    return array("H", [by_index[k] for k in sorted(by_index)])

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
    board.bind(game.place_names)                       PlaceMap: the game's places on this board (board
                                                       place ids, each cell's game place, LEDs, centres)
    board.led_budget_ma()                              the LED current budget (ludus.board.power)
    board.die_faces                                    bytes: the pips of each die value (DIE_FACES)
    board.count_places(cell_counts, out, place_of_cell=None)   per-cell counts summed per place into a
                                                       preallocated bytearray; allocates nothing
    validate(d)                                        the list of faults of a parsed definition

The place vocabulary (games, roles, colours, place names and ids, DIE_FACES) is ludus.board.places.

Reading and checking a definition and building the tables live in ludus.board.check, imported only while
a definition is being read and dropped again on MicroPython (only the tables stay in RAM).
"""

from array import array

from ludus.errors import BoardDefinitionError
from ludus.runtime import forget, transient


def validate(d):
    """Every fault of a parsed board definition, as a list of one-line messages (empty when sound)."""
    from ludus.board.check import check_dict

    return check_dict(d).faults


class BoardDefinition:
    """A checked board definition with the lookup tables the referee, sensing and light scene use.
    ludus.board.check builds one (its _build sets every attribute below)."""

    name: str
    game: str
    sensor_kind: str
    channel_count: int
    bank_size: int
    led_count: int
    cell_count: int
    place_count: int
    channel_of_cell: array
    led_of_cell: array
    cell_of_channel: array
    turn_leds: array
    die_pip_leds: array
    waiting_leds: array
    supply_ma: int
    reserved_ma: int
    _led_budget_ma: int
    die_faces: bytes
    _id_bytes: bytes
    _id_end: array
    _place_start: array
    _by_place: array
    place_of_cell: array

    @classmethod
    def load(cls, path, feed=None):
        """Read and check a board definition file. A file laid out one cell per line (as the generator
        writes it) is read line by line, so the whole document is never in memory at once. feed(), if
        given, is called as it reads (the firmware's watchdog)."""
        from ludus.board.check import load

        return _loaded(load(cls, path, feed))

    @classmethod
    def from_json(cls, text, source="board definition"):
        """Parse and check a board definition from JSON text."""
        from ludus.board.check import from_json

        return _loaded(from_json(cls, text, source))

    @classmethod
    def from_dict(cls, d, source="board definition"):
        """Check a parsed definition; raise BoardDefinitionError listing every fault, one per line."""
        from ludus.board.check import from_dict

        return _loaded(from_dict(cls, d, source))

    @property
    def place_names(self):
        """The board's place names in canonical order (place_names_for(game)); made on each call."""
        return _places().place_names_for(self.game)

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
        pid = _places().place_lookup(self.game, name) if isinstance(name, str) else None
        if pid is None:
            raise BoardDefinitionError("board %s (%s) has no place %r" % (self.name, self.game, name))
        return pid

    def bind(self, game_place_names):
        """The PlaceMap of a game's places on this board (its cells, LEDs and centres).

        The two sets of names must be equal: a game place the board lacks, or a board place the game
        does not know (say a 52-square board for a 40-square game), is a fault, each named."""
        # by place_lookup, with a byte per board place: no table of names (a load-time heap peak)
        place_lookup = _places().place_lookup
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
        if len(unknown) == len(game_place_names):  # (a board for another game: one line, not hundreds)
            raise BoardDefinitionError(
                "board %s is a %s board: none of the game's %d places are on it"
                % (self.name, self.game, len(game_place_names))
            )
        for pid in range(self.place_count):
            if not seen[pid]:
                faults.append(
                    "board %s (%s) has place %s, which the game lacks"
                    % (self.name, self.game, _places().place_spec(self.game, pid)[0])
                )
        if faults:
            raise BoardDefinitionError("\n".join(faults))
        return PlaceMap(self, out)

    def led_budget_ma(self):
        """The LED current budget for this board: the USB figure of ludus.board.power, or less where the
        board's own supply, less what it reserves, gives less (worked out when the file was read)."""
        return self._led_budget_ma

    def count_places(self, cell_counts, out, place_of_cell=None):
        """Sum per-cell piece counts into per-place counts in `out` (a preallocated bytearray of one
        entry per place), using board place ids, or game place ids if given a PlaceMap's
        place_of_cell. Allocates nothing."""
        if place_of_cell is None:
            place_of_cell = self.place_of_cell
        for i in range(len(out)):
            out[i] = 0
        for i in range(self.cell_count):
            out[place_of_cell[i]] += cell_counts[i]


class PlaceMap:
    """A game's places on one board, indexed by game place id (what BoardDefinition.bind returns):

        board_place[p]    the board place id
        place_of_cell[c]  the game place id of cell c
        cells(p)          the cell indices of p: one for a square or hole, every slot of a zone
        cell_count[p]     how many cells p has
        led[p]            the LED beside p's one cell; 0xFFFF for a zone (several cells)
        x[p], y[p]        the centre of p's cells, whole millimetres (for pairing lifted pieces)

    It takes only the board's tables (cells_of_place, place_of_cell, led_of_cell, cell_x, cell_y), so a
    fake board can build one too."""

    def __init__(self, board, board_place):
        self.board = board
        self.board_place = board_place
        n = len(board_place)
        board_to_game = array("H", bytes(2 * n))
        for g in range(n):
            board_to_game[board_place[g]] = g
        self.place_of_cell = array("H", [board_to_game[p] for p in board.place_of_cell])
        del board_to_game
        self.cell_count = bytearray(n)
        self.led = array("H", bytes(2 * n))
        self.x = array("h", bytes(2 * n))
        self.y = array("h", bytes(2 * n))
        for p in range(n):
            cells = board.cells_of_place(board_place[p])
            k = self.cell_count[p] = len(cells)
            self.led[p] = board.led_of_cell[cells[0]] if k == 1 else 0xFFFF
            sx = sy = 0
            for c in cells:
                sx += board.cell_x[c]
                sy += board.cell_y[c]
            self.x[p] = sx // k
            self.y[p] = sy // k

    def cells(self, p):
        """The cell indices of game place p (a tuple)."""
        return self.board.cells_of_place(self.board_place[p])


def _places():
    # ludus.board.places, used while a game is set up (binding, place names); not kept on the heap
    return transient("ludus.board.places")


def _loaded(board):
    # The reader and checks are needed only while a definition is read: on the board their module would
    # keep about 18K of RAM for the whole game, so it is dropped (a later load imports it again).
    forget("ludus.board.check")
    # the checks import these; the tables need the vocabulary only while a game is set up
    forget("ludus.board.places")
    forget("ludus.board.power")
    return board

"""A physical-board stand-in for referee tests, MicroPython-compatible: pieces per cell, sensor levels,
a clock and the button, driving a real Referee.

On both runtimes the rig loads the real board file, the real sensing (debounce, settle time) and the
light scene. Under the MicroPython unix port the firmware runs from a ROMFS image as from a Pico's flash
(tests/mpy_runner.py --rom), so the 160K heap holds what the referee and the test create. A board file
is read once per kind and kept, as the firmware reads its board once at boot. The compact board (one
cell per place, settling at once) serves the dice-less race game of referee_fake.py and tests that ask
for it."""

import gc
from array import array

# The light scene compiles its frame loop from source when it is imported (ludus.light.native): done
# now, before any game, as the firmware does at boot; compiled later, in a heap that games have cut
# up, the compiler's working space may not be found.
import ludus.light.scene  # noqa: F401
from ludus.referee.core import LONG_PRESS, NO_PRESS, SHORT_PRESS, Referee
from ludus.sensing.instant import InstantOccupancy

TICK = 10
SEED = bytes(32)


def _root():
    from support import root

    return root()


class CompactBoard:
    """The slice of BoardDefinition the referee uses, for one game, without a definition file:
    one cell per place (four per zone, at the end), channel = LED = cell index, coarse positions."""

    def __init__(self, place_names, xy, turn_count, die_pips):
        self.name = "compact"
        self.sensor_kind = "digital"
        self.place_names = place_names
        n = len(place_names)
        zones = [p for p in range(n) if place_names[p].endswith(".base") or place_names[p].endswith(".home")]
        self._zone_first = {}
        cells = list(range(n))
        for p in zones:
            self._zone_first[p] = len(cells) - 1 + 1
            cells.extend([p, p, p])
        self._zones = zones
        self.cell_count = len(cells)
        self.place_of_cell = array("H", cells)
        self.channel_of_cell = array("H", range(len(cells)))
        self.led_of_cell = self.channel_of_cell
        self.cell_of_channel = self.channel_of_cell
        self.cell_x = array("h", [xy(p)[0] for p in cells])
        self.cell_y = array("h", [xy(p)[1] for p in cells])
        self.channel_count = len(cells)
        k = len(cells)
        self.turn_leds = array("H", range(k, k + turn_count))
        k += turn_count
        self.die_pip_leds = array("H", range(k, k + die_pips))
        k += die_pips
        self.waiting_leds = array("H", range(k, k + (3 if die_pips else 0)))
        self.led_count = k + len(self.waiting_leds)
        self.ma_per_channel = 20
        self.idle_ma = 1
        self.supply_ma = 500
        self.reserved_ma = 100

    def bind(self, names):
        from ludus.board.definition import PlaceMap

        assert len(names) == len(self.place_names) and names[-1] == self.place_names[-1]
        return PlaceMap(self, array("H", range(len(names))))

    def led_budget_ma(self):
        from ludus.board.power import DEFAULT_BUDGET_MA

        return min(DEFAULT_BUDGET_MA, self.supply_ma - self.reserved_ma)

    @property
    def die_faces(self):
        from ludus.board.places import DIE_FACES

        return DIE_FACES

    def cells_of_place(self, pid):
        first = self._zone_first.get(pid)
        if first is None:
            return (pid,)
        return (pid, first, first + 1, first + 2)

    def place_id(self, name):
        return self.place_names.index(name)

    def cell_id(self, c):
        p = self.place_of_cell[c]
        name = self.place_names[p]
        slots = self.cells_of_place(p)
        return name if len(slots) == 1 else "%s.%d" % (name, slots.index(c))


def compact_board(game_kind, preset=None):
    if game_kind == "fake":
        from referee_fake import NAMES

        return CompactBoard(NAMES, lambda p: (p * 25, 0), 2, 0)
    if game_kind == "checkers":
        from ludus.checkers.geometry import COL, PLACE_NAMES, ROW

        return CompactBoard(PLACE_NAMES, lambda p: (COL[p] * 25 // 2, ROW[p] * 22), 6, 0)
    from ludus.ludo.geometry import Geometry
    from ludus.ludo.rules import rules_from_spec

    track = int(game_kind[4:])
    # the board's places from the preset's own rule set when it is on this track: the referee then
    # reads the same rule set text, and ludus.ludo.rules keeps the last one read (no second parse)
    text = preset.split("/")[1] if preset and preset.startswith("ludo/") else None
    rules = rules_from_spec(text) if text else None
    if rules is None or rules.track != track:
        rules = rules_from_spec("classic" if track == 52 else ("hebrew-40" if track == 40 else "hebrew-56"))
    names = Geometry(rules).place_names
    rules = None

    def xy(p):
        return (p % 16) * 25, (p // 16) * 25

    return CompactBoard(names, xy, 4, 7)


_BOARDS = {}


def load_board(game_kind):
    board = _BOARDS.get(game_kind)
    if board is None:
        from ludus.board.definition import BoardDefinition

        gc.collect()
        board = _BOARDS[game_kind] = BoardDefinition.load(_root() + "/hardware/boards/%s.json" % game_kind)
        gc.collect()
    return board


class Rig:
    """A board with pieces, a clock and the button, wired to a Referee."""

    def __init__(self, preset, board_kind, real=None, seed=SEED, lights=None):
        if real is None:
            real = True
        if lights is None:
            lights = True
        gc.collect()
        self.real = real
        self.lights = lights
        if board_kind == "fake":
            real = False
        self.board = load_board(board_kind) if real else compact_board(board_kind, preset)
        self.adapter = None
        if board_kind == "fake":
            from referee_fake import FakeAdapter

            self.adapter = FakeAdapter()
        b = self.board
        self.preset = preset
        self.seed = seed
        self.counts = bytearray(b.cell_count)
        self.levels = bytearray(b.channel_count)
        self.now = 0
        self.flicker = {}
        self.referee = self._referee()
        self.events = []
        self.frames = 0

    def _referee(self):
        b = self.board
        if self.real:
            from ludus.sensing.occupancy import Occupancy

            occ = Occupancy(b.channel_count)
        else:
            occ = InstantOccupancy(b.channel_count)
        scene = None if self.lights else False
        return Referee(b, self.preset, occupancy=occ, seed=self.seed, scene=scene, adapter=self.adapter)

    # -- the physical board --

    def cell(self, name, want_piece=None):
        """A cell index from a cell id or a place name (for a zone: a slot with / without a piece)."""
        b = self.board
        dot = name.rfind(".")
        if dot > 0 and name[dot + 1 :].isdigit():  # a zone slot: green.base.2
            return b.cells_of_place(b.place_id(name[:dot]))[int(name[dot + 1 :])]
        pid = b.place_id(name)
        cells = b.cells_of_place(pid)
        if len(cells) == 1:
            return cells[0]
        for c in cells:
            if want_piece is None or (self.counts[c] > 0) == want_piece:
                return c
        raise AssertionError("no suitable slot in %s" % name)

    def lift(self, name, settle=True):
        c = self.cell(name, True)
        assert self.counts[c] > 0, "no piece on " + name
        self.counts[c] -= 1
        if settle:
            self.settle()

    def place(self, name, settle=True):
        self.counts[self.cell(name, False)] += 1
        if settle:
            self.settle()

    def move(self, frm, to):
        self.lift(frm, False)
        self.run(50)
        self.place(to)

    def slide(self, names, ms=60):
        """Carry a piece along cells, resting ms on each one passed (a family counting out: 300-800)."""
        c = self.cell(names[0], True)
        self.counts[c] -= 1
        for name in names[1:]:
            c = self.cell(name, False)
            self.counts[c] += 1
            self.run(ms)
            if name != names[-1]:
                self.counts[c] -= 1
        self.settle()

    def fill(self, game):
        """Put the pieces of a game position on the board."""
        b = self.board
        counts = bytearray(len(game.place_names))
        game.fill_counts(counts)
        for i in range(len(self.counts)):
            self.counts[i] = 0
        referee = getattr(self, "referee", None)
        binding = referee.places if referee is not None else b.bind(game.place_names)
        for g in range(len(counts)):
            cells = binding.cells(g)
            for k in range(counts[g]):
                self.counts[cells[k % len(cells)] if len(cells) > 1 else cells[0]] += 1

    def flick(self, name, ms=20):
        self.flicker[self.cell(name)] = self.now + ms

    def start_at(self, start):
        """Continue from a position (a notation or named start) as if restored after a power cut, with
        its pieces on the board."""
        from ludus.dice import Dice
        from ludus.record.game import GameRecord

        gc.collect()  # (the game before it is garbage: a restore builds a whole game, as at boot)
        dice = Dice(self.seed)
        state = {"record": GameRecord(start, {}, dice.commitment()).to_json(), "seed": dice.seed_hex()}
        dice = None
        state["dice_used"] = 0
        # restored first, then its pieces put on the board from the referee's own game: the position
        # is read once (reading a Ludo position loads and drops its checker: heap, on MicroPython)
        self.referee.restore(state)
        state = None
        self.fill(self.referee.game)
        self.settle()
        self.take()

    def die(self, *values):
        """The next die values (deterministic dice)."""
        self.referee.forced_rolls.extend(values)

    # -- time and the button --

    def tick(self, button=NO_PRESS):
        b = self.board
        lv = self.levels
        for c in range(b.cell_count):
            v = 1 if self.counts[c] else 0
            until = self.flicker.get(c)
            if until is not None:
                if self.now < until:
                    v = 1 - v
                else:
                    del self.flicker[c]
            lv[b.channel_of_cell[c]] = v
        if self.referee.tick(lv, self.now, button):
            self.frames += 1
        self.events.extend(self.referee.take_events())
        self.now += TICK

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            self.tick()

    def settle(self):
        # (not real: a change settles on the tick it is made; a start it completes is begun over the
        # next three, and the tick after a commit makes its move table: four ticks)
        self.run(400 if self.real else 4 * TICK)

    def press(self):
        self.tick(SHORT_PRESS)
        self.settle()

    def long_press(self):
        self.tick(LONG_PRESS)
        self.settle()

    def power_cut(self):
        import json

        saved = json.dumps(self.referee.state())  # what the journal keeps in flash
        forced = self.referee.forced_rolls
        self.referee = None  # RAM is lost: only the saved text survives
        gc.collect()
        self.referee = self._referee()
        self.referee.forced_rolls = forced
        self.referee.restore(json.loads(saved))
        saved = None
        self.settle()

    # -- looking --

    def take(self, name=None):
        """The events since the last take (only those named `name`, if given)."""
        out = self.events
        self.events = []
        if name is None:
            return out
        return [e for e in out if e["event"] == name]

    def situation(self):
        from ludus.referee.core import SITUATION_NAMES

        return SITUATION_NAMES[self.referee.situation]

    def lit(self, name, meaning):
        """True if the cell (cell id or single-cell place name) shows the palette meaning."""
        assert self.lights, "this rig runs without lights"
        import ludus.light.palette as palette

        got = self.referee.scene.meaning_at(self.led(name))
        return got == getattr(palette, meaning.upper().replace(" ", "_"))  # "capture victim": CAPTURE_VICTIM

    def led(self, name):
        """The LED of a cell or place name, or of an indicator: turn.K, waiting.K (K from 0)."""
        dot = name.find(".")
        role = name[:dot]
        if role in ("turn", "waiting"):
            leds = self.board.turn_leds if role == "turn" else self.board.waiting_leds
            return leds[int(name[dot + 1 :])]
        return self.board.led_of_cell[self.cell(name)]

    def moves(self):
        return list(self.referee.record.actions)

"""The virtual board: a board definition loaded by name or from a file, and the pieces on its cells with
the sensor levels they give (digital, or analog counting stacks, with flicker) and the hand that
carries them. Knows no referee and no script."""

import os
from array import array
from collections.abc import Sequence
from typing import Any

from ludus.board.definition import BoardDefinition
from ludus.board.wiring import apply
from ludus.errors import BoardDefinitionError, NotationError
from ludus.sensing import Occupancy
from ludus.sensing.calibration import Calibration

from ludus_host import paths
from ludus_host.virtual import colours as lights

ANALOG_LEVELS = (2000, 22000, 42000)  # simulated ADC readings for 0, 1 and 2+ magnets


def load_board(name: str, wiring: str | None = None) -> BoardDefinition:
    """A board definition by the name of a shipped one (checkers, ludo40, ludo52, ludo56), or from a
    file: any other name is a path. A file in the working folder named like a shipped board never
    stands in for it (it is ./ludo52). wiring: the path of a wiring map (`ludus calibrate`'s
    wiring.json) laid over it (ludus.board.wiring)."""
    if name in paths.board_names():
        path = paths.board_file(name)
    elif not os.path.lexists(name):
        known = ", ".join(paths.board_names())
        raise BoardDefinitionError("board %r: not a shipped board (%s), and no such file" % (name, known))
    else:  # a file of the user's: UTF-8, of a sane size, each key once (the shipped ones are)
        path = name
        try:
            paths.check_json(paths.read_text(path, "board definition", 1024 * 1024), "board definition", path)
        except NotationError as exc:
            raise BoardDefinitionError(str(exc)) from None
    board = BoardDefinition.load(path)
    if wiring is not None:
        text = paths.read_text(wiring, "wiring map", 256 * 1024)
        try:
            apply(board, text)
        except BoardDefinitionError as exc:
            raise BoardDefinitionError("%s: %s" % (wiring, exc)) from None
    return board


def cell_names(board: BoardDefinition) -> dict[str, int]:
    """{cell id: cell index} of a board."""
    names = {}
    for i in range(board.cell_count):
        names[board.cell_id(i)] = i
    return names


def zone_names(board: BoardDefinition) -> dict[str, list[int]]:
    """{place name: its cells} of the places that have more than one cell (zones)."""
    zones = {}
    place_names = board.place_names
    for pid in range(len(place_names)):
        cells = board.cells_of_place(pid)
        if len(cells) > 1:
            zones[place_names[pid]] = cells
    return zones


class SimBoard:
    """Pieces per cell and the sensor levels they give (digital, or analog via ANALOG_LEVELS).

    Each piece has a colour (a name, or None for a piece of no known colour), which the sensors cannot
    see but a family can: `colours[cell]` lists a cell's pieces bottom to top, and `hand` the pieces
    lifted and not yet put down, the last lifted last. `place` puts down the piece last lifted, or a
    piece of the colour asked for (from the hand if one is there)."""

    def __init__(self, board: BoardDefinition, analog: bool = False) -> None:
        self.board = board
        self.analog = analog
        self.counts = bytearray(board.cell_count)
        self.colours = [[] for _ in range(board.cell_count)]
        self.hand = []
        self.flicker_until = {}  # cell -> ms until which its sensor reads wrong
        self.cells = cell_names(board)
        self.zones = zone_names(board)
        self.levels = (
            array("H", [ANALOG_LEVELS[0]] * board.channel_count) if analog else bytearray(board.channel_count)
        )

    def occupancy(self, settle_ms: int) -> Occupancy:
        if self.analog:
            cal = Calibration.uniform(self.board.channel_count, *ANALOG_LEVELS)
            return Occupancy(self.board.channel_count, settle_ms=settle_ms, analog=True, calibration=cal)
        return Occupancy(self.board.channel_count, settle_ms=settle_ms)

    def resolve(self, name: str, want_piece: bool, colour: str | None = None) -> int:
        """The cell index a name means: a cell id, or a zone (its first slot with / without a piece;
        lifting from a zone, one with a piece of `colour` if given)."""
        if name in self.cells:
            return self.cells[name]
        for c in self.zones[name]:
            if (self.counts[c] > 0) == want_piece and (
                colour is None or not want_piece or colour in self.colours[c]
            ):
                return c
        raise NotationError(
            "%s: no %s slot in zone %s"
            % ("lift" if want_piece else "place", "filled" if want_piece else "empty", name)
        )

    def lift(self, name: str, colour: str | None = None) -> int:
        """Pick a piece up: the top one, or one of `colour` (a family picks the one it means)."""
        c = self.resolve(name, True, colour)
        if not self.counts[c]:
            raise NotationError("lift %s: there is no piece on %s" % (name, self.board.cell_id(c)))
        pieces = self.colours[c]
        if colour is not None and colour not in pieces:
            raise NotationError(
                "lift %s %s: there is no %s piece on %s" % (name, colour, colour, self.board.cell_id(c))
            )
        self.counts[c] -= 1
        if colour is not None:
            pieces.reverse()
            pieces.remove(colour)
            pieces.reverse()
            self.hand.append(colour)
        else:
            self.hand.append(pieces.pop() if pieces else None)
        return c

    def place(self, name: str, colour: str | None = None) -> int:
        c = self.resolve(name, False)
        self.counts[c] += 1
        if colour is None:
            piece = self.hand.pop() if self.hand else None
        else:
            piece = colour
            if colour in self.hand:  # the one in the hand (else one from beside the board)
                self.hand.reverse()
                self.hand.remove(colour)
                self.hand.reverse()
        self.colours[c].append(piece)
        return c

    def clear(self) -> None:
        for i in range(len(self.counts)):
            self.counts[i] = 0
            self.colours[i] = []
        self.hand = []

    def fill(
        self, place_counts: bytearray, binding_names: Sequence[str], place_colours: dict | None = None
    ) -> None:
        """Put pieces on the board so each place holds place_counts[i] (zones: slot by slot), of the
        colours place_colours[name] lists (a dict; None: no known colour)."""
        board = self.board
        self.clear()
        for g in range(len(binding_names)):
            n = place_counts[g]
            if not n:
                continue
            cells = board.cells_of_place(board.place_id(binding_names[g]))
            colours = list((place_colours or {}).get(binding_names[g], ()))
            for k in range(n):
                c = cells[0] if len(cells) == 1 else cells[k % len(cells)]
                self.counts[c] += 1
                self.colours[c].append(colours[k] if k < len(colours) else None)

    def colours_by_place(self) -> dict[str, list[str]]:
        """The colours on each place as a dict: place name -> sorted colour names (None last as "?")."""
        board = self.board
        out = {}
        for c in range(board.cell_count):
            if not self.counts[c]:
                continue
            name = board.place_names[board.place_of_cell[c]]
            out.setdefault(name, []).extend(
                (self.colours[c][k] if k < len(self.colours[c]) else None) or "?"
                for k in range(self.counts[c])
            )
        for name in out:
            out[name].sort()
        return out

    def read(self, now_ms: int) -> bytearray | array:
        """The levels of every channel at now_ms."""
        board = self.board
        levels = self.levels
        for c in range(board.cell_count):
            n = self.counts[c]
            until = self.flicker_until.get(c)
            if until is not None:
                if now_ms < until:
                    n = 0 if n else 1
                else:
                    del self.flicker_until[c]
            ch = board.channel_of_cell[c]
            if self.analog:
                levels[ch] = ANALOG_LEVELS[n if n < 2 else 2]
            else:
                levels[ch] = 1 if n else 0
        return levels


def colour_name(colour: int) -> str:
    """The name of a firmware colour (ludus.light.palette), as people read it."""
    return lights.colour_name(colour)


def game_colours(adapter: Any, game: Any) -> dict[str, list[str]]:
    """The colours a game puts on each place: place name -> sorted colour names (what `expect
    physical` compares the simulated table with)."""
    out = {}
    names = game.place_names
    if adapter.family == "ludo":
        for seat in game.seats:
            colour = colour_name(adapter.colour(game, seat))
            for gi in range(seat * 4, seat * 4 + 4):
                out.setdefault(game.token_place(gi), []).append(colour)
    else:
        for seat in adapter.seats_of(game):
            colour = colour_name(adapter.colour(game, seat))
            for p in game.pieces(seat):
                out.setdefault(names[p], []).append(colour)
    for name in out:
        out[name].sort()
    return out

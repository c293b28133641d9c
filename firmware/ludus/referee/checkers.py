"""The referee's Chinese Checkers adapter: setups, seat colours, move tables from the game's move
codes (no move objects but for the move played), jump-chain continuations. See ludus.referee.adapter."""

from array import array

from ludus.checkers.game import start_position
from ludus.checkers.geometry import POINT_HOLES, SETUP_NAMES
from ludus.checkers.moves import PASS, PASS_CODE, Move, is_step
from ludus.checkers.options import CheckersConfig
from ludus.errors import StateError
from ludus.light.palette import checkers_colour
from ludus.referee.adapter import GameAdapter


def _path(game, frm, to):
    # the path of the legal jump chain frm-to (from the move table's search while it stands)
    path = game.jump_path(frm, to)
    if path is None:
        raise StateError("h%d-h%d is not a legal move here" % (frm, to))
    return path


class CheckersAdapter(GameAdapter):
    family = "checkers"
    has_dice = False

    def starts(self):
        """(start name, game) for every setup a board could be laid out in, one at a time."""
        for spec in SETUP_NAMES + ("2/15",):
            yield "checkers/" + spec, start_position(spec)

    def position(self, start):
        # ludus.games.position without loading it (on a Pico, an import from littlefs in the tick that
        # starts a game cost 20 ms)
        if start.startswith("checkers/"):
            return start_position(start[9:])
        from ludus.checkers.game import from_notation

        return from_notation(start)

    def colour(self, game, seat):
        return checkers_colour(game.config.seat_points[seat][0])

    def start_seats(self, start):
        """(colour, points) of each seat of a start, for lighting a setup choice without making its
        game (a six-player start's game took 7 ms of such a tick on the emulated RP2040)."""
        if start.startswith("checkers/"):
            points = CheckersConfig(start[9:]).seat_points
        else:
            points = self.position(start).config.seat_points
        return [(checkers_colour(pts[0]), pts) for pts in points]

    def turn_index(self, game, seat):
        # the board has one turn LED per point: the seat's first point
        return game.config.seat_points[seat][0]

    def areas(self):
        """(colour, places) of each start area, for lighting the setup."""
        return [(checkers_colour(p), POINT_HOLES[p]) for p in range(6)]

    # The table's keys are the game's move codes, (from << 7) | to: every move lifts a piece from one
    # hole and puts it on another, so the table fills in one native loop; a Move (with its jump path)
    # is made only for a move played, pending or lit with its path.

    def load(self, game, table, expected):
        table.load_steps(expected, game.legal_move_codes(True))  # (its chains noted: continuations())
        return table.count

    def load_one(self, game, table, expected, move):
        code = move.frm << 7 | move.to if move.frm >= 0 else PASS_CODE
        table.load_steps(expected, array("H", (code,)))

    def finished(self, game):
        # (a position where nobody can move is seen when the move table is made)
        return game.is_over_quick()

    def move(self, game, code):
        if code == PASS_CODE:
            return PASS
        if is_step(code >> 7, code & 127):
            return Move(code >> 7, code & 127, (code >> 7, code & 127))  # its path: its holes
        # A jump chain's path is worked out when ends() first asks for it (lit while pending, say): a
        # chain committed at once needs none, and finding it was a fifth of the commit on a Pico.
        return Move(code >> 7, code & 127, None)

    def expect_after(self, move, expected):
        # a move only carries one piece from one hole to another
        if move.frm >= 0:
            expected[move.frm] -= 1
            expected[move.to] += 1
        return True

    def key_ends(self, game, code):
        return code >> 7, code & 127, None, ()

    def changes(self, game, move):
        return game.move_changes(move)

    def ends(self, game, move):
        """(from place, to place, path places, victims [(place, base place)]), in the position the move
        is to be played from."""
        path = move.path
        if path is None:  # a jump chain from move(): its path found now, and kept with it
            path = move.path = _path(game, move.frm, move.to)
        return move.frm, move.to, path, ()

    def mover_place(self, game, place):
        return game.seat_at(place) == game.turn

    def continuations(self, game, move):
        """Holes the piece that made jump `move` could jump on to ([] for a step or a finished chain)."""
        if move.frm < 0 or is_step(move.frm, move.to):
            return ()  # a pass or a step
        path = move.path
        if path is not None:
            return [h for h in game.continuations(move.to, move.frm) if h not in path]
        # A table's chain (path None, from move()): of the holes of its shortest chain, one jump from
        # its last reaches only the one before it (one jump from an earlier hole would have made a
        # shorter chain), and the move table's search names that one.
        back = game.chain_before(move.frm, move.to)
        ahead = game.continuations(move.to, move.frm)
        if len(ahead) == 1 and ahead[0] == back:
            return ()  # (the common end of a chain: only the way back; no list made)
        return [h for h in ahead if h != back]

    def chain_reach(self, game, frm):
        """Every hole a piece on frm reaches by one or more jumps (ending there legally or not)."""
        seen = {frm: 1}
        todo = [frm]
        while todo:
            at = todo.pop()
            for h in game.continuations(at, frm):
                if h not in seen:
                    seen[h] = 1
                    todo.append(h)
        del seen[frm]
        return seen

    def seats_of(self, game):
        return range(game.seats)

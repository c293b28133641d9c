"""The place vocabulary of every board: games, roles, colours, the places a game's board must have and
how their names map to board place ids, worked out rather than tabled. A leaf: the board definition,
its checks, the referee and the host tools all read it.

Board place ids follow a canonical order: for checkers the holes h0..h120; for Ludo the track squares
t0..t{L-1}, then per colour (green, yellow, red, blue) its column squares c0.., its base and (52 and 56
boards) its home zone."""

from ludus.errors import BoardDefinitionError
from ludus.runtime import const
from ludus.scan import ascii_digits

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
DIE_FACES = bytes((0, 0b0001000, 0b1000001, 0b1001001, 0b1100011, 0b1101011, 0b1110111))


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
    if not name.startswith(prefix) or not ascii_digits(digits, 3):
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

"""The geometry of the 121-hole Chinese Checkers star: hole numbers, rows and columns, the six points,
the neighbour and jump tables the move generator walks, and the named setups (which points each seat's
sets start in) with the option names. The tables are bytes computed once, at
import, by code that is deleted afterwards.

Holes are numbered row by row from the top point, left to right. Columns are in half-pitch units
(0..24, the centre column is 12), so a hole's physical position is x = col * pitch / 2,
y = row * pitch * sqrt(3) / 2. Two holes are adjacent when they differ by (0, +-2) or (+-1, +-1)."""

import sys

from ludus.runtime import const

HOLE_COUNT = const(121)
ROWS = const(17)
COLUMNS = const(25)
NO_HOLE = const(255)
CENTRE = const(6)  # POINT_OF value of the 61 holes of the central hexagon

ROW_LENGTHS = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)

# The six directions, clockwise from east, as (row step, column step); direction d + 3 is opposite.
DIRECTIONS = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


ROW_START = bytes([0, 1, 3, 6, 10, 23, 35, 46, 56, 65, 75, 86, 98, 111, 115, 118, 120])  # first hole of a row


def hole_at(row, col):
    """The hole at (row, col), or -1 if there is none."""
    if 0 <= row < ROWS:
        n = ROW_LENGTHS[row]
        i = col + n - 13  # twice the hole's index in its row: col = 12 - (n - 1) + 2 * index
        if 0 <= i < 2 * n and not i & 1:
            return ROW_START[row] + (i >> 1)
    return -1


def _build():
    # Everything below is computed once; the builders are deleted afterwards (their code would
    # otherwise stay on the heap).
    row = bytearray(HOLE_COUNT)
    col = bytearray(HOLE_COUNT)
    for r in range(ROWS):
        n = ROW_LENGTHS[r]
        for i in range(n):
            h = ROW_START[r] + i
            row[h] = r
            col[h] = 12 - (n - 1) + 2 * i
    point = bytearray(HOLE_COUNT)
    extension = bytearray()  # per point, the five hexagon holes along its base
    for p in range(6):
        for h in range(HOLE_COUNT):
            r = row[h]
            c = col[h]
            if p == 0:
                # the point of each hole: 0..5 clockwise from the top, CENTRE for the hexagon
                if r <= 3:
                    point[h] = 0
                elif c - r >= 14:
                    point[h] = 1
                elif c + r >= 30:
                    point[h] = 2
                elif r >= 13:
                    point[h] = 3
                elif r - c >= 6:
                    point[h] = 4
                elif c + r <= 10:
                    point[h] = 5
                else:
                    point[h] = CENTRE
            if (
                (p == 0 and r == 4 and 8 <= c <= 16)
                or (p == 1 and c - r == 12 and 4 <= r <= 8)
                or (p == 2 and c + r == 28 and 8 <= r <= 12)
                or (p == 3 and r == 12 and 8 <= c <= 16)
                or (p == 4 and r - c == 4 and 8 <= r <= 12)
                or (p == 5 and c + r == 12 and 4 <= r <= 8)
            ):
                extension.append(h)
    step = bytearray(HOLE_COUNT * 6)
    hop = bytearray(HOLE_COUNT * 6)
    for h in range(HOLE_COUNT):
        for d in range(6):
            dr, dc = DIRECTIONS[d]
            n = hole_at(row[h] + dr, col[h] + dc)
            land = hole_at(row[h] + 2 * dr, col[h] + 2 * dc) if n >= 0 else -1
            step[h * 6 + d] = NO_HOLE if n < 0 else n
            hop[h * 6 + d] = NO_HOLE if land < 0 else land
    return bytes(row), bytes(col), bytes(point), bytes(extension), bytes(step), bytes(hop)


ROW, COL, POINT_OF, _EXTENSION, STEP, HOP = _build()
del _build

# The ten holes of each point, in hole order (bytes: half the heap of a tuple of ints).
POINT_HOLES = tuple(bytes([h for h in range(HOLE_COUNT) if POINT_OF[h] == p]) for p in range(6))


def extended_point_holes(p):
    """The 15 holes of point p with the five hexagon holes along its base, in hole order: the start
    and target of a set in the 15-piece two-player variant (2/15)."""
    return bytes(sorted(POINT_HOLES[p] + _EXTENSION[p * 5 : p * 5 + 5]))


class _Lines:
    """NEIGHBOURS / JUMPS on MicroPython: each hole's entry made on demand from STEP and HOP, so the
    tables cost no heap (on the Pico the generator is the viper one, which walks STEP and HOP itself;
    these serve the bytecode generator of the long-hop option, continuations and the tests)."""

    def __init__(self, jumps):
        self.jumps = jumps

    def __len__(self):
        return HOLE_COUNT

    def __getitem__(self, h):
        if h < 0:
            h += HOLE_COUNT
        if not 0 <= h < HOLE_COUNT:
            raise IndexError("hole index out of range")
        out = []
        for k in range(h * 6, h * 6 + 6):
            n = STEP[k]
            if self.jumps:
                if HOP[k] != NO_HOLE:
                    out.append(HOP[k] << 7 | n)
            elif n != NO_HOLE:
                out.append(n)
        return tuple(out)


# NEIGHBOURS[h]: the adjacent holes of h. JUMPS[h]: one int per possible jump from h,
# (landing << 7) | jumped hole. Both iterate as ints: on CPython tuples of precomputed bytes and
# tuples (the fastest to iterate), on MicroPython sequences that build each entry on demand.
# STEP[h * 6 + d] / HOP[h * 6 + d]: the hole one / two steps from h in direction d (DIRECTIONS),
# NO_HOLE if off the star: the flat tables of the native generator and of long hops.
if sys.implementation.name == "micropython":
    NEIGHBOURS = _Lines(False)
    JUMPS = _Lines(True)
else:
    NEIGHBOURS = tuple(bytes(_Lines(False)[h]) for h in range(HOLE_COUNT))  # type: ignore[assignment]
    JUMPS = tuple(_Lines(True)[h] for h in range(HOLE_COUNT))  # type: ignore[assignment]
    del _Lines


def adjacent(a, b):
    """True when holes a and b are neighbours."""
    k = a * 6
    for d in range(6):
        if STEP[k + d] == b:
            return True
    return False


def distance(a, b):
    """The number of steps between holes a and b on the lattice (ignoring the star's outline)."""
    dr = ROW[a] - ROW[b]
    dc = COL[a] - COL[b]
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    half = (dr + dc) >> 1
    return dr if dr > half else half


def _tip(p):
    best = POINT_HOLES[p][0]
    for h in POINT_HOLES[p]:
        if distance(h, 60) > distance(best, 60):
            best = h
    return best


# The hole at the tip of each point (farthest from the centre hole h60).
POINT_TIPS = tuple(_tip(p) for p in range(6))
del _tip


class HoleNames:
    """The place names h0..h120 as a read-only sequence that makes each string on demand (a tuple of
    121 strings would hold several kB of the Pico's heap for names that are rarely needed). `in` works
    by iteration."""

    def __len__(self):
        return HOLE_COUNT

    def __getitem__(self, i):
        if i < 0:
            i += HOLE_COUNT
        if not 0 <= i < HOLE_COUNT:
            raise IndexError("hole index out of range")
        return "h%d" % i

    def index(self, name):
        """The hole number of a place name; ValueError if it is none."""
        if isinstance(name, str) and name[1:].isdigit() and name == "h%d" % int(name[1:]):
            if int(name[1:]) < HOLE_COUNT:
                return int(name[1:])
        raise ValueError("%r is not a hole name" % (name,))


PLACE_NAMES = HoleNames()


# --- named setups and option names ----------------------------------------------------------------

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

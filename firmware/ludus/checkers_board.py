"""The geometry of the 121-hole Chinese Checkers star: hole numbers, rows and columns, the six points,
and the neighbour and jump tables the move generator walks. Everything is computed once, at import.

Holes are numbered row by row from the top point, left to right. Columns are in half-pitch units
(0..24, the centre column is 12), so a hole's physical position is x = col * pitch / 2,
y = row * pitch * sqrt(3) / 2. Two holes are adjacent when they differ by (0, +-2) or (+-1, +-1)."""

import sys
from array import array

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


_MICROPYTHON = sys.implementation.name == "micropython"
HOLE_COUNT = const(121)
ROWS = const(17)
COLUMNS = const(25)
NO_HOLE = const(255)
CENTRE = const(6)  # POINT_OF value of the 61 holes of the central hexagon

ROW_LENGTHS = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)

# The six directions, clockwise from east, as (row step, column step); direction d + 3 is opposite.
DIRECTIONS = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


def _filled(n):
    out = bytearray(n)
    for i in range(n):
        out[i] = NO_HOLE
    return out


def _build_rows():
    row = bytearray(HOLE_COUNT)
    col = bytearray(HOLE_COUNT)
    grid = _filled(ROWS * COLUMNS)
    h = 0
    for r in range(ROWS):
        n = ROW_LENGTHS[r]
        for i in range(n):
            c = 12 - (n - 1) + 2 * i
            row[h] = r
            col[h] = c
            grid[r * COLUMNS + c] = h
            h += 1
    return bytes(row), bytes(col), bytes(grid)


ROW, COL, _GRID = _build_rows()


def hole_at(row, col):
    """The hole at (row, col), or -1 if there is none."""
    if 0 <= row < ROWS and 0 <= col < COLUMNS:
        h = _GRID[row * COLUMNS + col]
        if h != NO_HOLE:
            return h
    return -1


def _point_of(r, c):
    if r <= 3:
        return 0
    if c - r >= 14:
        return 1
    if c + r >= 30:
        return 2
    if r >= 13:
        return 3
    if r - c >= 6:
        return 4
    if c + r <= 10:
        return 5
    return CENTRE


POINT_OF = bytes(_point_of(ROW[h], COL[h]) for h in range(HOLE_COUNT))

# The ten holes of each point, in hole order.
POINT_HOLES = tuple(tuple(h for h in range(HOLE_COUNT) if POINT_OF[h] == p) for p in range(6))

# The five hexagon holes in the row next to each point's base: with them a point holds 15 pieces
# (the 15-piece two-player variant). Given as (row or diagonal test) per point.
_EXTENSION_TESTS = (
    lambda r, c: r == 4 and 8 <= c <= 16,
    lambda r, c: c - r == 12 and 4 <= r <= 8,
    lambda r, c: c + r == 28 and 8 <= r <= 12,
    lambda r, c: r == 12 and 8 <= c <= 16,
    lambda r, c: r - c == 4 and 8 <= r <= 12,
    lambda r, c: c + r == 12 and 4 <= r <= 8,
)

EXTENDED_POINT_HOLES = tuple(
    tuple(sorted(POINT_HOLES[p] + tuple(h for h in range(HOLE_COUNT) if _EXTENSION_TESTS[p](ROW[h], COL[h]))))
    for p in range(6)
)
del _EXTENSION_TESTS


def _build_moves():
    near = bytearray()  # every hole's neighbours, hole after hole
    far = array("H")  # every hole's jumps, (landing << 7) | jumped hole
    near_at = [0]
    far_at = [0]
    step = _filled(HOLE_COUNT * 6)
    hop = _filled(HOLE_COUNT * 6)
    for h in range(HOLE_COUNT):
        r = ROW[h]
        c = COL[h]
        for d in range(6):
            dr, dc = DIRECTIONS[d]
            n = hole_at(r + dr, c + dc)
            if n < 0:
                continue
            near.append(n)
            step[h * 6 + d] = n
            land = hole_at(r + 2 * dr, c + 2 * dc)
            if land >= 0:
                far.append(land << 7 | n)
                hop[h * 6 + d] = land
        near_at.append(len(near))
        far_at.append(len(far))
    if _MICROPYTHON:
        # Slices of two flat buffers: a third of the heap that 121 small objects of their own take.
        return _cut(memoryview(bytes(near)), near_at), _cut(memoryview(far), far_at), step, hop
    return _cut(bytes(near), near_at), _cut(tuple(far), far_at), step, hop  # CPython iterates these fastest


def _cut(buf, at):
    return tuple([buf[at[h] : at[h + 1]] for h in range(HOLE_COUNT)])


# NEIGHBOURS[h]: the adjacent holes of h. JUMPS[h]: one int per possible jump from h,
# (landing << 7) | jumped hole. Both iterate as ints (bytes and tuples on CPython, memoryview slices on
# MicroPython). STEP[h * 6 + d] / HOP[h * 6 + d]: the hole one / two steps from h in direction d
# (DIRECTIONS), NO_HOLE if off the star: the flat tables of the native generator and of long hops.
NEIGHBOURS, JUMPS, _STEP, _HOP = _build_moves()
STEP = bytes(_STEP)
HOP = bytes(_HOP)
del _build_moves, _STEP, _HOP


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
    121 strings would hold several kB of the Pico's heap for names that are rarely needed)."""

    def __len__(self):
        return HOLE_COUNT

    def __getitem__(self, i):
        if i < 0:
            i += HOLE_COUNT
        if not 0 <= i < HOLE_COUNT:
            raise IndexError("hole index out of range")
        return "h%d" % i

    def __iter__(self):
        for i in range(HOLE_COUNT):
            yield "h%d" % i

    def __contains__(self, name):
        return self.find(name) >= 0

    def find(self, name):
        """The hole number of a place name, or -1."""
        if isinstance(name, str) and len(name) >= 2 and name[0] == "h" and name[1:].isdigit():
            if name == "h%d" % int(name[1:]) and int(name[1:]) < HOLE_COUNT:
                return int(name[1:])
        return -1

    def index(self, name):
        i = self.find(name)
        if i < 0:
            raise ValueError("%r is not a hole name" % (name,))
        return i


PLACE_NAMES = HoleNames()

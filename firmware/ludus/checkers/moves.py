"""Chinese Checkers moves: the move generator (steps and breadth-first jump chains over precomputed
tables, with an optional long-hop variant) and the Move value the game hands out.

The generator works on a bytearray board of set codes (0 empty, 1..6 = the set that started in point
code - 1) and appends one small int per move, (from << 7) | to, so counting moves allocates nothing
but the list."""

import sys
from array import array

from ludus.checkers.geometry import COL, HOLE_COUNT, JUMPS, NEIGHBOURS, NO_HOLE, ROW, STEP, adjacent
from ludus.runtime import NATIVE as _NATIVE
from ludus.runtime import const

PASS_TEXT = "pass"
PASS_CODE = const(0)  # the move code of a pass: from h0 to h0 is never a real move

# Scratch buffers of the jump search, shared by every game (the generator is not re-entrant).
# PARENTS[slot * 121 + hole]: the hole a shortest chain of the slot-th source reaches `hole` from. It is
# made at import for the most sources a player can have (three sets of ten: 3630 bytes), while the heap
# is still whole: growing it mid-game needs one free block of that size when the heap is fragmented (on
# the MicroPython unix port's 160K heap that failed where 64K were free). reserve() grows it beyond that.
PARENTS = bytearray(30 * HOLE_COUNT)
VISITED = bytearray(HOLE_COUNT)
QUEUE = bytearray(HOLE_COUNT)
# STAMP[0]: the visited marker; STAMP[1:4]: the generator calls so far (24 bits, little-endian), which
# tell whether PARENTS still holds a given call's chains (CheckersGame.chain_before)
STAMP = bytearray(4)
# CODES: where fast_codes writes a position's move codes before they are copied out (grown when a
# position has more moves); made at import like PARENTS.
CODES = array("H", bytes(2 * 128))
ALL_HOLES = bytes([1] * HOLE_COUNT)
NO_HOLES = bytes(HOLE_COUNT)


def reserve(sources):
    """Grow PARENTS to hold the chains of `sources` sources; returns it. Both generators call this."""
    global PARENTS
    if len(PARENTS) < sources * HOLE_COUNT:
        PARENTS = bytearray(sources * HOLE_COUNT)
    return PARENTS


def generate(b, sources, out, ends, locks, long_hop=False):
    """Append the code (frm << 7 | to) of every legal move of the pieces on `sources` to `out`; with
    out=None only count them (perft's leaves) and return the count.

    b: the board (set codes); ends[code]: holes where a piece of that set may end a move; locks[code]:
    its target when pieces there may not leave it (else NO_HOLES); long_hop: the long symmetric hops of
    the "super" option instead of plain jumps. Steps of a piece come first, then its jump destinations
    nearest first; PARENTS holds the chains (see path)."""
    visited = VISITED
    parents = PARENTS
    if len(parents) < len(sources) * HOLE_COUNT:
        parents = reserve(len(sources))
    queue = QUEUE
    nbrs = NEIGHBOURS
    jumps = JUMPS
    stamp = STAMP[0]  # the visited marker: the marks are cleared before it could wrap
    if stamp + len(sources) > 255:
        for i in range(HOLE_COUNT):
            visited[i] = 0
        stamp = 0
    lands = []
    count = 0
    slot = 0
    for h in sources:
        code = b[h]
        ok = ends[code]
        lock = locks[code]
        if lock[h]:
            ok = lock
        base = h << 7
        for n in nbrs[h]:
            if not b[n] and ok[n]:
                if out is None:
                    count += 1
                else:
                    out.append(base | n)
        # Jump chains: a breadth-first flood fill from h with the piece lifted, so the first time a
        # hole is reached is by a shortest chain, and h itself (visited) is never a destination.
        stamp += 1
        visited[h] = stamp
        b[h] = 0
        queue[0] = h
        head = 0
        tail = 1
        while head < tail:
            c = queue[head]
            head += 1
            if long_hop:
                del lands[:]
                long_hops(b, c, lands)
                for land in lands:
                    if visited[land] != stamp:
                        visited[land] = stamp
                        parents[slot + land] = c
                        queue[tail] = land
                        tail += 1
                continue
            for j in jumps[c]:
                land = j >> 7
                if b[j & 127] and not b[land] and visited[land] != stamp:
                    visited[land] = stamp
                    parents[slot + land] = c
                    queue[tail] = land
                    tail += 1
        b[h] = code
        if out is not None:
            for i in range(1, tail):
                land = queue[i]
                if ok[land]:
                    out.append(base | land)
        elif ok is ALL_HOLES:
            count += tail - 1
        else:
            for i in range(1, tail):
                if ok[queue[i]]:
                    count += 1
        slot += HOLE_COUNT
    STAMP[0] = stamp
    _count_search()
    return count


def _count_search():
    k = 1
    while k < 4:
        v = STAMP[k] + 1
        STAMP[k] = v & 255
        if v < 256:
            return
        k += 1


def searches():
    """How many times a generator has run (24 bits, wrapping): the number after a call names the search
    whose chains PARENTS holds until the next."""
    return STAMP[1] | STAMP[2] << 8 | STAMP[3] << 16


def count_moves(b, sources, ends, locks):
    """The number of moves generate() would produce (perft's leaves), without listing them."""
    return generate(b, sources, None, ends, locks)


def generate_long(b, sources, out, ends, locks):
    """generate() for the long-hop option ("Super Chinese Checkers")."""
    return generate(b, sources, out, ends, locks, True)


def long_hops(b, c, out):
    """Append to `out` the landing holes of the symmetric long hops from c: along each line over the
    first piece met, as far beyond it as it lies before it, every other hole of the stretch empty."""
    step = STEP
    for d in range(6):
        x = c
        k = 0
        while True:
            x = step[x * 6 + d]
            if x == NO_HOLE:
                break
            k += 1
            if b[x]:
                break
        if x == NO_HOLE:
            continue
        for _ in range(k):
            x = step[x * 6 + d]
            if x == NO_HOLE or b[x]:
                x = NO_HOLE
                break
        if x != NO_HOLE:
            out.append(x)


def path(slot, frm, to):
    """The shortest path (frm, ..., to) of a move the last generate() call produced for its slot-th
    source."""
    dr = ROW[frm] - ROW[to]
    dc = COL[frm] - COL[to]
    if dr * dr + dc * dc <= 4:  # a step: jumps always move two rows or four half-pitches
        return (frm, to)
    parents = PARENTS
    base = slot * HOLE_COUNT
    before = parents[base + to]
    if before == frm:  # a single jump
        return (frm, to)
    out = [to, before]
    while before != frm:
        before = parents[base + before]
        out.append(before)
    out.reverse()
    return tuple(out)


def is_step(frm, to):
    """True if the legal move frm-to is a step, not a jump chain (jumps move two rows or four
    half-pitches)."""
    dr = ROW[frm] - ROW[to]
    dc = COL[frm] - COL[to]
    return dr * dr + dc * dc <= 4


# ---------------------------------------------------------------------------------------------
# Moves


class Move:
    """A legal move: a distinct (from, to) pair of holes, with one shortest path (frm, ..., to) that
    the board can light. A pass (only when the player to move has no move at all) has frm = to = -1.
    (The referee's jump chains carry path None until its lights ask: ludus.referee.checkers.)"""

    def __init__(self, frm, to, path):
        self.frm = frm
        self.to = to
        self.path = path

    def is_jump(self):
        return self.frm >= 0 and not adjacent(self.frm, self.to)

    def text(self):
        if self.frm < 0:
            return PASS_TEXT
        return "h%d-h%d" % (self.frm, self.to)

    __str__ = text

    def __repr__(self):
        return "<Move %s path %s>" % (self.text(), "-".join(["h%d" % h for h in self.path or ()]) or "-")

    def __eq__(self, other):
        return isinstance(other, Move) and self.frm == other.frm and self.to == other.to

    def __hash__(self):
        return (self.frm + 1) * 128 + self.to + 1


PASS = Move(-1, -1, ())


def moves_of(codes, sources):
    """Move objects, with their paths, for the codes the last generate() call produced from sources."""
    moves = []
    slot = -1
    last = -1
    for code in codes:
        if code == PASS_CODE:
            moves.append(PASS)
            continue
        frm = code >> 7
        to = code & 127
        if frm != last:
            last = frm
            slot = sources.index(frm)
        moves.append(Move(frm, to, path(slot, frm, to)))
    return moves


MAX_COUNT = const(1000000)  # the largest move count or move cap the notation accepts


# On MicroPython the same generator compiled by the viper emitter (ludus.checkers.native) is several times
# faster; it is checked against generate() and the tests' reference on every MicroPython test run.
def python_has_code(codes, code):
    """True if the move codes (a list or an array("H")) hold code: MicroPython's `in` does not
    search an array, so the game asks this (a viper loop on MicroPython)."""
    for c in codes:
        if c == code:
            return True
    return False


python_generate = generate
has_code = python_has_code
# fast_codes(b, sources, out, config): the viper generator writing the codes into the array("H")
# out and returning their count (only the first len(out) written): no list to append to, one call per
# move fewer. None where there is no viper generator (the game then appends into an array("H")).
fast_codes = None
NATIVE = False  # whether fast_codes and has_code are the viper kernels (ludus.checkers.native)
if _NATIVE:
    # the viper generator has no long_hop parameter: the config uses generate_long for that
    import ludus.checkers.native as _kernel

    _kernel.MOVES_MODULE = sys.modules[__name__]  # type: ignore[assignment]
    fast_codes = _kernel.generate_codes  # type: ignore[assignment]
    has_code = _kernel.has_code
    NATIVE = True
    del _kernel

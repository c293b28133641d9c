"""The Chinese Checkers move generator compiled by MicroPython's viper emitter: the same algorithm and
results as ludus.checkers.moves.generate, on raw byte pointers, writing the codes into an array.
MicroPython only: ludus.checkers.moves loads it where the port runs native code (ludus.runtime.NATIVE)
and hands it its scratch buffers (MOVES_MODULE); elsewhere the bytecode generator runs.

mpy-cross needs the target architecture for this file: mpy-cross -march=armv6m (the Pico's RP2040)."""

# ruff: noqa: F821 (ptr8 and the int() casts are viper built-ins)
# mypy: ignore-errors

import micropython

from ludus.checkers.geometry import HOP, STEP

_STEP = STEP
_HOP = HOP
MOVES_MODULE = None  # ludus.checkers.moves, set by it: its jump-search buffers PARENTS, VISITED, QUEUE, STAMP


@micropython.viper
def generate_codes(board, sources, out, cfg) -> int:
    """checkersMOVES.generate() writing the codes into the array('H') `out` instead of appending them to
    a list, with cfg's (a CheckersConfig's) ends and locks: returns how many codes there are; when more than
    len(out), only the first len(out) are written."""
    ends = cfg.ends
    locks = cfg.locks
    b = ptr8(board)
    step = ptr8(_STEP)
    hop = ptr8(_HOP)
    visited = ptr8(MOVES_MODULE.VISITED)
    n = int(len(sources))
    buf = MOVES_MODULE.PARENTS
    if int(len(buf)) < n * 121:
        buf = MOVES_MODULE.reserve(n)
    parents = ptr8(buf)
    queue = ptr8(MOVES_MODULE.QUEUE)
    state = ptr8(MOVES_MODULE.STAMP)
    stamp = int(state[0])
    if stamp + n > 255:
        for i in range(121):
            visited[i] = 0
        stamp = 0
    slot = 0
    codes = ptr16(out)
    cap = int(len(out))
    count = 0
    for si in range(n):
        h = int(sources[si])
        code = int(b[h])
        ok = ptr8(ends[code])
        lock = ptr8(locks[code])
        if lock[h]:
            ok = lock
        base = h << 7
        k = h * 6
        kend = k + 6
        while k < kend:
            t = int(step[k])
            if t != 255 and b[t] == 0 and ok[t]:
                if count < cap:
                    codes[count] = base | t
                count += 1
            k += 1
        stamp += 1
        visited[h] = stamp
        b[h] = 0
        queue[0] = h
        head = 0
        tail = 1
        while head < tail:
            c = int(queue[head])
            head += 1
            k = c * 6
            kend = k + 6
            while k < kend:
                land = int(hop[k])
                if land != 255 and b[step[k]] and b[land] == 0 and visited[land] != stamp:
                    visited[land] = stamp
                    parents[slot + land] = c
                    queue[tail] = land
                    tail += 1
                k += 1
        b[h] = code
        i = 1
        while i < tail:
            land = int(queue[i])
            if ok[land]:
                if count < cap:
                    codes[count] = base | land
                count += 1
            i += 1
        slot += 121
    state[0] = stamp
    i = 1
    while i < 4:  # the calls so far (see ludus.checkers.moves.searches)
        v = int(state[i]) + 1
        state[i] = v
        if v < 256:
            break
        i += 1
    return count


@micropython.viper
def has_code(codes, code: int) -> bool:
    """True if the array("H") codes holds code (MicroPython's `in` does not search arrays)."""
    c = ptr16(codes)
    n = int(len(codes))
    i = 0
    while i < n:
        if c[i] == code:
            return True
        i += 1
    return False

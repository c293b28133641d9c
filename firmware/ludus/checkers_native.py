"""The Chinese Checkers move generator compiled by MicroPython's viper emitter: the same algorithm and
results as checkers_moves.generate, on raw byte pointers, writing the codes into an array. MicroPython
only (checkers_moves imports it there and falls back to the bytecode generator if the port has no
native emitter).

mpy-cross needs the target architecture for this file: mpy-cross -march=armv6m (the Pico's RP2040)."""

import micropython

from ludus import checkers_moves as _moves
from ludus.checkers_board import HOP, STEP

_STEP = STEP
_HOP = HOP


@micropython.viper
def generate_codes(board, sources, out, cfg) -> int:
    """checkers_moves.generate() writing the codes into the array('H') `out` instead of appending them to
    a list, with cfg's (a CheckersConfig's) ends and locks: returns how many codes there are; when more than
    len(out), only the first len(out) are written."""
    ends = cfg.ends
    locks = cfg.locks
    b = ptr8(board)  # type: ignore[name-defined]  # noqa: F821 (viper built-in)
    step = ptr8(_STEP)  # type: ignore[name-defined]  # noqa: F821
    hop = ptr8(_HOP)  # type: ignore[name-defined]  # noqa: F821
    visited = ptr8(_moves.VISITED)  # type: ignore[name-defined]  # noqa: F821
    n = int(len(sources))
    buf = _moves.PARENTS
    if int(len(buf)) < n * 121:
        buf = _moves.reserve(n)
    parents = ptr8(buf)  # type: ignore[name-defined]  # noqa: F821
    queue = ptr8(_moves.QUEUE)  # type: ignore[name-defined]  # noqa: F821
    state = ptr8(_moves.STAMP)  # type: ignore[name-defined]  # noqa: F821
    stamp = int(state[0])
    if stamp + n > 255:
        for i in range(121):
            visited[i] = 0
        stamp = 0
    slot = 0
    codes = ptr16(out)  # type: ignore[name-defined]  # noqa: F821
    cap = int(len(out))
    count = 0
    for si in range(n):
        h = int(sources[si])
        code = int(b[h])
        ok = ptr8(ends[code])  # type: ignore[name-defined]  # noqa: F821
        lock = ptr8(locks[code])  # type: ignore[name-defined]  # noqa: F821
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
    return count


@micropython.viper
def has_code(codes, code: int) -> bool:
    """True if the array("H") codes holds code (MicroPython's `in` does not search arrays)."""
    c = ptr16(codes)  # type: ignore[name-defined]  # noqa: F821
    n = int(len(codes))
    i = 0
    while i < n:
        if c[i] == code:
            return True
        i += 1
    return False

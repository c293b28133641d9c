"""The inner loops of ludus.referee.infer compiled by MicroPython's viper emitter: the same results on
raw byte pointers, so judging a settled board takes microseconds. MicroPython only (ludus.referee.infer
imports it there and keeps its bytecode versions if the port has no native emitter).

mpy-cross needs the target architecture for this file: mpy-cross -march=armv6m (the Pico's RP2040)."""

# ruff: noqa: F821 (ptr8, ptr16 and int() casts are viper built-ins)
# mypy: ignore-errors

import micropython


@micropython.viper
def judge_moves(table, first: int, sensed, ndiff: int) -> int:
    """See ludus.referee.infer._judge_moves_py (the exp_sat it compares with is table.exp_sat): one call for
    a whole chain of moves, where a call per move cost tens of microseconds each on a Pico."""
    single = 0
    e = ptr8(table.expected)
    cap = ptr8(table.cap)
    place = ptr8(table.place)
    delta = ptr8(table.delta)
    start = ptr16(table.start)
    owner = ptr16(table.owner)
    link = ptr16(table.link)
    es = ptr8(table.exp_sat)
    sn = ptr8(sensed)
    k = first
    while k != -1:
        if k < -1:  # one move alone
            i = -2 - k
            k = -1
            single = 1
        else:
            i = int(owner[k])
            k = int(link[k])
            if k == 0xFFFF:  # (link is an array("h"): -1 read as unsigned)
                k = -1
        hits = 0
        exact = 1
        placed = 0
        lifted = 0
        kind = 0  # still judging
        j = int(start[i])
        end = int(start[i + 1])
        while j < end:
            p = int(place[j])
            d = int(delta[j])
            free = 0
            if d == 0:
                free = 1  # touched: may read anything on the way
            if d > 127:
                d -= 256
            elif d >= 32:  # ludus.referee.infer.MIXED: emptied and filled
                d -= 64
                free = 1
            s = int(sn[p])
            a = int(es[p])
            c = int(cap[p])
            ep = int(e[p])
            v = ep + d
            if v > c:
                v = c
            if v != s:
                exact = 0
            if d < 0 and ep > c:
                hidden = ep - c  # a lift from a stack the sensors count as full is invisible
                if hidden < 0 - d:
                    lifted += hidden
                else:
                    lifted -= d
            if s != a:
                hits += 1
                if s > a:
                    placed += s - a
                else:
                    lifted += a - s
                if not free:
                    if a <= v:
                        if s < a or s > v:
                            kind = 3
                            break
                    elif s > a or s < v:
                        kind = 3
                        break
            j += 1
        if kind == 0:
            if hits != ndiff:
                kind = 3
            elif exact:
                kind = 1
            elif placed <= lifted:
                kind = 2
            else:
                kind = 3
        if single:
            return kind
        if kind == 1:
            table.matches.append(i)
        elif kind == 2:
            table.partials.append(i)
    return 0


@micropython.viper
def list_diffs(sensed, exp_sat, n: int, out):
    """Append to out the places (of the first n) where the two differ."""
    a = ptr8(sensed)
    b = ptr8(exp_sat)
    append = out.append
    i = 0
    while i < n:
        if a[i] != b[i]:
            append(i)
        i += 1


@micropython.viper
def load_steps(table, codes, n: int):
    """See MoveTable.load_steps (codes: an array("H"); the table's arrays are large enough)."""
    c = ptr16(codes)
    place = ptr8(table.place)
    delta = ptr8(table.delta)
    owner = ptr16(table.owner)
    start = ptr16(table.start)
    head = ptr16(table.head)
    link = ptr16(table.link)
    k = 0
    i = 0
    while i < n:
        start[i] = k
        code = int(c[i])
        if code:
            p = code >> 7
            place[k] = p
            delta[k] = 255
            owner[k] = i
            link[k] = head[p]
            head[p] = k
            k += 1
            p = code & 127
            place[k] = p
            delta[k] = 1
            owner[k] = i
            link[k] = head[p]
            head[p] = k
            k += 1
        i += 1
    start[n] = k


@micropython.viper
def saturate(counts, cap, n: int):
    """Cap each of the first n counts at cap[p], in place."""
    a = ptr8(counts)
    c = ptr8(cap)
    i = 0
    while i < n:
        if a[i] > c[i]:
            a[i] = c[i]
        i += 1


@micropython.viper
def sense_changes(src, bufs):
    """See ludus.referee.infer.sense_changes."""
    n = int(len(src))
    a = ptr8(src)
    b = ptr8(bufs[0])
    cell = ptr16(bufs[1])
    place = ptr16(bufs[2])
    r = ptr8(bufs[3])
    s = ptr8(bufs[4])
    c = ptr8(bufs[5])
    nc = int(bufs[6])
    i = 0
    while i < n:
        if a[i] != b[i]:
            x = int(cell[i])
            if x < nc:
                p = int(place[x])
                v = int(r[p]) + int(a[i]) - int(b[i])
                r[p] = v
                s[p] = v if v < int(c[p]) else int(c[p])
            b[i] = a[i]
        i += 1

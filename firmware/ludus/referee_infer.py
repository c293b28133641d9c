"""Move inference by whole-state comparison: which legal moves the sensed per-place counts show done
(or half done), compared against the expected counts of the game, with sensor saturation applied."""

import sys
from array import array

# How a settled sensed state relates to the position (see MoveTable.classify).
IDLE = 0  # sensed equals expected
MATCH = 1  # sensed equals expected after one or more legal moves (see .matches)
PARTIAL = 2  # sensed is on the way to one or more legal moves (see .partials)
FOREIGN = 3  # neither: a mismatch (bump, out of turn, illegal placement)


def _sat(v, cap):
    return cap if v > cap else v


class MoveTable:
    """The legal moves of one position with their net place changes, indexed by place.

    moves: the legal moves; changes_of(move): its (place, delta) pairs (a place may repeat; places
    listed with delta 0 count as touched). expected: the full place counts; cap: per place, the most
    the sensors can count there (1 per cell for presence sensors).

    Built once per position (that allocates); classify() then only walks the moves touching the
    first differing place, so a settled change costs a few dozen move checks, not a game copy each."""

    def __init__(self, moves, changes_of, expected, cap):
        self.moves = moves
        self.expected = expected  # full counts (bytearray), not saturated
        self.exp_sat = expected  # the saturated counts judged against (set by judge and classify)
        self.ends = None  # per move, what the light scene needs of it (kept by referee_lights)
        self.cap = cap
        # Flat tables instead of a tuple per move and a dict of lists: entry k is place[k] changing
        # by delta[k] for move owner[k]; a move's entries are start[i] .. start[i + 1] - 1, and the
        # entries of one place are chained through link[] from head[place] (-1 ends a chain).
        place = bytearray()
        delta = bytearray()
        owner = array("H")
        start = array("H", [0])
        head = array("h", bytes(2 * len(expected)))
        for p in range(len(head)):
            head[p] = -1
        link = array("h")
        for i in range(len(moves)):
            first = len(place)
            for p, d in changes_of(moves[i]):
                k = first
                while k < len(place) and place[k] != p:
                    k += 1
                if k < len(place):
                    delta[k] = (delta[k] + d) & 255
                    continue
                place.append(p)
                delta.append(d & 255)
                owner.append(i)
                link.append(head[p])
                head[p] = k
            start.append(len(place))
        self.place = place
        self.delta = delta
        self.owner = owner
        self.start = start
        self.head = head
        self.link = link

    def is_match(self, i, sensed, ndiff, exp_sat):
        """True when sensed equals the expected counts after move i (saturated)."""
        return self.judge(i, sensed, ndiff, exp_sat) == MATCH

    def judge(self, i, sensed, ndiff, exp_sat):
        """MATCH if sensed equals the expected counts after move i (saturated), PARTIAL if it is on the
        way there, else FOREIGN. Part way means: every differing place is one move i changes, each
        between expected and the result (a place the move both empties and fills, such as a capture
        square, may read anything), and no more pieces put down than taken up."""
        self.exp_sat = exp_sat
        return _judge(self, i, sensed, ndiff)

    def shows_arrival(self, i, exp_sat):
        """True if the sensors see move i put a piece down somewhere (a count that rises)."""
        e = self.expected
        cap = self.cap
        place = self.place
        delta = self.delta
        for k in range(self.start[i], self.start[i + 1]):
            d = delta[k]
            if 0 < d < 128:
                p = place[k]
                v = e[p] + d
                if v > cap[p]:
                    v = cap[p]
                if v > exp_sat[p]:
                    return True
        return False

    def changes(self, i):
        """(place, net delta) pairs of move i, net-zero places included."""
        out = []
        for k in range(self.start[i], self.start[i + 1]):
            d = self.delta[k]
            out.append((self.place[k], d - 256 if d > 127 else d))
        return out

    def candidates(self, place):
        """Indices of the moves that change place, as a list."""
        out = []
        k = self.head[place]
        owner = self.owner
        link = self.link
        while k >= 0:
            out.append(owner[k])
            k = link[k]
        return out

    def same_effect(self, i, j):
        return self.changes(i) == self.changes(j)


def _judge_py(table, i, sensed, ndiff):
    # MoveTable.judge against table.exp_sat, in one pass over the move's places; referee_native has
    # the same loop as viper code for MicroPython.
    e = table.expected
    cap = table.cap
    place = table.place
    delta = table.delta
    exp_sat = table.exp_sat
    hits = 0
    exact = True
    placed = 0
    lifted = 0
    for k in range(table.start[i], table.start[i + 1]):
        p = place[k]
        d = delta[k]
        if d > 127:
            d -= 256
        s = sensed[p]
        a = exp_sat[p]
        c = cap[p]
        v = e[p] + d
        if v > c:
            v = c
        if v != s:
            exact = False
        if d < 0 and e[p] > c:
            hidden = e[p] - c  # a lift from a stack the sensors count as full is invisible
            lifted += hidden if hidden < -d else -d
        if s != a:
            hits += 1
            if s > a:
                placed += s - a
            else:
                lifted += a - s
            if d != 0:
                if a <= v:
                    if s < a or s > v:
                        return FOREIGN
                elif s > a or s < v:
                    return FOREIGN
    if hits != ndiff:
        return FOREIGN
    if exact:
        return MATCH
    # pieces are carried, not conjured: nothing is placed that was not lifted first
    return PARTIAL if placed <= lifted else FOREIGN


def _list_diffs_py(sensed, exp_sat, n, out):
    for p in range(n):
        if sensed[p] != exp_sat[p]:
            out.append(p)


_judge = _judge_py
_list_diffs = _list_diffs_py
if sys.implementation.name == "micropython":
    try:
        from ludus.referee_native import judge as _judge
        from ludus.referee_native import list_diffs as _list_diffs
    except Exception:  # a port without the native emitter keeps the bytecode versions
        pass


def diff_places(sensed, exp_sat, out):
    """Fill list out with the places where sensed differs from expected; returns its length."""
    del out[:]
    if sensed != exp_sat:  # one C comparison when nothing differs
        _list_diffs(sensed, exp_sat, len(sensed), out)
    return len(out)


def classify(table, sensed, exp_sat, diffs, seen=None):
    """(kind, matches, partials) for a sensed state: kind is IDLE, MATCH, PARTIAL or FOREIGN;
    matches the move indices it equals (distinct effects only; moves whose untouched-looking places
    were seen disturbed come first), partials the moves it is part way to."""
    nd = len(diffs)
    if nd == 0:
        return IDLE, [], []
    matches = []
    partials = []
    table.exp_sat = exp_sat
    for i in table.candidates(diffs[0]):
        kind = _judge(table, i, sensed, nd)
        if kind == MATCH:
            dup = False
            for j in matches:
                if table.same_effect(i, j):
                    dup = True
                    break
            if not dup:
                matches.append(i)
        elif kind == PARTIAL:
            partials.append(i)
    if len(matches) > 1 and seen is not None:
        matches = _prefer_seen(table, matches, sensed, exp_sat, seen)
    if matches:
        return MATCH, matches, partials
    if partials:
        return PARTIAL, matches, partials
    return FOREIGN, matches, partials


def _prefer_seen(table, matches, sensed, exp_sat, seen):
    # A capture square reads the same before and after (the mover replaces the victim); if it was seen
    # disturbed during this move, the moves that touch it are the likelier ones.
    scored = []
    best = -1
    for i in matches:
        score = 0
        for p, _ in table.changes(i):
            if sensed[p] == exp_sat[p] and seen[p]:
                score += 1
        scored.append(score)
        if score > best:
            best = score
    return [matches[k] for k in range(len(matches)) if scored[k] == best]


def pair_nearest(missing, unexpected, xy):
    """Pair unexpected places with missing ones, nearest first (greedy on squared mm distance):
    a list of (unexpected, missing) pairs. missing/unexpected are lists of places (a place listed
    once per piece); xy(place) gives its (x, y) in mm. Pairs at most 16, for bounded time."""
    pairs = []
    miss = list(missing[:16])
    une = list(unexpected[:16])
    while miss and une:
        best = None
        bi = bj = 0
        for i in range(len(une)):
            ux, uy = xy(une[i])
            for j in range(len(miss)):
                mx, my = xy(miss[j])
                d = (ux - mx) * (ux - mx) + (uy - my) * (uy - my)
                if best is None or d < best:
                    best = d
                    bi = i
                    bj = j
        pairs.append((une.pop(bi), miss.pop(bj)))
    return pairs

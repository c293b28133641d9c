"""Move inference by whole-state comparison: which legal moves the sensed per-place counts show done
(or half done), compared against the expected counts of the game, with sensor saturation applied."""

from array import array

from ludus.runtime import NATIVE as _NATIVE
from ludus.runtime import const

# How a settled sensed state relates to the position (see MoveTable.classify).
IDLE = 0  # sensed equals expected
MATCH = 1  # sensed equals expected after one or more legal moves (see .matches)
PARTIAL = 2  # sensed is on the way to one or more legal moves (see .partials)
FOREIGN = 3  # neither: a mismatch (bump, out of turn, illegal placement)


class MoveTable:
    """The legal moves of one position with their net place changes, indexed by place.

    cap: per place, the most the sensors can count there (1 per cell for presence sensors). load()
    fills it for a position: keys[i] names move i (whatever the game adapter uses: a move object, or
    a Chinese Checkers move code), and the move's (place, delta) changes (a place may repeat; places
    listed with delta 0 count as touched). load_steps() does the same from (from << 7 | to) codes, each
    lifting one piece and putting it down elsewhere, without a call per move.

    The arrays are kept and reused from position to position (they only grow), so a new position
    allocates nothing but what its keys need; classify() then only walks the moves touching the first
    differing place: a settled change costs a few dozen move checks, not a game copy each."""

    def __init__(self, cap):
        n = len(cap)
        self.cap = cap
        self.keys = ()
        self.count = 0
        self.expected = bytearray(n)  # full counts (the referee's buffer once loaded), not saturated
        self.exp_sat = self.expected  # the saturated counts judged against (set by judge and classify)
        self.ends = None  # per move, what the light scene needs of it (kept by ludus.referee.lights)
        self.matches = self.partials = None  # classify()'s last lists
        # Flat tables instead of a tuple per move and a dict of lists: entry k is place[k] changing
        # by delta[k] for move owner[k]; a move's entries are start[i] .. start[i + 1] - 1, and the
        # entries of one place are chained through link[] from head[place] (-1 ends a chain).
        self._no_head = array("h", b"\xff\xff" * n)  # every place: -1, no entry
        self.head = array("h", self._no_head)
        self._grow(64, 32)

    def _grow(self, entries, moves):
        # new arrays of at least this size (the contents are rebuilt by the next load)
        self.place = bytearray(entries)
        self.delta = bytearray(entries)
        self.owner = array("H", bytes(2 * entries))
        self.link = array("h", bytes(2 * entries))
        self.start = array("H", bytes(2 * (moves + 1)))

    def _prepare(self, expected, keys, entries):
        self.expected = expected
        self.exp_sat = expected
        self.keys = keys
        self.count = n = len(keys)
        self.ends = None
        if entries > len(self.place) or n >= len(self.start):
            self._grow_for(entries, n)
        self.head[:] = self._no_head

    def _grow_for(self, entries, n):
        self._grow(max(entries, 2 * len(self.place)), max(n, 2 * len(self.start)))

    def load_steps(self, expected, codes):
        """Fill the table with moves given as codes (from << 7) | to, each lifting one piece from a
        place and putting it on another (0: a pass, no change). codes becomes the keys."""
        self._prepare(expected, codes, 2 * len(codes))
        _load_steps(self, codes, len(codes))

    def load(self, expected, keys, changes_of):
        """Fill the table with the moves named by keys; changes_of(key) lists a move's (place, delta)."""
        self._prepare(expected, keys, 0)
        k = 0
        for i in range(len(keys)):
            self.start[i] = k
            k = add_changes(self, i, k, changes_of(keys[i]))
        self.start[len(keys)] = k

    def _more(self, k):
        # out of entries while loading: double them, keeping the first k
        old = (self.place, self.delta, self.owner, self.link)
        start = self.start
        self._grow(2 * k, len(start) - 1)
        self.start = start
        for a, b in zip(old, (self.place, self.delta, self.owner, self.link)):
            for j in range(k):
                b[j] = a[j]

    def is_match(self, i, sensed, ndiff, exp_sat):
        """True when sensed equals the expected counts after move i (saturated)."""
        return self.judge(i, sensed, ndiff, exp_sat) == MATCH

    def judge(self, i, sensed, ndiff, exp_sat):
        """MATCH if sensed equals the expected counts after move i (saturated), PARTIAL if it is on the
        way there, else FOREIGN. Part way means: every differing place is one move i changes, each
        between expected and the result (a place the move both empties and fills, such as a capture
        square, may read anything), and no more pieces put down than taken up."""
        self.exp_sat = exp_sat
        return _judge_moves(self, -2 - i, sensed, ndiff)

    def shows_arrival(self, i, exp_sat):
        """True if the sensors see move i put a piece down somewhere (a count that rises)."""
        # (signed_delta and _rises written out: this runs for every move committed)
        start = self.start
        delta = self.delta
        k = start[i]
        end = start[i + 1]
        while k < end:
            d = delta[k]
            if 0 < d < 32 or MIXED < d < 128:  # a rise: 1..31, or mixed with a net rise (see MIXED)
                if d >= 32:
                    d -= MIXED
                p = self.place[k]
                v = self.expected[p] + d
                c = self.cap[p]
                if (v if v < c else c) > exp_sat[p]:
                    return True
            k += 1
        return False

    def changes(self, i):
        """(place, net delta) pairs of move i, net-zero places included."""
        out = []
        for k in range(self.start[i], self.start[i + 1]):
            out.append((self.place[k], signed_delta(self.delta[k])))
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


# A place a move both empties and fills (listed twice with changes of different signs, or with a change
# and as touched, delta 0): a capture square holding more victims than movers, say. Its table entry
# holds MIXED + its net change (the entries' deltas are otherwise -32..31, two's complement), and the
# judgement lets it read anything on the way (the victims taken off before the mover lands) while the
# result must still match exactly.
MIXED = const(64)


def add_changes(table, i, k, changes):
    """Write move i's (place, delta) changes into the table from entry k on (a place listed twice
    counts once, its deltas summed, and is MIXED unless both deltas have the same sign); returns the
    next free entry. For loaders that fill the table themselves (MoveTable.load,
    ludus.referee.ludo): start[i] is theirs to set."""
    place = table.place
    delta = table.delta
    first = k
    for p, d in changes:
        j = first
        while j < k and place[j] != p:
            j += 1
        if j < k:
            delta[j] = _merged(delta[j], d)
            continue
        if k == len(place):
            table._more(k)
            place = table.place
            delta = table.delta
        place[k] = p
        delta[k] = d & 255
        table.owner[k] = i
        table.link[k] = table.head[p]
        table.head[p] = k
        k += 1
    return k


def _merged(raw, d):
    # a table entry's delta byte with d added (see MIXED)
    was = signed_delta(raw)
    if (was > 0 and d > 0) or (was < 0 and d < 0):
        if not 32 <= raw < 128:
            return (was + d) & 255
    return MIXED + was + d


def signed_delta(raw):
    """The net change of a table entry's delta byte (see MIXED)."""
    if raw > 127:
        return raw - 256
    if raw >= 32:
        return raw - MIXED
    return raw


def _rises(table, p, d, exp_sat):
    # place p's saturated count after adding d to its expected count is above exp_sat's
    v = table.expected[p] + d
    c = table.cap[p]
    return (v if v < c else c) > exp_sat[p]


def _judge_py(table, i, sensed, ndiff):
    # MoveTable.judge against table.exp_sat, in one pass over the move's places (for _judge_moves_py;
    # ludus.referee.native has the same loop inside its judge_moves).
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
        free = d == 0  # touched: may read anything on the way
        if d > 127:
            d -= 256
        elif d >= 32:  # MIXED: emptied and filled
            d -= MIXED
            free = True
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
            if not free:
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


def _judge_moves_py(table, first, sensed, ndiff):
    # Judge moves against table.exp_sat. first >= -1: the moves of the chain of entries from first (those
    # changing one place; -1 ends it), each that matches appended to table.matches, each part way to
    # table.partials; returns 0. first < -1: move -2 - first alone, its kind returned. (ludus.referee.native
    # has it as viper code: one call for a chain, where a call per move cost tens of microseconds each.)
    k = first
    while k != -1:
        if k < -1:
            return _judge_py(table, -2 - k, sensed, ndiff)
        i = table.owner[k]
        k = table.link[k]
        kind = _judge_py(table, i, sensed, ndiff)
        if kind == MATCH:
            table.matches.append(i)
        elif kind == PARTIAL:
            table.partials.append(i)
    return 0


def _load_steps_py(table, codes, n):
    # MoveTable.load_steps' loop (ludus.referee.native has it as viper code)
    place = table.place
    delta = table.delta
    owner = table.owner
    start = table.start
    head = table.head
    link = table.link
    k = 0
    for i in range(n):
        start[i] = k
        code = codes[i]
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
    start[n] = k


def _sense_changes_py(src, bufs):
    # sense_changes' loop (ludus.referee.native has it as viper code)
    last, cell_of, place_of, raw, sensed, cap, ncells = bufs
    for ch in range(len(src)):
        if src[ch] != last[ch]:
            c = cell_of[ch]
            if c < ncells:  # (a channel wired to no cell counts nowhere)
                p = place_of[c]
                raw[p] += src[ch] - last[ch]
                v = raw[p]
                sensed[p] = v if v < cap[p] else cap[p]
            last[ch] = src[ch]


def _saturate_py(counts, cap, n):
    for p in range(n):
        if counts[p] > cap[p]:
            counts[p] = cap[p]


def _list_diffs_py(sensed, exp_sat, n, out):
    for p in range(n):
        if sensed[p] != exp_sat[p]:
            out.append(p)


_judge_moves = _judge_moves_py
_list_diffs = _list_diffs_py
_load_steps = _load_steps_py
_saturate = _saturate_py
sense_changes = _sense_changes_py
NATIVE = False  # whether the functions above are the viper kernels of ludus.referee.native
if _NATIVE:
    from ludus.referee.native import judge_moves as _judge_moves
    from ludus.referee.native import list_diffs as _list_diffs
    from ludus.referee.native import load_steps as _load_steps
    from ludus.referee.native import saturate as _saturate
    from ludus.referee.native import sense_changes  # noqa: F401 (replaces the one above)

    NATIVE = True


# sense_changes(src, bufs): the settled channels src against the ones last read,
# bufs = (last, cell of each channel, game place of each cell, raw counts, sensed counts, caps, cells):
# each changed channel's difference goes to its place's raw count and its saturated sensed count, and
# last takes src. One call, no allocation: a settled change costs a pass over the channels.


def saturate(counts, cap):
    """Cap every count at what the sensors can count there, in place."""
    _saturate(counts, cap, len(counts))


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
    # (small functions, hot path: docs/architecture.md; the moves are walked along the table's chain,
    # no candidate list built)
    table.exp_sat = exp_sat
    table.matches = []
    table.partials = []
    if not diffs:
        return 0, table.matches, table.partials  # IDLE
    _judge_moves(table, table.head[diffs[0]], sensed, len(diffs))
    if len(table.matches) > 1:
        table.matches = _distinct(table)
    if len(table.matches) > 1 and seen is not None:
        table.matches = _prefer_seen(table, sensed, seen)
    k = 1 if table.matches else 2 if table.partials else 3  # MATCH, PARTIAL, FOREIGN
    return k, table.matches, table.partials


def _distinct(table):
    # the matches, each effect once (the first move with it): moves that look the same on the board
    m = table.matches
    out = []
    for i in m:
        for j in out:
            if table.same_effect(i, j):
                break
        else:
            out.append(i)
    return out


def _prefer_seen(table, sensed, seen):
    # A capture square reads the same before and after (the mover replaces the victim); if it was seen
    # disturbed during this move, the moves that touch it are the likelier ones.
    matches = table.matches
    exp_sat = table.exp_sat
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


def split_difference(sensed, target, diffs):
    """(missing, unexpected): the differing places (diffs) listed once per piece short of target, and
    once per piece beyond it."""
    missing = []
    unexpected = []
    for p in diffs:
        d = sensed[p] - target[p]
        while d < 0:
            missing.append(p)
            d += 1
        while d > 0:
            unexpected.append(p)
            d -= 1
    return missing, unexpected


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

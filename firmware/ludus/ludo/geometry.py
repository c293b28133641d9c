"""Ludo board geometry: the logical place names of docs/architecture.md and the lookup tables the
rules core uses (track squares per seat, safe squares, stars, arrows), built once per rule set."""

from ludus.scan import ascii_digits

COLOURS = ("green", "yellow", "red", "blue")
LETTERS = "gyrb"
BASE = -1  # token position code of a token in its base

# A token's position is a small int, relative to its own seat (L: track_len squares on the track,
# C: the home column's squares; a token turns into its column after turn_in steps on the track):
#   -1                base
#   0 .. L-1          track, counted in steps from its own start square (d); the absolute square is
#                     (seat * L/4 + d) % L
#   L .. L+C-1        its home column square c0 .. c{C-1}
#   L+C               home (52 and 56 tracks; the 40 track has no home zone: the column is the goal)


NONE = 255  # no star / arrow on a square

_TRACKS = {}
_GEOMETRIES = {}


def geometry(rules):
    """The (shared, read-only) Geometry for a rule set's track and square kinds."""
    key = (rules.track, rules.safe, rules.stars, rules.arrows)
    geo = _GEOMETRIES.get(key)
    if geo is None:
        geo = _GEOMETRIES[key] = Geometry(rules)
    return geo


class Track:
    """What depends on the track length alone: sizes, the seats' squares and the place names."""

    def __init__(self, L):
        self.track_len = L
        self.Q = Q = L // 4
        if L == 52:
            # Cross board: the square just before a colour's start (the arm's corner) is never visited by
            # its own tokens; they turn into the column from the square before it. Source 002 counts
            # "a six-square home column": our 5 coloured squares plus the home triangle.
            self.turn_in, self.C, self.has_home = 51, 5, True
        elif L == 40:
            # Source 000's reduced board: the four corridor squares are the goal slots.
            self.turn_in, self.C, self.has_home = 40, 4, False
        else:
            # Source 000's extended board: six corridor squares and a goal square.
            self.turn_in, self.C, self.has_home = 56, 6, True
        C = self.C
        self.HOME = L + C  # position code of home (unused on the 40 track)
        self.F = C if self.has_home else C - 1  # column index of the final place
        # finished: position codes >= FIN
        self.FIN = L + C if self.has_home else L
        self.starts = tuple(s * Q for s in range(4))
        self.abs_of = [bytes([(s * Q + d) % L for d in range(L)]) for s in range(4)]
        self.block = C + 2 if self.has_home else C + 1  # places per colour after the track
        self.place_names = PlaceNames(self)
        # place id of each position code, per seat: index pos + 1
        self.place_of = []
        for s in range(4):
            first = L + s * self.block
            row = [first + C]  # base
            row.extend(self.abs_of[s])
            row.extend(first + k for k in range(C))
            if self.has_home:
                row.append(first + C + 1)
            self.place_of.append(bytes(row))

    def place(self, seat, p):
        """Short text of position code p for a token of seat: t13, c2, base, home."""
        if p < 0:
            return "base"
        if p < self.track_len:
            return "t%d" % self.abs_of[seat][p]
        if p >= self.track_len + self.C:
            return "home"
        return "c%d" % (p - self.track_len)

    def parse_place(self, seat, text):
        """Position code of a place text for a token of seat; -2 if it names no place of that seat."""
        if text == "base":
            return BASE
        if text == "home":
            return self.HOME if self.has_home else -2
        dot = text.find(".")
        if dot >= 0:
            if text[:dot] != COLOURS[seat]:
                return -2
            text = text[dot + 1 :]
            if text in ("base", "home"):
                return self.parse_place(seat, text)
            if text[:1] != "c":
                return -2
        head, num = text[:1], text[1:]
        if head not in ("t", "c") or not ascii_digits(num, 3):
            return -2
        if len(num) > 1 and num[0] == "0":
            return -2
        n = int(num)
        if head == "t":
            if n >= self.track_len:
                return -2
            return (n - self.starts[seat]) % self.track_len
        if n >= self.C:
            return -2
        return self.track_len + n


class PlaceNames:
    """A track's place names (docs/architecture.md), a read-only sequence used like a tuple: `t0 ..`, then
    per colour `{colour}.c0 ..`, `{colour}.base` and `{colour}.home`. Each name is made when asked for,
    so the names take no memory while a game runs."""

    __slots__ = ("t", "n")

    def __init__(self, t):
        self.t = t
        self.n = t.track_len + 4 * t.block

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i.__class__ is slice:
            return tuple(self)[i]
        n = self.n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("place id out of range")
        t = self.t
        if i < t.track_len:
            return "t%d" % i
        s, k = divmod(i - t.track_len, t.block)
        if k < t.C:
            return "%s.c%d" % (COLOURS[s], k)
        return COLOURS[s] + (".base" if k == t.C else ".home")

    def __iter__(self):
        for i in range(self.n):
            yield self[i]

    def index(self, name):
        """The place id of a name; ValueError if no place has it."""
        t = self.t
        dot = name.find(".") if name.__class__ is str else -1
        if dot < 0:
            p = t.parse_place(0, name) if name.__class__ is str and name[:1] == "t" else -2
            if p >= 0:
                return t.abs_of[0][p]
        elif name[:dot] in COLOURS:
            s = COLOURS.index(name[:dot])
            p = t.parse_place(s, name)
            if p != -2 and (p < 0 or p >= t.track_len):
                return t.place_of[s][p + 1]
        raise ValueError("%r is not a place name" % (name,))

    def __contains__(self, name):
        try:
            self.index(name)
        except ValueError:
            return False
        return True

    def __eq__(self, other):
        return tuple(self) == (tuple(other) if isinstance(other, PlaceNames) else other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return repr(tuple(self))


def track(L):
    t = _TRACKS.get(L)
    if t is None:
        t = _TRACKS[L] = Track(L)
    return t


class Geometry(Track):
    """Tables for one track length (52, 40 or 56) and one set of square kinds. Shares the track's
    tables (and place names) with every other geometry of that track."""

    def __init__(self, rules):
        t = track(rules.track)
        for name in (
            "track_len",
            "Q",
            "turn_in",
            "C",
            "has_home",
            "HOME",
            "F",
            "FIN",
            "starts",
            "abs_of",
            "block",
        ):
            setattr(self, name, getattr(t, name))
        self.place_names = t.place_names
        self.place_of = t.place_of
        L, Q = self.track_len, self.Q
        safe = bytearray(L)
        stars = bytearray(L)
        arrows = bytearray(L)
        for a in range(L):
            stars[a] = arrows[a] = NONE
        if rules.safe != "none":
            for s in range(4):
                safe[s * Q] = 1
        if rules.safe in ("classic", "globes"):
            for s in range(4):
                safe[s * Q + 8] = 1  # classic stars and Danish neutral globes: 8 past each start
        if rules.stars:
            # Danish stars: 4 and 11 past each start (the 11 one is the next colour's home entry square)
            for s in range(4):
                stars[s * Q + 4] = s * Q + 11
                stars[s * Q + 11] = (s * Q + 17) % L
        if rules.arrows:
            for s in range(4):
                arrows[s * Q + 8] = (s * Q + 8 + Q) % L
        self.safe = safe
        self.star_next = stars
        self.arrow_next = arrows
        # squares where a landing is nothing special when empty (no star, no arrow)
        plain = bytearray(L)
        for a in range(L):
            plain[a] = stars[a] == NONE and arrows[a] == NONE
        self.plain = plain
        self.globes = rules.safe == "globes"

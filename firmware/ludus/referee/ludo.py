"""The referee's Ludo adapter: the starts a board can show (which bases are filled), seat colours,
capture squares as touched places, where a move goes (for the lights). See ludus.referee.adapter."""

from ludus.light.palette import ludo_colour
from ludus.ludo.geometry import COLOURS
from ludus.ludo.moves import _TRACK_OF_CLASS, roll_text
from ludus.referee.adapter import GameAdapter
from ludus.referee.infer import add_changes


class LudoAdapter(GameAdapter):
    family = "ludo"
    has_dice = True

    def __init__(self, rules_text):
        from ludus.ludo.rules import rules_from_spec

        self.rules_text = rules_text
        self.rules = rules_from_spec(rules_text)

    def starts(self):
        from ludus.ludo.game import start_position

        rules = self.rules
        groups = [(0, 2), (1, 3), (0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2, 3)]
        if rules.teams:
            groups = groups[-1:]
        for seats in groups:
            game = start_position(rules, seats)
            # start_position seats two players opposite (green, red) and three without blue
            if seats in ((0, 2), (0, 1, 2), (0, 1, 2, 3)):
                name = "ludo/%s/%d" % (self.rules_text, len(seats))
            else:
                name = game.notation()
            yield name, game

    def prepare(self, start):
        # the rule set read (kept by ludus.ludo.rules for the position's own read): with the
        # position made in the same tick, the tick that began a Ludo game in ROMFS took 14-18 ms
        import ludus.ludo.game

        if start.startswith("ludo/"):
            ludus.ludo.game.start_rules(start[5:])

    def position(self, start):
        # ludus.games.position without loading it: on a Pico, an import from littlefs in the tick that
        # starts a game cost 20 ms; ludus.ludo.game is already in (starts() used it)
        import ludus.ludo.game

        if start.startswith("ludo/"):
            return ludus.ludo.game.start_position(start[5:])
        return ludus.ludo.game.from_notation(start)

    def colour(self, game, seat):
        return ludo_colour(seat)

    def turn_index(self, game, seat):
        return seat

    def areas(self):
        return None  # bases are zones: filled in by the referee from the place names

    def expect_after(self, move, expected):
        # The counts after move, just played, from the move's fields (cheaper than fill_counts): the
        # token (or wall) leaves its place for the new one, and the captured tokens, which stood where
        # it landed, go to their bases.
        t = move.t
        if t[0] < 3:
            _expect_after(t, _TRACK_OF_CLASS[type(move)].place_of, expected)
        return True

    # The table's keys are the engine's move tuples (ludus.ludo.moves: KIND, GI, ROLL, FRM, TO, CAPS, VIA,
    # LAP, HOME, GI2): a LudoMove is made only for a move played, pending or shown for confirmation.

    def load(self, game, table, expected):
        ts = game._cache  # the moves as the engine caches them (legal_moves() wraps each)
        if ts is None:
            ts = game._cache = game._legal()
        _fill(table, game, ts, expected)
        return table.count

    def load_one(self, game, table, expected, move):
        table.load(expected, (move.t,), lambda t: self.changes(game, t))

    def move(self, game, key):
        return game._Move(key) if type(key) is tuple else key

    def changes(self, game, move):
        # game.move_changes(move) (net changes, by place), worked out from the move's fields without
        # a dict, plus the capture squares (and a star or arrow landing): they read the same before
        # and after, so they are listed with delta 0 and a victim lifted first counts as this move.
        # move: a LudoMove or its tuple. (Small functions indexing the tuple: hot path,
        # docs/architecture.md.)
        t = move if type(move) is tuple else move.t
        if t[0] >= 3:
            return ()
        if t[5]:
            return _changes_caps(game, t)
        return _changes_plain(game.geo.place_of[t[1] >> 2], t)

    def ends(self, game, move):
        t = move if type(move) is tuple else move.t
        if t[0] >= 3:
            return -1, -1, (), ()
        geo = game.geo
        row = geo.place_of[t[1] >> 2]
        frm = row[t[3] + 1]
        to = row[t[4] + 1]
        path = (frm, row[t[6] + 1], to) if t[6] >= 0 else (frm, to)
        victims = []
        for c in t[5]:
            crow = geo.place_of[c >> 2]
            victims.append((crow[game.pos[c] + 1], crow[0]))
        return frm, to, path, victims

    def on_the_way(self, game, frm, place):
        # a square the token on frm passes, counting one of its legal moves out (not the landing: that
        # is the move's own touched square), along the track, into the column or round a lap
        row = game.geo.place_of[game.mover()]
        for t in _tuples(game):
            if t[0] < 3 and t[3] >= 0 and row[t[3] + 1] == frm and _passes(game, row, t, place):
                return True
        return False

    def revisable(self, game, move):
        # (one waiting roll: every move of a token goes the same distance, so none passes another's end)
        t = move.t
        if len(game.rolls) < 2 or t[0] >= 3 or t[3] < 0:
            return False
        v = t[2] & 31
        longer = False
        for r in game.rolls:
            if r & 31 > v:
                longer = True
        if not longer:  # the longest roll waiting: nothing goes further
            return False
        row = game.geo.place_of[game.mover()]
        to = row[t[4] + 1]
        for u in _tuples(game):
            # (only a longer roll of a token on the same square can pass where this one ends)
            if u[3] == t[3] and u[0] < 3 and u[2] & 31 > v and _passes(game, row, u, to):
                return True
        return False

    def why(self, game, frm, to):
        # the engine's reason for each waiting roll (the first that names one), and the captures a
        # compulsory-capture rule forces, whose victims the lights show
        from ludus.errors import LudusError

        names = game.place_names
        reason = "%s-%s: no waiting roll takes a token there" % (names[frm], names[to])
        for r in game.rolls:
            text = self.move_text(game, frm, to, r)
            if text is None:
                break
            try:
                game.parse_move(text)
            except LudusError as exc:
                reason = str(exc)
                break
        return reason, ([t for t in _tuples(game) if t[5]] if game.rules.must_capture else ())

    def move_text(self, game, frm, to, roll=0):
        # "3 green.0 t2-t5": a token of the mover on place frm, to place to; None if there is none
        s = game.mover()
        geo = game.geo
        row = geo.place_of[s]
        for gi in range(s * 4, s * 4 + 4):
            if row[game.pos[gi] + 1] == frm:
                for k in range(len(row)):
                    if row[k] == to:
                        return "%s %s.%d %s-%s" % (
                            roll_text(roll),
                            COLOURS[s],
                            gi & 3,
                            geo.place(s, game.pos[gi]),
                            geo.place(s, k - 1),
                        )
        return None

    def mover_place(self, game, place):
        s = game.mover()
        for gi in range(s * 4, s * 4 + 4):
            if game.geo.place_of[s][game.pos[gi] + 1] == place:
                return True
        return False

    def continuations(self, game, move):
        return ()

    def chain_reach(self, game, frm):
        return {}

    def seats_of(self, game):
        return game.seats


def _fill(table, game, ts, expected):
    # MoveTable.load of the move tuples ts with changes() as they list them: a move without captures
    # (at most three places: from, to and where it first landed) written in place, no list built
    table._prepare(expected, ts, 3 * len(ts))
    place = table.place
    place_of = game.geo.place_of
    k = 0
    for i in range(len(ts)):
        table.start[i] = k
        t = ts[i]
        if t[0] >= 3:
            continue  # the Danish start choice: no change
        if k + 4 > len(place) or (t[5] and not _one_capture(game, t)):
            k = add_changes(table, i, k, _changes(game, t))
            place = table.place  # (the arrays may have grown)
            continue
        row = place_of[t[1] >> 2]
        a = row[t[3] + 1]
        b = row[t[4] + 1]
        n = 2 if t[9] >= 0 else 1
        if t[5]:
            k = _one_capture_entries(table, i, k, a, place_of[t[5][0] >> 2][0])
            if t[6] >= 0 and row[t[6] + 1] != a and row[t[6] + 1] != b:
                k = _entry(table, i, k, b, 0)
                k = _entry(table, i, k, row[t[6] + 1], 0)
            else:
                k = _entry(table, i, k, b, 0)
            continue
        if a < b:
            k = _entry(table, i, _entry(table, i, k, a, -n), b, n)
        elif a > b:
            k = _entry(table, i, _entry(table, i, k, b, n), a, -n)
        if t[6] >= 0:
            if a == b:
                k = _entry(table, i, k, b, 0)  # (touched: see changes)
            p = row[t[6] + 1]
            if p != a and p != b:
                k = _entry(table, i, k, p, 0)
    table.start[len(ts)] = k


def _one_capture(game, t):
    # a single token (not a wall) capturing one token that stands where it lands
    c = t[5][0]
    return (
        len(t[5]) == 1
        and t[9] < 0
        and game.geo.place_of[c >> 2][game.pos[c] + 1] == (game.geo.place_of[t[1] >> 2][t[4] + 1])
    )


def _one_capture_entries(table, i, k, a, base):
    # _changes_caps of such a move, its net changes: the mover leaves a, the victim goes to its base
    # (the landing square reads the same before and after: touched, with the square it first landed on)
    if a < base:
        return _entry(table, i, _entry(table, i, k, a, -1), base, 1)
    return _entry(table, i, _entry(table, i, k, base, 1), a, -1)


def _entry(table, i, k, p, d):
    # entry k: move i changes place p by d (room for it known)
    table.place[k] = p
    table.delta[k] = d & 255
    table.owner[k] = i
    table.link[k] = table.head[p]
    table.head[p] = k
    return k + 1


def _changes(game, t):
    # LudoAdapter.changes of a move tuple, as a function (the table calls it for each move)
    if t[0] >= 3:
        return ()
    if t[5]:
        return _changes_caps(game, t)
    return _changes_plain(game.geo.place_of[t[1] >> 2], t)


def _expect_after(t, place_of, expected):
    row = place_of[t[1] >> 2]
    n = 2 if t[9] >= 0 else 1
    i = row[t[3] + 1]
    expected[i] -= n
    i = row[t[4] + 1]
    expected[i] += n
    if t[5]:
        _caps_home(t, place_of, expected)


def _caps_home(t, place_of, expected):
    # the captured tokens, which stood where the move landed, go to their bases
    i = place_of[t[1] >> 2][t[4] + 1]
    for c in t[5]:
        expected[i] -= 1
        expected[place_of[c >> 2][0]] += 1


def _changes_plain(row, t):
    n = 2 if t[9] >= 0 else 1
    a = row[t[3] + 1]
    b = row[t[4] + 1]
    if a == b:
        out = []
    elif a < b:
        out = [(a, -n), (b, n)]
    else:
        out = [(b, n), (a, -n)]
    if t[6] >= 0:
        _touch(out, b)
        _touch(out, row[t[6] + 1])
    return out


def _changes_caps(game, t):
    place_of = game.geo.place_of
    row = place_of[t[1] >> 2]
    n = 2 if t[9] >= 0 else 1
    a = row[t[3] + 1]
    b = row[t[4] + 1]
    caps = t[5]
    places = [a, b]
    deltas = [-n, n]
    pos = game.pos
    for c in caps:
        crow = place_of[c >> 2]
        _add(places, deltas, crow[pos[c] + 1], -1)
        _add(places, deltas, crow[0], 1)
    out = []  # by place (each place once): an insertion, cheaper than sorted() on MicroPython
    for k in range(len(places)):
        if deltas[k]:
            j = len(out)
            while j and out[j - 1][0] > places[k]:
                j -= 1
            out.insert(j, (places[k], deltas[k]))
    _touch(out, b)
    if t[6] >= 0:
        _touch(out, row[t[6] + 1])
    for c in caps:
        # listed as touched even where its net change is listed too (victims outnumbering the mover):
        # the table then lets it read anything on the way (ludus.referee.infer.MIXED)
        p = place_of[c >> 2][pos[c] + 1]
        if (p, 0) not in out:
            out.append((p, 0))
    return out


def _add(places, deltas, p, d):
    for k in range(len(places)):
        if places[k] == p:
            deltas[k] += d
            return
    places.append(p)
    deltas.append(d)


def _touch(out, p):
    for q, _ in out:
        if q == p:
            return
    out.append((p, 0))


def _tuples(game):
    # the position's legal moves as the engine's tuples, kept in its cache (the table was made from it)
    ts = game._cache
    if ts is None:
        ts = game._cache = game._legal()
    return ts


def _passes(game, row, t, place):
    # does move t (a token out, moved its roll's count) pass place before its landing square?
    p = t[3]
    L = game.track_len
    T = game.turn_in
    for d in range(1, (t[2] & 31)):
        q = p + d
        if p < L:  # on the track: into the column at the turn-off, unless going round (a lap)
            if p < T <= q and not t[7]:
                q = L + q - T
            elif q >= L:
                q -= L
        if q + 1 < len(row) and row[q + 1] == place:
            return True
    return False

"""Chinese Checkers bots: `random`; `greedy`, the one-move bot of demos and benchmarks (choose_move: the
move that carries a piece furthest toward its target, pieces that lag behind preferred, ties broken by a
given PRNG); and `strong`, which opens with a line found offline and otherwise searches its own next moves.

    >>> from ludus.checkers import start_position
    >>> game = start_position("2")
    >>> move = choose_move(game, Lcg(1))
    >>> move = bot_for("strong").choose(game)
"""

from ludus.bots.rng import Lcg, RandomBot
from ludus.checkers.game import _generate
from ludus.checkers.geometry import CENTRE, COL, POINT_HOLES, POINT_OF, POINT_TIPS, ROW, distance, hole_at

# Score weights: steps gained toward the target's tip dominate; stopping in a point that is neither
# the seat's start nor its target is discouraged (a piece parked there can wedge in for good);
# lagging pieces and entering the target break near-ties; leaving the target is a last resort.
_ADVANCE = 32
_ENTER_TARGET = 8
_LEAVE_TARGET = -200
_PARK_FOREIGN = -100


def _pick(rng, n):
    if hasattr(rng, "randrange"):
        return rng.randrange(n)
    return rng(n)


def _foreign(cfg, seat, h):
    p = POINT_OF[h]
    if p == CENTRE:
        return False
    for own in cfg.seat_points[seat]:
        if p == own or p == (own + 3) % 6:
            return False
    return True


def score(game, move):
    """How much the bot likes `move` (higher is better)."""
    if move.frm < 0:
        return 0
    cfg = game.config
    point = game.set_at(move.frm)
    seat = cfg.set_seat[point + 1]
    tip = POINT_TIPS[(point + 3) % 6]
    before = distance(move.frm, tip)
    s = (before - distance(move.to, tip)) * _ADVANCE
    in_before = cfg.target_of[move.frm] == point + 1
    in_after = cfg.target_of[move.to] == point + 1
    if in_after and not in_before:
        s += _ENTER_TARGET
    elif in_before and not in_after:
        s += _LEAVE_TARGET
    if _foreign(cfg, seat, move.to):
        s += _PARK_FOREIGN
    # A lagging piece (far from its target's tip) gets a small bonus, so no piece is left behind.
    return s + (before >> 1)


def choose_move(game, rng):
    """The bot's move for the seat to move, or None if the game is over. `rng` is an object with
    randrange(n) (random.Random, Lcg) or a callable rng(n) -> 0..n-1."""
    moves = game.legal_moves()
    if not moves:
        return None
    best = []
    best_score = None
    for move in moves:
        s = score(game, move)
        if best_score is None or s > best_score:
            best_score = s
            best = [move]
        elif s == best_score:
            best.append(move)
    if len(best) == 1:
        return best[0]
    return best[_pick(rng, len(best))]


def play(game, rng, max_moves=2000, on_move=None):
    """Let the bot play every seat until the game is over or max_moves moves were made; returns the
    number of moves played. on_move(game, move) is called after each move."""
    n = 0
    while n < max_moves and not game.is_over():
        move = choose_move(game, rng)
        if move is None:
            break
        game.push(move)
        n += 1
        if on_move is not None:
            on_move(game, move)
    return n


# The strong bot: an opening line for a set alone at its start (SOLO_LINE, found by a wide beam search on
# a laptop: ludus_host.bots.checkers_book), followed while the seat's pieces stand where the line expects and
# its move is legal; otherwise a depth-first search over the seat's own next moves (the opponents'
# replies not searched): every first move, then the WIDTH best by rows gained at each further level.
# A line of moves scores the rows its pieces come nearer their targets; at its end the piece furthest
# behind costs REAR/8 of a row per row (a lone piece at the back finds no ladder to jump along).

FIRST = 24  # first moves searched (the best by rows gained and the one-move score): the Pico budget
DEPTH = 3  # own moves looked at together
WIDTH = 6  # moves followed at each further level, the best by rows gained
REAR = 24
REPEATS = 8  # own positions remembered (a move back to one of them is a last resort)

# The 27 moves (from hole, to hole) that bring the set of point 0 home alone: the proven minimum (G. I.
# Bell, INTEGERS 9 (2009) G01). Other points play it turned (rotation()).
SOLO_LINE = bytes(
    (
        6, 15, 1, 28, 5, 39, 39, 49, 0, 58, 3, 39, 7, 68, 68, 79, 2, 91, 9, 68, 15, 16, 4, 103,
        49, 112, 112, 116, 28, 119, 8, 112, 16, 28, 112, 113, 28, 114, 39, 49, 49, 112, 79, 120,
        58, 115, 68, 79, 79, 117, 91, 118, 103, 111,
    )
)  # fmt: skip


LEVELS = ("random", "greedy", "strong")


class GreedyBot:
    """The one-move bot of choose_move(): the move that carries a piece furthest toward its target."""

    level = "greedy"

    def __init__(self, seed=1):
        self.rng = Lcg(seed)

    def choose(self, game):
        return choose_move(game, self.rng)


def bot_for(level, seed=1):
    """A bot of `level` (one of LEVELS) for one seat."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    if level == "strong":
        return StrongBot(seed)
    raise ValueError("no Chinese Checkers bot %r: the levels are %s" % (level, ", ".join(LEVELS)))


class StrongBot:
    """The opening line, else the search (see docs/bots.md for its figures)."""

    level = "strong"

    def __init__(self, seed=1, line=True):
        self.rng = Lcg(seed)
        self.line = line  # False: the search alone (ludus arena --no-line)
        self._lines = {}  # point -> {the set's holes, sorted, as bytes: (from, to)}
        self._seen = {}  # seat -> its last positions (ludus.bots.checkers.REPEATS)
        self._plies = {}

    def dist_table(self, game, seat):
        """Per hole, how many rows it lies from the tip of the target of `seat`'s (first) set."""
        return rows_of_code(game.config.seat_codes[seat][0])

    def choose(self, game):
        moves = game.legal_moves()
        if len(moves) <= 1:
            return moves[0] if moves else None
        seat = game.turn
        key = bytes(sorted(game._pieces[seat]))  # the seat's holes: the line's key and a recent position
        move = self._line_move(game, seat, moves, key) if self.line else None
        if move is not None:
            return move
        cfg = game.config
        board = game._board
        pieces = game._pieces[seat]
        rows = _ROWS
        for c in cfg.seat_codes[seat]:
            rows_of_code(c)
        recent = self._recent(seat, game.plies, key)
        # the FIRST most promising first moves (by rows gained and the one-move score) searched deeper
        ranked = []
        for move in moves:
            frm, to = move.frm, move.to
            dist = rows_of_code(board[frm])
            # rows gained, the one-move bot's score as a tie-break
            s = (dist[frm] - dist[to]) * 64 + score(game, move) // 4
            if recent and _after(pieces, frm, to) in recent:
                s -= 1 << 12  # back to where its pieces stood a few moves ago: a shuffle, not a plan
            ranked.append((s, move))
        ranked.sort(key=_first)
        best = None
        best_s = -(1 << 29)
        for s, move in ranked[:FIRST]:
            # (the moves after it count a little less: of two ways to the same rows, the one that gains
            # first is taken, or a plan that begins with a sideways step could be begun again for ever)
            s += _play(board, pieces, move.frm, move.to, cfg, rows, DEPTH - 1) * 60
            if s > best_s or (s == best_s and self.rng.randrange(2)):
                best, best_s = move, s
        return best

    def _recent(self, seat, plies, key):
        # the seat's last REPEATS positions (sorted holes as bytes), this one (key) added; a new game
        # (fewer moves played than last time) forgets them
        if plies < self._plies.get(seat, 0):
            self._seen = {}
        self._plies[seat] = plies
        seen = self._seen.setdefault(seat, [])
        seen.append(key)
        if len(seen) > REPEATS:
            del seen[0]
        return seen

    def _line_move(self, game, seat, moves, key=None):
        # the opening line's move if the seat's one set of ten stands where the line has it (key: its
        # holes, sorted, as bytes)
        cfg = game.config
        if len(cfg.seat_points[seat]) != 1 or cfg.pieces != 10:
            return None
        point = cfg.seat_points[seat][0]
        line = self._lines.get(point)
        if line is None:
            line = self._lines[point] = _line_for(point)
        step = line.get(key if key is not None else bytes(sorted(game._pieces[seat])))
        if step is None:
            return None
        for m in moves:
            if m.frm == step[0] and m.to == step[1]:
                return m
        return None


def _after(pieces, frm, to):
    # the sorted holes of pieces once frm has moved to to, as bytes
    after = list(pieces)
    after[after.index(frm)] = to
    after.sort()
    return bytes(after)


def _first(entry):
    return -entry[0]


def _line_for(point):
    # SOLO_LINE turned to `point`: {the set's holes before each move, sorted, as bytes: (from, to)}
    turn = rotation(point)
    holes = [turn[h] for h in POINT_HOLES[0]]
    out = {}
    for i in range(0, len(SOLO_LINE), 2):
        frm = turn[SOLO_LINE[i]]
        to = turn[SOLO_LINE[i + 1]]
        out[bytes(sorted(holes))] = (frm, to)
        holes[holes.index(frm)] = to
    return out


_ROWS = [None] * 7


def rows_of_code(code):
    """row_distances() of the target of the set whose board code (its point + 1) is `code` (kept)."""
    t = _ROWS[code]
    if t is None:
        t = _ROWS[code] = row_distances((code + 2) % 6)
    return t


def _play(board, pieces, frm, to, cfg, rows, depth):
    # move frm -> to on the board and piece list, the most rows `depth` more own moves gain after it (the
    # WIDTH best by rows at each level, every move at the last), less REAR/8 a row per row the piece
    # furthest behind lags at the end; the move taken back. rows: row tables indexed by board code.
    code = board[frm]
    board[frm] = 0
    board[to] = code
    k = pieces.index(frm)
    pieces[k] = to
    if depth == 0:
        v = -(REAR * _rear(board, pieces, rows, -1)) // 8
    elif depth == 1:
        # the last move: each one's end worked out without playing it (the rear piece is the one
        # furthest behind, or the second furthest when that one moves)
        v = -(1 << 20)
        far = -1
        for h in pieces:
            if far < 0 or rows[board[h]][h] > rows[board[far]][far]:
                far = h
        hi = rows[board[far]][far]
        hi2 = _rear(board, pieces, rows, far)
        for c in _generate(cfg, board, pieces):
            f = c >> 7
            t = c & 127
            r = rows[board[f]]
            rear = hi2 if f == far else hi
            if r[t] > rear:
                rear = r[t]
            g = (r[f] - r[t]) * 8 - REAR * rear
            if g > v:
                v = g
        v = v // 8 if v > -(1 << 20) else -(REAR * hi) // 8
    else:
        v = -99
        for c in _best_codes(board, _generate(cfg, board, pieces), rows):
            f, t = c >> 7, c & 127
            r = rows[board[f]]
            g = r[f] - r[t] + _play(board, pieces, f, t, cfg, rows, depth - 1)
            if g > v:
                v = g
        if v == -99:
            v = 0
    pieces[k] = frm
    board[to] = 0
    board[frm] = code
    return v


def _rear(board, pieces, rows, skip):
    # the most rows any piece but the one on `skip` still has to go
    hi = 0
    for h in pieces:
        if h != skip:
            d = rows[board[h]][h]
            if d > hi:
                hi = d
    return hi


def _best_codes(board, codes, rows):
    # the WIDTH move codes that gain the most rows (insertion into a short list)
    top = []
    gains = []
    for c in codes:
        f = c >> 7
        r = rows[board[f]]
        g = r[f] - r[c & 127]
        if len(top) < WIDTH or g > gains[-1]:
            i = len(top)
            while i and gains[i - 1] < g:
                i -= 1
            top.insert(i, c)
            gains.insert(i, g)
            if len(top) > WIDTH:
                top.pop()
                gains.pop()
    return top


def row_distances(point):
    """Per hole (bytes of 121), its row counted from the tip of `point` (0..5) toward the opposite point:
    0 at the tip, 3 on the point's base row, 16 at the far tip. The rows are the lattice lines parallel
    to the point's base; of the three families of lines, the one where the point's ten holes lie 1, 2, 3
    and 4 to a row."""
    tip = POINT_TIPS[point]
    holes = POINT_HOLES[point]
    for kind in range(3):
        for sign in (1, -1):
            rows = bytearray(121)
            counts = [0] * 17
            ok = True
            for h in range(121):
                if kind == 0:
                    d = (ROW[h] - ROW[tip]) * sign
                elif kind == 1:
                    d = (ROW[h] + COL[h] - ROW[tip] - COL[tip]) * sign // 2
                else:
                    d = (COL[h] - ROW[h] - COL[tip] + ROW[tip]) * sign // 2
                if d < 0:
                    ok = False
                    break
                rows[h] = d
            if not ok:
                continue
            for h in holes:
                counts[rows[h]] += 1
            if counts[:4] == [1, 2, 3, 4]:
                return bytes(rows)
    raise ValueError("no row lines for point %d" % point)


def rotation(k):
    """The holes turned k sixths of a turn clockwise about the centre (bytes of 121): point p's holes go
    to point (p + k) % 6's."""
    out = bytearray(121)
    for h in range(121):
        y = ROW[h] - 8
        x = COL[h] - 12  # doubled columns: a step east is 2
        q = (x - y) >> 1
        r = y
        for _ in range(k % 6):
            q, r = -r, q + r  # (q, r, s) -> (-r, -s, -q): a sixth clockwise
        out[h] = hole_at(r + 8, 2 * q + r + 12)
    return bytes(out)

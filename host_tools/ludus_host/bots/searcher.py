"""A baseline Chinese Checkers searcher to measure the board's strong bot (ludus.bots.checkers) against:
a best-reply search (Schadd and Winands, 2011) with the distance heuristic, on the laptop only. `ludus
arena` plays it as the level `searcher`.

The search looks at each of its own moves, then at every reply of every other seat still playing, each
played alone (the one that hurts most counts: the best reply), and at depth 3 its own move after that;
alpha-beta cuts what cannot matter. A seat's cost is the steps its pieces still have to go (hex steps
to their target's tip: the distance heuristic) plus, REAR times, the steps of its piece furthest behind;
a position is worth the leading opponent's cost less the searcher's own. Of moves worth the same, the
one that gains most at once; a move back to one of its last REPEATS positions is a last resort; ties go
to a seeded draw, so a game is the same every time. (At depth 3 it played worse against the greedy bot
than at depth 2, two own moves tempting it into plans it then drops, and cost seven times the time.)"""

from ludus.bots.rng import Lcg
from ludus.checkers.game import CheckersGame, _generate
from ludus.checkers.geometry import POINT_TIPS, distance
from ludus.checkers.moves import Move

DEPTH = 2  # plies: own move, best reply (3: and own move again)
REPEATS = 8  # own positions remembered: a move back to one is a last resort
REAR = 1  # the steps of a seat's piece furthest behind count this many times more


class SearchBot:
    """The best-reply searcher (module docstring); depth 2 unless told."""

    level = "searcher"

    def __init__(self, seed: int = 1, depth: int = DEPTH):
        self.rng = Lcg(seed)
        self.depth = depth
        self._seen = {}
        self._plies = {}

    def _recent(self, seat: int, plies: int, key: bytes) -> list[bytes]:
        # the seat's last REPEATS positions (its holes, sorted), this one added; a new game forgets them
        if plies < self._plies.get(seat, 0):
            self._seen = {}
        self._plies[seat] = plies
        seen = self._seen.setdefault(seat, [])
        seen.append(key)
        if len(seen) > REPEATS:
            del seen[0]
        return seen

    def choose(self, game: CheckersGame) -> Move | None:
        moves = game.legal_moves()
        if len(moves) <= 1:
            return moves[0] if moves else None
        cfg = game.config
        seat = game.turn
        board = bytearray(game._board)
        pieces = [list(p) for p in game._pieces]
        for c in cfg.seat_codes[seat]:
            _steps(c)
        live = [s for s in range(cfg.seats) if s != seat and not game.is_finished(s)]
        totals = [0] * cfg.seats
        for s in range(cfg.seats):
            for h in pieces[s]:
                totals[s] += _steps(board[h])[h]
        self._ctx = (cfg, board, pieces, live, totals, seat)
        best = []
        best_v = None
        alpha = -(1 << 30)
        ranked = sorted(moves, key=lambda m: _gain(board, m.frm, m.to))
        seen = self._recent(seat, game.plies, bytes(sorted(pieces[seat])))
        for m in ranked:
            undo = _make(board, pieces, totals, seat, m.frm, m.to)
            # the value in 16ths, the first move's own gain breaking ties (of two ways to the same end,
            # the one that gains first), a move back to a recent position a last resort
            v = self._replies(self.depth - 1, (alpha >> 4) - 1, 1 << 30) * 16 - undo[4]
            if bytes(sorted(pieces[seat])) in seen:
                v -= 1 << 12
            _unmake(board, pieces, totals, seat, undo)
            if best_v is None or v > best_v:
                best_v, best = v, [m]
                alpha = max(alpha, v)
            elif v == best_v:
                best.append(m)
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _value(self) -> int:
        _cfg, board, pieces, live, totals, seat = self._ctx
        lead = min(totals[s] + REAR * _rear(board, pieces[s]) for s in live) if live else 0
        return lead - totals[seat] - REAR * _rear(board, pieces[seat])

    def _replies(self, depth: int, alpha: int, beta: int) -> int:
        # MIN: the best reply of any other seat, each reply played alone
        if depth <= 0:
            return self._value()
        cfg, board, pieces, live, totals, _seat = self._ctx
        v = 1 << 30
        any_move = False
        for s in live:
            for c in _generate(cfg, board, pieces[s]):
                any_move = True
                undo = _make(board, pieces, totals, s, c >> 7, c & 127)
                w = self._own(depth - 1, alpha, min(beta, v))
                _unmake(board, pieces, totals, s, undo)
                if w < v:
                    v = w
                    if v <= alpha:
                        return v
        return v if any_move else self._own(depth - 1, alpha, beta)

    def _own(self, depth: int, alpha: int, beta: int) -> int:
        # MAX: the searcher's own move
        if depth <= 0:
            return self._value()
        cfg, board, pieces, _live, totals, seat = self._ctx
        v = -(1 << 30)
        for c in _generate(cfg, board, pieces[seat]):
            undo = _make(board, pieces, totals, seat, c >> 7, c & 127)
            w = self._replies(depth - 1, max(alpha, v), beta)
            _unmake(board, pieces, totals, seat, undo)
            if w > v:
                v = w
                if v >= beta:
                    return v
        return v if v > -(1 << 30) else self._value()


_STEPS: list = [None] * 7


def _steps(code: int) -> bytes:
    # per hole, the steps from it to the tip of the target of the set with board code `code` (kept)
    t = _STEPS[code]
    if t is None:
        tip = POINT_TIPS[(code + 2) % 6]
        t = _STEPS[code] = bytes(distance(h, tip) for h in range(121))
    return t


def _rear(board: bytearray, pieces: list[int]) -> int:
    # the most steps any of the pieces still has to go
    hi = 0
    for h in pieces:
        d = _steps(board[h])[h]
        if d > hi:
            hi = d
    return hi


def _gain(board: bytearray, frm: int, to: int) -> int:
    # for ordering: steps gained first (sorted ascending, so negated)
    r = _steps(board[frm])
    return r[to] - r[frm]


def _make(
    board: bytearray, pieces: list[list[int]], totals: list[int], seat: int, frm: int, to: int
) -> tuple[int, int, int, int, int]:
    code = board[frm]
    r = _steps(code)
    board[frm] = 0
    board[to] = code
    k = pieces[seat].index(frm)
    pieces[seat][k] = to
    totals[seat] += r[to] - r[frm]
    return (frm, to, k, code, r[to] - r[frm])


def _unmake(
    board: bytearray,
    pieces: list[list[int]],
    totals: list[int],
    seat: int,
    undo: tuple[int, int, int, int, int],
) -> None:
    frm, to, k, code, d = undo
    board[to] = 0
    board[frm] = code
    pieces[seat][k] = frm
    totals[seat] -= d

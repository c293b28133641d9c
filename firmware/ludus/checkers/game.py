"""The Chinese Checkers rules core: setups for 2 to 6 players, legal moves (steps and jump chains),
finishing order, the optional house rules, and a text notation for positions and moves.

    >>> game = start_position("2")
    >>> game.push(game.parse_move("h7-h16"))
    >>> from_notation(game.notation()).notation() == game.notation()
    True

See docs/checkers.md for the coordinate scheme, the setups, the options and the notation. The
geometry and named setups live in ludus.checkers.geometry, the generator in ludus.checkers.moves, the
options in ludus.checkers.options, reading and writing text in ludus.checkers.text (imported on first
use, so a game that only plays moves keeps it off the heap); the names other layers need are
re-exported here."""

from array import array

import ludus.checkers.moves as _moves
from ludus.checkers.geometry import (  # noqa: F401 (geometry re-exported for other layers)  # noqa: F401
    CENTRE,
    COL,
    HOLE_COUNT,
    HOP,
    JUMPS,
    NEIGHBOURS,
    OPTION_NAMES,
    PLACE_NAMES,
    POINT_HOLES,
    POINT_OF,
    POINT_TIPS,
    ROW,
    ROW_LENGTHS,
    SET_LETTERS,
    SETUP_NAMES,
    SETUPS,
    STEP,
    adjacent,
    distance,
    hole_at,
)
from ludus.checkers.moves import (  # noqa: F401
    ALL_HOLES,
    MAX_COUNT,
    NO_HOLES,
    PASS,
    PASS_CODE,
    PASS_TEXT,
    Move,
    has_code,
    long_hops,
    moves_of,
)
from ludus.checkers.options import CheckersConfig, options_text, parse_options  # noqa: F401
from ludus.errors import IllegalMoveError, NotationError
from ludus.runtime import const, transient

GAME = "checkers"
_PASS_CODE = const(0)  # PASS_CODE, without a global lookup
_HOLES = const(121)  # HOLE_COUNT


# ---------------------------------------------------------------------------------------------
# The game


class CheckersGame:
    """A Chinese Checkers position with its move stack. See docs/architecture.md for the interface
    every game offers; extras here: destinations(hole), continuations(at, frm), perft(depth),
    set_at(hole), seat_at(hole), is_draw()."""

    place_names = PLACE_NAMES

    def __init__(self, config, board, turn=0, finished=(), plies=0):
        self.config = config
        self._board = bytearray(board)
        self.turn = turn
        self._finished = list(finished)
        self._done = bytearray(config.seats)
        for seat in self._finished:
            self._done[seat] = 1
        self._plies = plies
        self._stack = []
        self._blocked = -1  # is_over()'s "nobody can move": unknown (-1), no (0), yes (1)
        self._legal_codes = None  # legal_move_codes() of this position once worked out (push checks them)
        self._chains = None  # (codes, STAMP) of legal_move_codes(keep_chains=True): see jump_path
        cfg = config
        b = self._board
        self._pieces = [[] for _ in range(cfg.seats)]
        self._home = bytearray(7)  # pieces of the set in its own target
        self._filled = bytearray(7)  # occupied holes of the set's target
        for h in range(HOLE_COUNT):
            code = b[h]
            t = cfg.target_of[h]
            if code:
                self._pieces[cfg.set_seat[code]].append(h)
                if t:
                    self._filled[t] += 1
                    if t == code:
                        self._home[code] += 1

    # -- plain facts ------------------------------------------------------------------------

    @property
    def seats(self):
        return self.config.seats

    @property
    def plies(self):
        """Moves (passes included) played from the start of the game."""
        return self._plies

    @property
    def options(self):
        return dict(self.config.options)

    def set_at(self, hole):
        """The starting point (0..5) of the set whose piece stands on `hole`, or -1 if it is empty."""
        return self._board[hole] - 1

    def seat_at(self, hole):
        """The seat whose piece stands on `hole`, or -1 if it is empty."""
        code = self._board[hole]
        return self.config.set_seat[code] if code else -1

    def pieces(self, seat):
        """The holes of a seat's pieces, ascending."""
        return sorted(self._pieces[seat])

    def is_finished(self, seat):
        return bool(self._done[seat])

    def fill_counts(self, buf):
        """Write 1 for every occupied hole and 0 for every empty one into buf (len 121)."""
        b = self._board
        for h in range(HOLE_COUNT):
            buf[h] = 1 if b[h] else 0

    def move_changes(self, move):
        """How the hole counts change when `move` is played: ((from, -1), (to, +1)); () for a pass."""
        if move.frm < 0:
            return ()
        return ((move.frm, -1), (move.to, 1))

    # -- finishing ----------------------------------------------------------------------------

    def _seat_done(self, seat):
        # A set is done when all its pieces are home, or (antispoil) when its target is full and holds
        # at least one of them.
        cfg = self.config
        for code in cfg.seat_codes[seat]:
            n = self._home[code]
            if n != cfg.pieces and not (
                cfg.antispoil and n > 0 and self._filled[code] == len(cfg.target_region[code])
            ):
                return False
        return True

    def _over_quick(self):
        cfg = self.config
        if cfg.cap and self._plies >= cfg.cap:
            return True
        return len(self._finished) >= cfg.seats - 1

    def is_over_quick(self):
        """is_over() without its move search: True when all but one seat have finished or the move cap
        is reached (a position where nobody can move is not seen)."""
        return self._over_quick()

    def is_over(self):
        """True when all but one seat have finished, the move cap is reached, or nobody can move."""
        if self._over_quick():
            return True
        if self._blocked < 0:  # a move generation, so remembered until the position changes
            self._blocked = 0 if self._codes(self.turn) else 1
            if self._blocked:
                for seat in range(self.config.seats):
                    if not self._done[seat] and self._codes(seat):
                        self._blocked = 0
                        break
        return self._blocked == 1

    def outcome(self):
        """How the game ended (ludus.outcome.Outcome: placements and the reason: finished, move cap or
        blocked), or None while it goes on."""
        if not self.is_over():
            return None
        outcome = transient("ludus.outcome")  # (asked once a game: not kept on the heap)
        cfg = self.config
        if len(self._finished) >= cfg.seats - 1:
            return outcome.Outcome(self.placements(), outcome.FINISHED)
        reason = outcome.MOVE_CAP if cfg.cap and self._plies >= cfg.cap else outcome.BLOCKED
        return outcome.Outcome(self.placements(), reason)

    def placements(self):
        """Seats in finishing order so far. Once the game is over normally, the last seat is added."""
        out = list(self._finished)
        if len(out) == self.config.seats - 1 and self.config.seats > 1:
            for seat in range(self.config.seats):
                if not self._done[seat]:
                    out.append(seat)
        return out

    # -- moves --------------------------------------------------------------------------------

    def _codes(self, seat, sources=None):
        if sources is None:
            sources = self._pieces[seat]
        return _generate(self.config, self._board, sources)

    def legal_move_codes(self, keep_chains=False):
        """The legal moves of the seat to move as small ints, (from << 7) | to: legal_moves() without
        building Move objects (for the board, perft and benchmarks; their shortest chains are left in
        ludus.checkers.moves.PARENTS). Pieces come in the order of the game's piece list, which depends on
        the moves played (legal_moves() sorts them). [] once the game is over; [PASS_CODE] (0) when
        the seat to move must pass. An array("H") (MicroPython's `in` does not search one: see
        ludus.checkers.moves.has_code). The game keeps it until the position changes, so that push() of a
        move from it need not generate again: do not modify it. keep_chains: note which search found the
        chains, for jump_path() and chain_before() (the board's referee) while they stand."""
        cfg = self.config
        # (_over_quick() written out: this runs for every move on the board)
        if (cfg.cap and self._plies >= cfg.cap) or len(self._finished) >= cfg.seats - 1:
            codes = array("H")
        else:
            codes = _generate(cfg, self._board, self._pieces[self.turn])
            if keep_chains:
                self._chains = (codes, bytes(_moves.STAMP))  # (the generator's marks: see _kept_slot)
            if not codes and not self.is_over():
                codes.append(PASS_CODE)
        self._legal_codes = codes
        return codes

    def jump_path(self, frm, to):
        """The shortest chain (frm, ..., to) of the legal move frm-to, or None if it is not legal: read
        from the search legal_move_codes(keep_chains=True) made while the position and that search's
        chains stand (no generator run since), else searched for again."""
        slot = self._kept_slot(frm, to)
        if slot >= 0:
            return _moves.path(slot, frm, to)
        move = self.move_to(frm, to)
        return None if move is None else move.path

    def chain_before(self, frm, to):
        """The hole before `to` on jump_path(frm, to), without making the path; IllegalMoveError if
        frm-to is not a legal move."""
        slot = self._kept_slot(frm, to)
        if slot >= 0:
            if _moves.is_step(frm, to):
                return frm
            return _moves.PARENTS[slot * _HOLES + to]
        path = self.jump_path(frm, to)
        if path is None:
            raise IllegalMoveError("h%d-h%d is not a legal move here" % (frm, to))
        return path[-2]

    def _kept_slot(self, frm, to):
        # frm's slot in the kept search (see jump_path) when it stands and frm-to is legal, else -1
        # (STAMP, the generator's visited marker and count of runs, as that run left it: no run since)
        kept = self._chains
        if kept is None or kept[0] is not self._legal_codes or _moves.STAMP != kept[1]:
            return -1
        if not has_code(kept[0], frm << 7 | to):
            return -1
        return self._pieces[self.turn].index(frm)

    def legal_moves(self):
        """The legal moves of the seat to move, by hole order of the pieces (each piece's steps, then
        its jumps nearest first). [] once the game is over; [pass] when the seat to move has no move
        but another seat has one."""
        if self._over_quick():
            return []
        sources = sorted(self._pieces[self.turn])
        codes = self._codes(self.turn, sources)
        if not codes:
            if self.is_over():
                return []
            self._legal_codes = array("H", (PASS_CODE,))
            return [PASS]
        self._legal_codes = codes  # for push(), as legal_move_codes() leaves them
        return moves_of(codes, sources)

    def destinations(self, hole):
        """The legal moves of the piece on `hole` (for the board to light when it is lifted); [] if
        the hole holds no piece of the seat to move or the game is over."""
        code = self._board[hole]
        if not code or self.config.set_seat[code] != self.turn or self._over_quick():
            return []
        sources = (hole,)
        return moves_of(self._codes(self.turn, sources), sources)

    def move_to(self, frm, to):
        """The legal move frm-to with its shortest path, or None if it is not legal: destinations() for
        one destination (the referee's commit of a jump chain makes this one Move, not one per place the
        piece could reach)."""
        code = self._board[frm]
        if not code or self.config.set_seat[code] != self.turn or self._over_quick():
            return None
        if not has_code(self._codes(self.turn, (frm,)), frm << 7 | to):
            return None
        return Move(frm, to, _moves.path(0, frm, to))

    def continuations(self, at, frm=None):
        """The holes a piece standing on `at` in the middle of a jump chain can reach with one more
        jump. `frm` is where the chain started: that hole counts as empty (the piece has left it)."""
        b = self._board
        saved = 0
        if frm is not None:
            saved = b[frm]
            b[frm] = 0
        here = b[at]
        b[at] = 0
        out = []
        if self.config.long_hops:
            long_hops(b, at, out)
        else:
            for k in range(at * 6, at * 6 + 6):
                land = HOP[k]
                if land != 255 and b[STEP[k]] and not b[land]:  # 255: NO_HOLE
                    out.append(land)
        b[at] = here
        if frm is not None:
            b[frm] = saved
        return tuple(out)

    # (playing a move is _make, a module function below: push and perft call it without a lookup)

    def _finish(self, seat):
        if not self._done[seat]:
            self._done[seat] = 1
            self._finished.append(seat)

    def _unmake(self, m, undo):
        seat = undo >> 3
        nfinished = undo & 7
        self._blocked = -1
        self._legal_codes = None
        while len(self._finished) > nfinished:
            self._done[self._finished.pop()] = 0
        self.turn = seat
        self._plies -= 1
        if m:
            b = self._board
            frm = m >> 7
            to = m & 127
            code = b[to]
            b[to] = 0
            b[frm] = code
            pieces = self._pieces[seat]
            pieces[pieces.index(to)] = frm
            target_of = self.config.target_of
            t = target_of[to]
            if t:
                self._filled[t] -= 1
                if t == code:
                    self._home[code] -= 1
            t = target_of[frm]
            if t:
                self._filled[t] += 1
                if t == code:
                    self._home[code] += 1

    def push(self, move, trusted=False):
        """Play a legal move (from legal_moves, destinations or parse_move). IllegalMoveError if it is
        not legal here. A move among the position's legal_move_codes(), once worked out, is checked
        against them without generating again; trusted=True skips the check altogether (for a move
        the caller took from this position's own legal moves)."""
        # (the work is in module functions: hot path, docs/architecture.md)
        frm = move.frm
        to = move.to
        if frm < 0:
            code = _PASS_CODE
        elif 0 <= frm < _HOLES and 0 <= to < _HOLES:
            code = frm << 7 | to
        else:
            code = -1  # not a hole: _legal names the fault
        if not trusted:
            legal = self._legal_codes
            if legal is None or not has_code(legal, code):
                self._legal(frm, to)
        _push(self, code)

    def pop(self):
        """Take back the last move and return it (with a shortest path in the restored position)."""
        if not self._stack:
            raise IllegalMoveError("no move to take back")
        entry = self._stack.pop()
        code = entry & 0x3FFF
        self._unmake(code, entry >> 14)
        if code == PASS_CODE:
            return PASS
        frm = code >> 7
        for move in self.destinations(frm):
            if move.to == code & 127:
                return move
        return Move(frm, code & 127, (frm, code & 127))

    def move_stack(self):
        """The moves played so far, oldest first (paths as plain (from, to) pairs)."""
        out = []
        for entry in self._stack:
            code = entry & 0x3FFF
            out.append(PASS if code == PASS_CODE else Move(code >> 7, code & 127, (code >> 7, code & 127)))
        return out

    def _legal(self, frm, to):
        if self._over_quick() or (frm < 0 and self.is_over()):
            raise IllegalMoveError("the game is over")
        if frm < 0:
            if self._codes(self.turn):
                raise IllegalMoveError("seat %d cannot pass: it has a legal move" % self.turn)
            return PASS
        if not 0 <= frm < HOLE_COUNT or not 0 <= to < HOLE_COUNT:
            raise IllegalMoveError("no such hole in move h%d-h%d" % (frm, to))
        for move in self.destinations(frm):
            if move.to == to:
                return move
        from ludus.checkers.text import why_illegal

        raise IllegalMoveError(why_illegal(self, frm, to))

    def parse_move(self, text):
        """The legal move written as text ("h7-h16" or "pass"). NotationError if malformed,
        IllegalMoveError naming the rule if well formed but not legal here."""
        from ludus.checkers.text import parse_move

        return parse_move(self, text)

    # -- search helpers -------------------------------------------------------------------------

    def perft(self, depth):
        """The number of leaves of the move tree `depth` plies deep (a pass counts as a move)."""
        if depth <= 0:
            return 1
        if self._over_quick():
            return 0
        cfg = self.config
        if depth == 1 and cfg.count is not None:
            n = cfg.count(self._board, self._pieces[self.turn], cfg.ends, cfg.locks)
            if n:
                return n
        codes = self._codes(self.turn)
        if not codes:
            if self.is_over():
                return 0
            codes = [PASS_CODE]
        if depth == 1:
            return len(codes)
        total = 0
        make = _make
        unmake = self._unmake
        perft = self.perft
        for m in codes:
            undo = make(self, m)
            total += perft(depth - 1)
            unmake(m, undo)
        return total

    def copy(self):
        game = CheckersGame(self.config, self._board, self.turn, self._finished, self._plies)
        game._stack = list(self._stack)
        return game

    def set_options(self, options):
        """Play this position under other options (a dict or text, see parse_options)."""
        from ludus.checkers.text import check_position

        config = CheckersConfig(self.config.spec, options)
        check_position(type(self), config, self._board, self.turn, self._finished, self._plies, NotationError)
        self.config = config
        self._blocked = -1
        self._legal_codes = None

    # -- notation -------------------------------------------------------------------------------

    def notation(self):
        """checkers SETUP OPTIONS TURN OCCUPANCY FINISHED MOVES (see docs/checkers.md)."""
        from ludus.checkers.text import notation

        return notation(self)

    __str__ = notation

    def __repr__(self):
        return "<CheckersGame %s>" % self.notation()


# ---------------------------------------------------------------------------------------------
# Playing a move: module functions with small frames (hot path: docs/architecture.md).


def _push(game, code):
    # one small int per move (no heap on either runtime): the undo state and the move code
    game._stack.append(_make(game, code) << 14 | code)


def _make(game, m):
    seat = game.turn
    undo = seat << 3 | len(game._finished)
    game._blocked = -1
    game._legal_codes = None
    if m:
        _carry(game, m >> 7, m & 127)
    game._plies += 1
    game.turn = _next_seat(game._done, seat, game.config.seats)
    return undo


def _next_seat(done, seat, n):
    # the next seat after `seat` that has not finished (seat itself if every other one has)
    nxt = (seat + 1) % n
    while done[nxt] and nxt != seat:
        nxt = (nxt + 1) % n
    return nxt


def _carry(game, frm, to):
    # the piece of the seat to move (game.turn) from frm to to
    b = game._board
    code = b[frm]
    b[frm] = 0
    b[to] = code
    b = game._pieces[game.turn]
    b[b.index(frm)] = to
    b = game.config.target_of
    if b[frm] or b[to]:
        _targets(game, code, b[frm], b[to])


def _targets(game, code, t, u):
    # the target counts after a piece of set `code` left target t and entered target u (0: none),
    # moved by the seat to move
    seat = game.turn
    if t:
        game._filled[t] -= 1
        if t == code:
            game._home[code] -= 1
    if u:
        game._filled[u] += 1
        if u == code:
            game._home[code] += 1
            if game._seat_done(seat):
                game._finish(seat)
        if game.config.antispoil:
            # A move may complete a target for its owner, or for the mover's other set.
            u = game.config.set_seat[u]
            if not game._done[u] and game._seat_done(u):
                game._finish(u)


# ---------------------------------------------------------------------------------------------
# Building games


def _generate(cfg, board, sources):
    # the move codes of the pieces on sources, as a new array("H")
    gen = cfg.gen_codes
    if gen is None:
        return _append_codes(cfg, board, sources)
    out = _moves.CODES
    n = gen(board, sources, out, cfg)
    if n > len(out):  # more moves than ever before: a larger buffer, and generate again
        out = _moves.CODES = array("H", bytes(2 * n))
        gen(board, sources, out, cfg)
    return out[:n]


def _append_codes(cfg, board, sources):
    # _generate() without the viper generator (CPython, the long-hop option)
    out = array("H")
    cfg.generate(board, sources, out, cfg.ends, cfg.locks)
    return out


def _start_board(config):
    board = bytearray(HOLE_COUNT)
    for code in config.codes:
        for h in config.start_region[code]:
            board[h] = code
    return board


def start_position(spec, options=None):
    """A new game from a named start: "2", "2x2", "2x3", "3", "3x2", "4", "5", "6" or "2/15",
    optionally with options (dict or text). ConfigError names an unknown setup or a clash."""
    config = CheckersConfig(spec, options)
    return CheckersGame(config, _start_board(config))


def from_notation(text):
    """A game from its notation "checkers SETUP OPTIONS TURN OCCUPANCY FINISHED MOVES".
    NotationError names the field that is wrong."""
    from ludus.checkers.text import from_notation

    return from_notation(text, CheckersGame, CheckersConfig)

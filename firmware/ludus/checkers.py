"""The Chinese Checkers rules core: setups for 2 to 6 players, legal moves (steps and jump chains),
finishing order, the optional house rules, and a text notation for positions and moves.

    >>> game = start_position("2")
    >>> game.push(game.parse_move("h7-h16"))
    >>> from_notation(game.notation()).notation() == game.notation()
    True

See docs/checkers.md for the coordinate scheme, the setups, the options and the notation. The
geometry lives in checkers_board, the generator in checkers_moves, setups and options in
checkers_config; the names other layers need are re-exported here."""

from ludus.checkers_board import (  # noqa: F401 (geometry re-exported for other layers)
    CENTRE,
    COL,
    HOLE_COUNT,
    JUMPS,
    NEIGHBOURS,
    PLACE_NAMES,
    POINT_HOLES,
    POINT_OF,
    POINT_TIPS,
    ROW,
    ROW_LENGTHS,
    adjacent,
    distance,
    hole_at,
)
from ludus.checkers_config import (  # noqa: F401
    OPTION_NAMES,
    SET_LETTERS,
    SETUP_NAMES,
    SETUPS,
    CheckersConfig,
    options_text,
    parse_options,
)
from ludus.checkers_moves import (  # noqa: F401
    ALL_HOLES,
    MAX_COUNT,
    NO_HOLES,
    PASS,
    PASS_CODE,
    PASS_TEXT,
    Move,
    long_hops,
    moves_of,
    parse_hole,
    whole_number,
)
from ludus.errors import ConfigError, IllegalMoveError, NotationError

GAME = "checkers"


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
        self._recount()

    def _recount(self):
        cfg = self.config
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

    def _set_done(self, code):
        n = self._home[code]
        if n == self.config.pieces:
            return True
        cfg = self.config
        return cfg.antispoil and n > 0 and self._filled[code] == len(cfg.target_region[code])

    def _seat_done(self, seat):
        for code in self.config.seat_codes[seat]:
            if not self._set_done(code):
                return False
        return True

    def _over_quick(self):
        cfg = self.config
        if cfg.cap and self._plies >= cfg.cap:
            return True
        return len(self._finished) >= cfg.seats - 1

    def is_over(self):
        """True when all but one seat have finished, the move cap is reached, or nobody can move."""
        if self._over_quick():
            return True
        if self._blocked < 0:  # a move generation, so remembered until the position changes
            self._blocked = 0 if self._has_move(self.turn) else 1
            if self._blocked:
                for seat in range(self.config.seats):
                    if not self._done[seat] and self._has_move(seat):
                        self._blocked = 0
                        break
        return self._blocked == 1

    def is_draw(self):
        """True when the game ended without a full finishing order (move cap or nobody can move)."""
        return self.is_over() and len(self._finished) < self.config.seats - 1

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
        cfg = self.config
        out = []
        if sources is None:
            sources = self._pieces[seat]
        cfg.generate(self._board, sources, out, cfg.ends, cfg.locks)
        return out

    def _has_move(self, seat):
        return bool(self._codes(seat))

    def legal_move_codes(self):
        """The legal moves of the seat to move as small ints, (from << 7) | to: legal_moves() without
        building Move objects (for the board, perft and benchmarks; their shortest chains are left in
        checkers_moves.PARENTS). Pieces come in the order of the game's piece list, which depends on
        the moves played (legal_moves() sorts them). [] once the game is over; [PASS_CODE] (0) when
        the seat to move must pass."""
        if self._over_quick():
            return []
        codes = self._codes(self.turn)
        if not codes:
            return [] if self.is_over() else [PASS_CODE]
        return codes

    def legal_moves(self):
        """The legal moves of the seat to move, by hole order of the pieces (each piece's steps, then
        its jumps nearest first). [] once the game is over; [pass] when the seat to move has no move
        but another seat has one."""
        if self._over_quick():
            return []
        sources = sorted(self._pieces[self.turn])
        codes = self._codes(self.turn, sources)
        if not codes:
            return [] if self.is_over() else [PASS]
        return moves_of(codes, sources)

    def destinations(self, hole):
        """The legal moves of the piece on `hole` (for the board to light when it is lifted); [] if
        the hole holds no piece of the seat to move or the game is over."""
        code = self._board[hole]
        if not code or self.config.set_seat[code] != self.turn or self._over_quick():
            return []
        sources = (hole,)
        return moves_of(self._codes(self.turn, sources), sources)

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
            for j in JUMPS[at]:
                if b[j & 127] and not b[j >> 7]:
                    out.append(j >> 7)
        b[at] = here
        if frm is not None:
            b[frm] = saved
        return tuple(out)

    def _make(self, m):
        seat = self.turn
        undo = seat << 3 | len(self._finished)
        cfg = self.config
        self._blocked = -1
        if m:
            b = self._board
            frm = m >> 7
            to = m & 127
            code = b[frm]
            b[frm] = 0
            b[to] = code
            pieces = self._pieces[seat]
            pieces[pieces.index(frm)] = to
            target_of = cfg.target_of
            t = target_of[frm]
            if t:
                self._filled[t] -= 1
                if t == code:
                    self._home[code] -= 1
            t = target_of[to]
            if t:
                self._filled[t] += 1
                if t == code:
                    self._home[code] += 1
                    if self._seat_done(seat):
                        self._finish(seat)
                if cfg.antispoil:
                    # A move may complete a target for its owner, or for the mover's other set.
                    owner = cfg.set_seat[t]
                    if not self._done[owner] and self._seat_done(owner):
                        self._finish(owner)
        self._plies += 1
        n = cfg.seats
        nxt = seat
        for _ in range(n):
            nxt = (nxt + 1) % n
            if not self._done[nxt]:
                break
        self.turn = nxt
        return undo

    def _finish(self, seat):
        if not self._done[seat]:
            self._done[seat] = 1
            self._finished.append(seat)

    def _unmake(self, m, undo):
        seat = undo >> 3
        nfinished = undo & 7
        self._blocked = -1
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

    def push(self, move):
        """Play a legal move (from legal_moves, destinations or parse_move). IllegalMoveError if it is
        not legal here; the stored move carries the engine's shortest path."""
        legal = self._legal(move.frm, move.to)
        code = PASS_CODE if legal.frm < 0 else legal.frm << 7 | legal.to
        # One small int per move (no heap on either runtime): the move code and the undo state.
        self._stack.append(self._make(code) << 14 | code)

    def pop(self):
        """Take back the last move and return it (with a shortest path in the restored position)."""
        if not self._stack:
            raise IllegalMoveError("no move to take back")
        entry = self._stack.pop()
        code = entry & 0x3FFF
        self._unmake(code, entry >> 14)
        if code == PASS_CODE:
            return PASS
        return self._move_from(code)

    def _move_from(self, code):
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
            if self._has_move(self.turn):
                raise IllegalMoveError("seat %d cannot pass: it has a legal move" % self.turn)
            return PASS
        if not 0 <= frm < HOLE_COUNT or not 0 <= to < HOLE_COUNT:
            raise IllegalMoveError("no such hole in move h%d-h%d" % (frm, to))
        for move in self.destinations(frm):
            if move.to == to:
                return move
        raise IllegalMoveError(self._why_illegal(frm, to))

    def _why_illegal(self, frm, to):
        b = self._board
        cfg = self.config
        text = "h%d-h%d" % (frm, to)
        code = b[frm]
        if not code:
            return "%s: there is no piece on h%d" % (text, frm)
        if cfg.set_seat[code] != self.turn:
            return "%s: the piece on h%d belongs to seat %d, but seat %d is to move" % (
                text,
                frm,
                cfg.set_seat[code],
                self.turn,
            )
        if frm == to:
            return "%s: a move may not end where it started" % text
        if b[to]:
            return "%s: h%d is occupied" % (text, to)
        out = []
        cfg.generate(b, (frm,), out, (ALL_HOLES,) * 7, (NO_HOLES,) * 7)
        if frm << 7 | to in out:
            if cfg.locks[code][frm]:
                return "%s: option locked: a piece in its target may not leave it" % text
            return "%s: option noparking: a move may not end in a point that is neither the " % text + (
                "player's start nor its target"
            )
        if adjacent(frm, to):
            return "%s: not a legal move" % text
        return "%s: h%d is neither adjacent nor reachable by a chain of jumps over single pieces" % (text, to)

    def parse_move(self, text):
        """The legal move written as text ("h7-h16" or "pass"). NotationError if malformed,
        IllegalMoveError naming the rule if well formed but not legal here."""
        if not isinstance(text, str):
            raise NotationError("move %r: expected text such as h7-h16" % (text,))
        t = text.strip().lower()
        if t == PASS_TEXT:
            return self._legal(-1, -1)
        parts = t.split("-")
        if len(parts) != 2:
            raise NotationError("move %r: expected FROM-TO such as h7-h16, or pass" % (text,))
        return self._legal(parse_hole(parts[0]), parse_hole(parts[1]))

    # -- search helpers -------------------------------------------------------------------------

    def perft(self, depth):
        """The number of leaves of the move tree `depth` plies deep (a pass counts as a move)."""
        if depth <= 0:
            return 1
        return self._perft(depth)

    def _perft(self, depth):
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
        make = self._make
        unmake = self._unmake
        for m in codes:
            undo = make(m)
            total += self._perft(depth - 1)
            unmake(m, undo)
        return total

    def copy(self):
        game = CheckersGame(self.config, self._board, self.turn, self._finished, self._plies)
        game._stack = list(self._stack)
        return game

    def set_options(self, options):
        """Play this position under other options (a dict or text, see parse_options)."""
        config = CheckersConfig(self.config.spec, options)
        _check_position(config, self._board, self.turn, self._finished, self._plies, NotationError)
        self.config = config
        self._blocked = -1

    # -- notation -------------------------------------------------------------------------------

    def occupancy_text(self):
        b = self._board
        rows = []
        h = 0
        for n in ROW_LENGTHS:
            parts = []
            empty = 0
            for _ in range(n):
                code = b[h]
                h += 1
                if code:
                    if empty:
                        parts.append(str(empty))
                        empty = 0
                    parts.append(SET_LETTERS[code - 1])
                else:
                    empty += 1
            if empty:
                parts.append(str(empty))
            rows.append("".join(parts))
        return "/".join(rows)

    def notation(self):
        """checkers SETUP OPTIONS TURN OCCUPANCY FINISHED MOVES (see docs/checkers.md)."""
        finished = "".join([str(s) for s in self._finished]) or "-"
        return "%s %s %s %d %s %s %d" % (
            GAME,
            self.config.spec,
            self.config.option_text(),
            self.turn,
            self.occupancy_text(),
            finished,
            self._plies,
        )

    def __str__(self):
        return self.notation()

    def __repr__(self):
        return "<CheckersGame %s>" % self.notation()


# ---------------------------------------------------------------------------------------------
# Building games


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


def _check_position(config, board, turn, finished, plies, error):
    counts = bytearray(7)
    for h in range(HOLE_COUNT):
        code = board[h]
        if code:
            if config.set_seat[code] == 255:
                raise error(
                    "h%d holds a piece of set %s (point %d), which setup %s does not use"
                    % (h, SET_LETTERS[code - 1], code - 1, config.spec)
                )
            counts[code] += 1
    for code in config.codes:
        if counts[code] != config.pieces:
            raise error(
                "set %s has %d pieces: setup %s gives every set %d"
                % (SET_LETTERS[code - 1], counts[code], config.spec, config.pieces)
            )
    if not 0 <= turn < config.seats:
        raise error("seat %d to move: setup %s has seats 0..%d" % (turn, config.spec, config.seats - 1))
    if config.cap and plies > config.cap:
        raise error("move count %d is past the move cap %d" % (plies, config.cap))
    game = CheckersGame(config, board, turn, (), plies)
    for seat in range(config.seats):
        done = game._seat_done(seat)
        if seat in finished:
            if not done and not config.antispoil:
                raise error("seat %d is listed as finished but not all its pieces are in its target" % seat)
        elif done:
            raise error("seat %d has all its pieces in its target but is not listed as finished" % seat)
    over = len(finished) >= config.seats - 1 or (config.cap and plies >= config.cap)
    if turn in finished and not over:
        raise error("seat %d is to move but has already finished" % turn)


def from_notation(text):
    """A game from its notation "checkers SETUP OPTIONS TURN OCCUPANCY FINISHED MOVES".
    NotationError names the field that is wrong."""
    if not isinstance(text, str):
        raise NotationError("checkers notation must be text, got %r" % (text,))
    words = text.split()
    fields = "checkers SETUP OPTIONS TURN OCCUPANCY FINISHED MOVES"
    if not words or words[0] != GAME:
        raise NotationError("checkers notation must start with 'checkers': %r" % (text,))
    if len(words) != 7:
        raise NotationError(
            "checkers notation has %d fields, expected 7 (%s): %r" % (len(words), fields, text)
        )
    _, spec, opts, turn_text, occupancy, finished_text, plies_text = words
    try:
        config = CheckersConfig(spec, opts)
    except ConfigError as exc:
        raise NotationError(str(exc.args[0])) from None
    turn = whole_number(turn_text)
    if turn < 0:
        raise NotationError("seat to move %r: expected a seat number" % turn_text)
    if turn >= config.seats:
        raise NotationError(
            "seat %s to move: setup %s has seats 0..%d" % (turn_text, config.spec, config.seats - 1)
        )
    board = _parse_occupancy(occupancy)
    finished = []
    if finished_text != "-":
        for ch in finished_text:
            if whole_number(ch) < 0 or int(ch) >= config.seats:
                raise NotationError(
                    "finished seats %r: %r is not a seat of setup %s (0..%d)"
                    % (finished_text, ch, config.spec, config.seats - 1)
                )
            if int(ch) in finished:
                raise NotationError("finished seats %r: seat %s listed twice" % (finished_text, ch))
            finished.append(int(ch))
    plies = whole_number(plies_text)
    if plies < 0:
        raise NotationError(
            "move count %r: expected a whole number in digits 0-9 without leading zeros" % plies_text
        )
    if plies > MAX_COUNT:
        raise NotationError("move count %r: at most %d" % (plies_text, MAX_COUNT))
    _check_position(config, board, turn, finished, plies, NotationError)
    return CheckersGame(config, board, turn, finished, plies)


def _parse_occupancy(text):
    rows = text.split("/")
    if len(rows) != len(ROW_LENGTHS):
        raise NotationError(
            "occupancy has %d rows separated by '/', the star has %d: %r"
            % (len(rows), len(ROW_LENGTHS), text)
        )
    board = bytearray(HOLE_COUNT)
    h = 0
    for r in range(len(rows)):
        row = rows[r]
        n = 0
        i = 0
        while i < len(row):
            ch = row[i]
            if ch in "0123456789":
                j = i
                while j < len(row) and row[j] in "0123456789":
                    j += 1
                run = whole_number(row[i:j])
                if run <= 0:
                    raise NotationError("occupancy row %d %r: an empty run cannot be %r" % (r, row, row[i:j]))
                n += run
                i = j
                continue
            k = SET_LETTERS.find(ch)
            if k < 0:
                raise NotationError(
                    "occupancy row %d %r: %r is neither a set letter a-f nor a count of empty holes"
                    % (r, row, ch)
                )
            if n < ROW_LENGTHS[r]:
                board[h + n] = k + 1
            n += 1
            i += 1
        if n != ROW_LENGTHS[r]:
            raise NotationError("occupancy row %d %r has %d holes, expected %d" % (r, row, n, ROW_LENGTHS[r]))
        h += n
    return board

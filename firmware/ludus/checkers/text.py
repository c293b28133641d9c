"""Chinese Checkers text: reading and writing the position notation, move and option text, and the
explanations of illegal moves.

Imported on first use by ludus.checkers.game and ludus.checkers.options (their wrappers keep the
public names), which pass in the classes it builds: a game that only generates and plays moves, as
on the board, never loads this module, so its code and messages stay off the Pico's heap."""

from ludus.checkers.geometry import (
    CENTRE,
    HOLE_COUNT,
    OPTION_NAMES,
    POINT_OF,
    ROW_LENGTHS,
    SET_LETTERS,
    adjacent,
)
from ludus.checkers.moves import ALL_HOLES, MAX_COUNT, NO_HOLES, PASS_TEXT
from ludus.errors import ConfigError, NotationError
from ludus.scan import ascii_digits

_FLAG_OPTIONS = ("noparking", "locked", "antispoil", "super")
_DIGITS = "0123456789"


def whole_number(text):
    """The value of `text` if it is a whole number in ASCII digits without leading zeros (other
    scripts' digits, signs and spaces are refused), else -1. More than 9 digits give MAX_COUNT + 1, so
    huge numbers are refused by a range check instead of becoming big integers."""
    if not ascii_digits(text, len(text)) or (text[0] == "0" and len(text) > 1):
        return -1
    if len(text) > 9:
        return MAX_COUNT + 1
    return int(text)


def parse_hole(text):
    """The hole number of a name h0..h120; NotationError naming the text otherwise."""
    t = text.strip().lower()
    h = whole_number(t[1:]) if t[:1] == "h" else -1
    if h < 0:
        raise NotationError("hole %r: expected a name h0..h%d" % (text, HOLE_COUNT - 1))
    if h >= HOLE_COUNT:
        raise NotationError("hole %r: the star has holes h0..h%d" % (text, HOLE_COUNT - 1))
    return h


# ---------------------------------------------------------------------------------------------
# Options


def parse_options(options):
    """See ludus.checkers.options.parse_options."""
    out = {}
    if options is None:
        return out
    if isinstance(options, str):
        text = options.strip()
        if text in ("", "-"):
            return out
        for word in text.split(","):
            name, eq, value = word.partition("=")
            if name in out:
                raise ConfigError("option %r given twice in %r" % (name, options))
            if name == "cap":
                n = whole_number(value) if eq else -1
                if n < 0:
                    raise ConfigError("option cap needs a number of moves, as in cap=300: got %r" % word)
                if n > MAX_COUNT:
                    raise ConfigError("option %r: the move cap must be 1..%d" % (word, MAX_COUNT))
                out[name] = n
            elif name in _FLAG_OPTIONS:
                if eq:
                    raise ConfigError("option %r takes no value: got %r" % (name, word))
                out[name] = True
            else:
                raise ConfigError("unknown option %r: expected %s" % (word, ", ".join(OPTION_NAMES)))
        return _check_options(out)
    if isinstance(options, dict):
        for name in options:
            value = options[name]
            if name == "cap":
                if value is None or value is False:
                    continue
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ConfigError("option cap needs a number of moves: got %r" % (value,))
                out[name] = value
            elif name in _FLAG_OPTIONS:
                if value is not True and value is not False:
                    raise ConfigError("option %r is on or off (true/false): got %r" % (name, value))
                if value:
                    out[name] = True
            else:
                raise ConfigError("unknown option %r: expected %s" % (name, ", ".join(OPTION_NAMES)))
        return _check_options(out)
    raise ConfigError("options must be a dict or text such as 'noparking,cap=200': got %r" % (options,))


def _check_options(out):
    if "cap" in out and not 1 <= out["cap"] <= MAX_COUNT:
        raise ConfigError("option cap=%d: the move cap must be 1..%d" % (out["cap"], MAX_COUNT))
    return out


def options_text(options):
    """See ludus.checkers.options.options_text."""
    words = []
    for name in OPTION_NAMES:
        if name in options:
            words.append("cap=%d" % options[name] if name == "cap" else name)
    return ",".join(words) if words else "-"


def setup_error(spec, name):
    """The ConfigError for an unknown setup `spec` (`name` without the /15 suffix)."""
    from ludus.checkers.geometry import SETUP_NAMES, SETUPS

    if name not in SETUPS:
        return ConfigError(
            "unknown checkers setup %r: expected one of %s (or 2/15 for 15 pieces each)"
            % (spec, ", ".join(SETUP_NAMES))
        )
    return ConfigError("setup %r: the 15-piece variant is for two players with one set each (2/15)" % spec)


def option_masks(config, ends, locks):
    """Fill in ends[code] and locks[code] (see CheckersConfig) for the noparking and locked options."""
    opts = config.options
    for code in config.codes:
        seat = config.set_seat[code]
        if "noparking" in opts:
            own = []
            for p in config.seat_points[seat]:
                own.append(p)
                own.append((p + 3) % 6)
            mask = bytearray(HOLE_COUNT)
            for h in range(HOLE_COUNT):
                pt = POINT_OF[h]
                if pt == CENTRE or pt in own:
                    mask[h] = 1
            for h in config.start_region[code] + config.target_region[code]:
                mask[h] = 1
            ends[code] = bytes(mask)
        if "locked" in opts:
            mask = bytearray(HOLE_COUNT)
            for h in config.target_region[code]:
                mask[h] = 1
            locks[code] = bytes(mask)


def describe(config):
    """See CheckersConfig.describe."""
    lines = []
    for seat in range(config.seats):
        parts = []
        for p in config.seat_points[seat]:
            parts.append("%s: point %d -> %d" % (SET_LETTERS[p], p, (p + 3) % 6))
        lines.append("seat %d: %s" % (seat, ", ".join(parts)))
    return lines


# ---------------------------------------------------------------------------------------------
# Moves


def parse_move(game, text):
    """See CheckersGame.parse_move."""
    if not isinstance(text, str):
        raise NotationError("move %r: expected text such as h7-h16" % (text,))
    t = text.strip().lower()
    if t == PASS_TEXT:
        return game._legal(-1, -1)
    parts = t.split("-")
    if len(parts) != 2:
        raise NotationError("move %r: expected FROM-TO such as h7-h16, or pass" % (text,))
    return game._legal(parse_hole(parts[0]), parse_hole(parts[1]))


def why_illegal(game, frm, to):
    """The message of the IllegalMoveError for a move frm-to that is not legal in `game` (the game is
    not over and frm, to are holes)."""
    b = game._board
    cfg = game.config
    text = "h%d-h%d" % (frm, to)
    code = b[frm]
    if not code:
        return "%s: there is no piece on h%d" % (text, frm)
    if cfg.set_seat[code] != game.turn:
        return "%s: the piece on h%d belongs to seat %d, but seat %d is to move" % (
            text,
            frm,
            cfg.set_seat[code],
            game.turn,
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


# ---------------------------------------------------------------------------------------------
# Positions


def occupancy_text(board):
    """The OCCUPANCY field of the notation for a board of set codes."""
    rows = []
    h = 0
    for n in ROW_LENGTHS:
        parts = []
        empty = 0
        for _ in range(n):
            code = board[h]
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


def notation(game):
    """See CheckersGame.notation."""
    finished = "".join([str(s) for s in game._finished]) or "-"
    return "checkers %s %s %d %s %s %d" % (
        game.config.spec,
        options_text(game.config.options),
        game.turn,
        occupancy_text(game._board),
        finished,
        game._plies,
    )


def check_position(game_class, config, board, turn, finished, plies, error):
    """Raise `error` naming the first thing that makes the position impossible under `config`
    (game_class: CheckersGame, passed in so this module does not import the game)."""
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
    game = game_class(config, board, turn, (), plies)
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


def from_notation(text, game_class, config_class):
    """See ludus.checkers.game.from_notation (which passes CheckersGame and CheckersConfig in)."""
    if not isinstance(text, str):
        raise NotationError("checkers notation must be text, got %r" % (text,))
    words = text.split()
    fields = "checkers SETUP OPTIONS TURN OCCUPANCY FINISHED MOVES"
    if not words or words[0] != "checkers":
        raise NotationError("checkers notation must start with 'checkers': %r" % (text,))
    if len(words) != 7:
        raise NotationError(
            "checkers notation has %d fields, expected 7 (%s): %r" % (len(words), fields, text)
        )
    _, spec, opts, turn_text, occupancy, finished_text, plies_text = words
    try:
        config = config_class(spec, opts)
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
    check_position(game_class, config, board, turn, finished, plies, NotationError)
    return game_class(config, board, turn, finished, plies)


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
            if ch in _DIGITS:
                j = i
                while j < len(row) and row[j] in _DIGITS:
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

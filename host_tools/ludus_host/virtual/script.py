"""Play scripts (docs/play-scripts.md): the text of physical actions and expectations read into Actions,
each checked against the board, NotationError "line N: ..." for the first bad line."""

from ludus.board.definition import BoardDefinition
from ludus.errors import NotationError

from ludus_host.args import is_digits
from ludus_host.virtual.board import cell_names, zone_names

GAP_MS = 400  # the hand's pause after each action: longer than the default settle time
MS_DIGITS = 9  # a wait or pause of at most 999,999,999 ms (11.5 days of simulated time)
MAX_MS_TEXT = "999999999"


# verb -> (minimum, maximum) argument count; None: no maximum
VERBS = {
    "lift": (1, 2),
    "place": (1, 2),
    "move": (2, 2),
    "slide": (2, None),
    "press": (0, 1),
    "long": (0, 0),
    "wait": (1, 1),
    "die": (1, None),
    "power": (0, 0),
    "flicker": (1, 2),
    "setup": (0, 1),
    "start": (1, None),
    "clear": (0, 0),
    "bots": (1, None),
    "name": (1, None),
    "expect": (1, None),
}
EXPECTS = ("situation", "phase", "turn", "event", "no-event", "position", "lit", "die", "physical", "refused")
# the colours a piece may be given (`place CELL COLOUR`): the player colours of both games
PIECE_COLOURS = ("green", "yellow", "red", "blue", "purple", "white")
SLIDE_MARK = "~"  # `slide A B C ~MS`: MS on each cell passed


class Action:
    """One script line: its number, verb, arguments and the pause after it (ms)."""

    def __init__(self, line: int, verb: str, args: list[str], gap: int) -> None:
        self.line = line
        self.verb = verb
        self.args = args
        self.gap = gap

    def __repr__(self) -> str:
        return "<line %d: %s %s>" % (self.line, self.verb, " ".join(self.args))


def parse_script(text: str, board: BoardDefinition) -> list[Action]:
    """The actions of a play script; NotationError "line N: ..." for the first bad line."""
    cells = cell_names(board)
    zones = zone_names(board)
    actions = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        verb, args, gap = _read_line(number, line)
        _check_marks(number, verb, args)
        _check_cells(number, verb, args, board.name, cells, zones)
        _check_values(number, verb, args)
        if verb == "expect":
            _check_expect(number, args)
        actions.append(Action(number, verb, args, 0 if verb == "wait" else gap))
    return actions


def _read_line(number: int, line: str) -> tuple[str, list[str], int]:
    # (verb, arguments, the pause after it) of a line, its verb known and its arguments counted
    words = line.split()
    gap = GAP_MS
    if words[-1].startswith("@"):
        tail = words.pop()
        if not is_digits(tail[1:], MS_DIGITS):
            raise NotationError(
                "line %d: %r: a pause is @ followed by milliseconds in digits 0-9 (at most %s), like @50"
                % (number, tail, MAX_MS_TEXT)
            )
        gap = int(tail[1:])
        if not words:
            raise NotationError("line %d: a pause %s needs an action before it" % (number, tail))
    verb = words[0].lower()
    args = words[1:]
    if verb == "longpress":
        verb = "long"
    if verb not in VERBS:
        raise NotationError(
            "line %d: unknown action %r (expected one of %s)" % (number, words[0], ", ".join(sorted(VERBS)))
        )
    lo, hi = VERBS[verb]
    if len(args) < lo or (hi is not None and len(args) > hi):
        want = str(lo) if lo == hi else ("%d or more" % lo if hi is None else "%d to %d" % (lo, hi))
        raise NotationError("line %d: %s takes %s argument(s), got %d" % (number, verb, want, len(args)))
    return verb, args, gap


def _check_marks(number: int, verb: str, args: list[str]) -> None:
    # a slide's time per cell, a piece's colour, a press's length
    if verb == "slide" and args[-1].startswith(SLIDE_MARK):
        if not is_digits(args[-1][1:], MS_DIGITS):
            raise NotationError(
                "line %d: slide: %r: the time on each cell is ~ followed by milliseconds in digits 0-9,"
                " like ~500" % (number, args[-1])
            )
        if len(args) < 3:
            raise NotationError("line %d: slide takes 2 or more cells before %s" % (number, args[-1]))
    if verb in ("place", "lift") and len(args) == 2:
        if args[1] not in PIECE_COLOURS:
            raise NotationError(
                "line %d: %s: %r is not a piece colour (expected one of %s)"
                % (number, verb, args[1], ", ".join(PIECE_COLOURS))
            )
    if verb == "press" and args and not is_digits(args[0], MS_DIGITS):
        raise NotationError(
            "line %d: press: %r is not a number of milliseconds in digits 0-9 (at most %s)"
            % (number, args[0], MAX_MS_TEXT)
        )


def _check_cells(number: int, verb: str, args: list[str], board_name: str, cells: dict, zones: dict) -> None:
    if verb in ("lift", "place", "move", "slide", "flicker"):
        names = args if verb not in ("flicker", "place", "lift") else args[:1]
        if verb == "slide" and args[-1].startswith(SLIDE_MARK):
            names = args[:-1]
        for name in names:
            if name not in cells and name not in zones:
                raise NotationError("line %d: %s: no cell %r on board %s" % (number, verb, name, board_name))
        if verb == "slide":
            for name in names:
                if name in zones:
                    raise NotationError("line %d: slide: %r is a zone; name its slots" % (number, name))


def _check_values(number: int, verb: str, args: list[str]) -> None:
    # a wait's or flicker's milliseconds, die values, bots' SEAT=LEVEL
    if verb in ("wait", "flicker") and len(args) == (1 if verb == "wait" else 2):
        if not is_digits(args[-1], MS_DIGITS):
            raise NotationError(
                "line %d: %s: %r is not a number of milliseconds in digits 0-9 (at most %s)"
                % (number, verb, args[-1], MAX_MS_TEXT)
            )
    if verb == "die":
        for v in args:
            if v not in ("1", "2", "3", "4", "5", "6"):
                raise NotationError("line %d: die: %r is not a die value 1..6" % (number, v))
    if verb == "bots" and args != ["none"]:
        for arg in args:
            seat, eq, level = arg.partition("=")
            if not eq or not seat or not level:
                raise NotationError(
                    "line %d: bots: %r: expected SEAT=LEVEL, like red=strong (or bots none)" % (number, arg)
                )


def _check_expect(number: int, args: list[str]) -> None:
    if args[0] == "physical" and len(args) > 1:
        raise NotationError("line %d: expect physical takes no argument" % number)
    if args[0] not in ("physical",) and len(args) < 2:
        if args[0] in EXPECTS:
            raise NotationError("line %d: expect %s needs what to expect" % (number, args[0]))
    if args[0] not in EXPECTS:
        raise NotationError("line %d: expect %r: expected one of %s" % (number, args[0], ", ".join(EXPECTS)))
    if args[0] == "die":
        for v in args[1:]:
            if v not in ("1", "2", "3", "4", "5", "6", "none"):
                raise NotationError("line %d: expect die: %r is not a die value 1..6 (or none)" % (number, v))

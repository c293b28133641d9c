"""Draws a Chinese Checkers position as text: the 121-hole star, one character per half pitch, with
ANSI colours per seat when asked for, and the last move's holes marked."""

from ludus.checkers.game import CheckersGame
from ludus.checkers.geometry import COL, HOLE_COUNT, ROW, ROW_LENGTHS, SET_LETTERS
from ludus.checkers.moves import Move
from ludus.light.palette import checkers_colour

from ludus_host.virtual.colours import COLOUR_NAMES

# ANSI SGR foreground codes of the palette's colours (by colour id): each seat is drawn in the colour
# the board's LEDs give it, the colour of the point its first set starts in.
ANSI = ("39", "37", "31", "32", "33", "34", "35")
RESET = "\033[0m"


def seat_colour(game: CheckersGame, seat: int) -> int:
    """The palette colour id of a seat, as the board's lights show it."""
    return checkers_colour(game.config.seat_points[seat][0])


def _paint(text: str, sgr: str, colour: bool) -> str:
    return "\033[%sm%s%s" % (sgr, text, RESET) if colour else text


def render(
    game: CheckersGame, colour: bool = False, last_move: Move | None = None, show_numbers: bool = False
) -> str:
    """The star as a multi-line string. Pieces are their set letters (a = the set that started in
    point 0, see docs/checkers.md), upper case for the set's last-moved piece; empty holes are dots,
    the hole the last move left is 'o'. With show_numbers the hole number of each row's first hole is
    written at the left."""
    frm = to = -1
    if last_move is not None and last_move.frm >= 0:
        frm, to = last_move.frm, last_move.to
    lines = []
    h = 0
    for r in range(len(ROW_LENGTHS)):
        cells = [" "] * 25
        first = h
        for _ in range(ROW_LENGTHS[r]):
            point = game.set_at(h)
            if point < 0:
                ch = "o" if h == frm else "."
                ch = _paint(ch, "2", colour) if h != frm else _paint(ch, "1", colour)
            else:
                seat = game.seat_at(h)
                ch = SET_LETTERS[point]
                sgr = ANSI[seat_colour(game, seat)]
                if h == to:
                    ch = ch.upper()
                    sgr = "1;7;" + sgr
                else:
                    sgr = "1;" + sgr
                ch = _paint(ch, sgr, colour)
            cells[COL[h]] = ch
            h += 1
        line = "".join(cells).rstrip()
        if show_numbers:
            line = "%4s  %s" % ("h%d" % first, line)
        lines.append(line)
    assert h == HOLE_COUNT and ROW[h - 1] == len(ROW_LENGTHS) - 1
    return "\n".join(lines)


def legend(game: CheckersGame, colour: bool = False) -> str:
    """One line naming each seat's colour, letters and finishing state."""
    parts = []
    cfg = game.config
    for seat in range(cfg.seats):
        letters = "".join([SET_LETTERS[p] for p in cfg.seat_points[seat]])
        name = "seat %d %s (%s)" % (seat, letters, COLOUR_NAMES[seat_colour(game, seat)])
        if game.is_finished(seat):
            name += " done"
        parts.append(_paint(name, ANSI[seat_colour(game, seat)], colour))
    return "  ".join(parts)

"""Ludo text forms: the position notation (`ludo RULES key=value ...`) and reading moves back from text.
Loaded by the LudoGame methods that need it; the explanations of errors are in ludus.ludo.why."""

from ludus.errors import ConfigError, IllegalMoveError, NotationError
from ludus.ludo.geometry import COLOURS, LETTERS
from ludus.ludo.moves import (
    CHOICE,
    PHASE_NAMES,
    PLAY,
    WALL,
    _parse_roll,
    roll_text,
)
from ludus.ludo.rules import rules_from_spec
from ludus.runtime import transient
from ludus.scan import ascii_digits

# --- move text ----------------------------------------------------------------------------------


def parse_move(game, text):
    """The legal move written as text (as str(move) prints it; the `via`, `lap` and `x` parts may be
    left out, and `to` may name the square first landed on). NotationError if malformed,
    IllegalMoveError naming the rule if well-formed but not legal here."""
    words = text.split()
    if not words:
        raise NotationError("empty move")
    legal = game.legal_moves()
    if words[0] in ("start", "colour"):
        if len(words) != 1:
            raise NotationError("move %r: start and colour take nothing after them" % text)
        if game.phase != CHOICE:
            raise IllegalMoveError("%s: only the roll-off winner chooses, at the start (Danish rules)" % text)
        return legal[0] if words[0] == "start" else legal[1]
    if len(words) < 3:
        raise NotationError("move %r: expected ROLL TOKEN FROM-TO, like '6 green.0 base-t0'" % text)
    roll = _parse_roll(words[0], "move %r" % text)
    toks = [_token(text, part) for part in words[1].split("+")]
    if len(toks) > 2 or (len(toks) == 2 and (toks[0] >> 2 != toks[1] >> 2 or toks[0] == toks[1])):
        raise NotationError("move %r: a wall is two tokens of one colour, like green.0+green.1" % text)
    frm_t, dash, to_t = words[2].partition("-")
    if not dash:
        raise NotationError("move %r: expected FROM-TO, like t3-t9" % text)
    s = toks[0] >> 2
    frm = _place(game, text, s, frm_t)
    to = _place(game, text, s, to_t)
    rest = words[3:]
    via = -2  # not given
    caps = None
    lap = 0
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "via" and i + 1 < len(rest):
            via = _place(game, text, s, rest[i + 1])
            i += 2
        elif w == "x" and i + 1 < len(rest):
            caps = [_token(text, part) for part in rest[i + 1].split(",")]
            i += 2
        elif w == "lap":
            lap = 1
            i += 1
        else:
            raise NotationError(
                "move %r: unexpected %r (after FROM-TO: via SQUARE, lap, x TOKENS)" % (text, w)
            )
    wall = len(toks) == 2
    for m in legal:
        if m.roll == roll and m.gi >> 2 == s and (m.kind == WALL) == wall and m.frm == frm:
            if m.to == to or (m.via == to and m.via >= 0):
                if game.pos[toks[0]] == frm and (not wall or game.pos[toks[1]] == frm):
                    agree = (via == -2 or via == m.via) and (m.lap or not lap)
                    if agree and (caps is None or _same(game, m, caps)):
                        return m
                    found = transient("ludus.ludo.why").extras_disagree(game, m, via, lap, caps)
                    raise IllegalMoveError("%s: %s" % (text, found))
    raise IllegalMoveError(transient("ludus.ludo.why").why(game, text, roll, toks, frm, to))


def _same(game, m, named):
    """True if the captured tokens a player named are those of move m (tokens on a square are
    interchangeable)."""
    pos = game.pos
    return sorted((c >> 2, pos[c]) for c in named) == sorted((c >> 2, pos[c]) for c in m.caps)


def _token(text, part):
    colour, dot, idx = part.partition(".")
    if not dot or colour not in COLOURS or idx not in ("0", "1", "2", "3"):
        raise NotationError("move %r: token %r should be like green.0" % (text, part))
    return COLOURS.index(colour) * 4 + int(idx)


def _place(game, text, s, name):
    p = game.geo.parse_place(s, name)
    if p == -2:
        raise NotationError("move %r: %r is not a place of %s" % (text, name, COLOURS[s]))
    return p


# --- notation -----------------------------------------------------------------------------------


def notation(game):
    """The position as text: `ludo RULES key=value ...`; from_notation() reads it back."""
    L = LETTERS
    out = ["ludo", game.rules.spec(), "seats=" + "".join(L[s] for s in game.seats), "turn=" + L[game.turn]]
    if game.phase != PLAY:
        out.append("phase=" + PHASE_NAMES[game.phase])
    if game.group:
        out.append("group=" + "".join(L[s] for s in game.group))
    out.append("rolls=" + (",".join(roll_text(r) for r in game.rolls) if game.rolls else "-"))
    if game.owe != _default_owe(game.phase, game.rolls):
        out.append("owe=%d" % game.owe)
    for key, value in (
        ("bonus", game.bonus),
        ("sixes", game.sixes),
        ("tries", game.tries),
        ("die", game.die1),
    ):
        if value:
            out.append("%s=%d" % (key, value))
    if game.captured:
        out.append("captured=" + "".join(L[s] for s in range(4) if (game.captured >> s) & 1))
    if game.placed:
        out.append("placed=" + "".join(L[s] for s in game.placed))
    geo = game.geo
    for s in game.seats:
        out.append("%s=%s" % (L[s], ",".join(geo.place(s, game.pos[gi]) for gi in range(s * 4, s * 4 + 4))))
    return " ".join(out)


def _default_owe(phase, rolls):
    return 1 if phase == PLAY and not rolls else 0


def _letters(text, what):
    seats = []
    if text == "-":
        return seats
    for ch in text:
        if ch not in LETTERS:
            raise NotationError("%s=%s: %r is not a seat letter (g, y, r, b)" % (what, text, ch))
        s = LETTERS.index(ch)
        if s in seats:
            raise NotationError("%s=%s: %s twice" % (what, text, COLOURS[s]))
        seats.append(s)
    return seats


def _small(key, text):
    if not ascii_digits(text, 9):
        raise NotationError("%s=%s: expected a number in digits 0-9" % (key, text))
    return int(text)


KEYS = (
    "seats",
    "turn",
    "phase",
    "group",
    "rolls",
    "owe",
    "bonus",
    "sixes",
    "tries",
    "die",
    "captured",
    "placed",
)


def from_notation(text, game_class):
    """A game from its notation (as game.notation() prints it). NotationError names the problem."""
    words = text.split()
    if len(words) < 2 or words[0] != "ludo":
        raise NotationError("ludo position %r: expected 'ludo RULES seats=... turn=... ...'" % text)
    rules = rules_from_spec(words[1])
    fields = {}
    for w in words[2:]:
        key, eq, value = w.partition("=")
        if not eq:
            raise NotationError("ludo position: %r should be key=value" % w)
        if key in fields:
            raise NotationError("ludo position: %s given twice" % key)
        if key not in KEYS and key not in LETTERS:
            raise NotationError(
                "ludo position: unknown field %r (fields: %s, and g/y/r/b for tokens)"
                % (key, ", ".join(KEYS))
            )
        fields[key] = value
    if "seats" not in fields:
        raise NotationError("ludo position: seats= is missing (like seats=gr)")
    seats = _letters(fields["seats"], "seats")
    try:
        game = game_class(rules, seats)
    except ConfigError as exc:
        raise NotationError("seats=%s: %s" % (fields["seats"], exc.args[0])) from None
    if "turn" not in fields:
        raise NotationError("ludo position: turn= is missing")
    turn = _letters(fields["turn"], "turn")
    if len(turn) != 1:
        raise NotationError("turn=%s: one seat letter" % fields["turn"])
    game.turn = turn[0]
    phase = fields.get("phase", "play")
    if phase not in PHASE_NAMES:
        raise NotationError("phase=%s: expected one of %s" % (phase, ", ".join(PHASE_NAMES)))
    game.phase = PHASE_NAMES.index(phase)
    game.group = _letters(fields.get("group", "-"), "group")
    rolls = fields.get("rolls", "-")
    game.rolls = [] if rolls == "-" else [_parse_roll(r, "rolls=" + rolls) for r in rolls.split(",")]
    game.owe = _small("owe", fields["owe"]) if "owe" in fields else _default_owe(game.phase, game.rolls)
    game.bonus = _small("bonus", fields.get("bonus", "0"))
    game.sixes = _small("sixes", fields.get("sixes", "0"))
    game.tries = _small("tries", fields.get("tries", "0"))
    game.die1 = _small("die", fields.get("die", "0"))
    if game.die1 > 6:
        raise NotationError("die=%d: a die shows 1..6" % game.die1)
    for s in _letters(fields.get("captured", "-"), "captured"):
        game.captured |= 1 << s
    game.placed = _letters(fields.get("placed", "-"), "placed")
    geo = game.geo
    for s in range(4):
        key = LETTERS[s]
        if key not in fields:
            if s in seats:
                raise NotationError(
                    "ludo position: %s= (the places of %s's tokens) is missing" % (key, COLOURS[s])
                )
            continue
        if s not in seats:
            raise NotationError("ludo position: %s= given but %s is not in seats=" % (key, COLOURS[s]))
        places = fields[key].split(",")
        if len(places) != 4:
            raise NotationError(
                "%s=%s: %s needs exactly 4 tokens, got %d" % (key, fields[key], COLOURS[s], len(places))
            )
        for i, place in enumerate(places):
            p = geo.parse_place(s, place)
            if p == -2:
                raise NotationError(
                    "%s=%s: %r is not a place for a %s token" % (key, fields[key], place, COLOURS[s])
                )
            game.pos[s * 4 + i] = p
    game._rebuild_occ()
    game.check()
    if game.phase == PLAY:
        game._settle()
    return game

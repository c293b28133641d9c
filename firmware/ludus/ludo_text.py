"""Ludo text forms: the position notation (`ludo RULES key=value ...`), reading moves back from text
with the rule that forbids an illegal one, and the consistency check of a position."""

from ludus.errors import ConfigError, IllegalMoveError, NotationError
from ludus.ludo_board import BASE, COLOURS, LETTERS
from ludus.ludo_move import (
    CHOICE,
    ENTRY_FLAG,
    ORDER,
    OVER,
    PHASE_NAMES,
    PLAY,
    R_CAPTURE_FIRST,
    R_ENTRY,
    REASONS,
    WALL,
    _parse_roll,
    roll_text,
)
from ludus.ludo_rules import rules_from_spec

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
                    wrong = _extras_disagree(game, m, via, lap, caps)
                    if wrong:
                        raise IllegalMoveError("%s: %s" % (text, wrong))
                    return m
    raise IllegalMoveError(why(game, text, roll, toks, frm, to))


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


def _token_name(gi):
    return "%s.%d" % (COLOURS[gi >> 2], gi & 3)


def _extras_disagree(game, m, via, lap, named):
    """Why the optional `via`, `lap` and `x` parts a player wrote do not describe move m (None if
    they do, or were left out)."""
    geo = game.geo
    s = m.gi >> 2
    if via != -2 and via != m.via:
        if m.via < 0:
            return "the token lands on %s directly (no via)" % geo.place(s, m.to)
        return "the token lands first on %s, not %s" % (geo.place(s, m.via), geo.place(s, via))
    if lap and not m.lap:
        return "this move does not pass its own home entry (no lap)"
    if named is None:
        return None
    pos = game.pos
    have = sorted((c >> 2, pos[c]) for c in m.caps)
    if sorted((c >> 2, pos[c]) for c in named) == have:
        return None  # tokens on one square are interchangeable
    if not m.caps:
        land = m.via if m.to < 0 else m.to
        for c in named:
            cs = c >> 2
            if cs == s:
                return "%s: your own tokens are never captured" % _token_name(c)
            if game._teams and cs == (s + 2) % 4:
                return "%s: Team Up partners never capture each other" % _token_name(c)
            if not 0 <= pos[c] < game.L or geo.abs_of[cs][pos[c]] != geo.abs_of[s][land]:
                return "%s is on %s, not where this move lands (%s)" % (
                    _token_name(c),
                    geo.place(cs, pos[c]),
                    geo.place(s, land),
                )
            if geo.safe[geo.abs_of[s][land]]:
                return "%s stands on a safe square: no capture there" % _token_name(c)
        return "this move captures nothing"
    return "this move captures %s" % ",".join(_token_name(c) for c in m.caps)


def why(game, text, roll, toks, frm, to):
    if game.phase == OVER:
        return "%s: the game is over" % text
    if game.phase == CHOICE:
        return "%s: the roll-off winner (%s) first plays start or colour" % (text, COLOURS[game.turn])
    if game.phase != PLAY:
        return "%s: the start order is being decided: roll the die" % text
    s = toks[0] >> 2
    if s != game.mover():
        return "%s: %s tokens cannot move, it is %s's turn" % (text, COLOURS[s], COLOURS[game.turn])
    if game.owe:
        return "%s: a roll is owed: roll the die first" % text
    if roll not in game.rolls:
        return "%s: no waiting roll of %s (waiting: %s)" % (
            text,
            roll_text(roll),
            ", ".join(roll_text(r) for r in game.rolls),
        )
    geo = game.geo
    for g in toks:
        if game.pos[g] != frm:
            return "%s: %s.%d is on %s, not %s" % (
                text,
                COLOURS[s],
                g & 3,
                geo.place(s, game.pos[g]),
                geo.place(s, frm),
            )
    v = roll & 31
    entry_ok = (roll & ENTRY_FLAG) if game.rules.dice_sum else (v in game._entry)
    if len(toks) == 2:
        if not game._walls:
            return "%s: two tokens move as one unit only under Master's walls (walls=1)" % text
        return "%s: walls: this wall cannot move %d (blocked, or off the track)" % (text, v)
    res = game._single(toks[0], v, roll, entry_ok)
    if res.__class__ is int:
        if res == R_ENTRY:
            return "%s: entry: a token leaves its base only on %s" % (
                text,
                " or ".join(str(e) for e in game._entry),
            )
        return "%s: %s" % (text, REASONS[res])
    if res[4] != to and res[6] != to:
        if to >= game.L and game._cbh and not (game.captured >> s) & 1:
            return "%s: %s, so the token goes on round the track" % (text, REASONS[R_CAPTURE_FIRST])
        if 0 <= frm < game.T <= frm + v and 0 <= to < game.L:
            return "%s: passing your own home entry (an extra lap) is allowed only to capture" % text
        return "%s: with %s this token goes to %s" % (text, roll_text(roll), geo.place(s, res[4]))
    if game._must:
        return "%s: compulsory capture: a capturing move must be played (%s)" % (
            text,
            ", ".join(str(m) for m in game.legal_moves() if m.caps),
        )
    return "%s: not legal here" % text


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


def problem(game):
    geo = game.geo
    L, C = game.L, geo.C
    rules = game.rules
    for gi in range(16):
        s, p = gi >> 2, game.pos[gi]
        if s not in game.seats:
            if p != BASE:
                return "%s is not playing but has a token out" % COLOURS[s]
            continue
        if not -1 <= p <= (geo.HOME if geo.has_home else L + C - 1):
            return "%s.%d has an impossible position code %d" % (COLOURS[s], gi & 3, p)
    occ = bytearray(L * 4)
    for gi in range(16):
        p = game.pos[gi]
        if 0 <= p < L:
            occ[geo.abs_of[gi >> 2][p] * 4 + (gi >> 2)] += 1
    if occ != game.occ:
        return "square counts out of step with the tokens"
    inplay = bytearray(4)
    for gi in range(16):
        if 0 <= game.pos[gi] < game._in_play_end:
            inplay[gi >> 2] += 1
    if inplay != game.inplay:
        return "tokens-in-play counts out of step with the tokens"
    for a in range(L):
        total = sum(occ[a * 4 : a * 4 + 4])
        if total != game.total[a]:
            return "the token count of t%d is out of step" % a
        if not rules.share and total > 1:
            return "%d tokens on t%d, but this rule set allows one per square" % (total, a)
    for s in game.seats:
        for k in range(C):
            n = sum(1 for gi in range(s * 4, s * 4 + 4) if game.pos[gi] == L + k)
            if n > 1 and (not rules.share or not geo.has_home):
                return "%d tokens on %s.c%d, which holds one" % (n, COLOURS[s], k)
    if game.turn not in game.seats:
        return "turn %s is not playing" % COLOURS[game.turn]
    last = game.placed[-1] if game.phase == OVER and game.placed else -1
    for s in game.placed:
        if s not in game.seats or game.placed.count(s) > 1:
            return "placed %s twice or not playing" % COLOURS[s]
        if not rules.teams and not game._finished(s) and s != last:
            return "%s is placed but has not finished" % COLOURS[s]
    if not rules.teams:
        for s in game.seats:
            if game._finished(s) and s not in game.placed:
                return "%s has finished but is not placed" % COLOURS[s]
    if game.phase == PLAY and game.turn in game.placed:
        return "%s has finished but has the turn" % COLOURS[game.turn]
    top = 12 if rules.dice_sum else 6
    for r in game.rolls:
        v = r & 31
        if not 1 <= v <= top or (r & ENTRY_FLAG and not rules.dice_sum) or r & ~(31 | ENTRY_FLAG):
            return "waiting roll %s is not possible with this rule set" % roll_text(r)
    if game.phase == ORDER:
        if (
            not game.group
            or game.turn != game.group[len(game.rolls) % len(game.group)]
            or len(game.rolls) >= len(game.group)
        ):
            return "roll-off: the turn must be the next seat of the group to roll"
    elif game.group:
        return "group is only used during the roll-off (phase=order)"
    if game.sixes > 2 or (game.sixes and not rules.third_six_void):
        return "sixes=%d: at most 2 sixes in a row stand, and only counted with third_six_void" % game.sixes
    if game.tries >= rules.entry_tries:
        return "tries=%d: this rule set gives %d roll(s) to enter" % (game.tries, rules.entry_tries)
    if game.die1 and rules.dice != 2:
        return "die=%d: only with two dice" % game.die1
    if game.owe not in (0, 1) or game.bonus > 30:
        return "owe must be 0 or 1, bonus at most 30"
    return None


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
    if not text.isdigit():
        raise NotationError("%s=%s: expected a number" % (key, text))
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

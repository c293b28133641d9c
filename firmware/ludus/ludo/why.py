"""Ludo explanations: the rule an illegal move breaks (parse_move's IllegalMoveError), why a move's
optional `via`, `lap` and `x` parts do not describe it. Loaded only when something is wrong, so the
messages do not stay in the engine's heap (the consistency check of a position is ludus.ludo.check)."""

from ludus.ludo.geometry import COLOURS
from ludus.ludo.moves import CHOICE, ENTRY_FLAG, OVER, PLAY, R_CAPTURE_FIRST, R_ENTRY, roll_text

# what each reason code of the generator (ludus.ludo.moves.R_*) means
REASONS = (
    "",
    "entry: a token leaves its base only on an entry value",
    "the token is already home",
    "exact home: an overshoot is not allowed",
    "one token per square: your own (or your partner's) token stands there",
    "walls: an opponent wall can be neither passed nor landed on",
    "walls: only a wall moved as one unit can land on a wall",
    "protected: the opponents there cannot be captured and this rule set forbids landing",
    "capture before home: this player has not captured yet",
)


def _token_name(gi):
    return "%s.%d" % (COLOURS[gi >> 2], gi & 3)


def extras_disagree(game, m, via, lap, named):
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
            if not 0 <= pos[c] < game.track_len or geo.abs_of[cs][pos[c]] != geo.abs_of[s][land]:
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
        if to >= game.track_len and game._capture_before_home and not (game.captured >> s) & 1:
            return "%s: %s, so the token goes on round the track" % (text, REASONS[R_CAPTURE_FIRST])
        if 0 <= frm < game.turn_in <= frm + v and 0 <= to < game.track_len:
            return "%s: passing your own home entry (an extra lap) is allowed only to capture" % text
        return "%s: with %s this token goes to %s" % (text, roll_text(roll), geo.place(s, res[4]))
    if game._must_capture:
        return "%s: compulsory capture: a capturing move must be played (%s)" % (
            text,
            ", ".join(str(m) for m in game.legal_moves() if m.caps),
        )
    return "%s: not legal here" % text

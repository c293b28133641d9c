"""Ludo position check: the first impossible thing in a loaded position (LudoGame.check, on reading a
notation back and in the property tests). Kept apart from ludus.ludo.why (loaded and dropped for each use
on MicroPython): this small module stays loaded once a position has been read, as a referee reads one on
every restore and reloading it fragmented the test heap."""

from ludus.ludo.geometry import BASE, COLOURS
from ludus.ludo.moves import ENTRY_FLAG, ORDER, OVER, PLAY, roll_text


def problem(game):
    geo = game.geo
    L, C = game.track_len, geo.C
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
    if rules.capture_before_home:
        for gi in range(16):
            s = gi >> 2
            if game.pos[gi] >= L and not (game.captured >> s) & 1:
                return (
                    "%s.%d is past its turn-off, but %s has not captured (captured=): a capture comes first"
                    % (
                        COLOURS[s],
                        gi & 3,
                        COLOURS[s],
                    )
                )
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

"""The seats the board plays: their bots' module, and their level lit on the seat's own area while it is
to act (a Ludo base, a Chinese Checkers start point) in its colour, one light for the weakest level, two
for the middle one, three for the strong one (docs/lights.md). A part of ludus.referee, imported only
when bots are set (ludus.referee.seats asks bots_of() for the family's bots), so a game without bots
carries none of it.

The level's lights are the turn's meaning (palette.TURN: a pulse in the seat's colour, the lowest
priority of play) on cells left dark by every other light, so they never stand where a move, a capture
or a correction is lit; with fewer dark cells than the count, none show rather than a wrong count."""

from array import array

from ludus.runtime import const

_PLAY = const(1)  # ludus.referee.states.PLAY, inlined (test_referee_infer.py checks)


def _family_bots(family):
    # the family's bot module (the other family's is not loaded)
    if family == "ludo":
        import ludus.bots.ludo

        return ludus.bots.ludo
    import ludus.bots.checkers

    return ludus.bots.checkers


def bots_of(r):
    """The bot module of the referee's game family (ludus.bots.ludo or ludus.bots.checkers); compose()
    made the referee's composer where it has lights (it stays when the bots are cleared, then lighting
    nothing more)."""
    if r._compose is not None:
        r._compose = compose
    return _family_bots(r.adapter.family)


def lights_for(family, level):
    """How many lights show a bot level of a game family ("ludo", "checkers"): 1, 2 or 3, by the
    level's place in the family's LEVELS (weakest first)."""
    return _family_bots(family).LEVELS.index(level) + 1


def compose(r):
    """Rebuild the referee's scene (ludus.referee.lights.compose), then light the level of a bot whose
    seat is to act."""
    import ludus.referee.lights  # (loaded already: the referee has lights)

    ludus.referee.lights.compose(r)
    _level(r)


# (Hot path, docs/architecture.md: small frames, while loops; nothing allocated once the seat's area
# is known, its first turn of a game.)


def _level(r):
    b = r.bots
    if b is None or b[1] is None or r.phase != _PLAY:
        return
    bot = b[1].get(r.game.turn)
    if bot is not None:
        _show_level(r, _seat_lights(r, b, r.game.turn, bot.level), r.game.turn)


def _show_level(r, kept, seat):
    sc = r.scene
    k = kept[1]
    if _dark(sc._led_ink, kept[0]) < k:
        return  # (the area busy with other lights: no count rather than a wrong one)
    _light_first(sc._led_ink, kept[0], k, sc.composer.turn[seat])  # the seat's TURN ink (lights._Seats)


def _dark(inks, leds):
    # how many of leds are dark
    n = 0
    i = len(leds)
    while i:
        i -= 1
        if not inks[leds[i]]:
            n += 1
    return n


def _light_first(inks, leds, k, ink):
    # the first k dark LEDs of leds given the ink (there are k)
    i = 0
    while k:
        led = leds[i]
        if not inks[led]:
            inks[led] = ink
            k -= 1
        i += 1


def _seat_lights(r, b, seat, level):
    # (the LEDs of the seat's area, nearest its outer end first; how many to light), found once a game
    # and kept in the bots' list (slot 4) with the game's bots they were found for: [bots, {seat: ...}]
    kept = b[4]
    if kept is None or kept[0] is not b[1]:
        kept = b[4] = [b[1], {}]
    out = kept[1].get(seat)
    if out is None:
        out = kept[1][seat] = (_find_area(r, seat), lights_for(r.adapter.family, level))
    return out


def _find_area(r, seat):
    # Ludo: the base's slots in the board's order. Chinese Checkers: the holes of the seat's first
    # point from its tip inwards (1: the tip, 3: the little triangle at the tip).
    from ludus.referee.lights import _areas  # (loaded already: the referee has lights)

    places = _areas(r)[r.adapter.turn_index(r.game, seat)][1]
    if r.adapter.family == "checkers":
        from ludus.checkers.geometry import POINT_TIPS, distance  # (a checkers game's, loaded already)

        tip = POINT_TIPS[r.adapter.turn_index(r.game, seat)]
        places = sorted(places, key=lambda h: distance(h, tip))
    led = r.board.led_of_cell
    out = array("H")
    for p in places:
        for c in r.places.cells(p):
            out.append(led[c])
    return out

"""Who sits where, set between games or by a command: the players' names and the seats the board plays.
Loaded for each setting and not kept on the heap while a game runs. A part of ludus.referee; the
referee's set_players and set_bots call it."""

from ludus.errors import ConfigError
from ludus.runtime import transient


def _bot_module(ref):
    # the bot module of the referee's game, with the lights of the seats it plays
    # (ludus.referee.botseats: imported when bots are set, kept while they are)
    from ludus.referee.botseats import bots_of

    return bots_of(ref)


def _seat_fault(what, seat, top):
    if seat.__class__ is not int or not 0 <= seat <= top:
        return "%s seat %r: expected a seat number 0..%d" % (what, seat, top)
    return None


def set_players(ref, names):
    """Referee.set_players: the names checked, then kept for the next game and the one in play."""
    top = 3 if ref.adapter.family == "ludo" else 5
    for seat in names:
        fault = _seat_fault("player", seat, top)
        if fault:
            raise ConfigError(fault)
    fault = transient("ludus.record.players").players_fault(names)
    if fault:
        raise ConfigError(fault)
    ref.players = dict(names) if names else None
    if ref.game is not None:
        ref.record.players = ref._seat_players(ref.game)


def set_bots(ref, levels):
    """Referee.set_bots: the seats and levels checked, then the bots made for the game in play."""
    family = ref.adapter.family
    names = _bot_module(ref).LEVELS
    top = 3 if family == "ludo" else 5
    checked = {}
    for seat, level in levels.items():
        fault = _seat_fault("bot", seat, top)
        if fault:
            raise ConfigError(fault)
        if level not in names:
            raise ConfigError("bot level %r: expected one of %s" % (level, ", ".join(names)))
        checked[seat] = level
    # the bots' state in one attribute (each attribute of the referee costs heap and lookups on
    # MicroPython): [levels by seat, bots of the game in play by seat or None, the tick the seat's
    # idle wait began (-1 - t; 0: none), the move a bot chose (the referee's auto_move), or None,
    # what ludus.referee.botseats keeps of the seats' lights]
    if ref.bots is not None and ref.bots[3] is not None:
        ref.auto_move = None  # a chosen move no longer stands
    ref.bots = [checked, None, 0, None, None] if checked else None
    ref._dirty = True  # (the seats' lights change with them)
    make_bots(ref)


def make_bots(ref):
    """The bots of the game in play, for the seats it has (at its start, and when the seats change)."""
    b = ref.bots
    if b is None:
        return
    if b[3] is not None:
        ref.auto_move = None
    b[1] = b[3] = None
    b[2] = 0
    game = ref.game
    if game is None:
        return
    mod = _bot_module(ref)
    seats = game.seats if ref.adapter.family == "ludo" else range(game.seats)
    bots = {}
    for seat in seats:
        level = b[0].get(seat)
        if level is not None:
            bots[seat] = mod.bot_for(level, 1 + seat + 8 * ref._games_started)
    b[1] = bots or None

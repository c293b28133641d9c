"""One entry point for positions of every game: named starts ("checkers/2", "ludo/classic/4") and
notation strings ("checkers ...", "ludo ..."), dispatched to the game's own module."""

from ludus.errors import NotationError

GAMES = ("checkers", "ludo")


def _module(game):
    if game == "checkers":
        import ludus.checkers.game

        return ludus.checkers.game
    if game == "ludo":
        import ludus.ludo.game

        return ludus.ludo.game
    raise NotationError("unknown game %r: expected one of %s" % (game, ", ".join(GAMES)))


def position(text):
    """A game position from a named start or a notation string.

    A named start is GAME/SPEC (no spaces), such as checkers/2 or ludo/danish/4; anything else must be
    a notation string whose first word names the game."""
    if not isinstance(text, str):
        raise NotationError("position %r: expected text such as checkers/2 or a notation string" % (text,))
    text = text.strip()
    if not text:
        raise NotationError("empty position: give a named start such as checkers/2 or a notation string")
    words = text.split()
    first = words[0]
    if "/" in first and first.partition("/")[0] in GAMES and len(words) > 1:
        raise NotationError(
            "position %r: a named start such as %s is one word; a notation string starts with the game "
            "name alone" % (text, first)
        )
    if len(words) == 1 and "/" in text:
        game, _, spec = text.partition("/")
        return _module(game).start_position(spec)
    return _module(first).from_notation(text)

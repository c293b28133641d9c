"""Chinese Checkers: the 121-hole star, its setups and house rules, moves and jump chains, notation and
perft. `ludus.checkers.NAME` is the game's public API (ludus.checkers.game), loaded on first use."""


def __getattr__(attr):
    from ludus.lazy import attribute

    return attribute("ludus.checkers", attr, {"CheckersConfig": "options", "SET_LETTERS": "geometry"}, "game")

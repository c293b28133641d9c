"""Ludo in every common rule set: rule sets and presets, track geometry, moves, turn flow, notation and
explanations. `ludus.ludo.NAME` is the game's public API (ludus.ludo.game), loaded on first use."""


def __getattr__(attr):
    from ludus.lazy import attribute

    return attribute("ludus.ludo", attr, {}, "game")

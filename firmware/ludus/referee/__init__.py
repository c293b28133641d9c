"""The referee: settled occupancy in, moves inferred and judged against the rules, the light scene and the
game record out. `ludus.referee.Referee` and the button events load ludus.referee.core on first use."""


def __getattr__(attr):
    from ludus.lazy import attribute

    return attribute("ludus.referee", attr, {}, "core")

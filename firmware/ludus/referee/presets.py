"""Game presets and the adapter each needs: the small factory that reads a preset such as ludo/danish/4
and loads only that game's adapter (ludus.referee.checkers or ludus.referee.ludo)."""

from ludus.errors import ConfigError
from ludus.scan import ascii_digits


def split_preset(preset):
    """("checkers", options) or ("ludo", rules text) from a preset such as checkers/2, checkers,
    ludo/classic/4 or ludo/teamup+arrow; the player count, if given, is ignored (the board decides)."""
    text = preset.strip()
    family, _, rest = text.partition("/")
    if family == "checkers":
        return family, ""
    if family == "ludo":
        rules, slash, n = rest.rpartition("/")
        if slash and ascii_digits(n, 1):
            rest = rules
        if not rest:
            raise ConfigError("ludo preset %r: name a rule set, like ludo/classic/4" % preset)
        return family, rest
    raise ConfigError("unknown game preset %r: expected checkers/N or ludo/RULES/N" % preset)


def adapter_for(preset):
    """The game adapter for a preset (see split_preset)."""
    family, rest = split_preset(preset)
    if family == "checkers":
        from ludus.referee.checkers import CheckersAdapter

        return CheckersAdapter()
    from ludus.referee.ludo import LudoAdapter

    return LudoAdapter(rest)

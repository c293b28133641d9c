"""The exceptions every layer raises for bad input. All are ValueErrors whose message names the
offending text, so a caller can show it to the player or maker unchanged."""


class LudusError(ValueError):
    """Base of every error Ludus raises for bad input."""


class NotationError(LudusError):
    """A position, move or script text that cannot be parsed."""


class IllegalMoveError(LudusError):
    """A well-formed move that the rules forbid; the message names the rule."""


class ConfigError(LudusError):
    """A configuration, rule set or option combination that cannot be used."""


class BoardDefinitionError(LudusError):
    """A board definition file with faults; the message lists each one."""

"""The exceptions every layer raises, by kind: bad input (notation, an illegal move, a configuration, a
board file) and a misuse of state. All are ValueErrors whose message names the offending text or
state, so a caller can show it to the player or maker unchanged."""


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


class StateError(LudusError):
    """A call that the object's state does not allow, or a broken invariant: rolling dice a loaded record
    no longer has, revealing a seed that is not there, a move table that names no move. A program's
    mistake rather than the player's; the message says which state was wrong."""

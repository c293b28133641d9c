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


def ascii_digits(text, most):
    """True if text is 1..most of the ASCII digits 0-9: the one check every parser of numbers makes
    first (CPython's str.isdigit() and int() also take '²' and '٤'; the bound keeps int() from reading a
    5,000-digit number). The encoded length equals the length only for ASCII text."""
    return 0 < len(text) <= most and text.isdigit() and len(text.encode()) == len(text)

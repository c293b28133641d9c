"""Ludo rule sets: every option as a named field of one RuleSet value and the checks that refuse clashing
combinations. The presets, the `custom` overrides syntax and the text forms live in ludus.ludo.spec, loaded
only when a rule set is read from or written as text (keeps the engine's heap small on the Pico)."""

from ludus.errors import ConfigError
from ludus.runtime import transient

# The option names, in the order a rule set prints its overrides; docs/ludo.md says what each one means.
FIELD_NAMES = (
    "track", "clockwise", "dice", "dice_sum", "entry", "six_again", "roll_first", "third_six_void",
    "capture_again", "home_again", "exact_home", "share", "capture_pairs", "blocked_landing",
    "must_capture", "capture_lap", "safe", "stars", "entry_star", "arrows", "walls", "start_tokens",
    "capture_before_home", "finish_tokens", "teams", "play_on", "entry_tries", "start_order", "points",
    "clock",
)  # fmt: skip

# Presets (ludus.ludo.spec holds each one's overrides on classic); teamup combines with any other one.
PRESET_NAMES = ("classic", "master", "blitz", "arrow", "teamup", "danish", "hebrew-40", "hebrew-56", "custom")


class RuleSet:
    """One Ludo rule set: every option is a plain attribute named as in FIELD_NAMES.

    Build one with rules_from_spec("danish"), rules_from_spec("teamup+arrow") or
    rules_from_spec("custom:base=danish,entry=5.6"); then rules.check() refuses clashes."""

    FIELDS = FIELD_NAMES  # (for ludus.ludo.spec, which does not import this module)

    def __init__(self):
        # classic values (source 002)
        self.track = 52
        self.clockwise = 1
        self.dice = 1
        self.dice_sum = 0
        self.entry = (6,)
        self.six_again = 1
        self.roll_first = 1
        self.third_six_void = 1
        self.capture_again = 1
        self.home_again = 1
        self.exact_home = 1
        self.share = 1
        self.capture_pairs = 1
        self.blocked_landing = "share"
        self.must_capture = 0
        self.capture_lap = 0
        self.safe = "classic"
        self.stars = 0
        self.entry_star = "home"
        self.arrows = 0
        self.walls = 0
        self.start_tokens = 0
        self.capture_before_home = 0
        self.finish_tokens = 4
        self.teams = 0
        self.play_on = 1
        self.entry_tries = 1
        self.start_order = "roll"
        self.points = ()
        self.clock = 15
        self.base = "classic"  # the preset the overrides sit on, for spec()

    def copy(self):
        other = RuleSet()
        for name in FIELD_NAMES:
            setattr(other, name, getattr(self, name))
        other.base = self.base
        return other

    def set(self, name, text):
        """Set an option from its text form (as written in a custom spec)."""
        setattr(self, name, _spec("parse_value")(name, text))

    def values(self):
        return tuple(getattr(self, name) for name in FIELD_NAMES)

    def __eq__(self, other):
        return isinstance(other, RuleSet) and self.values() == other.values()

    def __ne__(self, other):
        return not self.__eq__(other)

    def spec(self):
        """The shortest text naming this rule set: a preset name, or PRESET:key=value,... overrides."""
        key = self.values() + (self.base,)
        if key != _LAST[2]:  # the referee writes a notation per start it offers: one parse serves them
            _LAST[3] = _spec("spec")(self)
            _LAST[2] = key
        return _LAST[3]

    def __str__(self):
        return self.spec()

    def check(self):
        """Raise ConfigError naming the clash if options contradict each other."""
        clash = _clash(self)
        if clash:
            raise ConfigError("rule set %s: %s" % (self.spec(), clash))
        return self


def _clash(r):
    for v in r.entry:
        if not 1 <= v <= 6:
            return "entry value %d is not a die value" % v
    if not r.entry:
        return "entry needs at least one die value"
    if r.dice == 1 and r.dice_sum:
        return "dice_sum needs dice=2"
    if r.dice_sum and r.exact_home:
        return (
            "dice_sum=1 with exact_home=1: two dice sum to at least 2, so a token one square from home"
            " could never move; use exact_home=0 (bounce) or dice_sum=0"
        )
    if r.walls and not r.share:
        return "walls need shared squares (share=1): with one token per square no wall can form"
    if r.walls and not r.capture_pairs:
        return "walls and capture_pairs=0 both decide what a pair does: choose one"
    if r.walls and (r.stars or r.arrows):
        return "walls with star or arrow jumps is not defined: does a jump pass a wall?"
    if r.arrows and r.stars:
        return "arrows and stars both move a token on after landing: choose one"
    if r.arrows and r.safe == "classic":
        return "arrows sit on the classic star squares, which are then not safe: use safe=starts"
    if r.track != 52 and (r.stars or r.arrows or r.safe in ("classic", "globes")):
        return "stars, arrows, globes and classic safe squares are placed on the 52-square track only"
    if not r.share and r.safe != "none":
        return "safe squares with one token per square (share=0): tokens could not share the safe square"
    if not r.share and r.start_tokens > 1:
        return "start_tokens=%d with one token per square (share=0)" % r.start_tokens
    if r.capture_lap and not r.must_capture:
        return "capture_lap (an extra lap to capture) needs must_capture=1"
    if r.clock < 0:
        return "clock must be 0 or more seconds"
    if r.points and len(r.points) != 4:
        return "points needs four values, one per place (like 3.2.1.0)"
    return None


def rules_from_spec(text):
    """A checked RuleSet from PRESET[+PRESET][:key=value,...].

    "classic", "danish", "teamup+arrow" (Team Up combines with any other preset),
    "danish:entry=5.6,exact_home=0", "custom:base=danish,entry=5.6" (custom = overrides on a base
    preset, classic unless base= is given first). Raises ConfigError naming an unknown preset or
    option, or a clash (NotationError if the text is not of that form)."""
    if text != _LAST[0]:  # a game set-up reads its rule set several times (preset, position, record)
        _LAST[1] = _spec("rules_from_spec")(text, RuleSet)
        _LAST[0] = text
    return _LAST[1].copy()


# The last rule set text read and its RuleSet, the last rule set written and its text: reading and
# writing load ludus.ludo.spec, which on MicroPython is dropped after each use (ludus.runtime.transient), and
# loading it again and again fragments the heap.
_LAST = [None, None, None, None]  # type: list


def _spec(name):
    """The function name of ludus.ludo.spec. The module is used once per game set-up (reading the rule
    set), so on MicroPython it is dropped again at once (ludus.runtime.transient)."""
    return getattr(transient("ludus.ludo.spec"), name)

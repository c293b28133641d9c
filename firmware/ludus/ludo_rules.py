"""Ludo rule sets: every option as a named field of one RuleSet value, the presets built from the three
rule sources, the `custom` overrides syntax, and the checks that refuse clashing combinations."""

from ludus.errors import ConfigError, NotationError

# Field kinds
BOOL = 0
INT = 1
INTS = 2  # a tuple of small ints, written 5.6
# a tuple of strings is a choice

# (name, kind or choices, classic value); docs/ludo.md says what each one means
FIELDS = (
    ("track", (52, 40, 56), 52),
    ("clockwise", BOOL, 1),
    ("dice", (1, 2), 1),
    ("dice_sum", BOOL, 0),
    ("entry", INTS, (6,)),
    ("six_again", BOOL, 1),
    ("roll_first", BOOL, 1),
    ("third_six_void", BOOL, 1),
    ("capture_again", BOOL, 1),
    ("home_again", BOOL, 1),
    ("exact_home", BOOL, 1),
    ("share", BOOL, 1),
    ("capture_pairs", BOOL, 1),
    ("blocked_landing", ("share", "home", "forbid"), "share"),
    ("must_capture", BOOL, 0),
    ("capture_lap", BOOL, 0),
    ("safe", ("classic", "starts", "globes", "none"), "classic"),
    ("stars", BOOL, 0),
    ("entry_star", ("home", "stay"), "home"),
    ("arrows", BOOL, 0),
    ("walls", BOOL, 0),
    ("start_tokens", (0, 1, 2, 3, 4), 0),
    ("capture_before_home", BOOL, 0),
    ("finish_tokens", (1, 2, 3, 4), 4),
    ("teams", BOOL, 0),
    ("play_on", BOOL, 1),
    ("entry_tries", (1, 2, 3), 1),
    ("start_order", ("roll", "choice", "seat0"), "roll"),
    ("points", INTS, ()),
    ("clock", INT, 15),
)

FIELD_NAMES = tuple(f[0] for f in FIELDS)

# What the app of source 002 adds and sources 001 and 000 do not have: rolling again after a six
# before moving, the void third six, extra rolls for a capture and for reaching home, the turn clock.
_NO_APP_RULES = (
    ("roll_first", 0),
    ("third_six_void", 0),
    ("capture_again", 0),
    ("home_again", 0),
    ("clock", 0),
)
# Source 000's common rules on either of its boards: one token per square, no safe squares.
_HEBREW = _NO_APP_RULES + (("share", 0), ("safe", "none"))

# Each preset: (name, overrides on classic). teamup combines with any other: "teamup+arrow".
PRESETS = (
    ("classic", ()),
    ("master", (("walls", 1),)),
    (
        "blitz",
        (("start_tokens", 2), ("capture_before_home", 1), ("finish_tokens", 1), ("play_on", 0), ("clock", 5)),
    ),
    ("arrow", (("arrows", 1), ("safe", "starts"))),
    ("teamup", (("teams", 1),)),
    (
        "danish",
        _NO_APP_RULES
        + (
            ("capture_pairs", 0),
            ("blocked_landing", "home"),
            ("must_capture", 1),
            ("capture_lap", 1),
            ("safe", "globes"),
            ("stars", 1),
            ("entry_tries", 3),
            ("start_order", "choice"),
            ("points", (3, 2, 1, 0)),
        ),
    ),
    ("hebrew-40", (("track", 40),) + _HEBREW),
    ("hebrew-56", (("track", 56),) + _HEBREW),
)

PRESET_NAMES = tuple(p[0] for p in PRESETS) + ("custom",)


def _kind(name):
    for f in FIELDS:
        if f[0] == name:
            return f[1]
    raise ConfigError("unknown rule option %r: expected one of %s" % (name, ", ".join(FIELD_NAMES)))


def _parse_value(name, text):
    kind = _kind(name)
    if kind == BOOL:
        if text in ("1", "yes", "on", "true"):
            return 1
        if text in ("0", "no", "off", "false"):
            return 0
        raise ConfigError("rule option %s=%s: expected 1 or 0" % (name, text))
    if kind == INT:
        try:
            return int(text)
        except ValueError:
            raise ConfigError("rule option %s=%s: expected a whole number" % (name, text)) from None
    if kind == INTS:
        if text in ("", "-"):
            return ()
        try:
            return tuple(int(x) for x in text.split("."))
        except ValueError:
            raise ConfigError(
                "rule option %s=%s: expected numbers joined by dots, like 5.6" % (name, text)
            ) from None
    for choice in kind:
        if str(choice) == text:
            return choice
    raise ConfigError("rule option %s=%s: expected one of %s" % (name, text, ", ".join(str(c) for c in kind)))


def _format_value(name, value):
    kind = _kind(name)
    if kind == INTS:
        return ".".join(str(v) for v in value) if value else "-"
    return str(value)


class RuleSet:
    """One Ludo rule set: every option is a plain attribute named as in FIELDS.

    Build one with rules_from_spec("danish"), rules_from_spec("teamup+arrow") or
    rules_from_spec("custom:base=danish,entry=5.6"); then rules.check() refuses clashes."""

    def __init__(self):
        # classic values (source 002); the FIELDS table lists the same names for parsing
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
        setattr(self, name, _parse_value(name, text))

    def values(self):
        return tuple(getattr(self, name) for name in FIELD_NAMES)

    def __eq__(self, other):
        return isinstance(other, RuleSet) and self.values() == other.values()

    def __ne__(self, other):
        return not self.__eq__(other)

    def spec(self):
        """The shortest text naming this rule set: a preset name, or PRESET:key=value,... overrides."""
        base = _preset(self.base)
        if self.values() == base.values():
            return self.base
        diffs = []
        for name in FIELD_NAMES:
            v = getattr(self, name)
            if v != getattr(base, name):
                diffs.append("%s=%s" % (name, _format_value(name, v)))
        return self.base + ":" + ",".join(diffs)

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


def _plain_preset(name):
    if name == "custom":
        name = "classic"
    for pname, overrides in PRESETS:
        if pname == name:
            r = RuleSet()
            for key, value in overrides:
                setattr(r, key, value)
            r.base = pname
            return r
    raise ConfigError("unknown Ludo preset %r: expected one of %s" % (name, ", ".join(PRESET_NAMES)))


def rules_from_spec(text):
    """A checked RuleSet from PRESET[+PRESET][:key=value,...].

    "classic", "danish", "teamup+arrow" (Team Up combines with any other preset),
    "danish:entry=5.6,exact_home=0", "custom:base=danish,entry=5.6" (custom = overrides on a base
    preset, classic unless base= is given first). Raises ConfigError naming an unknown preset or
    option, or a clash."""
    text = text.strip()
    if not text or " " in text:
        raise NotationError("rule set %r: expected PRESET or PRESET:key=value,..." % text)
    name, _, rest = text.partition(":")
    overrides = []
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise NotationError("rule option %r in %r: expected key=value" % (item, text))
            overrides.append((key, value))
    if name == "custom" and overrides and overrides[0][0] == "base":
        name = overrides.pop(0)[1]
        if name == "custom":
            raise ConfigError("custom:base=custom: the base must be a preset")
    parts = name.split("+")
    teams = 0
    if len(parts) > 1:
        others = [p for p in parts if p != "teamup"]
        if len(parts) != 2 or len(others) != 1:
            raise ConfigError("rule set %r: only teamup combines with another preset, as teamup+NAME" % text)
        teams = 1
        name = others[0]
    rules = _preset("teamup+" + name if teams else name)
    for key, value in overrides:
        if key == "base":
            raise ConfigError("rule option base= must come first, right after custom:")
        rules.set(key, value)
    return rules.check()


def _preset(name):
    """RuleSet of a preset name, including teamup+NAME."""
    if name.startswith("teamup+"):
        r = _plain_preset(name[7:])
        r.teams = 1
        r.base = name
        return r
    return _plain_preset(name)

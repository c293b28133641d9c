"""Ludo rule sets as text: the presets built from the three rule sources, the `custom` overrides syntax
(`danish:entry=5.6`), reading and writing option values. Loaded only when a rule set is read from or
written as text, and on MicroPython dropped again right after (ludus.ludo.rules._spec), so the presets'
tables do not stay in the engine's heap while a game runs. It builds rule sets of the class it is given
(ludus.ludo.rules.RuleSet, whose FIELDS name every option), so it never imports the rules module."""

from ludus.errors import ConfigError, NotationError
from ludus.scan import ascii_digits

# Each option's kind: b yes/no (1/0), i a whole number, l small numbers joined by dots (5.6), or its
# choices joined by |. One string, searched by name (" NAME:KIND ").
KINDS = (
    " track:52|40|56 clockwise:b dice:1|2 dice_sum:b entry:l six_again:b roll_first:b third_six_void:b"
    " capture_again:b home_again:b exact_home:b share:b capture_pairs:b blocked_landing:share|home|forbid"
    " must_capture:b capture_lap:b safe:classic|starts|globes|none stars:b entry_star:home|stay arrows:b"
    " walls:b start_tokens:0|1|2|3|4 capture_before_home:b finish_tokens:1|2|3|4 teams:b play_on:b"
    " entry_tries:1|2|3 start_order:roll|choice|seat0 points:l clock:i "
)

# What the app of source 002 adds and sources 001 and 000 do not have: rolling again after a six before
# moving, the void third six, extra rolls for a capture and for reaching home, the turn clock.
_NO_APP_RULES = "roll_first=0,third_six_void=0,capture_again=0,home_again=0,clock=0"
# Source 000's common rules on either of its boards: one token per square, no safe squares.
_HEBREW = "," + _NO_APP_RULES + ",share=0,safe=none"

# Each preset's overrides on classic, in the custom syntax; teamup combines with any other: "teamup+arrow".
PRESETS = (
    ("classic", ""),
    ("master", "walls=1"),
    ("blitz", "start_tokens=2,capture_before_home=1,finish_tokens=1,play_on=0,clock=5"),
    ("arrow", "arrows=1,safe=starts"),
    ("teamup", "teams=1"),
    (
        "danish",
        _NO_APP_RULES + ",capture_pairs=0,blocked_landing=home,must_capture=1,capture_lap=1,safe=globes,"
        "stars=1,entry_tries=3,start_order=choice,points=3.2.1.0",
    ),
    ("hebrew-40", "track=40" + _HEBREW),
    ("hebrew-56", "track=56" + _HEBREW),
)


def kind(name):
    """The kind of option name: "b", "i", "l" or a tuple of its choices. ConfigError if unknown."""
    at = KINDS.find(" %s:" % name)
    if at < 0 or not name:
        names = [item.partition(":")[0] for item in KINDS.split()]
        raise ConfigError("unknown rule option %r: expected one of %s" % (name, ", ".join(names)))
    at += len(name) + 2
    k = KINDS[at : KINDS.find(" ", at)]
    if len(k) == 1:
        return k
    return tuple(int(c) if c.isdigit() else c for c in k.split("|"))


def parse_value(name, text):
    k = kind(name)
    if k == "b":
        if text in ("1", "yes", "on", "true"):
            return 1
        if text in ("0", "no", "off", "false"):
            return 0
        raise ConfigError("rule option %s=%s: expected 1 or 0" % (name, text))
    if k == "i":
        # digits 0-9 only (CPython's int() also reads other scripts' digits), and a bounded length
        if not ascii_digits(text, 4):
            raise ConfigError("rule option %s=%s: expected a whole number in digits 0-9" % (name, text))
        return int(text)
    if k == "l":
        if text in ("", "-"):
            return ()
        for x in text.split("."):
            if not ascii_digits(x, 2):
                raise ConfigError(
                    "rule option %s=%s: expected numbers joined by dots, like 5.6" % (name, text)
                )
        return tuple(int(x) for x in text.split("."))
    for choice in k:
        if str(choice) == text:
            return choice
    raise ConfigError("rule option %s=%s: expected one of %s" % (name, text, ", ".join(str(c) for c in k)))


def format_value(name, value):
    if kind(name) == "l":
        return ".".join(str(v) for v in value) if value else "-"
    return str(value)


def spec(rules):
    """The shortest text naming a rule set: a preset name, or PRESET:key=value,... overrides."""
    base = preset(rules.base, type(rules))
    if rules.values() == base.values():
        return rules.base
    diffs = []
    for name in rules.FIELDS:
        v = getattr(rules, name)
        if v != getattr(base, name):
            diffs.append("%s=%s" % (name, format_value(name, v)))
    return rules.base + ":" + ",".join(diffs)


def _plain_preset(name, rule_set):
    if name == "custom":
        name = "classic"
    for pname, overrides in PRESETS:
        if pname == name:
            r = rule_set()
            if overrides:
                for item in overrides.split(","):
                    key, _, value = item.partition("=")
                    setattr(r, key, parse_value(key, value))
            r.base = pname
            return r
    names = [p for p, _ in PRESETS] + ["custom"]
    raise ConfigError("unknown Ludo preset %r: expected one of %s" % (name, ", ".join(names)))


def preset(name, rule_set):
    """The rule set (of class rule_set) of a preset name, including teamup+NAME."""
    if name.startswith("teamup+"):
        r = _plain_preset(name[7:], rule_set)
        r.teams = 1
        r.base = name
        return r
    return _plain_preset(name, rule_set)


def rules_from_spec(text, rule_set):
    """ludus.ludo.rules.rules_from_spec: a checked rule set (of class rule_set) from
    PRESET[+PRESET][:key=value,...]."""
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
            for pair in overrides:
                if pair[0] == key:
                    raise ConfigError("rule set %r: option %s is given twice" % (text, key))
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
    rules = preset("teamup+" + name if teams else name, rule_set)
    for key, value in overrides:
        if key == "base":
            raise ConfigError("rule option base= must come first, right after custom:")
        setattr(rules, key, parse_value(key, value))
    return rules.check()

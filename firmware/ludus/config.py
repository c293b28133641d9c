"""The board's configuration (`config.json` on the Pico): which board and game, brightness, the current
budget, sound, the turn clock, and the pins. read_config() checks every field and gives back a whole
configuration, a safe default standing in for each field that is missing or wrong, plus one line per
fault, so the firmware can show and report the faults and still run (docs/config.md).

    config, faults = read_config(text)     # text: the file's JSON (None: no file)
    for fault in faults:
        print("config:", fault)            # and an error pattern on the LEDs
"""

import json

from ludus.scan import repeated_key

FORMAT = "ludus-config"
VERSION = 1

GPIO_COUNT = 30  # GPIO 0..29 on the RP2040
ADC_PINS = (26, 27, 28)
# GPIOs the Pico uses on its own board, not on its header (Raspberry Pi Pico datasheet, "Pinout")
INTERNAL_PINS = {
    23: "the Pico's power-save (SMPS mode) control",
    24: "the Pico's VBUS sense",
    25: "the Pico's own LED",
    29: "the Pico's VSYS/3 measurement",
}
BUDGET_MAX_MA = 15999  # the light scene's limit (its fixed-point scaling)


def defaults():
    """The configuration used where the file says nothing (or something wrong): a Ludo board of 52
    squares, any Classic game, a quarter brightness, the board's own budget, sound on, no turn clock, no
    bots, the pins of hardware/README.md."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "board": "ludo52",
        "game": "ludo/classic",
        "brightness": 64,
        "budget_ma": None,
        "sound": True,
        "turn_clock": False,
        "bots": {},
        "names": {},
        "season": None,
        "journal_kb": 48,
        "games_kept": 10,
        "pins": {
            "leds": 15,
            "button": 14,
            "buzzer": 22,
            "supply": 21,  # high while the external 5 V supply feeds the board (hardware/README.md)
            "sensors": {"kind": "shift", "load": 17, "sck": 18, "miso": 16},
        },
    }


def read_config(text):
    """(configuration, faults): the file's fields where they are right, the defaults elsewhere, and a
    line naming each fault. Never raises for bad content."""
    config = defaults()
    faults = []
    if text is None:
        faults.append("no config.json: the defaults are used")
        return config, faults
    try:
        k = repeated_key(text)
        data = json.loads(text)
    except (ValueError, RuntimeError, MemoryError) as exc:  # (nested too deeply: RuntimeError)
        faults.append("config.json is not valid JSON (%s): the defaults are used" % (exc,))
        return config, faults
    if not isinstance(data, dict):
        faults.append("config.json must be a JSON object: the defaults are used")
        return config, faults
    if k is not None:
        faults.append("key %r appears twice in one object: the last one is used" % (k,))
    if data.get("format", FORMAT) != FORMAT or data.get("version", VERSION) != VERSION:
        faults.append("format must be %r version %d" % (FORMAT, VERSION))
    for key in data:
        if key not in config:
            faults.append("unknown field %r (known: %s)" % (key, ", ".join(sorted(config))))
    _text(data, config, faults, "board")
    _text(data, config, faults, "game")
    if (
        "game" in data
        and isinstance(data["game"], str)
        and not data["game"].startswith(("ludo/", "checkers"))
    ):
        faults.append("game %r is not a preset (ludo/RULES or checkers...)" % (data["game"],))
        config["game"] = defaults()["game"]
    _int(data, config, faults, "brightness", 0, 255)
    if data.get("budget_ma") is not None:
        _int(data, config, faults, "budget_ma", 1, BUDGET_MAX_MA)
    if "sound" in data:
        if isinstance(data["sound"], bool):
            config["sound"] = data["sound"]
        else:
            faults.append("sound must be true or false, not %r" % (data["sound"],))
    if "turn_clock" in data:
        v = data["turn_clock"]
        if isinstance(v, bool) or (isinstance(v, int) and 1 <= v <= 3600):
            config["turn_clock"] = v
        else:
            faults.append("turn_clock must be false, true or seconds 1..3600, not %r" % (v,))
    _checked(data, config, faults, "bots", bots_fault)
    _checked(data, config, faults, "names", names_fault)
    _checked(data, config, faults, "season", season_fault)
    _int(data, config, faults, "journal_kb", 8, 192)
    if config["journal_kb"] % 4:
        faults.append(
            "journal_kb must be a multiple of 4 (flash blocks are 4 KiB), not %d" % config["journal_kb"]
        )
        config["journal_kb"] = defaults()["journal_kb"]
    _int(data, config, faults, "games_kept", 0, 100)
    if "pins" in data:
        _pins(data["pins"], config, faults)
    return config, faults


LUDO_SEATS = ("green", "yellow", "red", "blue")
BOT_LEVELS = {"ludo": ("random", "preferred", "strong"), "checkers": ("random", "greedy", "strong")}


def bots_fault(bots, game):
    """What is wrong with a `bots` value for a game preset (None if nothing): an object from seat (Ludo:
    green, yellow, red, blue or 0..3; Chinese Checkers: 0..5, in the game's seat order) to a level
    (Ludo: random, preferred, strong; Chinese Checkers: random, greedy, strong)."""
    family = "ludo" if game.startswith("ludo/") else "checkers"
    levels = BOT_LEVELS[family]
    if not isinstance(bots, dict):
        return 'bots must be an object from seat to level, like {"red": "strong"}, not %r' % (bots,)
    for key, level in bots.items():
        if bot_seat(key, family) < 0:
            seats = "green, yellow, red, blue or 0..3" if family == "ludo" else "0..5"
            return "bots: %r is not a seat (expected %s)" % (key, seats)
        if level not in levels:
            return "bots: %s's level %r is not one of %s" % (key, level, ", ".join(levels))
    return None


def names_fault(names, game):
    """What is wrong with a `names` value for a game preset (None if nothing): an object from seat (as
    in `bots`) to the name of its player, 1 to 16 characters, no two alike. A Ludo seat cannot take
    another colour's name (a season would mix the two up)."""
    family = "ludo" if game.startswith("ludo/") else "checkers"
    if not isinstance(names, dict):
        return 'names must be an object from seat to name, like {"red": "Anna"}, not %r' % (names,)
    by_seat = {}
    for key, name in names.items():
        seat = bot_seat(key, family)
        if seat < 0:
            seats = "green, yellow, red, blue or 0..3" if family == "ludo" else "0..5"
            return "names: %r is not a seat (expected %s)" % (key, seats)
        if seat in by_seat:
            return "names: seat %r is named twice" % (key,)
        if family == "ludo" and isinstance(name, str) and name.lower() in LUDO_SEATS:
            if LUDO_SEATS.index(name.lower()) != seat:
                return "names: %s cannot be called %r, another seat's colour" % (key, name)
        by_seat[seat] = name
    from ludus.record.players import players_fault

    fault = players_fault(by_seat)
    return "names: " + fault if fault else None


def seat_names(config):
    """config's names as {seat number: name}, for the referee."""
    return _by_seat(config, "names")


def _by_seat(config, field):
    # {seat number: value} of a field keyed by seat; keys that are no seat of this game's family (Ludo
    # colours, after a new_game of Chinese Checkers) are left out: they were checked for another game
    family = "ludo" if config["game"].startswith("ludo/") else "checkers"
    out = {}
    for key, value in config[field].items():
        seat = bot_seat(key, family)
        if seat >= 0:
            out[seat] = value
    return out


def season_fault(rules, game=None):
    """What is wrong with a `season` value (None if nothing): the Ludo rule set whose games the board
    counts in its season, like "danish", or null for none. (game: unused; every field's check takes it.)"""
    if rules is None:
        return None
    if not isinstance(rules, str) or not 0 < len(rules) <= 64:
        return 'season must be a Ludo rule set like "danish", or null, not %r' % (rules,)
    from ludus.errors import LudusError
    from ludus.ludo.season import points_of

    try:
        points_of(rules)
    except LudusError as exc:
        return "season %r: %s" % (rules, exc)
    return None


def bot_seat(key, family):
    """The seat number a `bots` key names (a Ludo colour or a digit), or -1."""
    if family == "ludo" and key in LUDO_SEATS:
        return LUDO_SEATS.index(key)
    top = 3 if family == "ludo" else 5
    if isinstance(key, str) and len(key) == 1 and "0" <= key <= str(top):
        return ord(key) - 48
    return -1


def bot_seats(config):
    """config's bots as {seat number: level}, for the referee."""
    return _by_seat(config, "bots")


def _checked(data, config, faults, key, fault_of):
    # a field checked by its own fault_of(value, game): taken if it has none, else the fault said
    if key in data:
        fault = fault_of(data[key], config["game"])
        if fault:
            faults.append(fault)
        else:
            config[key] = data[key]


def _text(data, config, faults, key):
    if key in data:
        v = data[key]
        if isinstance(v, str) and 0 < len(v) <= 64:
            config[key] = v
        else:
            faults.append("%s must be a name of 1 to 64 characters, not %r" % (key, v))


def _int(data, config, faults, key, lo, hi):
    if key not in data:
        return
    v = data[key]
    if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi:
        config[key] = v
    else:
        faults.append("%s must be a whole number %d..%d, not %r" % (key, lo, hi, v))


def _gpio(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < GPIO_COUNT and v not in INTERNAL_PINS


def _pin_fault(key, v, nullable=False):
    # what is wrong with a pin's value, by name (a GPIO inside the Pico is named as such)
    if isinstance(v, int) and not isinstance(v, bool) and v in INTERNAL_PINS:
        return "pins.%s: GPIO %d is %s, not a pin on its header" % (key, v, INTERNAL_PINS[v])
    also = ", or null" if nullable else ""
    return "pins.%s must be a GPIO 0..%d%s, not %r" % (key, GPIO_COUNT - 1, also, v)


def budget_fault(budget_ma, board):
    """What is wrong with a `budget_ma` for BOARD (None if nothing): it must cover the idle draw of the
    board's LEDs, which a frame draws even when dark."""
    if budget_ma is None:
        return None
    idle = board.led_count * int(board.idle_ma + 0.5)
    if budget_ma <= idle:
        return "budget_ma %d does not cover the idle draw of this board's %d LEDs (%d mA)" % (
            budget_ma,
            board.led_count,
            idle,
        )
    return None


def _pins(pins, config, faults):
    # every pin a GPIO, each used once; a wrong pin section leaves the default pins in place
    if not isinstance(pins, dict):
        faults.append("pins must be an object")
        return
    found = dict(config["pins"])
    bad = len(faults)
    for key in pins:
        if key not in found:
            faults.append("pins: unknown pin %r (known: %s)" % (key, ", ".join(sorted(found))))
    for key in ("leds", "button", "buzzer", "supply"):
        if key in pins:
            v = pins[key]
            nullable = key in ("buzzer", "supply")
            if _gpio(v) or (nullable and v is None):
                found[key] = v
            else:
                faults.append(_pin_fault(key, v, nullable))
    if "sensors" in pins:
        s = pins["sensors"]
        kind = s.get("kind") if isinstance(s, dict) else None
        if kind == "shift":
            for key in ("load", "sck", "miso"):
                if not _gpio(s.get(key)):
                    faults.append(_pin_fault("sensors." + key, s.get(key)))
        elif kind == "mux":
            sel = s.get("select")
            adc = s.get("adc")
            if not (isinstance(sel, list) and len(sel) == 4 and all(_gpio(p) for p in sel)):
                inside = (
                    [p for p in sel if isinstance(p, int) and p in INTERNAL_PINS]
                    if isinstance(sel, list)
                    else []
                )
                faults.append(
                    _pin_fault("sensors.select", inside[0])
                    if inside
                    else "pins.sensors.select must be 4 GPIOs (S0..S3), not %r" % (sel,)
                )
            if not (isinstance(adc, list) and 1 <= len(adc) <= 3 and all(p in ADC_PINS for p in adc)):
                faults.append("pins.sensors.adc must be 1 to 3 of the ADC pins 26, 27, 28, not %r" % (adc,))
        else:
            faults.append('pins.sensors.kind must be "shift" or "mux", not %r' % (kind,))
        if len(faults) == bad:
            found["sensors"] = s
    if len(faults) == bad:
        used = [found["leds"], found["button"]]
        used += [found[k] for k in ("buzzer", "supply") if found[k] is not None]
        s = found["sensors"]
        used += [s["load"], s["sck"], s["miso"]] if s["kind"] == "shift" else s["select"] + s["adc"]
        for p in used:
            if used.count(p) > 1:
                faults.append("pins: GPIO %d is used twice" % p)
                break
    if len(faults) == bad:
        config["pins"] = found
    else:
        faults.append("pins: the default pins are used")

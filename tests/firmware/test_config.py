"""The board's config.json (docs/config.md): a whole configuration back for any file, the defaults
standing in for each field that is missing or wrong, one line naming each fault. Runs on both
runtimes."""

import json

from ludus.config import defaults, read_config


def test_no_file_and_an_empty_file_give_the_defaults():
    config, faults = read_config(None)
    assert config == defaults() and faults == ["no config.json: the defaults are used"]
    config, faults = read_config("{}")
    assert config == defaults() and faults == []


def test_a_good_file_is_read_whole():
    text = json.dumps(
        {
            "board": "checkers",
            "game": "checkers",
            "brightness": 200,
            "budget_ma": 1500,
            "sound": False,
            "turn_clock": 20,
            "pins": {
                "leds": 2,
                "button": 3,
                "buzzer": None,
                "sensors": {"kind": "mux", "select": [6, 7, 8, 9], "adc": [26, 27]},
            },
        }
    )
    config, faults = read_config(text)
    assert faults == []
    assert config["board"] == "checkers" and config["brightness"] == 200 and config["budget_ma"] == 1500
    assert config["sound"] is False and config["turn_clock"] == 20
    assert config["pins"]["sensors"]["adc"] == [26, 27] and config["pins"]["buzzer"] is None


def test_each_wrong_field_is_named_and_replaced_by_its_default():
    text = json.dumps(
        {
            "brightness": 999,
            "sound": "loud",
            "turn_clock": -1,
            "game": "chess",
            "colour": "red",
            "budget_ma": 0,
        }
    )
    config, faults = read_config(text)
    d = defaults()
    assert config["brightness"] == d["brightness"] and config["sound"] is True and config["game"] == d["game"]
    text_of = "\n".join(faults)
    for part in (
        "brightness must be a whole number 0..255, not 999",
        "sound must be true or false, not 'loud'",
        "turn_clock must be false, true or seconds 1..3600, not -1",
        "game 'chess' is not a preset",
        "unknown field 'colour'",
        "budget_ma must be a whole number 1..15999, not 0",
    ):
        assert part in text_of, (part, faults)


def test_bad_pins_keep_the_default_pins():
    for pins, named in (
        ({"leds": 30}, "pins.leds must be a GPIO 0..29, not 30"),
        ({"button": True}, "pins.button must be a GPIO"),
        ({"leds": 14}, "pins: GPIO 14 is used twice"),
        (
            {"sensors": {"kind": "mux", "select": [1, 2, 3], "adc": [26]}},
            "pins.sensors.select must be 4 GPIOs",
        ),
        ({"sensors": {"kind": "mux", "select": [1, 2, 3, 4], "adc": [5]}}, "pins.sensors.adc must be 1 to 3"),
        ({"sensors": {"kind": "spi"}}, 'pins.sensors.kind must be "shift" or "mux"'),
        ({"laser": 3}, "pins: unknown pin 'laser'"),
        ("GP15", "pins must be an object"),
    ):
        config, faults = read_config(json.dumps({"pins": pins}))
        assert config["pins"] == defaults()["pins"], pins
        assert any(named in f for f in faults), (named, faults)


def test_the_picos_own_pins_are_refused_by_name():
    # GP23, GP24, GP25 and GP29 are wired on the Pico itself, not to its header
    for pins, named in (
        ({"leds": 24}, "pins.leds: GPIO 24 is the Pico's VBUS sense, not a pin on its header"),
        ({"button": 25}, "pins.button: GPIO 25 is the Pico's own LED"),
        ({"buzzer": 23}, "pins.buzzer: GPIO 23 is the Pico's power-save (SMPS mode) control"),
        ({"supply": 29}, "pins.supply: GPIO 29 is the Pico's VSYS/3 measurement"),
        ({"sensors": {"kind": "shift", "load": 25, "sck": 18, "miso": 16}}, "pins.sensors.load: GPIO 25"),
        (
            {"sensors": {"kind": "mux", "select": [20, 21, 22, 23], "adc": [26]}},
            "pins.sensors.select: GPIO 23",
        ),
        ({"supply": 14}, "pins: GPIO 14 is used twice"),
    ):
        config, faults = read_config(json.dumps({"pins": pins}))
        assert config["pins"] == defaults()["pins"], pins
        assert any(named in f for f in faults), (named, faults)
    config, faults = read_config(json.dumps({"pins": {"supply": None}}))
    assert faults == [] and config["pins"]["supply"] is None  # a board built without the sense line


def test_a_budget_the_light_scene_cannot_run_is_refused_for_the_board():
    from ludus.board.definition import BoardDefinition
    from ludus.config import budget_fault
    from support import root

    config, faults = read_config(json.dumps({"budget_ma": 16000}))
    assert config["budget_ma"] is None and "budget_ma must be a whole number 1..15999" in faults[0]
    board = BoardDefinition.load(root() + "/hardware/boards/ludo40.json")  # 86 LEDs, 1 mA each when dark
    assert (
        budget_fault(86, board) == "budget_ma 86 does not cover the idle draw of this board's 86 LEDs (86 mA)"
    )
    assert budget_fault(87, board) is None and budget_fault(None, board) is None


def test_broken_json_and_repeated_keys_are_named():
    config, faults = read_config('{"brightness": ')
    assert config == defaults() and faults[0].startswith("config.json is not valid JSON")
    config, faults = read_config("[1, 2]")
    assert faults == ["config.json must be a JSON object: the defaults are used"]
    config, faults = read_config('{"brightness": 10, "brightness": 20}')
    assert config["brightness"] == 20 and "key 'brightness' appears twice" in faults[0]
    config, faults = read_config("[" * 5000)
    assert config == defaults() and faults


def test_bots_are_read_by_seat_and_level_and_a_bad_one_is_named():
    from ludus.config import bot_seats

    config, faults = read_config(
        json.dumps({"game": "ludo/danish", "bots": {"red": "strong", "1": "random"}})
    )
    assert faults == [] and bot_seats(config) == {2: "strong", 1: "random"}
    config, faults = read_config(json.dumps({"game": "checkers", "bots": {"3": "greedy"}}))
    assert faults == [] and bot_seats(config) == {3: "greedy"}
    for bots, part in (
        ({"purple": "strong"}, "'purple' is not a seat (expected green, yellow, red, blue or 0..3)"),
        ({"red": "greedy"}, "red's level 'greedy' is not one of random, preferred, strong"),
        (["red"], "bots must be an object"),
        ({"4": "strong"}, "'4' is not a seat"),
    ):
        config, faults = read_config(json.dumps({"game": "ludo/classic", "bots": bots}))
        assert config["bots"] == {} and len(faults) == 1 and part in faults[0], (part, faults)
    config, faults = read_config(json.dumps({"game": "checkers", "bots": {"0": "preferred"}}))
    assert config["bots"] == {} and "random, greedy, strong" in faults[0]

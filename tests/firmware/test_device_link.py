"""The USB link's commands on a device (ludus.device) on the fake platform: replies with their ids,
bad lines refused, set_config, and the light command calibration uses. Runs on both runtimes."""

import json
from binascii import hexlify

from device_bench import Bench

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True


def test_commands_answer_with_their_id_and_bad_lines_are_refused():
    b = Bench()
    b.at(200, lambda: b.send({"cmd": "hello", "id": 1}))
    b.at(240, lambda: b.platform.serial.feed(b'not json\n{"id": 3}\n[1, 2]\n'))
    b.at(300, lambda: b.send({"cmd": "nonsense", "id": 4}))
    b.at(340, lambda: b.send({"cmd": "stats", "id": 5}))
    # a 3,000-byte line, fed in pieces (one 3 KB block of the test's own would not fit the unix
    # port's broken-up 160K heap beside the device)
    b.at(380, lambda: b.platform.serial.feed(b"{"))
    for k in range(10):
        b.at(381 + k, lambda: b.platform.serial.feed(b"x" * 300))
    b.at(391, lambda: b.platform.serial.feed(b"}\n"))
    b.at(420, lambda: b.send({"cmd": "state", "id": 6}))
    b.at(460, lambda: b.send({"cmd": "levels", "id": 7}))
    b.at(500, lambda: b.send({"cmd": "frame", "id": 8}))
    b.run(700)
    replies = b.events(None, "reply")
    hello = [r for r in replies if r.get("id") == 1][0]
    assert hello["ok"] and hello["protocol"] == 1 and hello["board"] == "checkers"
    errors = [r for r in replies if r["reply"] == "error"]
    assert len(errors) == 4, errors  # no JSON, no "cmd", not an object, too long
    assert any("longer than" in e["error"] for e in errors)
    unknown = [r for r in replies if r.get("id") == 4][0]
    assert not unknown["ok"] and "unknown command" in unknown["error"]
    stats = [r for r in replies if r.get("id") == 5][0]
    assert stats["tick"]["ticks"] > 0 and stats["journal"]["blocks"] == 2
    assert [r for r in replies if r.get("id") == 6][0]["referee"]["phase"] == "setup"
    assert len([r for r in replies if r.get("id") == 7][0]["levels"]) == 128
    # the frame last written to the LEDs, as `ludus sim --device` mirrors it
    grb = [r for r in replies if r.get("id") == 8][0]["grb"]
    assert len(grb) == 6 * 127 and grb == hexlify(b.device.app.sent).decode()


def test_set_config_refuses_a_bad_one_and_restarts_with_a_good_one():
    b = Bench()
    b.at(200, lambda: b.send({"cmd": "set_config", "id": 1, "config": {"brightness": 999}}))
    b.at(
        300,
        lambda: b.send(
            {
                "cmd": "set_config",
                "id": 2,
                "config": {"board": "checkers", "game": "checkers", "brightness": 10},
            }
        ),
    )
    b.run(1500)
    r1 = [r for r in b.events(None, "reply") if r.get("id") == 1][0]
    assert not r1["ok"] and "brightness" in r1["faults"][0]
    r2 = [r for r in b.events(None, "reply") if r.get("id") == 2][0]
    assert r2["ok"] and r2["restart"]
    assert json.loads(b.platform.files["config.json"])["brightness"] == 10
    assert b.device.config["brightness"] == 10 and len(b.events("boot")) == 2


def test_the_light_command_shows_leds_until_told_to_resume():
    b = Bench()
    b.at(200, lambda: b.send({"cmd": "light", "id": 1, "leds": [3], "rgb": [255, 0, 0]}))
    b.at(600, lambda: b.send({"cmd": "light", "id": 2, "leds": [999]}))
    b.run(700)
    strip = b.platform.strip.last
    assert strip[9:12] == bytes((0, 255, 0)) and strip[:9] == bytes(9)  # GRB: red, gamma keeps 255
    bad = [r for r in b.events(None, "reply") if r.get("id") == 2][0]
    assert not bad["ok"] and "LED numbers" in bad["error"]


def test_lights_come_back_at_once_when_the_light_command_ends():
    b = Bench()
    b.at(100, b.setup_checkers)
    b.at(700, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(800, lambda: b.platform.put(b.cell("h16"), 1))
    b.at(1500, lambda: b.send({"cmd": "light", "id": 1, "leds": [0], "rgb": [0, 0, 255]}))
    b.at(1900, lambda: b.send({"cmd": "light", "id": 2}))
    b.run(2000)
    assert [r["lights"] for r in b.events(None, "reply") if r.get("id") == 2] == ["game"]
    app = b.device.app
    shown = bytes(app.pixels.table[v] for v in app.frame)  # the game's frame as the driver sends it
    assert bytes(b.platform.strip.last) == shown
    assert bytes(b.platform.strip.last[0:3]) != bytes((0, 0, 255))  # the blue calibration LED is gone


def test_the_journal_command_keeps_the_dice_seed_secret():
    b = Bench()
    b.at(0, b.setup_checkers)
    b.at(600, lambda: b.send({"cmd": "journal", "id": 1}))
    b.run(900)
    reply = [r for r in b.events(None, "reply") if r.get("id") == 1][0]
    state = reply["state"]
    assert reply["ok"] and json.loads(state["record"])["start"] == "checkers/2"
    assert state["seed"] is None  # the journal holds it; the link does not give it out
    assert b.device.journal.state()["seed"]


def test_the_bots_command_sets_the_seats_the_board_plays_and_keeps_them():
    b = Bench()
    b.at(200, lambda: b.send({"cmd": "bots", "id": 1}))
    b.at(240, lambda: b.send({"cmd": "bots", "id": 2, "bots": {"1": "strong"}}))
    b.at(280, lambda: b.send({"cmd": "bots", "id": 3, "bots": {"1": "preferred"}}))
    b.at(320, lambda: b.send({"cmd": "bots", "id": 4, "bots": "all"}))
    b.run(500)
    replies = {r.get("id"): r for r in b.events(None, "reply")}
    assert replies[1]["ok"] and replies[1]["bots"] == {}
    assert replies[2]["ok"] and replies[2]["bots"] == {"1": "strong"}
    assert b.device.app.referee.bot_levels() == {1: "strong"}
    assert json.loads(b.platform.files["config.json"])["bots"] == {"1": "strong"}
    assert not replies[3]["ok"] and "'preferred' is not one of random, greedy, strong" in replies[3]["error"]
    assert not replies[4]["ok"] and "bots must be an object" in replies[4]["error"]
    assert b.device.app.referee.bot_levels() == {1: "strong"} and len(b.events("boot")) == 1


def test_the_names_command_refuses_bad_names_and_keeps_good_ones():
    b = Bench()
    b.at(200, lambda: b.send({"cmd": "names", "id": 1, "names": {"0": "Anna"}}))
    b.at(240, lambda: b.send({"cmd": "names", "id": 2, "names": {"0": 7}}))
    b.at(280, lambda: b.send({"cmd": "names", "id": 3, "names": ["Bo"]}))
    b.run(500)
    replies = {r.get("id"): r for r in b.events(None, "reply")}
    assert replies[1]["ok"] and replies[1]["names"] == {"0": "Anna"}
    assert not replies[2]["ok"] and "nothing changed" in replies[2]["error"]
    assert not replies[3]["ok"] and "nothing changed" in replies[3]["error"]
    assert json.loads(b.platform.files["config.json"])["names"] == {"0": "Anna"}
    assert len(b.events("boot")) == 1 and not b.events("fault")

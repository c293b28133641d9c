"""The firmware knows its hardware (issue 36): the LEDs' current budget follows the supply-sense line,
never the configuration alone; a sensor chain whose data line is broken is said to be broken rather
than read as an empty board; a budget the light scene cannot run is refused by name. On the fake
platform; runs on both runtimes (the emulated Pico's supply line and chain: tests/host/test_pico_power.py)."""

from device_bench import Bench, _config

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True


def _draw_ma(frame, per_channel=20, idle=1):
    # what a frame draws, as the light scene reckons it: each channel byte at 20 mA full, 1 mA an LED
    return sum(frame) * per_channel // 255 + idle * (len(frame) // 3)


def test_the_budget_follows_the_supply_line_and_a_brighter_scene_on_usb_is_dimmed():
    b = Bench(config=_config(brightness=255, budget_ma=3000))
    b.platform.supply.value(1)  # the external supply feeds the board at power-up
    b.at(100, b.setup_checkers)
    b.at(1500, lambda: b.platform.supply.value(0))  # unplugged: the LEDs are on USB now
    b.at(2500, lambda: b.platform.supply.value(1))
    seen = {}

    def scene_budget(tag):
        seen[tag] = (b.device.app.referee.scene.budget_ma, _draw_ma(b.platform.strip.last))

    b.at(1400, lambda: scene_budget("supply"))
    b.at(1600, lambda: scene_budget("usb"))
    b.at(2600, lambda: scene_budget("back"))
    b.run(2800)
    usb = b.device.board.led_budget_ma()
    assert seen["supply"][0] == 3000 and seen["usb"][0] == usb == 400 and seen["back"][0] == 3000, seen
    assert seen["usb"][1] <= usb  # the frame after the unplugging draws within the USB budget
    power = b.events("power")
    assert [(e["supply"], e["budget_ma"]) for e in power] == [("usb", 400), ("external", 3000)]


def test_without_the_supply_line_the_configured_budget_never_goes_past_usb():
    b = Bench(config=_config(budget_ma=3000, pins={"supply": None}))
    b.run(300)
    assert b.device.app.referee.scene.budget_ma == b.device.board.led_budget_ma()  # a file alone: USB
    assert b.device.app.supply is None


def test_a_broken_sensor_chain_is_said_and_the_game_waits_for_it():
    b = Bench()
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: setattr(b.platform.chain, "broken", True))  # the data line comes loose
    b.at(2000, lambda: setattr(b.platform.chain, "broken", False))
    b.at(2300, lambda: b.platform.put(b.cell("h7"), 0))  # and the game goes on
    b.at(2400, lambda: b.platform.put(b.cell("h16"), 1))
    b.run(3200)
    faults = [f for f in b.events("fault") if f["where"] == "sensors"]
    assert len(faults) == 1 and "broken" in faults[0]["error"], faults
    assert b.events("sensors") == [{"event": "sensors", "ok": True}]
    # every sensor read "empty" meanwhile, yet nothing was taken for a lifted piece
    assert not b.events("mismatch") and not b.events("illegal")
    assert [m["move"] for m in b.events("move")] == ["h7-h16"]


def test_the_self_test_names_a_broken_chain():
    b = Bench()
    orig = b.platform.hardware

    def hardware(config, board):
        hw = orig(config, board)
        b.platform.chain.broken = True
        return hw

    b.platform.hardware = hardware
    b.run(300)
    st = b.events("self_test")[0]
    assert not st["ok"] and st["chain"] == "broken", st


def test_a_budget_the_scene_cannot_run_is_refused_at_boot_and_over_usb():
    b = Bench(config=_config(budget_ma=100))  # checkers: 127 LEDs draw 127 mA dark
    b.at(
        100, lambda: b.send({"cmd": "set_config", "id": 1, "config": {"board": "checkers", "budget_ma": 120}})
    )
    b.run(400)
    faults = [f["error"] for f in b.events("fault") if f["where"] == "config"]
    assert faults and "budget_ma 100 does not cover the idle draw" in faults[0], faults
    assert b.device.app is not None  # the board runs, on its own budget
    reply = [r for r in b.events(None, "reply") if r.get("id") == 1][0]
    assert not reply["ok"] and "budget_ma 120 does not cover the idle draw" in str(reply["faults"])
    assert b.resets == 0

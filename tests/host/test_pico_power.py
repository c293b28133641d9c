"""The firmware reads its hardware on the real MicroPython 1.28 build in the emulated RP2040: the
supply-sense pin (GP21) decides the LEDs' current budget, config.json's budget_ma counting only while
the external supply feeds the board; a sensor chain whose data line breaks is said to be broken (the
game waits) and said to be mended, never read as an empty board (issue 36; the same on the fake
platform: tests/firmware/test_device_power.py).

The UF2 and the RP2040 bootrom come from ../shared/pico; without them the test is skipped, saying so."""

import json

import pytest
from ludus.config import read_config
from ludus_host.emulator import harness as pico
from ludus_host.virtual.board import load_board
from tools import ludus


@pytest.fixture(scope="module")
def harness():
    try:
        pico.assets(romfs=True)
    except pico.PicoError as exc:
        pytest.skip(str(exc))
    return pico.node()


def _draw_ma(grb_hex, leds):
    # what a frame draws as the light scene reckons it: 20 mA a channel at full, 1 mA an idle LED
    frame = bytes.fromhex(grb_hex)
    return sum(frame) * 20 // 255 + leds


def test_the_supply_line_sets_the_budget_and_a_broken_chain_is_said_and_mended(harness, tmp_path):
    config_path = tmp_path / "config.json"
    config_path.write_text(
        json.dumps({"board": "checkers", "game": "checkers", "brightness": 255, "budget_ma": 3000})
    )
    tree = tmp_path / "tree"
    proc = ludus("flash", "--stage", str(tree), "--config", str(config_path), "--mode", "romfs")
    assert proc.returncode == 0, proc.stderr
    config = read_config(config_path.read_text())[0]
    board = load_board("checkers")
    usb_ma = board.led_budget_ma()
    with pico.booted_pico(str(tree), board, config) as emu:
        # on USB alone at power-up (the supply-sense line low): the USB budget, not config's 3000 mA
        assert emu.wait(lambda e: e.get("event") == "self_test", 90000) is not None
        emu.command("new_game", game="checkers/6")
        emu.run(1500)
        on_usb = [grb for ms, grb in emu.frames]
        assert on_usb and max(_draw_ma(grb, board.led_count) for grb in on_usb) <= usb_ma

        emu.supply(True)
        power = emu.wait(lambda e: e.get("event") == "power", 3000)
        assert power == {"event": "power", "supply": "external", "budget_ma": 3000, **_ms(power)}, power
        emu.supply(False)
        power = emu.wait(lambda e: e.get("event") == "power" and e["supply"] == "usb", 3000)
        assert power is not None and power["budget_ma"] == usb_ma, power

        # the chain's data line breaks: a fault naming the sensors, once, and no piece seen lifted
        moves = len([e for e in emu.events if e.get("event") in ("move", "lifted", "guide")])
        before = emu.command("state")
        emu.cut_data(True)
        fault = emu.wait(lambda e: e.get("event") == "fault" and e.get("where") == "sensors", 3000)
        assert fault is not None and "sensor chain" in fault["error"], fault
        emu.run(2000)
        faults = [e for e in emu.events if e.get("event") == "fault" and e.get("where") == "sensors"]
        assert len(faults) == 1
        state = emu.command("state")
        assert state is not None and before is not None and state["referee"] == before["referee"]
        assert len([e for e in emu.events if e.get("event") in ("move", "lifted", "guide")]) == moves
        emu.cut_data(False)
        mended = emu.wait(lambda e: e.get("event") == "sensors", 3000)
        assert mended is not None and mended["ok"] is True


def _ms(event):
    # the harness adds the emulated time a line arrived at
    return {"ms": event["ms"]} if event and "ms" in event else {}

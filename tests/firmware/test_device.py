"""The firmware around the referee (ludus.device) on the fake platform: boot and its faults, the
self-test, the USB link's commands, safe mode. Runs on both runtimes (a game through the loop, crashes
and Ctrl-C: test_device_game.py)."""

from device_bench import Bench, _config

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True


def test_boot_reports_itself_and_an_empty_board_passes_the_self_test():
    b = Bench()
    b.run(300)
    boot = b.events("boot")[0]
    assert boot["protocol"] == 1 and boot["platform"] == "fake"
    st = b.events("self_test")[0]
    assert st["ok"] and st["leds"] == b.device.board.led_count and st["channels"] == 128
    assert st["stuck"] == [] and st["noisy"] == []
    assert b.platform.strip.frames >= b.device.board.led_count  # the sweep lit each LED in turn
    assert not b.events("fault")


def test_a_sensor_stuck_on_at_boot_is_named():
    b = Bench()
    board_cells = []
    orig = b.platform.hardware

    def hardware(config, board):  # (the chain exists once boot has built it: a line stuck low)
        hw = orig(config, board)
        b.platform.chain.lines[board.channel_of_cell[5]] = 0
        board_cells.append(board.cell_id(5))
        return hw

    b.platform.hardware = hardware
    b.run(2500)
    st = b.events("self_test")[0]
    assert not st["ok"] and st["stuck"] == board_cells, st


def test_a_bad_config_is_reported_and_the_defaults_used():
    b = Bench(config=_config(brightness="bright", colour="red"))
    b.run(1500)
    faults = [e["error"] for e in b.events("fault")]
    assert any("brightness" in f for f in faults) and any("colour" in f for f in faults)
    assert b.device.app is not None and b.device.config["brightness"] == 64


def test_a_missing_board_file_leaves_the_link_in_safe_mode():
    b = Bench(files={"config.json": _config(board="ludo40")}, paths={})
    b.at(200, lambda: b.send({"cmd": "hello", "id": 1}))
    b.at(400, lambda: b.send({"cmd": "state", "id": 2}))
    b.run(1000)
    safe = b.events("safe_mode")
    assert safe and "boards/ludo40.json" in safe[0]["error"]
    hello = [r for r in b.events(None, "reply") if r.get("id") == 1][0]
    assert "ludo40" in hello["safe_mode"]
    state = [r for r in b.events(None, "reply") if r.get("id") == 2][0]
    assert not state["ok"] and "safe mode" in state["error"]
    assert b.platform.watchdog.starved == 0


def test_a_journal_game_that_cannot_be_restored_is_ended_and_the_board_starts_afresh():
    from ludus.dice import Dice
    from ludus.hw.fake import FakeFlash
    from ludus.record.game import GameRecord
    from ludus.record.journal import Journal

    flash = FakeFlash(2, 1024)
    journal = Journal(flash)
    seed = bytes(32)
    journal.begin(
        {"record": GameRecord.new("checkers/2", seed=seed).to_json(), "seed": Dice(seed).seed_hex()}
    )
    journal.add("h0-h120")  # no such move: flash damage its checksums missed, say
    journal = None
    b = Bench(flash=flash)
    b.run(300)
    faults = [e["error"] for e in b.events("fault") if e["where"] == "journal"]
    assert faults and "cannot be restored" in faults[0]
    assert b.device.app is not None and b.device.safe is None  # not stuck in safe mode at every boot
    assert Journal(flash).current() is None  # ended, and kept among the finished games
    assert len(Journal(flash).finished()) == 1


def test_a_boot_module_that_cannot_be_loaded_leaves_the_link_in_safe_mode():
    # ludus.startup, loaded for the boot only: a board whose copy is missing or damaged says so and
    # still answers over USB (the link is made before it is loaded)
    import sys

    sys.modules["ludus.startup"] = None  # (what an import then finds: no module)
    try:
        b = Bench()
        b.at(200, lambda: b.send({"cmd": "hello", "id": 1}))
        b.run(1000)
    finally:
        sys.modules.pop("ludus.startup", None)
    safe = b.events("safe_mode")
    assert safe and "boot failed" in safe[0]["error"], safe
    hello = [r for r in b.events(None, "reply") if r.get("id") == 1][0]
    assert hello["safe_mode"] == safe[0]["error"]
    assert b.device.app is None and b.platform.watchdog.starved == 0

"""The board's way back from what would make it reset for ever (docs/firmware.md, "Resets and
recovery"): watchdog resets counted in a row, a journal's game kept but not restored after two, the
USB link alone after three, the journal cleared over USB, a chip the firmware was not written for
refused, and a journal that would reach into the firmware image shrunk. On the fake platform, whose
boot_cause and flash room a test sets; runs on both runtimes (the real chip's registers: the
emulated Pico, tests/host/test_pico_restore.py)."""

import gc

from device_bench import Bench, _config

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True


def _unfinished():
    # a journal with a checkers game begun and two moves made (not ended)
    from ludus.dice import Dice
    from ludus.hw.fake import FakeFlash
    from ludus.record.journal import Journal

    flash = FakeFlash(4, 1024)
    journal = Journal(flash)
    dice = Dice(bytes(32))
    journal.begin(
        {
            "start": "checkers/2",
            "options": {},
            "players": None,
            "seed_sha256": dice.commitment(),
            "seed": dice.seed_hex(),
            "dice_used": 0,
        }
    )
    journal.add("h7-h16")
    journal.add("h112-h104")
    return flash


def _reply(b, ident):
    found = [r for r in b.events(None, "reply") if r.get("id") == ident]
    return found[0] if found else None


def test_the_boot_event_says_why_the_chip_started():
    b = Bench(flash=_unfinished())
    b.platform.cause = "watchdog"
    b.platform.bites = 1
    b.run(300)
    boot = b.events("boot")[0]
    assert boot["reset_cause"] == "watchdog" and boot["watchdog_resets"] == 1
    assert b.events("restored")[0]["actions"] == 2  # one bite: the game is restored as usual
    assert b.device.safe is None and not b.device.recovery


def test_two_watchdog_resets_in_a_row_keep_the_game_but_do_not_restore_it():
    flash = _unfinished()
    b = Bench(flash=flash)
    b.platform.cause = "watchdog"
    b.platform.bites = 2
    b.at(100, lambda: b.send({"cmd": "hello", "id": 1}))
    b.at(200, lambda: b.send({"cmd": "journal", "id": 2}))
    b.at(300, lambda: b.send({"cmd": "state", "id": 3}))
    b.run(1200)
    assert not b.events("restored")
    safe = b.events("safe_mode")
    assert safe and "not restored" in safe[0]["error"] and "journal_clear" in safe[0]["error"], safe
    hello = _reply(b, 1)
    assert hello["recovery"] and hello["reset_cause"] == "watchdog" and "not restored" in hello["safe_mode"]
    journal = _reply(b, 2)  # the kept game can be read, its seed still secret
    assert journal["ok"] and journal["state"]["seed"] is None
    assert '"h7-h16"' in journal["state"]["record"] and '"h112-h104"' in journal["state"]["record"]
    assert not _reply(b, 3)["ok"]  # no game runs
    # the recovery pattern: every fourth LED amber (G 0x30, R 0x60), blinking once a second
    last = b.platform.strip.last
    lit = [k for k in range(0, len(last), 3) if last[k : k + 3] != b"\x00\x00\x00"]
    assert not lit or all(last[k : k + 3] == b"\x30\x60\x00" and (k // 3) % 4 == 0 for k in lit)
    assert b.platform.watchdog.starved == 0
    assert flash.data.find(b"h112-h104") > 0  # the journal is untouched


def test_journal_clear_drops_the_kept_game_and_the_board_starts_afresh():
    flash = _unfinished()
    b = Bench(flash=flash)
    b.platform.cause = "watchdog"
    b.platform.bites = 2
    b.at(100, lambda: b.send({"cmd": "journal_clear", "id": 1}))
    b.run(2500)
    cleared = _reply(b, 1)
    assert cleared["ok"] and cleared["erased"] == 4 and cleared["restart"], cleared
    assert b.resets == 1
    boots = b.events("boot")
    assert len(boots) == 2 and boots[1]["reset_cause"] == "reset" and boots[1]["watchdog_resets"] == 0
    assert not b.events("restored") and b.device.safe is None  # a fresh board, in setup
    assert flash.data.find(b"h112-h104") < 0


def test_three_in_a_row_leave_only_the_link():
    b = Bench(flash=_unfinished())
    b.platform.cause = "watchdog"
    b.platform.bites = 3
    b.at(100, lambda: b.send({"cmd": "hello", "id": 1}))
    b.run(600)
    safe = b.events("safe_mode")
    assert safe and "3 times in a row" in safe[0]["error"] and "only the USB link" in safe[0]["error"]
    assert b.device.board is None and b.device.hw is None  # not even the board was loaded
    assert _reply(b, 1)["ok"] and b.platform.watchdog.starved == 0


def test_the_count_of_watchdog_resets_is_forgotten_once_the_loop_has_run_a_while():
    b = Bench()
    b.platform.cause = "watchdog"
    b.platform.bites = 1
    b.run(5000)
    assert b.platform.bites == 1  # (not yet: a hang soon after boot would count again)
    b = None  # (the first board gone before the second: two at once do not fit the unix port's heap)
    gc.collect()
    b = Bench()
    b.platform.cause = "watchdog"
    b.platform.bites = 1
    b.run(12000)
    assert b.platform.bites == 0 and b.device.bites == 0


def test_a_chip_the_firmware_was_not_written_for_is_refused_by_name():
    b = Bench()
    b.platform.refusal = "this board is Raspberry Pi Pico 2 with RP2350, not an RP2040"
    b.at(100, lambda: b.send({"cmd": "hello", "id": 1}))
    b.run(600)
    assert b.platform.watchdog is None  # its watchdog was never started (its registers are elsewhere)
    safe = b.events("safe_mode")
    assert safe and "RP2350" in safe[0]["error"]
    assert "RP2350" in _reply(b, 1)["safe_mode"] and not b.events("boot")


def test_a_journal_that_would_reach_into_the_firmware_image_is_shrunk():
    b = Bench(config=_config(journal_kb=96))
    b.platform.journal_room = 46  # a frozen build's image leaves 46 KiB below the file system
    b.run(300)
    faults = [f["error"] for f in b.events("fault") if f["where"] == "config"]
    assert faults and "journal_kb 96 would overlap the firmware image" in faults[0], faults
    assert "44 KiB used" in faults[0] and b.device.config["journal_kb"] == 44


def test_a_journal_with_no_room_below_the_file_system_is_kept_in_ram():
    b = Bench(config=_config(journal_kb=16))
    b.platform.journal_room = 4
    b.run(300)
    faults = [f["error"] for f in b.events("fault")]
    assert any("kept in RAM only" in f for f in faults) and any("cannot be used" in f for f in faults)
    assert b.device.app is not None  # the board plays on, its games lost at a power cut

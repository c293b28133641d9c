"""The test hooks (firmware/testhooks, only in a tree staged with `ludus flash --test-hooks`): a board
without them knows no such commands; a board with them says so at every boot, takes forced dice and a
position set up over USB (through its journal and a reset, as after a power cut), and refuses bad
arguments. Runs on both runtimes (the Ludo board first, while the 160K heap is whole)."""

import sys

from device_bench import Bench, _config, _paths
from support import cpython_only

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True

START = "ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t5,base,base,base"


def _hooked(fn):
    # the hooks' module where a test-hook tree has it (/lib): on the path for this test only
    from support import root

    folder = root() + "/firmware/testhooks"
    sys.path.insert(0, folder)
    try:
        return fn()
    finally:
        sys.path.remove(folder)
        sys.modules.pop("ludus_testhooks", None)


def _start_state():
    from ludus.dice import Dice
    from ludus.record import GameRecord

    dice = Dice(bytes(32))
    record = GameRecord(START, {}, dice.commitment())
    return {"record": record.to_json(), "seed": dice.seed_hex(), "dice_used": 0}


def test_b_a_board_without_the_hooks_knows_no_such_command():
    b = Bench()
    b.at(200, lambda: b.send({"cmd": "test_die", "id": 1, "rolls": [6]}))
    b.at(240, lambda: b.send({"cmd": "hello", "id": 2}))
    b.run(400)
    replies = b.events(None, "reply")
    refused = [r for r in replies if r.get("id") == 1][0]
    assert not refused["ok"] and "unknown command 'test_die'" in refused["error"]
    assert [r for r in replies if r.get("id") == 2][0]["test_hooks"] is False
    assert "test_hooks" not in b.events("boot")[0]
    assert not [f for f in b.events("fault") if f["where"] == "test_hooks"]


# CPython only: after the bench's reset the 64-bit unix port's 160K heap holds the Ludo referee with
# under 16 KB left, broken into pieces of under 1 KB, and whether the restored position's game object
# then finds room depends on when the real clock let the loop collect. The hooks themselves run on
# the real MicroPython rp2 build: tests/host/test_pico_emulated.py plays forced dice and set-up
# positions through them.
@cpython_only
def test_a_hooked_board_sets_up_a_position_and_forces_the_dice():
    def run():
        b = Bench(_config(board="ludo52", game="ludo/classic/2"), paths=_paths("ludo52"))
        b.at(200, lambda: b.send({"cmd": "test_start", "id": 1, "state": _start_state()}))

        def pieces():  # the position's pieces, as a person sets them up while the board restarts
            ref = b.device.app.referee
            counts = bytearray(len(ref.game.place_names))
            ref.game.fill_counts(counts)
            for k in range(len(counts)):
                for cell in ref.places.cells(k)[: counts[k]]:
                    b.platform.put(cell, 1)

        b.at(400, pieces)
        b.at(600, lambda: b.send({"cmd": "test_die", "id": 2, "rolls": [3]}))
        b.at(700, lambda: b.send({"cmd": "test_die", "id": 3, "rolls": [7]}))
        b.at(740, lambda: b.send({"cmd": "test_die", "id": 4, "rolls": "6"}))
        b.at(800, lambda: b.send({"cmd": "test_start", "id": 5, "state": {"seed": "00"}}))
        b.at(840, lambda: b.send({"cmd": "test_start", "id": 6, "state": {"record": "not a record"}}))
        b.at(900, lambda: b.platform.pin.value(0))  # the die button, pressed ...
        b.at(980, lambda: b.platform.pin.value(1))  # ... and let go
        b.run(2000)
        return b

    b = _hooked(run)
    assert b.resets == 1  # the position went in through the journal and a reset
    boots = b.events("boot")
    assert len(boots) == 2 and all([boot.get("test_hooks") for boot in boots]), (boots, b.out[-6:])
    faults = b.events("fault")
    assert len([f for f in faults if f["where"] == "test_hooks"]) == 2, faults  # said at every boot
    restored = b.events("restored")
    assert restored and restored[-1]["start"] == START, (restored, faults)
    replies = {r["id"]: r for r in b.events(None, "reply") if "id" in r}
    assert replies[1]["ok"] and replies[1]["restart"]
    assert replies[2]["ok"] and replies[2]["waiting"] == 1
    assert not replies[3]["ok"] and "1..6" in replies[3]["error"]
    assert not replies[4]["ok"] and not replies[5]["ok"] and "record" in replies[5]["error"]
    assert not replies[6]["ok"] and "nothing changed" in replies[6]["error"] and b.resets == 1
    rolls = b.events("roll")
    assert [(r["seat"], r["value"]) for r in rolls] == [(0, 3)], rolls  # the forced roll, green's

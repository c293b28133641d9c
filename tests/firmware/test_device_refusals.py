"""Commands that would change a game in progress, refused when they are wrong: a new game of a preset
that does not exist or is for another game's board, and a set_config that would move the journal.
Runs on both runtimes."""

from device_bench import Bench

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True


def test_a_bad_new_game_changes_nothing_and_journal_kb_stays_with_ludus_flash():
    import sys

    # other tests in this process may have loaded the Ludo rules: set them aside, so that this test
    # sees whether the refusal loads them
    set_aside = {name: sys.modules.pop(name) for name in list(sys.modules) if name.startswith("ludus.ludo")}
    try:
        _refuse_a_bad_new_game()
    finally:
        sys.modules.update(set_aside)


def _refuse_a_bad_new_game():
    b = Bench()
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1100, lambda: b.platform.put(b.cell("h16"), 1))
    b.at(1900, lambda: b.send({"cmd": "new_game", "id": 1, "game": "ludo/nonsense"}))
    b.at(2000, lambda: b.send({"cmd": "new_game", "id": 2, "game": "ludo/classic"}))  # not this board
    b.at(
        1800,  # (first: the Ludo rules loaded below leave this checkers device little heap)
        lambda: b.send({"cmd": "set_config", "id": 3, "config": {"board": "checkers", "journal_kb": 32}}),
    )
    b.run(2400)
    replies = {r.get("id"): r for r in b.events(None, "reply")}
    assert not replies[1]["ok"] and "cannot start 'ludo/nonsense'" in replies[1]["error"]
    # a Ludo game on a checkers board is refused before the Ludo rules are loaded (on the Pico's heap
    # they would not even fit beside the checkers game)
    assert replies[2] == {
        "reply": "new_game",
        "id": 2,
        "ok": False,
        "error": "cannot start 'ludo/classic' on this board: it is a checkers board",
    }, replies[2]
    import sys

    assert not [name for name in sys.modules if name.startswith("ludus.ludo")]
    assert not replies[3]["ok"] and "journal_kb changes only with ludus flash" in replies[3]["error"]
    # the game in progress is still there, in RAM and in the journal (read as a reboot reads it: on
    # the unix port's broken-up 160K heap a record's buffer beside this device's Ludo check may not fit)
    assert list(b.device.app.referee.record.actions) == ["h7-h16"]
    import gc

    from ludus.record.journal import Journal

    b.device = None
    gc.collect()
    assert Journal(b.flash).current()[1] == ["h7-h16"]


def test_a_ludo_preset_for_another_track_is_refused_by_its_places_and_the_board_plays_on():
    from device_bench import _config, _paths

    b = Bench(config=_config(board="ludo40", game="ludo/hebrew-40"), paths=_paths("ludo40"))
    b.at(1000, lambda: b.send({"cmd": "new_game", "id": 1, "game": "ludo/classic"}))  # a 52-square track
    b.run(1400)
    (reply,) = b.events("new_game", "reply")
    assert not reply["ok"] and reply["error"].startswith("cannot start 'ludo/classic' on this board: ")
    import sys

    # (the 64-bit unix port's 160K heap, where objects take twice a Pico's room, may run out while the
    # places are compared: refused all the same, and nothing given up)
    if sys.implementation.name == "cpython":
        assert "lacks game place" in reply["error"] or "which the game lacks" in reply["error"], reply
    assert b.device.config["game"] == "ludo/hebrew-40" and b.device.app is not None

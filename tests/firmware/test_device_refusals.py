"""Commands that would change a game in progress, refused when they are wrong: a new game of a preset
that does not exist or does not fit the board, and a set_config that would move the journal. A test
file of its own: checking a Ludo preset loads the Ludo rules, more than a checkers device's tests
leave room for. Runs on both runtimes."""

from device_bench import Bench

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True


def test_a_bad_new_game_changes_nothing_and_journal_kb_stays_with_ludus_flash():
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
    # (refused either way: a Ludo game does not bind to this board, or, on a tight heap, its rules do
    # not even load beside the checkers game; nothing is given up in both cases)
    assert not replies[2]["ok"] and replies[2]["error"].startswith(
        "cannot start 'ludo/classic' on this board"
    )
    assert not replies[3]["ok"] and "journal_kb changes only with ludus flash" in replies[3]["error"]
    # the game in progress is still there, in RAM and in the journal (read as a reboot reads it: on
    # the unix port's broken-up 160K heap a record's buffer beside this device's Ludo check may not fit)
    assert list(b.device.app.referee.record.actions) == ["h7-h16"]
    import gc

    from ludus.record.journal import Journal

    b.device = None
    gc.collect()
    assert Journal(b.flash).current()[1] == ["h7-h16"]

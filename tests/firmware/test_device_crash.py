"""The firmware's loop (ludus.device) on the fake platform when something goes wrong: a crash in the
loop and the restart from the journal, repeated crashes ending in safe mode, and Ctrl-C into the REPL.
Runs on both runtimes."""

from device_bench import Bench, _forget_modules
from support import raises

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True


def test_a_crash_in_the_loop_is_reported_and_the_game_goes_on_from_the_journal():
    b = Bench()
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1100, lambda: b.platform.put(b.cell("h16"), 1))

    def break_it():
        def broken(now):
            raise ValueError("a bug")

        b.device.app.step = broken

    b.at(2000, break_it)
    b.run(4000)
    fault = [e for e in b.events("fault") if e["where"] == "loop"][0]
    assert "ValueError: a bug" in fault["error"] and "a bug" in fault["trace"]
    app = b.device.app
    assert app is not None and list(app.referee.record.actions) == ["h7-h16"]
    assert b.events("journal")[-1]["restored"] == 1


def test_repeated_crashes_end_in_safe_mode_that_still_answers():
    b = Bench()

    def sabotage():
        from ludus.app import App

        def broken(self, now):
            raise RuntimeError("always")

        App.step_saved = App.step
        App.step = broken

    b.at(100, sabotage)
    b.at(8000, lambda: b.send({"cmd": "hello", "id": 9}))
    try:
        b.run(9000)
    finally:
        from ludus.app import App

        App.step = App.step_saved
    assert len([e for e in b.events("fault") if e["where"] == "loop"]) == 6
    assert b.device.safe is not None and "faults" in b.device.safe
    assert [r for r in b.events(None, "reply") if r.get("id") == 9][0]["ok"]
    assert b.platform.watchdog.starved == 0


def test_ctrl_c_stops_the_watchdog_and_hands_the_board_to_the_repl():
    b = Bench()

    def ctrl_c():
        raise KeyboardInterrupt

    b.at(100, b.setup_checkers)
    b.at(1000, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1100, lambda: b.platform.put(b.cell("h16"), 1))
    b.at(1500, ctrl_c)
    raises(KeyboardInterrupt, b.run, 2000)
    assert b.platform.watchdog.stopped
    assert b.events("stopped")[0]["why"] == "Ctrl-C"
    # the game in play keeps a note of it (the REPL can read the journal's flash)
    import gc

    from ludus.record.journal import Journal

    b.device = None
    gc.collect()
    assert Journal(b.flash).state()["record"].count('{"at": 1, "stopped": "Ctrl-C"}') == 1


def _stopped_after_a_rename():
    # a checkers game: a move, a seat renamed, the stop command; the board's flash is what is left
    from ludus.device import Stop

    b = Bench()
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1100, lambda: b.platform.put(b.cell("h16"), 1))
    b.at(1500, lambda: b.send({"cmd": "names", "id": 1, "names": {"0": "Anna"}}))
    b.at(1600, lambda: b.send({"cmd": "stop", "id": 2}))
    raises(Stop, b.run, 2000)
    assert b.events("stopped")[0]["why"] == "the stop command"
    return b.flash


def test_a_game_stopped_into_the_repl_and_renamed_says_so_in_its_record_after_the_reset():
    import gc

    flash = _stopped_after_a_rename()
    # machine.reset() at the REPL: the first board gone, frame, modules and all (two do not fit the
    # unix port's heap), and the game comes back from the journal
    _forget_modules()
    gc.collect()
    again = Bench(flash=flash)
    again.run(100)
    record = again.device.app.referee.record
    assert list(record.actions) == ["h7-h16"] and record.players == {0: "Anna", 1: "yellow"}
    assert record.notes == [
        {"at": 1, "names": {"0": "Anna", "1": "yellow"}, "was": {"0": "red", "1": "yellow"}},
        {"at": 1, "stopped": "the stop command"},
    ]
    assert not again.events("reseed")  # (Chinese Checkers has no dice to re-commit)

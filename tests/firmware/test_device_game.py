"""The firmware's loop (ludus.device) on the fake platform: a game through the fixed tick under the
watchdog and kept by the journal (crashes and Ctrl-C: test_device_crash.py). Runs on both runtimes."""

import gc

from device_bench import Bench
from ludus.hw.fake import FakeFlash

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True

# test_e's flash chip, made as the module is imported: a Pico's flash is no part of its RAM, so the fake
# chip's 8 KB stay out of the heap budget the runner holds the tests to (where, after four whole games,
# no 8 KB were left in one piece)
E_FLASH = FakeFlash(8, 1024)


def test_a_game_is_played_through_the_loop_under_the_watchdog():
    b = Bench()
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1100, lambda: b.platform.put(b.cell("h16"), 1))
    b.run(2000)
    assert b.events("new_game")
    assert [e["move"] for e in b.events("move")] == ["h7-h16"]
    wd = b.platform.watchdog
    assert wd.feeds >= 90 and wd.starved == 0  # (a feed every 20 ms tick)
    stats = b.device.stats
    assert stats["ticks"] >= 90 and stats["worst_us"] > 0
    _KEPT["flash"] = b.flash


_KEPT = {}  # the first board's flash, for the second test


def test_a_tick_that_serves_a_command_is_timed_apart_from_the_games_ticks():
    # (the first command loads ludus.commands: tens of ms on a Pico, which a host that asks for
    # `stats` would otherwise find as the game's worst tick)
    from ludus.hw.fake import us_clock

    b = Bench()
    clock = us_clock()
    served = b.device._command

    def slow(cmd):
        start = clock()
        while (clock() - start) & 0x3FFFFFFF < 60000:
            pass
        served(cmd)

    b.device._command = slow
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: b.send({"cmd": "hello", "id": 1}))
    b.run(1500)
    stats = b.device.stats
    assert stats["command_worst_us"] >= 60000, stats
    assert 0 < stats["worst_us"] < 60000, stats
    assert b.events("hello", key="reply")


def test_b_a_board_started_again_restores_the_game_from_its_journal():
    # as after a power cut, only the flash is left: a test of its own, so that nothing of the first
    # board is still on the heap (its frame's stale slots would keep it: the GC is conservative)
    if not _KEPT:
        test_a_game_is_played_through_the_loop_under_the_watchdog()
        gc.collect()
    # the move's reader first: on the 64-bit unix port, where objects take twice a Pico's room, the
    # replay's import of it could find no 592 bytes in one piece beside the board just built
    import ludus.checkers.text  # noqa: F401

    b2 = Bench(flash=_KEPT["flash"])
    b2.run(100)
    restored = b2.events("journal")
    assert restored and restored[0]["restored"] == 1, b2.out[-3:]
    assert b2.device.app is not None, b2.out[-6:]
    assert list(b2.device.app.referee.record.actions) == ["h7-h16"]


def test_c_an_idle_tick_of_the_loop_allocates_nothing():
    # the whole tick (sensors, referee, LED frames every 40 ms, the link, the watchdog, the idle
    # journal and collection checks) with the heap locked on MicroPython: a MemoryError if it allocates
    from support import IS_MICROPYTHON, locked

    b = Bench()
    b.at(100, b.setup_checkers)
    b.run(1500)
    dev = b.device
    wd = b.platform.watchdog
    clock = [b.platform.now]

    def ticks(n):
        k = 0
        while k < n:
            clock[0] += 20
            dev.tick(clock[0], wd)
            k += 1

    ticks(150)  # idle for 3 s: past the journal's erase-ahead wait and the first collections
    before = dev.stats["ticks"]
    if IS_MICROPYTHON:
        locked(ticks, 100)
    else:
        ticks(100)  # (heap_lock exists only on MicroPython: here the ticks run unlocked)
    assert dev.stats["ticks"] == before + 100
    assert dev.app.referee.describe()["phase"] == "play"


def test_d_a_journal_that_can_keep_no_more_says_so_once_and_the_game_goes_on():
    # a journal full of one game (a long one, or many power cuts mid-write, each retiring a block)
    # refuses writes: the players are told once that a power cut would now lose the game
    b = Bench()
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: setattr(b.device.journal, "full", True))
    b.at(1100, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1200, lambda: b.platform.put(b.cell("h16"), 1))
    b.at(2000, lambda: b.platform.put(b.cell("h115"), 0))
    b.at(2100, lambda: b.platform.put(b.cell("h104"), 1))
    b.run(3000)
    assert [e["move"] for e in b.events("move")] == ["h7-h16", "h115-h104"]
    faults = [e for e in b.events("fault") if e["where"] == "journal"]
    assert len(faults) == 1 and "no longer kept through a power cut" in faults[0]["error"]


def test_e_the_journal_erases_ahead_at_boot_and_between_games_never_in_a_game_s_ticks():
    # an erase stalls the Pico 45 ms: boot erases the blocks a whole game needs (JOURNAL_AHEAD), the
    # game's writes use them, and its idle ticks erase nothing; once it has ended, idle ticks erase
    # again, one a tick, for the next game
    from ludus.device import JOURNAL_AHEAD

    flash = E_FLASH
    for i in range(len(flash.data)):
        flash.data[i] = 0x5A  # a flash that held other data: nothing is erased yet
    b = Bench(flash=flash)
    seen = {}

    def look(name):
        seen[name] = (flash.erases, len(b.device.journal.ready))

    b.at(50, lambda: look("booted"))
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1100, lambda: b.platform.put(b.cell("h16"), 1))
    b.at(4500, lambda: look("idle in the game"))
    b.at(4600, lambda: b.device.journal.end("[0, 1]"))  # (the game's last move, as the app writes it)
    b.at(7000, lambda: look("idle after it"))
    b.run(7100)
    assert [e["move"] for e in b.events("move")] == ["h7-h16"], b.events("fault")
    assert seen["booted"] == (JOURNAL_AHEAD, JOURNAL_AHEAD)
    assert seen["idle in the game"] == (JOURNAL_AHEAD, JOURNAL_AHEAD - 1)  # its start took one, no erase
    assert seen["idle after it"] == (JOURNAL_AHEAD + 1, JOURNAL_AHEAD)  # topped up between games

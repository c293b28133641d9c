"""The journal (docs/journal.md) on a fake NOR flash: a game's actions survive a power cut at every byte
of every write, torn records are never replayed, blocks are reused as a ring, finished games are kept,
and a referee restored from it goes on with the same game. Runs on both runtimes."""

import support
from ludus.hw.fake import FakeFlash, PowerCut
from ludus.record.journal import Journal, crc16

START = '{"record": "x", "seed": null, "dice_used": 0}'


def _actions(n):
    return ["%d green.%d t%d-t%d" % (1 + k % 6, k % 4, k % 52, (k + 3) % 52) for k in range(n)]


def test_crc16_is_ccitt_false():
    assert crc16(b"123456789") == 0x29B1


def test_a_game_reads_back_after_reopening():
    flash = FakeFlash(4)
    j = Journal(flash)
    assert j.current() is None and j.state() is None
    j.begin(START)
    for a in _actions(30):
        assert j.add(a)
    j.undo()
    j.add("6 red.0 base-t26")
    again = Journal(flash)
    assert again.current() == (START.encode(), _actions(29) + ["6 red.0 base-t26"])


def test_a_cut_at_any_byte_loses_at_most_the_action_being_written():
    # every byte offset of a write: a record in the middle of a page, one crossing a page, the first of
    # a new block (its erase and header)
    for before in (5, 11, None):
        flash = FakeFlash(3, block_size=1024)
        j = Journal(flash)
        j.begin(START)
        if before is None:  # as many as fill the first block: the next one starts a block
            before = 0
            while j.at + 6 + len(_actions(before + 1)[-1]) <= j.size:
                j.add(_actions(before + 1)[-1])
                before += 1
            assert before > 30
            # (the actions written are _actions(k)[-1] for k = 1..before: the same as _actions(before))
        else:
            for a in _actions(before):
                j.add(a)
        image = bytes(flash.data)
        for cut in range(0, 2 * 256 + 40):
            flash.data[:] = image
            j = Journal(flash)
            flash.cut_after = cut
            done = True
            try:
                j.add("6 blue.3 t40-t46")
            except PowerCut:
                done = False
            flash.cut_after = None
            got = Journal(flash).current()
            assert got is not None and got[1][:before] == _actions(before), (before, cut)
            assert got[1][before:] == (["6 blue.3 t40-t46"] if done else got[1][before:]), (before, cut)
            assert len(got[1]) in (before, before + 1), (before, cut, len(got[1]))
            if done:
                assert len(got[1]) == before + 1
            # and the journal goes on after the cut
            j2 = Journal(flash)
            assert j2.add("1 green.0 t1-t2")
            assert Journal(flash).current()[1][-1] == "1 green.0 t1-t2"
            if done:
                break


def test_blocks_are_reused_as_a_ring_and_finished_games_are_kept():
    flash = FakeFlash(4, block_size=1024)
    j = Journal(flash)
    for game in range(12):
        j.begin('{"game": %d}' % game)
        for a in _actions(40):
            assert j.add(a)
        j.end("[%d]" % (game % 4))
    kept = Journal(flash).finished()
    assert kept and kept[-1][0] == b'{"game": 11}' and kept[-1][2] == b"[3]"
    assert [int(g[0][9:-1]) for g in kept] == list(range(12 - len(kept), 12))
    assert all(g[1] == _actions(40) for g in kept)
    assert flash.erases > 4  # the ring went round


def test_a_game_longer_than_the_ring_fills_it_and_says_so():
    flash = FakeFlash(2, block_size=1024)
    j = Journal(flash)
    j.begin(START)
    added = 0
    while j.add(_actions(1)[0]) and added < 1000:
        added += 1
    assert j.full and 30 < added < 1000
    assert Journal(flash).current()[1] == _actions(1) * added  # what was kept stays readable
    j.begin(START)  # a new game starts afresh in the reused blocks
    assert j.add("roll 6") and not j.full


def test_random_cuts_during_long_games():
    rnd = __import__("random")
    rnd.seed(5)
    flash = FakeFlash(6, block_size=1024)
    expected = None
    j = Journal(flash)
    for step in range(300 if support.IS_MICROPYTHON else 1200):
        if expected is None or (step % 250 == 0):
            j.begin(START)
            expected = []
        action = _actions(step % 60 + 1)[-1]
        if rnd.getrandbits(4) == 0:
            flash.cut_after = rnd.getrandbits(9)
        try:
            ok = j.add(action)
            if ok:
                expected.append(action)
        except PowerCut:
            flash.cut_after = None
            j = Journal(flash)
            got = j.current()[1]
            assert got == expected or got == expected + [action], step
            expected = list(got)
        flash.cut_after = None
    assert Journal(flash).current()[1] == expected


def test_random_or_damaged_flash_opens_without_an_error():
    rnd = __import__("random")
    rnd.seed(9)
    flash = FakeFlash(2, block_size=1024)
    for _ in range(20 if support.IS_MICROPYTHON else 200):
        for i in range(len(flash.data)):
            flash.data[i] = rnd.getrandbits(8)
        j = Journal(flash)  # whatever the flash holds: read, never raise
        j.current()
        j.finished()
    # a valid header and CRC-valid records whose payloads are no record and no UTF-8
    flash = FakeFlash(2, block_size=1024)
    j = Journal(flash)
    j.begin("not json")
    j._append(0x41, b"\xff\xfe")
    again = Journal(flash)
    assert again.current()[1] == ["\ufffd\ufffd"]
    assert again.state() is None  # no game to restore: the board starts afresh
    assert j.add("roll 3")  # and goes on writing

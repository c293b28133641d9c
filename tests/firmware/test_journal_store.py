"""The journal's erase ahead (prepare) and its finished-game store (records): prepared blocks are
used without an erase, found again after a reboot (a half-done erase is not), and survive a power cut
at every byte of their header; finished games come back as game records with the seed they committed
to. Runs on both runtimes."""

import json

from ludus.hw.fake import FakeFlash, PowerCut
from ludus.record.journal import Journal

START = '{"record": "x", "seed": null, "dice_used": 0}'


ROOM = 512  # (prepare's room, smaller than the firmware's 1 KiB: 2 KiB blocks keep the test small)


def _fill_block(j):
    # actions until fewer than ROOM bytes are left in the block being written
    k = 0
    while j.at + ROOM <= j.size:
        assert j.add("6 green.0 t%d-t%d" % (k % 52, (k + 6) % 52))
        k += 1
    return k


def _used_flash(blocks=3):
    # a flash that has held other data: no block is erased, none has a journal header
    flash = FakeFlash(blocks, 2048)
    for i in range(len(flash.data)):
        flash.data[i] = 0x5A
    return flash


def test_prepare_erases_the_next_block_only_when_it_will_soon_be_needed():
    flash = _used_flash()
    j = Journal(flash)
    assert j.ready == []  # nothing erased to find
    j.begin(START)
    assert not j.prepare(room=ROOM)  # a block just begun: nothing to do yet
    erases = flash.erases
    n = _fill_block(j)
    assert j.prepare(room=ROOM) and flash.erases == erases + 1
    assert not j.prepare(room=ROOM)  # once is enough
    # the writes that fill this block and go on into the prepared one erase nothing more
    for k in range(30):
        j.add("1 red.1 t%d-t%d" % (k % 52, (k + 1) % 52))
    assert flash.erases == erases + 1 and j.sector != 0
    again = Journal(flash)
    assert len(again.current()[1]) == n + 30


def test_blocks_erased_ahead_between_games_are_used_without_an_erase_and_found_again_after_a_reboot():
    # the firmware erases `ahead` blocks while no game is being played, so that a whole game's writes
    # wait for no erase; a reboot finds them again (no header is written until writing reaches them)
    flash = _used_flash(5)
    j = Journal(flash)
    j.begin(START)
    j.add("6 green.0 base-t0")
    j.end("[0, 1]")
    assert j.prepare(ahead=3) and j.prepare(ahead=3) and j.prepare(ahead=3)
    assert not j.prepare(ahead=3)  # three are enough
    assert j.ready == [1, 2, 3] and flash.erases == 4
    assert Journal(flash).ready == [1, 2, 3]  # after a power cut: found again, nothing wasted
    j = Journal(flash)
    j.begin(START)
    k = 0
    while j.sector != 3:  # a long game through all three
        assert j.add("5 blue.%d t%d-t%d" % (k % 4, k % 52, (k + 5) % 52))
        k += 1
    assert flash.erases == 4 and j.ready == []
    # the game's own blocks are never erased ahead: only block 4 is free (0 holds the finished game)
    assert j.prepare(ahead=3) and j.ready == [4]
    assert not j.prepare(ahead=3) and j.ready == [4]  # the next, block 0, is old: taken, 1 is the game's
    assert len(Journal(flash).current()[1]) == k


def test_a_block_whose_erase_was_cut_is_not_taken_as_erased():
    flash = _used_flash(4)
    j = Journal(flash)
    j.begin(START)
    j.end("[0]")
    assert j.prepare(ahead=2) and j.prepare(ahead=2) and j.ready == [1, 2]
    flash.data[2048 + 1000] = 0xFE  # block 1's erase left one bit unset (a cut in the middle)
    back = Journal(flash)
    assert back.ready == []  # not 1, and not 2 past it: the ring stays in order
    back.begin(START)
    while back.sector == 0:
        back.add("1 green.1 t2-t3")
    assert back.sector == 1 and flash.erases == 4  # the first block written after it: erased again


def test_a_prepared_block_survives_a_cut_at_every_byte_of_its_header_and_after_a_reboot():
    # the header is written when writing reaches the prepared block: cut at every byte of that write
    flash = _used_flash()
    j = Journal(flash)
    j.begin(START)
    n = _fill_block(j)
    assert j.prepare(room=ROOM)
    while j.at + 40 <= j.size:
        j.add("3 red.2 t1-t4")
        n += 1
    image = bytes(flash.data)
    for cut in range(0, 300, 3):
        flash.data[:] = image
        j = Journal(flash)
        assert j.ready == [1]
        flash.cut_after = cut
        try:
            j.add("4 yellow.3 t20-t24 t25")  # does not fit: the prepared block gets its header
        except PowerCut:
            pass
        flash.cut_after = None
        back = Journal(flash)
        kept = len(back.current()[1])
        assert kept in (n, n + 1), cut  # the game as it was, at most the action being written lost
        assert back.add("2 blue.0 t1-t3")  # and writing goes on
        assert Journal(flash).current()[1][-1] == "2 blue.0 t1-t3"
        assert len(Journal(flash).current()[1]) == kept + 1


def test_finished_games_come_back_as_records_with_their_seed_revealed():
    from ludus.dice import Dice
    from ludus.record.game import GameRecord

    flash = FakeFlash(3, 2048)
    j = Journal(flash)
    for g in range(3):
        seed = bytes([g]) * 32
        record = GameRecord.new("checkers/2", seed=seed)
        j.begin({"record": record.to_json(), "seed": Dice(seed).seed_hex(), "dice_used": 0})
        j.add("h7-h16")
        j.add("h112-h104")
        if g < 2:
            j.end(json.dumps([0, 1]))
    assert j.current() is not None  # the third is still being played
    records = j.records()
    assert len(records) == 2
    for text in records:
        back = GameRecord.from_json(text)
        assert back.actions == ["h7-h16", "h112-h104"] and back.result == [0, 1]
        assert Dice(bytes.fromhex(back.seed)).commitment() == back.seed_sha256  # the seed it promised
    assert len(j.records(last=1)) == 1 and j.records(last=1)[0] == records[1]
    assert j.records(last=0) == []


def test_a_game_started_in_the_short_form_restores_and_reads_back_as_its_record():
    # the tick that starts a game writes Referee.start_state() (start, options, commitment, seed),
    # not the record's JSON; the journal's reader makes the record of it, checked as a file's is
    from ludus.dice import Dice
    from ludus.record.game import GameRecord

    flash = FakeFlash(3, 2048)
    j = Journal(flash)
    seed = bytes([7]) * 32
    record = GameRecord.new("ludo/classic/2", seed=seed)
    start = {
        "start": record.start,
        "options": {},
        "seed_sha256": record.seed_sha256,
        "seed": Dice(seed).seed_hex(),
        "dice_used": 0,
    }
    j.begin(start)
    for action in ("roll 6", "roll 2", "roll 3"):
        j.add(action)
    state = Journal(flash).state()  # after a power cut
    back = GameRecord.from_json(state["record"])
    assert back.start == "ludo/classic/2" and back.seed_sha256 == record.seed_sha256
    assert back.actions == ["roll 6", "roll 2", "roll 3"]
    assert state["seed"] == Dice(seed).seed_hex() and state["dice_used"] == 3  # three faces drawn
    j.end(json.dumps([1, 0]))
    kept = GameRecord.from_json(j.records()[0])
    assert kept.actions == back.actions and kept.result == [1, 0]
    assert Dice(bytes.fromhex(kept.seed)).commitment() == kept.seed_sha256
    # a damaged start (a commitment that is not one) is no game, not a crash
    j.begin({"start": "ludo/classic/2", "options": {}, "seed_sha256": "zz", "seed": None, "dice_used": 0})
    assert Journal(flash).state() is None


def test_the_journal_keeps_no_action_in_ram_and_reads_them_back_from_flash():
    # a long game's action texts would copy what the referee's record holds compactly (30 KB on a
    # Pico for a thousand actions): the journal writes them and reads them back only when asked
    flash = FakeFlash(4, 2048)
    j = Journal(flash)
    j.begin(START)
    for k in range(120):
        j.add("roll %d" % (k % 6 + 1))
    j.undo()
    # nothing held but the start's checksum and length, and where it is
    assert j.unfinished() and [x for x in j.game if isinstance(x, (bytes, str, list))] == []
    start, actions = j.current()
    assert start == START.encode() or start == START
    assert len(actions) == 119 and actions[-1] == "roll %d" % (118 % 6 + 1)
    assert Journal(flash).current()[1] == actions  # as a reboot reads them
    j.end("[0, 1]")
    assert not j.unfinished() and j.current() is None

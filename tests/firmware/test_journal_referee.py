"""A referee restored from the journal goes on with the same game (docs/journal.md). A file of its own:
the referee needs most of the 160K heap the flash tests fragment. Runs on both runtimes."""

import gc

from ludus.hw.fake import FakeFlash
from ludus.record.journal import Journal

GROW_NAMES = True  # the unix port's name pool grown first: past its cliff, it would grow mid-test


def test_a_referee_restored_from_the_journal_goes_on_with_the_same_game():
    import json

    from referee_rig import Rig

    flash = FakeFlash(2, block_size=1024)  # (first, while the heap is whole: the board's flash is no heap)
    j = Journal(flash)
    rig = Rig("checkers", "checkers")
    rig.settle()
    rig.start_at("checkers/2")
    j.begin(rig.referee.state())  # (a restored start: no actions yet)
    rig.move("h7", "h16")
    rig.move("h112", "h104")
    for text in rig.moves():
        j.add(text)
    state = Journal(flash).state()
    assert json.loads(state["record"])["actions"] == ["h7-h16", "h112-h104"]
    assert json.loads(state["record"])["players"] == {"0": "red", "1": "yellow"}  # (the seats' colours)
    before = rig.referee.game.notation()
    rig.referee = None
    gc.collect()  # (the old referee gone before the new one is built)
    rig.referee = rig._referee()
    rig.referee.restore(state)
    rig.settle()
    assert rig.referee.game.notation() == before
    assert rig.situation() == "idle"
    rig.move("h8", "h17")  # and play goes on
    assert rig.moves()[-1] == "h8-h17"


def test_a_record_that_cannot_be_replayed_leaves_no_half_restored_game():
    # the game in play is dropped before the replay (two games at once need more heap than a long
    # game leaves in one piece); a replay that fails leaves the board waiting for a setup
    import json

    from ludus.referee.states import PLAY, SETUP
    from referee_rig import Rig
    from support import raises

    rig = Rig("checkers", "checkers")
    rig.settle()
    rig.start_at("checkers/2")
    rig.move("h7", "h16")
    state = rig.referee.state()
    record = json.loads(state["record"])
    record["actions"] = ["h7-h99"]  # (no such move)
    state["record"] = json.dumps(record)
    assert rig.referee.phase == PLAY
    raises(Exception, rig.referee.restore, state)
    assert rig.referee.phase == SETUP and rig.referee.game is None and rig.referee.record is None

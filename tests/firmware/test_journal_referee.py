"""A referee restored from the journal goes on with the same game (docs/journal.md). A file of its own:
the referee needs most of the 160K heap the flash tests fragment. Runs on both runtimes."""

from ludus.hw.fake import FakeFlash
from ludus.record.journal import Journal


def test_a_referee_restored_from_the_journal_goes_on_with_the_same_game():
    from ludo_scenes import at

    flash = FakeFlash(2, block_size=1024)  # (first, while the heap is whole: the board's flash is no heap)
    j = Journal(flash)
    rig = at("ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t30,base,base,base")
    j.begin(rig.referee.state())  # (a restored start: no actions yet)
    rig.die(3)
    rig.press()
    rig.move("t2", "t5")
    for text in rig.moves():
        j.add(text)
    state = Journal(flash).state()
    import json

    record = json.loads(state["record"])
    assert record["actions"] == ["roll 3", "3 green.0 t2-t5"], record
    rig.referee = rig._referee()
    rig.referee.restore(state)
    rig.settle()
    assert rig.referee.game.notation() == (
        "ludo classic seats=gr turn=r rolls=- g=t5,base,base,base r=t30,base,base,base"
    )

"""Scripted physical scenarios for the referee playing Ludo: a power cut, a finished game followed by a
new one (the Ludo adapter's own tests are in test_referee_ludo_adapter.py)."""

import ludus.ludo.game as ludo
from ludo_scenes import at


def test_power_cut_keeps_the_game_and_the_dice_stream():
    # one rig with a power cut between the rolls, then (one referee at a time, as on the board) one
    # played straight through: the same moves and position
    start = "ludo classic seats=gr turn=g rolls=- g=base,base,base,base r=base,base,base,base"
    b = at(start)
    b.press()
    b.power_cut()
    assert b.take("restored")
    b.press()
    got = (b.moves(), b.referee.game.notation())
    b = None
    a = at(start)
    a.press()
    a.press()
    assert got == (a.moves(), a.referee.game.notation())


def test_a_finished_game_shows_placements_and_the_start_position_begins_a_new_one():
    rig = at("ludo classic seats=gr turn=g rolls=1 g=home,home,home,green.c4 r=t3,base,base,base")
    rig.move("green.c4", "green.home")
    over = rig.take("game_over")
    assert over and over[0]["placements"] == [0, 2]
    assert rig.referee.phase == 2
    import ludus.light.palette as palette

    led = rig.board.turn_leds[0]
    assert rig.referee.scene.meaning_at(led) == palette.WINNER
    rig.fill(ludo.start_position("classic/2"))
    rig.settle()
    assert [e["start"] for e in rig.take("new_game")] == ["ludo/classic/2"]


def test_a_token_going_home_lights_only_the_free_home_slots():
    # three tokens home, the fourth lifted from the column: the one free slot is its destination, and the
    # three full ones are not lit (a token cannot be put there)
    rig = at("ludo classic seats=gr turn=g rolls=2 g=home,home,home,c3 r=t5,base,base,base")
    rig.lift("green.c3")
    full = [k for k in range(4) if rig.counts[rig.cell("green.home.%d" % k)]]
    assert len(full) == 3
    for k in range(4):
        assert rig.lit("green.home.%d" % k, "destination") == (k not in full), k
    rig.place("green.home")
    assert rig.take("game_over") or rig.referee.game.placements() == [0]

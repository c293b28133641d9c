"""Scripted physical scenarios for the referee playing Ludo: setup and the roll-off, rolls by button,
entering, several waiting rolls, captures in either order (stacks needing confirmation and undo are in
test_referee_ludo_confirm.py; a power cut, a finished game and the adapter in test_referee_ludo_end.py).

Each test runs in a MicroPython process of its own with the 160K heap of the tests (docs/referee.md,
"Memory"); the rigs are in ludo_scenes.py."""

import ludus.ludo.game as ludo
from ludo_scenes import at


def rig52(preset="ludo/classic/4"):
    from referee_rig import Rig

    return Rig(preset, "ludo52")


def test_setup_sees_which_colours_play_and_the_roll_off_picks_the_first():
    rig = rig52()
    rig.settle()
    game = ludo.LudoGame(ludo.rules_from_spec("classic"), (1, 3))  # yellow and blue only
    game._set_up_start()
    rig.fill(game)
    rig.settle()
    ev = rig.take("new_game")
    assert ev and "seats=yb" in ev[0]["start"], ev
    rig.die(3, 5)  # yellow rolls 3, blue 5: blue starts
    rig.press()
    rig.press()
    rolls = rig.take("roll")
    assert [(e["seat"], e["value"]) for e in rolls] == [(1, 3), (3, 5)]
    assert rig.referee.game.turn == 3 and rig.referee.game.awaiting_roll()


def test_entering_with_a_six_then_the_bonus_roll_moves_the_same_token():
    rig = at("ludo classic seats=gr turn=g rolls=- g=base,base,base,base r=base,base,base,base")
    rig.die(6, 4)
    rig.press()  # six: roll again before moving
    rig.press()
    assert [e["value"] for e in rig.take("roll")] == [6, 4]
    rig.move("green.base", "t0")
    assert [e["move"] for e in rig.take("move")] == ["6 green.0 base-t0"]
    rig.move("t0", "t4")
    assert [e["move"] for e in rig.take("move")] == ["4 green.0 t0-t4"]
    assert rig.referee.game.turn == 2


def test_the_roll_used_is_inferred_from_the_distance_moved():
    rig = at("ludo classic seats=gr turn=g rolls=6,2 g=t5,t20,base,base r=base,base,base,base")
    rig.move("t20", "t22")
    # the 6 could still carry this token on past t22 (counting out: test_referee_counting.py), so the 2
    # waits; touching the next token commits it
    assert rig.situation() == "pending"
    rig.move("t5", "t11")
    assert [e["move"] for e in rig.take("move")] == ["2 green.1 t20-t22", "6 green.0 t5-t11"]
    assert rig.referee.game.rolls == []


def test_capture_with_the_capturing_token_put_down_first():
    rig = at("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base")
    rig.lift("t5")
    assert rig.situation() == "moving"
    assert rig.lit("t9", "capture victim") and rig.lit("red.base.3", "capture base")
    rig.place("t9")  # on top of the red token: presence sensors still read one piece
    rig.lift("t9")  # the red token taken off
    assert rig.take("move") == []
    rig.place("red.base")
    assert [e["move"] for e in rig.take("move")] == ["4 green.0 t5-t9 x red.0"]
    assert rig.referee.game.notation().find("r=base,base,base,base") > 0


def test_capture_with_the_captured_token_taken_off_first():
    rig = at("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base")
    rig.lift("t9")
    assert rig.situation() == "moving"  # part of the capture, not a mismatch
    rig.place("red.base")
    assert rig.situation() == "moving"
    rig.move("t5", "t9")
    assert rig.moves()[-1] == "4 green.0 t5-t9 x red.0"

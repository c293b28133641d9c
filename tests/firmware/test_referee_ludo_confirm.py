"""Scripted physical scenarios for the referee playing Ludo: two moves that look the same, moves whose
arrival cannot be seen, moving before rolling, undo."""

from ludo_scenes import at


def test_two_moves_that_look_the_same_ask_for_confirmation():
    # green on t3, t5 and t9: the 2 (t3-t5) and the 6 (t3-t9) both only empty t3 to presence sensors
    rig = at("ludo classic seats=gr turn=g rolls=6,2 g=t3,t5,t9,base r=base,base,base,base")
    rig.lift("t3")
    ev = rig.take("confirm")
    assert ev and sorted(ev[0]["moves"]) == ["2 green.0 t3-t5", "6 green.0 t3-t9"], ev
    first = ev[0]["moves"][0]
    rig.long_press()  # show the other reading
    other = rig.take("confirm_next")[0]["move"]
    assert other != first
    rig.press()
    assert rig.moves()[-1] == other


def test_a_move_whose_arrival_cannot_be_seen_waits_for_a_press():
    # a token moved onto its own colour's token: presence sensors see only the lift
    rig = at("ludo classic seats=gr turn=g rolls=2 g=t3,t5,base,base r=base,base,base,base")
    rig.move("t3", "t5")  # only t3 empties: the same as a token picked up and held
    assert rig.situation() == "pending" and rig.moves() == []
    rig.press()
    assert rig.moves() == ["2 green.0 t3-t5"]


def test_an_invisible_move_onto_a_stack_is_confirmed_by_pressing():
    rig = at("ludo classic seats=gr turn=g rolls=2 g=t3,t3,t5,base r=base,base,base,base")
    rig.move("t3", "t5")  # one token leaves a stack of two: nothing changes for presence sensors
    assert rig.take("move") == []
    rig.press()
    ev = rig.take("confirm")
    assert ev and "2 green.0 t3-t5" in ev[0]["moves"], ev
    rig.press()
    assert rig.moves()[-1] in ("2 green.0 t3-t5", "2 green.1 t3-t5")


def test_moving_before_rolling_is_a_mismatch_and_rolling_waits_for_the_board():
    rig = at("ludo classic seats=gr turn=g rolls=- g=t3,base,base,base r=base,base,base,base")
    rig.move("t3", "t6")
    assert rig.situation() == "mismatch"
    rig.press()
    assert rig.take("refused") and rig.take("roll") == []
    rig.move("t6", "t3")
    assert rig.situation() == "idle"
    rig.die(2)
    rig.press()
    assert [e["value"] for e in rig.take("roll")] == [2]


def test_undo_puts_the_roll_back_and_guides_the_token_home():
    rig = at("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base")
    rig.lift("t9")
    rig.place("red.base")
    rig.move("t5", "t9")
    assert rig.moves() == ["4 green.0 t5-t9 x red.0"]
    assert rig.referee.game.awaiting_roll()  # a capture earns another roll
    rig.long_press()
    assert rig.take("undo")
    assert rig.referee.game.rolls == [4]
    assert rig.situation() == "undo"
    rig.move("t9", "t5")
    rig.move("red.base", "t9")
    assert rig.situation() == "idle"
    assert rig.moves() == []

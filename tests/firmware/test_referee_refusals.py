"""Refusals with their reasons (issue 9): a setup that matches no start, an illegal placement and the
rule it breaks (a compulsory capture lit), a press that does nothing. Runs on both runtimes."""

from ludo_scenes import at

GROW_NAMES = True  # the unix port's name pool grown first: past its cliff it would grow mid-test


def test_neighbouring_bases_are_refused_with_the_base_to_use():
    from ludo_scenes import bases_filled

    rig = bases_filled("ludo/classic", ("green", "blue"))
    assert rig.referee.phase == 0
    refused = rig.take("refused")
    assert len(refused) == 1, refused
    reason = refused[0]["reason"]
    assert "ludo/classic/2" in reason and "blue.base to red.base" in reason, reason
    assert rig.lit("red.base.0", "move to")
    assert not rig.lit("green.base.0", "player")  # green and blue cannot play together: not "taking part"
    rig.press()
    assert rig.take("refused")  # a press says it again
    for _ in range(4):
        rig.move("blue.base", "red.base")
    assert rig.take("new_game")[0]["start"] == "ludo/classic/2"


def test_ignoring_a_compulsory_capture_names_the_rule_and_lights_the_capture():
    rig = at("ludo danish seats=gr turn=g rolls=2 g=t14,t30,base,base r=t32,base,base,base")
    rig.move("t14", "t16")
    assert rig.situation() == "illegal"
    ev = rig.take("illegal")[0]
    assert "compulsory capture" in ev["reason"] and "2 green.1 t30-t32 x red.0" in ev["reason"], ev
    assert rig.lit("t16", "illegal") and rig.lit("t14", "way back")
    assert rig.lit("t32", "capture victim")
    rig.move("t16", "t14")
    assert rig.situation() == "idle"


def test_an_illegal_move_carries_the_engines_reason():
    rig = at("ludo classic seats=gr turn=g rolls=3 g=t2,base,base,base r=t30,base,base,base")
    rig.move("t2", "t7")
    ev = rig.take("illegal")[0]
    assert ev["reason"] == "3 green.0 t2-t7: with 3 this token goes to t5", ev


def test_a_press_that_does_nothing_is_refused_with_a_cue():
    rig = at("ludo classic seats=gr turn=g rolls=3 g=t2,base,base,base r=t30,base,base,base")
    rig.lift("t2")
    rig.tick(1)  # SHORT_PRESS, then look at once
    assert rig.take("refused")[0]["reason"].startswith("a move is under way")
    rig.tick()
    assert rig.lit("turn.0", "illegal")
    rig.run(700)
    assert rig.lit("turn.0", "turn")
    rig.place("t2")
    rig.place("t40")  # a stray piece: a mismatch, no roll owed
    rig.take()
    rig.press()
    assert rig.take("refused")[0]["reason"].startswith("put the board right")

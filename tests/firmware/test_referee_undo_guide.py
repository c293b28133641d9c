"""Undo guided step by step (issue 9, docs/referee.md "Undo of a capture, colour by colour"): a capture
undone mover first, then the victim; off the guide's path, the plain difference; a step the sensors
cannot see, confirmed with a press. Runs on both runtimes."""

from ludo_scenes import at


def _lit_pair(rig):
    # the places lit "move from" and "move to" (cells or zone slots), as sets of LEDs
    import ludus.light.palette as palette

    sc = rig.referee.scene
    frm = [led for led in range(sc.led_count) if sc.meaning_at(led) == palette.MOVE_FROM]
    to = [led for led in range(sc.led_count) if sc.meaning_at(led) == palette.MOVE_TO]
    return frm, to


def test_undoing_a_capture_guides_the_mover_back_first_then_the_victim():
    rig = at("ludo classic seats=gr turn=g rolls=3 g=t2,base,base,base r=t5,base,base,base")
    rig.move("t5", "red.base")
    rig.move("t2", "t5")
    assert rig.take("move")[0]["move"] == "3 green.0 t2-t5 x red.0"
    rig.long_press()
    assert rig.situation() == "undo"
    # step 1: green from t5 back to t2, and nothing else lit
    assert _lit_pair(rig) == ([rig.led("t5")], [rig.led("t2")])
    rig.lift("t5")  # part way: what is left of the step stays lit
    assert _lit_pair(rig) == ([], [])
    assert rig.lit("t2", "missing") and not rig.lit("t5", "missing")
    rig.place("t2")
    # step 2: a red token from red's base onto t5
    frm, to = _lit_pair(rig)
    assert to == [rig.led("t5")] and len(frm) == 1
    assert frm[0] in [rig.led("red.base.%d" % k) for k in range(4)]
    rig.move("red.base", "t5")
    assert rig.situation() == "idle"
    assert rig.take("resume")
    assert rig.referee.game.notation() == (
        "ludo classic seats=gr turn=g rolls=3 g=t2,base,base,base r=t5,base,base,base"
    )


def test_undoing_a_capture_off_the_guide_shows_the_plain_difference():
    rig = at("ludo classic seats=gr turn=g rolls=3 g=t2,base,base,base r=t5,base,base,base")
    rig.move("t5", "red.base")
    rig.move("t2", "t5")
    rig.long_press()
    rig.lift("red.base")  # the victim first, against the guide: every difference lit
    assert rig.situation() == "undo"
    assert rig.lit("t2", "missing") or rig.lit("t2", "move to")


def test_undoing_a_move_the_sensors_cannot_see_is_lit_and_confirmed_with_a_press():
    # green moves a token off its stack on t10 onto its token on t15: with presence sensors nothing
    # changes, so the move is declared with a press; its undo is lit, and a press says it is done
    rig = at("ludo classic seats=gr turn=g rolls=5 g=t10,t10,t15,base r=t30,base,base,base")
    rig.move("t10", "t15")
    rig.press()
    assert rig.situation() == "confirm"
    rig.press()
    assert rig.take("move")[0]["move"] == "5 green.0 t10-t15"
    rig.long_press()
    assert rig.situation() == "undo"
    assert _lit_pair(rig) == ([rig.led("t15")], [rig.led("t10")])
    rig.move("t15", "t10")  # unseen
    assert rig.situation() == "undo"
    rig.press()
    assert rig.take("undo_step")
    assert rig.situation() == "idle"
    assert _lit_pair(rig) == ([], [])

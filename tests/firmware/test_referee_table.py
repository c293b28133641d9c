"""Play at the table (issue 9): what families do with the pieces, and what the board must then show. The
die display, lights after a reported position, undoing a capture colour by colour, a captured token
already taken off, refusals with their reasons. Runs on both runtimes."""

from ludo_scenes import at


def test_die_shows_the_rolls_still_to_play():
    rig = at("ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t30,base,base,base")
    rig.die(6, 3)
    rig.press()
    rig.press()
    assert rig.referee.scene.die_shown() == [6, 3]
    rig.move("t2", "t5")  # the 3 played (once the board is still: the 6 could go on): only the 6 waits
    rig.run(2500)
    assert rig.take("move")[0]["move"] == "3 green.0 t2-t5"
    assert rig.referee.scene.die_shown() == [6]
    rig.move("green.base", "t0")  # the 6 brings a token out; the next roll is owed, nothing waits
    assert rig.referee.scene.die_shown() == []
    rig.long_press()  # undo: the 6 waits again
    assert rig.referee.scene.die_shown() == [6]


def test_die_shows_a_waiting_roll_after_a_power_cut():
    rig = at("ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t30,base,base,base")
    rig.die(3)
    rig.press()
    assert rig.referee.scene.die_shown() == [3]
    rig.power_cut()
    assert rig.referee.scene.die_shown() == [3]
    assert rig.lit("waiting.0", "waiting roll")


def test_die_keeps_a_roll_that_has_no_move():
    # red's only token is in its base: a 3 cannot be played, the turn passes, the die still says 3
    rig = at("ludo classic seats=gr turn=r rolls=- g=t2,base,base,base r=base,base,base,base")
    rig.die(3, 3, 3)
    rig.press()
    assert rig.referee.scene.die_shown() == [3]


def test_a_restored_position_shows_play_lights_without_any_change():
    # the pieces on the board first, then the position restored (ludus play's `start`): the setup
    # lights go at once
    import ludus.light.palette as palette
    from referee_rig import Rig

    rig = Rig("ludo/classic", "ludo52")
    rig.settle()
    notation = "ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t5,base,base,base"
    rig.fill(rig.referee.adapter.position(notation))
    rig.settle()
    assert rig.referee.phase == 0
    assert rig.referee.scene.meaning_at(rig.led("t2"))  # a setup light: not a start
    rig.start_at(notation)
    rig.run(2000)
    assert rig.referee.describe() == {"phase": "play", "situation": "idle", "turn": 0}
    sc = rig.referee.scene
    for led in range(sc.led_count):
        assert sc.meaning_at(led) in (palette.NONE, palette.TURN), led
    assert rig.lit("turn.0", "turn")


def test_a_victim_taken_off_first_leaves_its_square_lit_as_the_destination():
    rig = at("ludo classic seats=gr turn=g rolls=3 g=t2,base,base,base r=t5,base,base,base")
    rig.lift("t2")
    assert rig.lit("t5", "capture victim")
    assert rig.lit("red.base.0", "capture base") or rig.lit("red.base.3", "capture base")
    rig.lift("t5")  # the red token taken off, held in the hand
    assert rig.situation() == "moving"
    assert rig.lit("t5", "destination")
    rig.place("red.base")
    assert rig.lit("t5", "destination")
    rig.place("t5")
    assert rig.take("move")[0]["move"] == "3 green.0 t2-t5 x red.0"


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

"""Play at the table (issue 9): what families do with the pieces, and what the board must then show: the
die display, lights after a reported position, a captured token already taken off. Undo guidance is in
test_referee_undo_guide.py, refusals in test_referee_refusals.py. Runs on both runtimes."""

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

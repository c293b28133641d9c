"""Counting a roll out square by square (docs/referee.md, "Counting out"): a token carried along its
own path, resting 0.3-0.8 s on each square, commits no roll early and shows no error; resting longer
than HOLD_MS is judged. Classic, Danish and Master, one and several waiting rolls. Both runtimes."""

from ludo_scenes import at

GROW_NAMES = True  # the unix port's name pool grown first: past its cliff it would grow mid-test

PLAIN = "ludo classic seats=gr turn=g rolls=%s g=t2,base,base,base r=t30,base,base,base"


def _squares(first, last):
    return ["t%d" % k for k in range(first, last + 1)]


def _count_out(position, squares, ms):
    rig = at(position)
    rig.slide(squares, ms)
    return rig


def test_one_roll_counted_out_commits_once_with_no_error():
    for ms in (300, 500, 800):
        rig = _count_out(PLAIN % "3", _squares(2, 5), ms)
        events = rig.take()
        assert [e["move"] for e in events if e["event"] == "move"] == ["3 green.0 t2-t5"], (ms, events)
        assert not [e for e in events if e["event"] in ("illegal", "mismatch")], (ms, events)
        rig = events = None  # (one referee at a time on a 160K heap)


def test_the_way_is_lit_while_counting():
    rig = at(PLAIN % "3")
    rig.slide(_squares(2, 3), 500)  # resting on t3
    assert rig.situation() == "moving"
    assert rig.lit("t5", "destination")
    assert not rig.take("illegal")


def test_resting_on_the_way_is_judged_after_the_hold():
    rig = at(PLAIN % "3")
    rig.slide(_squares(2, 4), 500)
    rig.run(2500)  # longer than HOLD_MS: t4 is not where a 3 goes
    assert rig.situation() == "illegal"
    assert rig.take("illegal")[0]["reason"] == "3 green.0 t2-t4: with 3 this token goes to t5"
    rig.move("t4", "t5")  # carried on: the move, the error gone
    assert rig.take("move")[0]["move"] == "3 green.0 t2-t5"


def test_several_rolls_a_rest_on_the_shorter_roll_does_not_commit_it():
    for ms in (300, 800):
        rig = _count_out(PLAIN % "6,3", _squares(2, 8), ms)
        events = rig.take()
        assert [e["move"] for e in events if e["event"] == "move"] == ["6 green.0 t2-t8"], (ms, events)
        assert not [e for e in events if e["event"] in ("illegal", "mismatch")], (ms, events)
        assert rig.referee.game.rolls == [3]
        rig = events = None  # (one referee at a time on a 160K heap)


def test_several_rolls_stopping_on_the_shorter_roll_commits_it_once_still():
    rig = _count_out(PLAIN % "6,3", _squares(2, 5), 500)
    assert not rig.take("move")
    assert rig.situation() == "pending"
    rig.run(2500)
    assert rig.take("move")[0]["move"] == "3 green.0 t2-t5"
    assert rig.referee.game.rolls == [6]


def test_several_rolls_a_press_or_the_next_token_commits_the_shorter_roll():
    rig = _count_out(PLAIN % "6,3", _squares(2, 5), 500)
    rig.press()
    assert rig.take("move")[0]["move"] == "3 green.0 t2-t5"
    rig = None
    rig = _count_out(PLAIN % "6,3", _squares(2, 5), 500)
    rig.move("green.base", "t0")  # the 6 brings the next token out: the 3 stands
    assert [e["move"] for e in rig.take("move")] == ["3 green.0 t2-t5", "6 green.1 base-t0"]


def test_danish_counting_out():
    rig = _count_out(
        "ludo danish seats=gr turn=g rolls=4 g=t14,base,base,base r=t40,base,base,base", _squares(14, 18), 600
    )
    events = rig.take()
    assert [e["move"] for e in events if e["event"] == "move"] == ["4 green.0 t14-t18"], events
    assert not [e for e in events if e["event"] in ("illegal", "mismatch")], events


def test_master_counting_out_with_two_rolls():
    position = "ludo master seats=gr turn=g rolls=6,3 g=t14,base,base,base r=t40,base,base,base"
    rig = _count_out(position, _squares(14, 20), 400)
    events = rig.take()
    assert [e["move"] for e in events if e["event"] == "move"] == ["6 green.0 t14-t20"], events
    assert not [e for e in events if e["event"] in ("illegal", "mismatch")], events

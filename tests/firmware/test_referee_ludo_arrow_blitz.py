"""Scripted physical scenarios for the referee under Arrow's jumps and Blitz's start and finish (a file
of their own: when a file was one MicroPython process, the variants together came close to 160K).

Positions come from docs/ludo.md's rule table; the rigs are in ludo_scenes.py."""

from ludo_scenes import at, fresh, moves_of

GROW_NAMES = True  # the unix port's name pool grown first: past its cliff it would grow mid-test


def test_arrow_jump_with_capture():
    rig = at("ludo arrow seats=gr turn=g rolls=3 g=t5,base,base,base r=t21,base,base,base")
    rig.lift("t5")
    assert rig.lit("t21", "capture victim") and rig.lit("t8", "jump path")
    rig.place("t8")  # on the arrow first, then along it
    rig.lift("t21")
    rig.place("red.base")
    rig.move("t8", "t21")
    assert moves_of(rig) == ["3 green.0 t5-t21 via t8 x red.0"]


def test_arrow_landing_short_of_the_arrow_is_not_a_move():
    rig = at("ludo arrow seats=gr turn=g rolls=3 g=t5,base,base,base r=t40,base,base,base")
    rig.move("t5", "t8")  # the arrow carries the token on: it may not stay on t8
    assert rig.situation() == "moving" and rig.take("move") == []
    rig.move("t8", "t21")
    assert moves_of(rig) == ["3 green.0 t5-t21 via t8"]


def test_blitz_starts_with_two_tokens_out_and_the_first_token_home_wins():
    rig = fresh("ludo/blitz/2", (0, 2))
    ev = rig.take("new_game")
    assert ev and ev[0]["start"] == "ludo/blitz/2"
    rig = at("ludo blitz seats=gr turn=g rolls=1 g=green.c4,t3,base,base r=t30,t26,base,base captured=g")
    rig.move("green.c4", "green.home")
    done = rig.take()
    assert [e["move"] for e in done if e["event"] == "move"] == ["1 green.0 c4-home"]
    over = [e for e in done if e["event"] == "game_over"]
    assert over and over[0]["placements"] == [0], over  # Blitz does not play on


def test_blitz_no_token_enters_the_column_before_a_capture():
    rig = at("ludo blitz seats=gr turn=g rolls=3 g=t49,t0,t0,base r=t26,t26,base,base")
    rig.move("t49", "green.c1")  # would turn into the column: not offered before a capture
    assert rig.situation() in ("mismatch", "illegal") and rig.take("move") == []
    rig.move("green.c1", "t49")
    assert rig.situation() == "idle"


# ---- the game adapter ----------------------------------------------------------------------------

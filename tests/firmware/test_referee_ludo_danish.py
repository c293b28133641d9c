"""Scripted physical scenarios for the referee under the Ludo rule variants: captures of a stacked pair
in either order, Danish stars, globes and three tries.

Positions come from docs/ludo.md's rule table; the rigs are in ludo_scenes.py."""

import ludus.ludo.game as ludo
from ludo_pair_scene import capture_a_pair_in_either_order
from ludo_scenes import at, game_of, moves_of

GROW_NAMES = True  # the unix port's name pool grown first: past its cliff it would grow mid-test

# ---- captures of stacked tokens -------------------------------------------------------------------------


def test_classic_captures_a_pair_in_either_order():
    capture_a_pair_in_either_order(at)


# ---- Danish: stars, globes, three tries ------------------------------------------------------------------


def test_danish_star_jump_with_capture_set_down_on_the_first_star_on_the_way():
    rig = at("ludo danish seats=gr turn=g rolls=3 g=t1,base,base,base r=t11,base,base,base")
    rig.lift("t1")
    assert rig.situation() == "moving"
    assert rig.lit("t11", "capture victim") and rig.lit("t4", "jump path")
    rig.place("t4")  # the star landed on: the token goes on to the next star
    assert rig.situation() == "moving" and rig.take("move") == []
    rig.lift("t11")  # the red token on the next star goes home
    rig.place("red.base")
    rig.move("t4", "t11")
    assert moves_of(rig) == ["3 green.0 t1-t11 via t4 x red.0"]
    assert "r=base,base,base,base" in game_of(rig).notation()


def test_danish_star_jump_carried_straight_to_the_next_star_captured_token_first():
    rig = at("ludo danish seats=gr turn=g rolls=3 g=t1,base,base,base r=t11,base,base,base")
    rig.lift("t11")
    rig.place("red.base")
    assert rig.situation() == "moving"
    rig.move("t1", "t11")
    assert moves_of(rig) == ["3 green.0 t1-t11 via t4 x red.0"]


def test_danish_globe_capture_by_bringing_a_token_out():
    # a lone green token on red's start globe is captured when red brings a token out with a six
    rig = at("ludo danish seats=gr turn=r rolls=6 g=t26,base,base,base r=base,base,base,base")
    rig.lift("red.base")
    assert rig.lit("t26", "capture victim")
    rig.place("t26")  # on top of the green token: presence sensors still read one piece
    rig.lift("t26")
    rig.place("green.base")
    assert moves_of(rig) == ["6 red.0 base-t26 x green.0"]
    assert "g=base,base,base,base" in game_of(rig).notation()


def test_danish_three_tries_to_come_out_with_nothing_in_play():
    rig = at("ludo danish seats=gr turn=r rolls=2 g=base,base,base,base r=t3,base,base,base")
    rig.move("t3", "t5")  # red's move ends its turn: green, with nothing in play, has three tries
    rig.die(2, 3, 4)
    for _ in range(3):
        assert game_of(rig).turn == 0 and game_of(rig).awaiting_roll()
        rig.press()
    assert [(e["seat"], e["value"]) for e in rig.take("roll")] == [(0, 2), (0, 3), (0, 4)]
    assert game_of(rig).turn == 2 and game_of(rig).awaiting_roll()  # three tries without a six: red's turn
    assert rig.situation() == "idle"


def test_danish_third_try_six_brings_a_token_out():
    rig = at("ludo danish seats=gr turn=r rolls=2 g=base,base,base,base r=t3,base,base,base")
    rig.move("t3", "t5")
    assert moves_of(rig) == ["2 red.0 t3-t5"]
    rig.die(1, 1, 6)
    for _ in range(3):
        rig.press()
    rig.move("green.base", "t0")
    assert moves_of(rig) == ["6 green.0 base-t0"]
    assert game_of(rig).turn == 0  # a six earns another roll


# ---- the game adapter ----------------------------------------------------------------------------


def test_adapter_lists_the_square_a_star_jump_passes_as_touched():
    from ludus.referee.ludo import LudoAdapter

    game = ludo.from_notation("ludo danish seats=gr turn=g rolls=3 g=t1,base,base,base r=t11,base,base,base")
    (move,) = game.legal_moves()
    assert str(move) == "3 green.0 t1-t11 via t4 x red.0"
    names = game.place_names
    changes = sorted((names[p], d) for p, d in LudoAdapter("danish").changes(game, move))
    assert changes == [("red.base", 1), ("t1", -1), ("t11", 0), ("t4", 0)], changes

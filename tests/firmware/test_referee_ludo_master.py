"""Scripted physical scenarios for the referee under Master's walls: moved a token at a time, capturing
and blocking (Arrow and Blitz: test_referee_ludo_arrow_blitz.py).

Positions come from docs/ludo.md's rule table; the rigs are in ludo_scenes.py."""

import ludus.ludo.game as ludo
from ludo_scenes import at, game_of, moves_of

GROW_NAMES = True  # the unix port's name pool grown first: past its cliff it would grow mid-test

# ---- Master: walls -----------------------------------------------------------------------------------


def test_master_wall_moved_one_token_at_a_time_is_one_move():
    rig = at("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t40,base,base,base")
    rig.move("t2", "t5")  # the first token: a single token leaving the wall, or half the wall?
    assert rig.situation() == "pending" and rig.take("move") == []
    rig.move("t2", "t5")  # the second: the wall moved as one unit, with one roll
    assert moves_of(rig) == ["3 green.0+green.1 t2-t5"]
    assert "g=t5,t5,base,base" in game_of(rig).notation()


def test_master_single_token_leaving_a_wall_is_confirmed_by_a_press():
    rig = at("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t40,base,base,base")
    rig.move("t2", "t5")
    assert rig.situation() == "pending"
    rig.press()
    assert moves_of(rig) == ["3 green.0 t2-t5"]
    assert "g=t5,t2,base,base" in game_of(rig).notation()


def test_master_wall_captures_a_wall_tokens_moved_one_at_a_time():
    rig = at("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t5,t5,base,base")
    rig.lift("t2")  # one token of the wall: presence sensors still read t2 occupied
    rig.place("t5")  # onto the red wall: nothing new either
    assert rig.situation() == "idle"
    rig.move("t2", "t5")  # the second token: now t2 empties
    assert rig.situation() == "moving" and rig.take("move") == []
    assert rig.lit("t5", "capture victim")
    rig.lift("t5")
    rig.place("red.base")
    rig.lift("t5")
    rig.place("red.base")
    assert moves_of(rig) == ["3 green.0+green.1 t2-t5 x red.0,red.1"]
    assert "r=base,base,base,base" in game_of(rig).notation()


def test_master_wall_capture_with_the_victims_taken_off_first():
    rig = at("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t5,t5,base,base")
    rig.lift("t5")  # invisible to presence sensors: the other red token still stands there
    rig.place("red.base")
    rig.lift("t5")
    rig.place("red.base")
    assert rig.situation() == "moving"
    rig.move("t2", "t5")
    rig.move("t2", "t5")
    assert moves_of(rig) == ["3 green.0+green.1 t2-t5 x red.0,red.1"]


def test_master_wall_capturing_a_single_token_taken_off_first():
    # the victim off first: t5 reads empty, on the way to either legal move (one token or the wall)
    rig = at("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t5,base,base,base")
    rig.lift("t5")
    rig.place("red.base")
    assert rig.situation() == "moving" and rig.take("mismatch") == []
    rig.move("t2", "t5")  # a single token capturing, or half the wall: pending
    rig.move("t2", "t5")
    seen = rig.take()
    assert [e["event"] for e in seen] == ["pending", "move"], seen
    assert seen[1]["move"] == "3 green.0+green.1 t2-t5 x red.0"


def test_master_a_wall_blocks_a_single_token_passing():
    # green on t2 with a 3 would pass the red wall on t4: no move at all, the roll is discarded
    rig = at("ludo master seats=gr turn=g rolls=- g=t2,base,base,base r=t4,t4,base,base")
    rig.die(3)
    rig.press()
    assert game_of(rig).turn == 2
    rig.move("t2", "t5")  # trying anyway
    assert rig.situation() in ("mismatch", "illegal") and rig.take("move") == []


# ---- Arrow and Blitz ---------------------------------------------------------------------------------------


def test_adapter_lists_a_wall_capture_square_as_touched():
    from ludus.referee.ludo import LudoAdapter

    game = ludo.from_notation("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t5,t5,base,base")
    (move,) = game.legal_moves()
    names = game.place_names
    changes = sorted((names[p], d) for p, d in LudoAdapter("master").changes(game, move))
    assert changes == [("red.base", 2), ("t2", -2), ("t5", 0)], changes

"""Scripted physical scenarios for the referee under the Ludo rule variants: exact entry home versus
bounce, a game played out to its placements, the turn clock and auto-play, and the game adapter.

Positions come from docs/ludo.md's rule table; the rigs are in ludo_scenes.py."""

import ludus.ludo.game as ludo
from ludo_scenes import at, clocked, game_of, moves_of

GROW_NAMES = True  # the unix port's name pool grown first: past its cliff it would grow mid-test

# ---- home: exact or bounce ------------------------------------------------------------------------------


def test_classic_needs_the_exact_count_home():
    rig = at("ludo classic seats=gr turn=g rolls=5 g=green.c3,t10,base,base r=t26,base,base,base")
    rig.move("green.c3", "green.home")  # 5 overshoots: only t10-t15 is legal
    assert rig.situation() == "illegal" and rig.take("move") == []
    assert rig.lit("green.c3", "way back")
    rig.move("green.home", "green.c3")
    rig.move("t10", "t15")
    assert moves_of(rig) == ["5 green.1 t10-t15"]


def test_bounce_back_from_home():
    rig = at(
        "ludo custom:exact_home=0 seats=gr turn=g rolls=5 g=green.c3,t10,base,base r=t26,base,base,base",
        "ludo/custom:exact_home=0",
    )
    rig.lift("green.c3")
    assert rig.lit("green.c2", "destination")
    rig.place("green.c2")
    assert moves_of(rig) == ["5 green.0 c3-c2"]


# ---- to the end and again ---------------------------------------------------------------------------------


def test_three_players_play_on_for_every_place_then_a_new_game():
    rig = at(
        "ludo classic seats=gyr turn=y rolls=1 g=home,home,home,home y=home,home,home,yellow.c4 "
        "r=t3,base,base,base placed=g"
    )
    rig.move("yellow.c4", "yellow.home")
    over = rig.take("game_over")
    assert over and over[0]["placements"] == [0, 1, 2]
    assert rig.referee.phase == 2
    rig.long_press()  # a finished dice game cannot be undone (its seed is revealed)
    assert rig.take("refused") and rig.referee.phase == 2
    for c in range(len(rig.counts)):
        rig.counts[c] = 0
    rig.settle()
    rig.fill(ludo.start_position("classic/3"))
    rig.settle()
    assert [e["start"] for e in rig.take("new_game")] == ["ludo/classic/3"]
    assert game_of(rig).phase == ludo.ORDER


# ---- the turn clock and auto-play ---------------------------------------------------------------------


def test_turn_clock_rolls_what_is_owed_and_lights_the_preferred_move_to_carry_out():
    rig = clocked("ludo classic seats=gr turn=g rolls=- g=t5,t20,base,base r=t9,base,base,base")
    assert rig.referee.clock[0] == 15000
    rig.run(14000)
    assert rig.take() == []  # still green's time
    rig.die(4, 2)
    rig.run(1500)
    done = rig.take()
    assert [e["event"] for e in done][:2] == ["auto", "roll"], done
    auto = [e for e in done if e["event"] == "auto"]
    assert auto[-1]["move"] == "4 green.0 t5-t9 x red.0"  # a capture before advancing the furthest
    assert rig.situation() == "confirm" and rig.referee.record.actions[-1] == "roll 4"
    assert rig.lit("t5", "confirm") and rig.lit("t9", "capture victim")
    # the players carry it out; the capture's extra roll is rolled for them at once
    rig.move("t9", "red.base")
    rig.move("t5", "t9")
    rig.run(100)  # the clock acts on the ticks after the commit
    done = rig.take()
    assert [e["move"] for e in done if e["event"] == "move"] == ["4 green.0 t5-t9 x red.0"]
    assert [e["value"] for e in done if e["event"] == "roll"] == [2]
    assert [e["move"] for e in done if e["event"] == "auto" and "move" in e] == ["2 green.1 t20-t22"]
    rig.move("t20", "t22")
    assert moves_of(rig) == ["2 green.1 t20-t22"]
    assert rig.referee.game.turn == 2 and rig.situation() == "idle"
    rig.run(10000)
    assert rig.take("auto") == []  # red's own clock started with red's turn


def test_turn_clock_accepts_only_the_chosen_move_and_a_press_plays_it():
    rig = clocked("ludo classic seats=gr turn=g rolls=6,2 g=t5,t20,base,base r=t40,base,base,base")
    rig.run(15500)
    auto = rig.take("auto")
    assert auto and auto[0]["move"] == "6 green.1 t20-t26"  # the furthest token, first waiting roll
    rig.move("t5", "t11")  # another legal move, but the clock has chosen
    assert rig.situation() == "illegal" and rig.take("move") == []
    assert rig.lit("t5", "way back")
    rig.move("t11", "t5")
    assert rig.situation() == "confirm"  # the clock's move is lit again at once
    rig.press()  # accept the board's move before carrying it out
    assert moves_of(rig) == ["6 green.1 t20-t26"]
    # the board now shows the token where the game has it not: the way to t26 lights
    assert rig.situation() == "illegal" and rig.lit("t26", "way back")
    rig.move("t20", "t26")
    assert rig.situation() == "idle"


def test_turn_clock_stops_while_the_board_differs():
    rig = clocked("ludo blitz seats=gr turn=g rolls=- g=t5,t0,base,base r=t26,t26,base,base")
    assert rig.referee.clock[0] == 5000  # Blitz turns are 5 s
    rig.move("t26", "t27")  # a knocked piece
    rig.run(8000)
    assert rig.take("auto") == [] and rig.situation() == "mismatch"
    rig.move("t27", "t26")
    rig.run(4000)
    assert rig.take("auto") == []  # afresh from the moment the board matched
    rig.die(3)
    rig.run(1500)
    assert rig.take("auto")


def test_danish_rules_have_no_turn_clock():
    rig = clocked("ludo danish seats=gr turn=g rolls=- g=t5,base,base,base r=t30,base,base,base")
    rig.run(60000)
    assert rig.referee.clock is None and rig.take() == []


# ---- the game adapter ----------------------------------------------------------------------------


def test_adapter_sees_a_bounce_back_from_home_as_one_step_back_in_the_column():
    from ludus.referee.ludo import LudoAdapter

    text = "ludo custom:exact_home=0 seats=gr turn=g rolls=5 g=green.c3,t10,base,base r=t26,base,base,base"
    game = ludo.from_notation(text)
    ad = LudoAdapter("custom:exact_home=0")
    names = game.place_names
    seen = [(str(m), sorted((names[p], d) for p, d in ad.changes(game, m))) for m in game.legal_moves()]
    assert seen == [
        ("5 green.0 c3-c2", [("green.c2", 1), ("green.c3", -1)]),
        ("5 green.1 t10-t15", [("t10", -1), ("t15", 1)]),
    ], seen

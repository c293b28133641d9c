"""Scripted physical scenarios for the referee under the Ludo rule variants: the start-order ceremony
with ties, the Danish seating and start choice, and Team Up setup and partners.

Positions come from docs/ludo.md's rule table; the rigs are in ludo_scenes.py."""

import ludus.ludo.game as ludo
from ludo_scenes import at, bases_filled, fresh, game_of, moves_of

# whole Ludo referees, one after another: the unix port's name pool is grown first, inside the 160K
# budget, rather than mid-test in a heap they have broken up (tests/mpy_runner.py)
GROW_NAMES = True

# ---- who starts ---------------------------------------------------------------------------------------


def test_the_roll_off_re_rolls_among_the_tied_players_only():
    rig = fresh("ludo/classic/4", (0, 1, 2, 3))
    assert rig.take("new_game")
    rig.die(6, 6, 3, 2)  # green and yellow tie on 6
    for _ in range(4):
        rig.press()
    assert game_of(rig).group == [0, 1] and game_of(rig).turn == 0
    rig.die(4, 5)  # only the tied players roll again: yellow's 5 wins
    rig.press()
    rig.press()
    rolls = [(e["seat"], e["value"]) for e in rig.take("roll")]
    assert rolls == [(0, 6), (1, 6), (2, 3), (3, 2), (0, 4), (1, 5)]
    assert game_of(rig).turn == 1 and game_of(rig).awaiting_roll()
    import ludus.light.palette as palette

    led = rig.board.turn_leds[1]
    assert rig.referee.scene.meaning_at(led) == palette.TURN


def test_danish_two_players_sit_opposite_so_only_opposite_bases_start_a_game():
    rig = bases_filled("ludo/danish/2", ("green", "yellow"))  # neighbours, not a Danish pair
    assert rig.take("new_game") == [] and rig.referee.phase == 0
    rig = fresh("ludo/danish/2", (1, 3))  # yellow and blue
    ev = rig.take("new_game")
    assert ev and "seats=yb" in ev[0]["start"], ev


def test_danish_roll_off_winner_chooses_to_start_with_a_short_press():
    rig = fresh("ludo/danish/2", (0, 2))
    rig.die(5, 2)  # green 5, red 2: green chooses
    rig.press()
    rig.press()
    assert game_of(rig).phase == ludo.CHOICE and game_of(rig).turn == 0
    assert not game_of(rig).awaiting_roll()
    rig.press()  # short press: start
    assert moves_of(rig) == ["start"]
    assert game_of(rig).turn == 0 and game_of(rig).awaiting_roll()


def test_danish_roll_off_winner_who_chooses_colour_lets_the_other_start():
    rig = fresh("ludo/danish/2", (0, 2))
    rig.die(2, 5)  # red wins the roll-off
    rig.press()
    rig.press()
    assert game_of(rig).phase == ludo.CHOICE and game_of(rig).turn == 2
    rig.long_press()  # long press: choose colour, so the other player (green) starts
    assert moves_of(rig) == ["colour"]
    assert game_of(rig).turn == 0 and game_of(rig).awaiting_roll()
    assert rig.take("undo") == []  # the long press was the choice, not an undo


# ---- Team Up ----------------------------------------------------------------------------------------------


def test_teamup_setup_needs_all_four_and_partners_are_not_captured():
    rig = bases_filled("ludo/teamup/4", ("green", "red"))
    assert rig.take("new_game") == []  # two players cannot play Team Up
    rig = at(
        "ludo teamup seats=gyrb turn=g rolls=4 g=t5,base,base,base y=base,base,base,base "
        "r=t9,base,base,base b=t9,base,base,base"
    )
    rig.lift("t5")
    assert rig.lit("t9", "capture victim") and rig.lit("blue.base.3", "capture base")
    rig.place("t9")
    rig.lift("t9")  # the blue token goes home; red (green's partner) stays
    rig.place("blue.base")
    assert moves_of(rig) == ["4 green.0 t5-t9 x blue.0"]
    assert "r=t9," in game_of(rig).notation() and "g=t9," in game_of(rig).notation()


def test_teamup_finished_player_moves_its_partners_tokens():
    rig = at(
        "ludo teamup seats=gyrb turn=g rolls=4 g=home,home,home,home y=t1,base,base,base "
        "r=t30,base,base,base b=t9,base,base,base"
    )
    assert game_of(rig).mover() == 2
    rig.lift("t30")
    assert rig.situation() == "moving" and rig.lit("t34", "destination")
    rig.place("t34")
    ev = rig.take("move")
    assert [(e["seat"], e["move"]) for e in ev] == [(0, "4 red.0 t30-t34")]


# ---- the game adapter ----------------------------------------------------------------------------


def test_adapter_starts_follow_the_rule_set():
    from ludus.referee.ludo import LudoAdapter

    names = [name for name, _ in LudoAdapter("danish").starts()]
    assert "ludo/danish/2" in names and "ludo/danish/4" in names
    assert len(names) == 7  # green+red, yellow+blue, four threes, all four
    names = [name for name, _ in LudoAdapter("teamup").starts()]
    assert names == ["ludo/teamup/4"]

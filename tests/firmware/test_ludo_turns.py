"""Ludo turn flow, written from the rule text: who starts, sixes and other extra rolls, waiting rolls,
discarded rolls, the three tries to come out, placements, two dice, auto-play's preferred move."""

from ludo_helpers import field, game, moves, play
from ludus.errors import ConfigError, IllegalMoveError, NotationError
from ludus.ludo import from_notation, rules_from_spec, start_position
from support import message_of, raises

# --- who starts ---------------------------------------------------------------------------------------


def test_everyone_rolls_and_the_highest_starts():
    g = start_position("classic/4")
    assert g.awaiting_roll() and g.legal_moves() == []
    for v in (3, 5, 2, 4):
        g.apply_roll(v)
    assert g.turn == 1 and field(g, "phase") is None  # yellow rolled 5: yellow starts
    assert g.awaiting_roll()


def test_ties_reroll_among_the_tied_only():
    g = start_position("classic/4")
    for v in (6, 2, 6, 1):
        g.apply_roll(v)
    assert field(g, "phase") == "order" and field(g, "group") == "gr" and g.turn == 0
    g.apply_roll(3)  # green
    g.apply_roll(4)  # red
    assert g.turn == 2 and field(g, "phase") is None


def test_danish_roll_off_winner_chooses_start_or_colour():
    g = start_position("danish/2")
    g.apply_roll(2)  # green
    g.apply_roll(5)  # red wins the roll-off
    assert field(g, "phase") == "choice" and g.turn == 2
    assert moves(g) == ["colour", "start"]
    g2 = g.copy()
    play(g, "start")
    assert g.turn == 2 and g.awaiting_roll()
    play(g2, "colour")  # red chooses colour instead: green starts
    assert g2.turn == 0 and g2.awaiting_roll()


def test_danish_tie_then_choice_for_four_players():
    g = start_position("danish/4")
    for v in (5, 5, 2, 1):  # green and yellow tie on 5: only they roll again
        g.apply_roll(v)
    assert field(g, "group") == "gy" and g.turn == 0 and g.awaiting_roll()
    g.apply_roll(4)
    g.apply_roll(4)  # tied again
    assert field(g, "group") == "gy" and g.turn == 0
    g.apply_roll(3)
    g.apply_roll(6)  # yellow wins and chooses
    assert field(g, "phase") == "choice" and g.turn == 1 and not g.awaiting_roll()
    err = raises(IllegalMoveError, g.parse_move, "6 yellow.0 base-t13")
    assert "start or colour" in message_of(err)
    play(g, "colour")  # yellow chooses colour (where to sit): the next seat, red, starts
    assert g.turn == 2 and field(g, "phase") is None and g.awaiting_roll()
    assert field(g, "tries") == "2"  # nothing in play: three rolls to throw a six (001)


def test_two_players_sit_opposite():
    assert field(start_position("danish/2"), "seats") == "gr"
    assert field(start_position("classic/3"), "seats") == "gyr"
    # 001: two players take blue+yellow or red+green; 002 l.24 seats two players opposite too
    g = game("danish seats=yb turn=y phase=order group=yb y=base,base,base,base b=base,base,base,base")
    g.apply_roll(2)
    g.apply_roll(4)
    assert g.turn == 3 and moves(g) == ["colour", "start"]
    for seats in ("gy", "gb", "yr", "rb"):
        text = "ludo danish seats=%s turn=%s" % (seats, seats[0])
        for letter in seats:
            text += " %s=base,base,base,base" % letter
        err = raises(NotationError, from_notation, text)
        assert "two players sit opposite" in message_of(err), seats


# --- sixes ----------------------------------------------------------------------------------------------


def test_six_earns_another_roll_before_moving_classic():
    g = game("classic seats=gr turn=g g=t3,base,base,base r=base,base,base,base")
    g.apply_roll(6)
    assert g.awaiting_roll() and g.legal_moves() == []  # both rolls wait: roll again first
    g.apply_roll(4)
    assert field(g, "rolls") == "6,4"
    assert moves(g) == ["4 green.0 t3-t7", "6 green.0 t3-t9", "6 green.1 base-t0"]


def test_choosing_which_waiting_roll_to_play_first():
    g = game("classic seats=gr turn=g rolls=6,5 g=base,base,base,base r=base,base,base,base")
    assert moves(g) == ["6 green.0 base-t0"]  # the 5 waits: it has no move until a token is out
    play(g, "6 green.0 base-t0")
    assert moves(g) == ["5 green.0 t0-t5"]
    g = game("classic seats=gr turn=g rolls=6,5 g=t10,base,base,base r=base,base,base,base")
    play(g, "5 green.0 t10-t15")  # the player may play the 5 first
    assert moves(g) == ["6 green.0 t15-t21", "6 green.1 base-t0"]


def test_six_then_move_then_roll_danish():
    g = game("danish seats=gr turn=g g=t3,base,base,base r=base,base,base,base")
    g.apply_roll(6)
    assert not g.awaiting_roll()  # Danish: play the six, then roll again
    play(g, "6 green.1 base-t0")
    assert g.awaiting_roll() and g.turn == 0


def test_third_six_in_a_row_is_void():
    g = game("classic seats=gr turn=g g=t3,base,base,base r=base,base,base,base")
    g.apply_roll(6)
    g.apply_roll(6)
    assert g.awaiting_roll() and field(g, "sixes") == "2"
    g.apply_roll(6)
    # void: not played, the waiting sixes are lost, the turn ends at once
    assert g.turn == 2 and g.awaiting_roll() and field(g, "rolls") == "-"
    assert field(g, "g") == "t3,base,base,base"


def test_moves_made_before_the_third_six_stand():
    # with roll_first=0 each six is played before the next roll; moving does not reset the count
    g = game("classic:roll_first=0 seats=gr turn=g g=t3,base,base,base r=base,base,base,base")
    g.apply_roll(6)
    play(g, "6 green.0 t3-t9")
    g.apply_roll(6)
    assert field(g, "sixes") == "2"
    play(g, "6 green.0 t9-t15")
    g.apply_roll(6)
    assert g.turn == 2 and field(g, "g") == "t15,base,base,base"


def test_six_count_resets_on_a_non_six():
    g = game("classic seats=gr turn=g g=t3,base,base,base r=base,base,base,base")
    g.apply_roll(6)
    g.apply_roll(2)
    assert field(g, "sixes") is None
    play(g, "2 green.0 t3-t5")
    play(g, "6 green.0 t5-t11")
    assert g.turn == 2


# --- other extra rolls ----------------------------------------------------------------------------------


def test_chained_bonus_rolls():
    # a capture earns a roll; with it green reaches home and earns another
    g = game("classic seats=gr turn=g rolls=3 g=t2,c4,base,base r=t5,base,base,base")
    play(g, "3 green.0 t2-t5 x red.0")
    assert g.awaiting_roll() and g.turn == 0
    g.apply_roll(1)
    assert moves(g) == ["1 green.0 t5-t6", "1 green.1 c4-home"]
    play(g, "1 green.1 c4-home")
    assert g.awaiting_roll() and g.turn == 0
    g.apply_roll(2)
    play(g, "2 green.0 t5-t7")
    assert g.turn == 2


def test_capture_and_home_rolls_switch_off():
    g = game(
        "classic:capture_again=0,home_again=0 seats=gr turn=g rolls=3 g=t2,base,base,base r=t5,base,base,base"
    )
    play(g, "3 green.0 t2-t5 x red.0")
    assert g.turn == 2


def test_roll_with_no_legal_move_is_discarded_and_the_turn_passes():
    g = game("classic seats=gr turn=g g=base,base,base,base r=base,base,base,base")
    g.apply_roll(4)
    assert g.turn == 2 and g.awaiting_roll()


def test_three_tries_with_no_token_in_play():
    g = game("danish seats=gr turn=g tries=2 g=base,base,base,base r=t9,base,base,base")
    g.apply_roll(2)
    g.apply_roll(3)
    assert g.turn == 0 and field(g, "tries") is None  # the third roll now
    g.apply_roll(4)
    assert g.turn == 2


def test_three_tries_come_back_every_round():
    g = game("danish seats=gr turn=r rolls=1 g=base,base,home,c2 r=t9,base,base,base")
    play(g, "1 red.0 t9-t10")
    # green has no token in play (c2 is in play: the column counts) -> a normal single roll
    assert g.turn == 0 and field(g, "tries") is None
    g = game("danish seats=gr turn=r rolls=1 g=base,base,home,home r=t9,base,base,base")
    play(g, "1 red.0 t9-t10")
    assert g.turn == 0 and field(g, "tries") == "2"
    g.apply_roll(6)
    assert moves(g) == ["6 green.0 base-t0"]


def test_three_tries_from_the_first_turn():
    g = start_position("danish/2")
    g.apply_roll(5)
    g.apply_roll(3)  # green wins the roll-off and starts
    play(g, "start")
    for v in (1, 2, 3):
        assert g.turn == 0 and g.awaiting_roll()
        g.apply_roll(v)
    assert g.turn == 2  # three rolls without a six: red's turn, with three rolls of its own
    g.apply_roll(4)
    g.apply_roll(6)
    assert moves(g) == ["6 red.0 base-t26"]
    play(g, "6 red.0 base-t26")
    assert g.turn == 2 and g.awaiting_roll()  # the six's extra roll
    g.apply_roll(2)
    assert moves(g) == ["2 red.0 t26-t28"]
    play(g, "2 red.0 t26-t28")
    assert g.turn == 0 and field(g, "tries") == "2"  # green still has nothing in play


def test_three_tries_only_in_danish():
    g = game("classic seats=gr turn=r rolls=1 g=base,base,base,base r=t9,base,base,base")
    play(g, "1 red.0 t9-t10")
    g.apply_roll(2)
    assert g.turn == 2


# --- placements ---------------------------------------------------------------------------------------


def test_play_continues_for_the_later_places():
    g = game("classic seats=gyr turn=g rolls=1 g=home,home,home,c4 y=base,base,base,base r=t5,base,base,base")
    play(g, "1 green.3 c4-home")
    assert g.placements() == [0] and not g.is_over() and g.turn == 1 and g.outcome() is None
    g = game(
        "classic seats=gyr turn=y rolls=1 placed=g"
        " g=home,home,home,home y=home,home,home,c4 r=t5,base,base,base"
    )
    play(g, "1 yellow.3 c4-home")
    assert g.is_over() and g.placements() == [0, 1, 2]
    from ludus.outcome import FINISHED, Outcome

    assert g.outcome() == Outcome([0, 1, 2], FINISHED) and g.outcome().winner == 0


def test_finished_seats_are_skipped():
    g = game(
        "classic seats=gyr turn=r rolls=1 placed=g"
        " g=home,home,home,home y=t3,base,base,base r=t5,base,base,base"
    )
    play(g, "1 red.0 t5-t6")
    assert g.turn == 1


# --- two dice -----------------------------------------------------------------------------------------


def test_two_dice_each_die_is_a_move():
    g = game("custom:dice=2 seats=gr turn=g g=t3,base,base,base r=base,base,base,base")
    g.apply_roll(2)
    assert g.awaiting_roll() and field(g, "die") == "2"
    g.apply_roll(5)
    assert moves(g) == ["2 green.0 t3-t5", "5 green.0 t3-t8"]


def test_two_dice_sum_needs_bounce():
    err = raises(ConfigError, rules_from_spec, "custom:dice=2,dice_sum=1")
    assert "exact_home=0" in message_of(err)


def test_two_dice_third_throw_with_a_six_is_void():
    g = game("custom:dice=2 seats=gr turn=g g=t3,base,base,base r=base,base,base,base")
    for d1, d2 in ((6, 1), (2, 6)):
        g.apply_roll(d1)
        g.apply_roll(d2)
        assert g.awaiting_roll() and g.turn == 0
    assert field(g, "rolls") == "6,1,2,6" and field(g, "sixes") == "2"
    g.apply_roll(6)
    g.apply_roll(6)
    assert g.turn == 2 and field(g, "rolls") == "-" and field(g, "g") == "t3,base,base,base"


def test_two_dice_sum_is_one_move_and_an_entry_die_lets_a_token_out():
    g = game(
        "custom:dice=2,dice_sum=1,exact_home=0 seats=gr turn=g g=t3,base,base,base r=base,base,base,base"
    )
    g.apply_roll(6)
    g.apply_roll(3)
    assert field(g, "rolls") == "9e"
    assert g.awaiting_roll()  # a six earns another throw first
    g.apply_roll(1)
    g.apply_roll(2)
    assert moves(g) == ["3 green.0 t3-t6", "9e green.0 t3-t12", "9e green.1 base-t0"]


# --- auto-play ------------------------------------------------------------------------------------------


def test_preferred_move_home_then_capture_then_furthest():
    g = game("classic seats=gr turn=g rolls=2 g=t3,c3,t20,base r=t5,base,base,base")
    assert str(g.preferred_move()) == "2 green.1 c3-home"
    g = game("classic seats=gr turn=g rolls=2 g=t3,c1,t20,base r=t5,base,base,base")
    assert str(g.preferred_move()) == "2 green.0 t3-t5 x red.0"
    g = game("classic seats=gr turn=g rolls=2 g=t3,t30,t20,base r=base,base,base,base")
    assert str(g.preferred_move()) == "2 green.1 t30-t32"
    assert g.rules.clock == 15 and start_position("blitz/2").rules.clock == 5


def test_auto_play_rolls_what_is_owed_and_plays_preferred_moves():
    g = game("classic seats=gr turn=g g=t3,c3,t20,base r=t22,base,base,base")
    rolls = [6, 2, 4]
    done = g.auto_play(lambda: rolls.pop(0))
    # 6 and 2 wait together: the 6 first (it has moves): no home or capture with it, so the furthest
    # token (t20) advances; then the 2 brings c3 home, which earns the roll of 4: t26 is the furthest
    assert done == [
        "roll 6",
        "roll 2",
        "6 green.2 t20-t26",
        "2 green.1 c3-home",
        "roll 4",
        "4 green.2 t26-t30",
    ]
    assert g.turn == 2 and rolls == []
    g = start_position("danish/2")
    assert g.auto_play(lambda: 5) == ["roll 5"] and g.turn == 2  # one roll of the roll-off


# --- errors -------------------------------------------------------------------------------------------


def test_rolls_out_of_turn_and_bad_values_are_refused():
    g = game("classic seats=gr turn=g rolls=3 g=t3,base,base,base r=base,base,base,base")
    assert "play a waiting roll first" in message_of(raises(IllegalMoveError, g.apply_roll, 4))
    g = start_position("classic/2")
    assert "expected 1..6" in message_of(raises(NotationError, g.apply_roll, 7))


def test_undo_restores_rolls_and_moves_exactly():
    g = game("classic seats=gr turn=g g=t3,base,base,base r=t9,base,base,base")
    before = g.notation()
    g.apply_roll(6)
    g.apply_roll(3)
    mid = g.notation()
    play(g, "3 green.0 t3-t6")
    play(g, "6 green.0 t6-t12")
    assert g.turn == 2
    g.pop()
    g.pop()
    assert g.notation() == mid
    g.pop()
    g.pop()
    assert g.notation() == before


def test_the_take_back_history_is_short_by_default():
    def act(g, n):
        for i in range(n):
            if g.awaiting_roll():
                g.apply_roll(6 - i % 6)
            else:
                g.push(g.legal_moves()[0])

    g = start_position("classic/2")
    assert g.max_undo == 8  # a referee takes back the last move; longer histories are asked for
    act(g, 12)
    assert len(g.stack) == 8
    for _ in range(8):
        g.pop()
    assert "nothing to take back" in message_of(raises(IllegalMoveError, g.pop))
    g.max_undo = -1  # unlimited
    act(g, 12)
    assert len(g.stack) == 12

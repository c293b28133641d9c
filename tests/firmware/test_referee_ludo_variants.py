"""Scripted physical scenarios for the referee under the Ludo rule variants: the start-order ceremony with
ties and the Danish start choice, Danish stars, globes and three tries, Master walls moved a token at a
time, Team Up partners, Arrow jumps, Blitz, exact entry versus bounce, and a game played out to its
placements. Each scenario lifts, places and presses like hands on the board and checks the game and the
lights; positions come from docs/ludo.md's rule table.

Memory: a Referee with the Ludo engine and a game in play needs about 190K of the MicroPython unix
port's heap (64-bit objects; docs/referee.md, "Memory"), beyond the 160K the firmware tests run in, so
these scenarios are CPython-only (@heavy) until the referee fits; the rules themselves are tested on
both runtimes in test_ludo_*.py."""

from ludus import ludo
from support import cpython_only as heavy


def at(position, preset=None):
    """A rig on the ludo52 board continuing from a position, its pieces on the board."""
    from referee_rig import Rig

    if preset is None:
        preset = "ludo/" + position.split()[1]
    rig = Rig(preset, "ludo52")
    rig.settle()
    rig.start_at(position)
    return rig


def fresh(preset, seats):
    """A rig with the start of `seats` (a tuple of seats) put on the board: the referee begins a game."""
    from referee_rig import Rig

    rig = Rig(preset, "ludo52")
    rig.settle()
    game = ludo.LudoGame(ludo.rules_from_spec(preset.split("/")[1]), seats)
    game._begin()
    rig.fill(game)
    rig.settle()
    return rig


def bases_filled(preset, colours):
    """A rig with four tokens in each named colour's base and nothing else (any colours, even ones no
    rule set seats together)."""
    from referee_rig import Rig

    rig = Rig(preset, "ludo52")
    rig.settle()
    for colour in colours:
        for _ in range(4):
            rig.place(colour + ".base", False)
    rig.settle()
    return rig


def moves_of(rig):
    return [e["move"] for e in rig.take("move")]


def game_of(rig):
    return rig.referee.game


# ---- who starts ---------------------------------------------------------------------------------------


@heavy
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
    if rig.lights:
        from ludus import palette

        led = rig.board.turn_leds[1]
        assert rig.referee.scene.meaning_at(led) == palette.TURN


@heavy
def test_danish_two_players_sit_opposite_so_only_opposite_bases_start_a_game():
    rig = bases_filled("ludo/danish/2", ("green", "yellow"))  # neighbours, not a Danish pair
    assert rig.take("new_game") == [] and rig.referee.phase == 0
    rig = fresh("ludo/danish/2", (1, 3))  # yellow and blue
    ev = rig.take("new_game")
    assert ev and "seats=yb" in ev[0]["start"], ev


@heavy
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


@heavy
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


# ---- captures of stacked tokens -------------------------------------------------------------------------


@heavy
def test_classic_captures_a_pair_in_either_order():
    for order in ("mover first", "victims first"):
        rig = at("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,t9,base,base")
        if order == "mover first":
            rig.move("t5", "t9")
            assert rig.situation() == "moving", order
        rig.move("t9", "red.base")
        rig.move("t9", "red.base")  # victims first: t9 is empty until the green token lands
        seen = rig.take()
        if order == "mover first":
            assert [e for e in seen if e["event"] == "mismatch"] == []
        # Victims first, t9 reads empty for a moment, below what it holds after the move: the
        # inference shows that as a difference until the mover lands (docs/referee.md, "Limits").
        if order == "victims first":
            rig.move("t5", "t9")
            seen = rig.take()
        assert [e["move"] for e in seen if e["event"] == "move"] == ["4 green.0 t5-t9 x red.0,red.1"], order


# ---- Danish: stars, globes, three tries ------------------------------------------------------------------


@heavy
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


@heavy
def test_danish_star_jump_carried_straight_to_the_next_star_captured_token_first():
    rig = at("ludo danish seats=gr turn=g rolls=3 g=t1,base,base,base r=t11,base,base,base")
    rig.lift("t11")
    rig.place("red.base")
    assert rig.situation() == "moving"
    rig.move("t1", "t11")
    assert moves_of(rig) == ["3 green.0 t1-t11 via t4 x red.0"]


@heavy
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


@heavy
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


@heavy
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


# ---- Master: walls -----------------------------------------------------------------------------------


@heavy
def test_master_wall_moved_one_token_at_a_time_is_one_move():
    rig = at("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t40,base,base,base")
    rig.move("t2", "t5")  # the first token: a single token leaving the wall, or half the wall?
    assert rig.situation() == "pending" and rig.take("move") == []
    rig.move("t2", "t5")  # the second: the wall moved as one unit, with one roll
    assert moves_of(rig) == ["3 green.0+green.1 t2-t5"]
    assert "g=t5,t5,base,base" in game_of(rig).notation()


@heavy
def test_master_single_token_leaving_a_wall_is_confirmed_by_a_press():
    rig = at("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t40,base,base,base")
    rig.move("t2", "t5")
    assert rig.situation() == "pending"
    rig.press()
    assert moves_of(rig) == ["3 green.0 t2-t5"]
    assert "g=t5,t2,base,base" in game_of(rig).notation()


@heavy
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


@heavy
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


@heavy
def test_master_a_wall_blocks_a_single_token_passing():
    # green on t2 with a 3 would pass the red wall on t4: no move at all, the roll is discarded
    rig = at("ludo master seats=gr turn=g rolls=- g=t2,base,base,base r=t4,t4,base,base")
    rig.die(3)
    rig.press()
    assert game_of(rig).turn == 2
    rig.move("t2", "t5")  # trying anyway
    assert rig.situation() in ("mismatch", "illegal") and rig.take("move") == []


# ---- Team Up ----------------------------------------------------------------------------------------------


@heavy
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


@heavy
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


# ---- Arrow and Blitz ---------------------------------------------------------------------------------------


@heavy
def test_arrow_jump_with_capture():
    rig = at("ludo arrow seats=gr turn=g rolls=3 g=t5,base,base,base r=t21,base,base,base")
    rig.lift("t5")
    assert rig.lit("t21", "capture victim") and rig.lit("t8", "jump path")
    rig.place("t8")  # on the arrow first, then along it
    rig.lift("t21")
    rig.place("red.base")
    rig.move("t8", "t21")
    assert moves_of(rig) == ["3 green.0 t5-t21 via t8 x red.0"]


@heavy
def test_arrow_landing_short_of_the_arrow_is_not_a_move():
    rig = at("ludo arrow seats=gr turn=g rolls=3 g=t5,base,base,base r=t40,base,base,base")
    rig.move("t5", "t8")  # the arrow carries the token on: it may not stay on t8
    assert rig.situation() == "moving" and rig.take("move") == []
    rig.move("t8", "t21")
    assert moves_of(rig) == ["3 green.0 t5-t21 via t8"]


@heavy
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


@heavy
def test_blitz_no_token_enters_the_column_before_a_capture():
    rig = at("ludo blitz seats=gr turn=g rolls=3 g=t49,t0,t0,base r=t26,t26,base,base")
    rig.move("t49", "green.c1")  # would turn into the column: not offered before a capture
    assert rig.situation() in ("mismatch", "illegal") and rig.take("move") == []
    rig.move("green.c1", "t49")
    assert rig.situation() == "idle"


# ---- home: exact or bounce ------------------------------------------------------------------------------


@heavy
def test_classic_needs_the_exact_count_home():
    rig = at("ludo classic seats=gr turn=g rolls=5 g=green.c3,t10,base,base r=t26,base,base,base")
    rig.move("green.c3", "green.home")  # 5 overshoots: only t10-t15 is legal
    assert rig.situation() == "illegal" and rig.take("move") == []
    assert rig.lit("green.c3", "way back")
    rig.move("green.home", "green.c3")
    rig.move("t10", "t15")
    assert moves_of(rig) == ["5 green.1 t10-t15"]


@heavy
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


@heavy
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


def clocked(position, turn_clock=True):
    """A rig whose referee runs the turn clock (off by default: docs/referee.md)."""
    from referee_rig import Rig

    class ClockRig(Rig):
        def _referee(self):
            from ludus.referee import Referee
            from referee_rig import InstantOccupancy

            n = self.board.channel_count
            if self.real:
                from ludus.sensing import Occupancy

                occ = Occupancy(n)
            else:
                occ = InstantOccupancy(n)
            scene = None if self.lights else False
            return Referee(
                self.board, self.preset, occupancy=occ, seed=self.seed, scene=scene, turn_clock=turn_clock
            )

    rig = ClockRig("ludo/" + position.split()[1], "ludo52")
    rig.settle()
    rig.start_at(position)
    return rig


@heavy
def test_turn_clock_rolls_what_is_owed_and_lights_the_preferred_move_to_carry_out():
    rig = clocked("ludo classic seats=gr turn=g rolls=- g=t5,t20,base,base r=t9,base,base,base")
    assert rig.referee.clock_ms == 15000
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


@heavy
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


@heavy
def test_turn_clock_stops_while_the_board_differs():
    rig = clocked("ludo blitz seats=gr turn=g rolls=- g=t5,t0,base,base r=t26,t26,base,base")
    assert rig.referee.clock_ms == 5000  # Blitz turns are 5 s
    rig.move("t26", "t27")  # a knocked piece
    rig.run(8000)
    assert rig.take("auto") == [] and rig.situation() == "mismatch"
    rig.move("t27", "t26")
    rig.run(4000)
    assert rig.take("auto") == []  # afresh from the moment the board matched
    rig.die(3)
    rig.run(1500)
    assert rig.take("auto")


@heavy
def test_danish_rules_have_no_turn_clock():
    rig = clocked("ludo danish seats=gr turn=g rolls=- g=t5,base,base,base r=t30,base,base,base")
    rig.run(60000)
    assert rig.referee.clock_ms == 0 and rig.take() == []


# ---- the game adapter (light enough for the MicroPython heap) --------------------------------------------


def test_adapter_starts_follow_the_rule_set():
    from ludus.referee_ludo import LudoAdapter

    names = [name for name, _ in LudoAdapter("danish").starts()]
    assert "ludo/danish/2" in names and "ludo/danish/4" in names
    assert len(names) == 7  # green+red, yellow+blue, four threes, all four
    names = [name for name, _ in LudoAdapter("teamup").starts()]
    assert names == ["ludo/teamup/4"]


def test_adapter_lists_a_wall_capture_square_as_touched():
    from ludus.referee_ludo import LudoAdapter

    game = ludo.from_notation("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t5,t5,base,base")
    (move,) = game.legal_moves()
    names = game.place_names
    changes = sorted((names[p], d) for p, d in LudoAdapter("master").changes(game, move))
    assert changes == [("red.base", 2), ("t2", -2), ("t5", 0)], changes

"""The bots (ludus.bots): their choices on chosen positions, and the board playing a seat through the
referee: it rolls for the bot, lights the bot's move from -> to, accepts only that move and guides a
person who carries it out wrongly. Plain asserts: pytest and the MicroPython unix port run them."""

import ludus.bots.checkers as cc_bots
import ludus.bots.ludo as ludo_bots
import support
from ludo_scenes import at, moves_of
from ludus.checkers.game import start_position as checkers_start
from ludus.errors import ConfigError
from ludus.ludo.game import from_notation

GROW_NAMES = True  # whole bot games: the unix port's name pool grown first (tests/mpy_runner.py)

# ---- Ludo: what each level picks --------------------------------------------------------------------


def _choices(position):
    game = from_notation(position)
    return [str(ludo_bots.bot_for(level, 1).choose(game)) for level in ludo_bots.LEVELS], game


def test_every_level_chooses_one_of_the_legal_moves_and_none_while_a_roll_is_owed():
    picks, game = _choices("ludo classic seats=gr turn=g rolls=6 g=t5,t20,base,base r=t40,base,base,base")
    legal = [str(m) for m in game.legal_moves()]
    for pick in picks:
        assert pick in legal, (pick, legal)
    owed = from_notation("ludo classic seats=gr turn=g rolls=- g=t5,t20,base,base r=t40,base,base,base")
    assert owed.awaiting_roll()
    for level in ludo_bots.LEVELS:
        assert ludo_bots.bot_for(level).choose(owed) is None


def test_the_strong_bot_captures_the_token_ahead():
    picks, _ = _choices("ludo classic seats=gr turn=g rolls=4 g=t5,t20,base,base r=t9,base,base,base")
    assert picks[2] == "4 green.0 t5-t9 x red.0"


def test_the_strong_bot_runs_from_the_token_behind_where_the_preferred_move_advances_the_furthest():
    # red on t8 is two squares behind green's t10: the strong bot moves that token on (to t15, seven
    # ahead of red); the auto-play move of source 002 advances the furthest token, t30, instead
    picks, _ = _choices("ludo classic seats=gr turn=g rolls=5 g=t10,t30,base,base r=t8,base,base,base")
    assert picks[2] == "5 green.0 t10-t15", picks
    assert picks[1] == "5 green.1 t30-t35", picks


def test_the_strong_bot_sees_a_danish_star_jump_behind_it():
    # Danish stars: a token landing on the star t4 jumps on to the next star, t11. Red's token on t1 is
    # ten squares behind green's on t11, out of a single roll's reach by counting, but a 3 lands it on t4
    # and the jump takes it to t11: the engine, asked, sees it; the bot moves that token to t13 (a globe)
    game = from_notation("ludo danish seats=gr turn=g rolls=2 g=t11,t30,base,base r=t1,base,base,base")
    danger = ludo_bots.StrongBot(1)
    alive = danger._safety(game, list(game.pos), 0)
    assert alive[0] < 64, "the star jump from t1 threatens t11"
    assert alive[1] == 64
    move = danger.choose(game)
    assert str(move).split()[1] == "green.0", str(move)


def test_the_strong_bot_plans_both_rolls_after_a_six():
    # rolls 6 and 1 wait: entering with the six and stepping with the one on the entered token, or the
    # one elsewhere; every way is played out and scored at its end, and only legal moves come out
    game = from_notation("ludo classic seats=gr turn=g rolls=6,1 g=t30,base,base,base r=t20,base,base,base")
    move = ludo_bots.bot_for("strong").choose(game)
    assert str(move) in [str(m) for m in game.legal_moves()]
    assert game.rolls == [6, 1] and len(game.stack) == 0  # the game itself is left as it was


def test_a_bad_level_is_named():
    exc = support.raises(ValueError, ludo_bots.bot_for, "genius")
    assert "genius" in support.message_of(exc) and "strong" in support.message_of(exc)
    exc = support.raises(ValueError, cc_bots.bot_for, "preferred")
    assert "greedy" in support.message_of(exc)


# ---- Chinese Checkers -----------------------------------------------------------------------------


def test_row_distances_count_rows_from_each_target_tip():
    for point in range(6):
        rows = cc_bots.row_distances(point)
        tip = cc_bots.POINT_TIPS[point]
        assert rows[tip] == 0 and max(rows) == 16
        assert sorted(rows[h] for h in cc_bots.POINT_HOLES[point]) == [0, 1, 1, 2, 2, 2, 3, 3, 3, 3]
        far = cc_bots.POINT_TIPS[(point + 3) % 6]
        assert rows[far] == 16


def test_the_checkers_bots_choose_legal_moves():
    game = checkers_start("3")
    for level in cc_bots.LEVELS:
        bot = cc_bots.bot_for(level, 3)
        move = bot.choose(game)
        assert move in game.legal_moves(), (level, move)


def test_the_strong_checkers_bot_takes_a_long_jump_over_a_step():
    game = checkers_start("2")
    bot = cc_bots.StrongBot(1)
    for _ in range(6):
        game.push(bot.choose(game))
        game.push(cc_bots.choose_move(game, cc_bots.Lcg(2)))
    rows = bot.dist_table(game, 0)
    before = sum(rows[h] for h in game.pieces(0))
    game.push(bot.choose(game))
    after = sum(rows[h] for h in game.pieces(0))
    assert after < before, (before, after)


# ---- the board plays a seat ------------------------------------------------------------------------


def _bot_rig(position, bots, preset=None):
    rig = at(position, preset)
    rig.referee.bot_pause_ms = 500
    rig.referee.set_bots(bots)
    rig.take()
    return rig


def test_a_ludo_bot_rolls_lights_its_move_and_a_person_carries_it_out():
    rig = _bot_rig(
        "ludo classic seats=gr turn=r rolls=- g=t5,t20,base,base r=t28,base,base,base", {2: "strong"}
    )
    rig.die(3)
    rig.run(300)
    assert rig.take("bot") == []  # the bot waits for the board to be still a moment
    rig.run(400)
    done = rig.take()
    bot = [e for e in done if e["event"] == "bot"]
    assert bot[0]["action"] == "roll" and bot[0]["seat"] == 2
    assert [e["value"] for e in done if e["event"] == "roll"] == [3]
    rig.run(600)
    bot = rig.take("bot")
    assert bot and bot[0]["move"] == "3 red.0 t28-t31", bot
    assert rig.situation() == "confirm"
    assert rig.lit("t28", "move from") and rig.lit("t31", "move to")
    assert not rig.lit("t31", "destination")  # not a human's legal move: the bot's own light
    rig.move("t28", "t31")
    assert moves_of(rig) == ["3 red.0 t28-t31"]
    assert rig.referee.game.turn == 0


def test_a_ludo_bot_move_carried_out_wrongly_is_guided_back():
    rig = _bot_rig(
        "ludo classic seats=gr turn=r rolls=- g=t5,t20,base,base r=t28,base,base,base", {2: "strong"}
    )
    rig.die(3)
    rig.run(1500)
    assert [e["move"] for e in rig.take("bot") if "move" in e] == ["3 red.0 t28-t31"]
    rig.move("t28", "t33")  # two squares too far
    assert rig.situation() == "illegal" and rig.take("move") == []
    assert rig.lit("t33", "illegal") and rig.lit("t28", "way back")
    rig.move("t33", "t28")  # put back: the bot's move is lit again
    rig.run(100)
    assert rig.situation() == "confirm" and rig.lit("t28", "move from")
    rig.move("t28", "t31")
    assert moves_of(rig) == ["3 red.0 t28-t31"]


def test_a_ludo_bot_capture_lights_the_victim():
    rig = _bot_rig(
        "ludo classic seats=gr turn=r rolls=- g=t31,t20,base,base r=t28,base,base,base", {2: "strong"}
    )
    rig.die(3)
    rig.run(1500)
    assert [e["move"] for e in rig.take("bot") if "move" in e] == ["3 red.0 t28-t31 x green.0"]
    assert rig.lit("t31", "capture victim") and rig.lit("t28", "move from")
    rig.move("t31", "green.base")
    rig.move("t28", "t31")
    assert moves_of(rig) == ["3 red.0 t28-t31 x green.0"]


def test_bot_seats_are_checked():
    rig = at("ludo classic seats=gr turn=g rolls=- g=t5,t20,base,base r=t28,base,base,base")
    for bad, word in (({5: "strong"}, "seat"), ({"red": "strong"}, "seat"), ({2: "greedy"}, "greedy")):
        exc = support.raises(ConfigError, rig.referee.set_bots, bad)
        assert word in support.message_of(exc), support.message_of(exc)
    assert rig.referee.bots is None


# (named to sort after the Ludo seat tests above: tests/mpy_runner.py runs a file's tests in name order,
# and the 160K heap this checkers referee leaves behind was too broken up for their positions)
def test_the_board_plays_a_checkers_seat_for_a_bot():
    from referee_rig import Rig

    rig = Rig("checkers", "checkers")
    rig.referee.bot_pause_ms = 200
    rig.referee.set_bots({1: "greedy"})
    rig.settle()
    rig.fill(checkers_start("2"))
    rig.settle()
    rig.take()
    game = rig.referee.game
    human = game.legal_moves()[0]
    rig.move(game.place_names[human.frm], game.place_names[human.to])
    assert moves_of(rig) == [str(human)]
    rig.run(400)
    bot = rig.take("bot")
    assert len(bot) == 1 and bot[0]["seat"] == 1 and bot[0]["level"] == "greedy"
    move = rig.referee.bot_move()
    assert str(move) == bot[0]["move"]
    names = game.place_names
    assert rig.lit(names[move.frm], "move from") and rig.lit(names[move.to], "move to")
    rig.move(names[move.frm], names[move.to])
    assert moves_of(rig) == [str(move)]
    assert rig.referee.game.turn == 0 and rig.referee.bot_move() is None


def test_the_opening_line_brings_a_lone_set_home_in_27_moves_from_every_point():
    from ludus.checkers.game import CheckersGame

    for setup, seat in (("2", 0), ("2", 1), ("3", 1), ("6", 4)):
        game = checkers_start(setup)
        cfg = game.config
        board = bytearray(game._board)
        for h in range(121):
            if board[h] and cfg.set_seat[board[h]] != seat:
                board[h] = 0  # the set alone on the board
        game = CheckersGame(cfg, board, turn=seat)
        bot = cc_bots.StrongBot(1)
        n = 0
        while not game.is_finished(seat) and n < 40:
            move = bot._line_move(game, seat, game.legal_moves())
            assert move is not None, (setup, seat, n)  # every position of the line is recognised
            game.push(move)
            game.turn = seat
            game._legal_codes = None
            n += 1
        assert game.is_finished(seat) and n == 27, (setup, seat, n)


def test_the_rotation_turns_every_point_onto_the_next():
    for k in range(6):
        turn = cc_bots.rotation(k)
        assert sorted(turn) == list(range(121))
        for p in range(6):
            assert sorted(turn[h] for h in cc_bots.POINT_HOLES[p]) == sorted(cc_bots.POINT_HOLES[(p + k) % 6])

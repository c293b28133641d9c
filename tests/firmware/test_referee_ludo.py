"""Scripted physical scenarios for the referee playing Ludo: setup and the roll-off, rolls by button,
entering, several waiting rolls, captures in either order, stacks needing confirmation, undo, bumps,
power cut and a finished game followed by a new one.

The Ludo rules, the referee and a game in play do not fit the MicroPython unix port's 160K heap
(64-bit, sources compiled at import): the scenarios are @heavy (CPython only); the adapter tests
at the end run on both runtimes. See docs/referee.md, "Memory"."""

from ludus import ludo
from support import cpython_only as heavy


def rig52(preset="ludo/classic/4"):
    from referee_rig import Rig  # here, not at the top: the adapter tests run in a tight heap

    return Rig(preset, "ludo52")


def at(position, preset="ludo/classic"):
    rig = rig52(preset)
    rig.settle()
    rig.start_at(position)
    return rig


@heavy
def test_setup_sees_which_colours_play_and_the_roll_off_picks_the_first():
    rig = rig52()
    rig.settle()
    game = ludo.LudoGame(ludo.rules_from_spec("classic"), (1, 3))  # yellow and blue only
    game._begin()
    rig.fill(game)
    rig.settle()
    ev = rig.take("new_game")
    assert ev and "seats=yb" in ev[0]["start"], ev
    rig.die(3, 5)  # yellow rolls 3, blue 5: blue starts
    rig.press()
    rig.press()
    rolls = rig.take("roll")
    assert [(e["seat"], e["value"]) for e in rolls] == [(1, 3), (3, 5)]
    assert rig.referee.game.turn == 3 and rig.referee.game.awaiting_roll()


@heavy
def test_entering_with_a_six_then_the_bonus_roll_moves_the_same_token():
    rig = at("ludo classic seats=gr turn=g rolls=- g=base,base,base,base r=base,base,base,base")
    rig.die(6, 4)
    rig.press()  # six: roll again before moving
    rig.press()
    assert [e["value"] for e in rig.take("roll")] == [6, 4]
    rig.move("green.base", "t0")
    assert [e["move"] for e in rig.take("move")] == ["6 green.0 base-t0"]
    rig.move("t0", "t4")
    assert [e["move"] for e in rig.take("move")] == ["4 green.0 t0-t4"]
    assert rig.referee.game.turn == 2


@heavy
def test_the_roll_used_is_inferred_from_the_distance_moved():
    rig = at("ludo classic seats=gr turn=g rolls=6,2 g=t5,t20,base,base r=base,base,base,base")
    rig.move("t20", "t22")
    assert [e["move"] for e in rig.take("move")] == ["2 green.1 t20-t22"]
    assert rig.referee.game.rolls == [6]
    rig.move("t5", "t11")
    assert [e["move"] for e in rig.take("move")] == ["6 green.0 t5-t11"]


@heavy
def test_capture_with_the_capturing_token_put_down_first():
    rig = at("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base")
    rig.lift("t5")
    assert rig.situation() == "moving"
    assert rig.lit("t9", "capture victim") and rig.lit("red.base.3", "capture base")
    rig.place("t9")  # on top of the red token: presence sensors still read one piece
    rig.lift("t9")  # the red token taken off
    assert rig.take("move") == []
    rig.place("red.base")
    assert [e["move"] for e in rig.take("move")] == ["4 green.0 t5-t9 x red.0"]
    assert rig.referee.game.notation().find("r=base,base,base,base") > 0


@heavy
def test_capture_with_the_captured_token_taken_off_first():
    rig = at("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base")
    rig.lift("t9")
    assert rig.situation() == "moving"  # part of the capture, not a mismatch
    rig.place("red.base")
    assert rig.situation() == "moving"
    rig.move("t5", "t9")
    assert rig.moves()[-1] == "4 green.0 t5-t9 x red.0"


@heavy
def test_two_moves_that_look_the_same_ask_for_confirmation():
    # green on t3, t5 and t9: the 2 (t3-t5) and the 6 (t3-t9) both only empty t3 to presence sensors
    rig = at("ludo classic seats=gr turn=g rolls=6,2 g=t3,t5,t9,base r=base,base,base,base")
    rig.lift("t3")
    ev = rig.take("confirm")
    assert ev and sorted(ev[0]["moves"]) == ["2 green.0 t3-t5", "6 green.0 t3-t9"], ev
    first = ev[0]["moves"][0]
    rig.long_press()  # show the other reading
    other = rig.take("confirm_next")[0]["move"]
    assert other != first
    rig.press()
    assert rig.moves()[-1] == other


@heavy
def test_a_move_whose_arrival_cannot_be_seen_waits_for_a_press():
    # a token moved onto its own colour's token: presence sensors see only the lift
    rig = at("ludo classic seats=gr turn=g rolls=2 g=t3,t5,base,base r=base,base,base,base")
    rig.move("t3", "t5")  # only t3 empties: the same as a token picked up and held
    assert rig.situation() == "pending" and rig.moves() == []
    rig.press()
    assert rig.moves() == ["2 green.0 t3-t5"]


@heavy
def test_an_invisible_move_onto_a_stack_is_confirmed_by_pressing():
    rig = at("ludo classic seats=gr turn=g rolls=2 g=t3,t3,t5,base r=base,base,base,base")
    rig.move("t3", "t5")  # one token leaves a stack of two: nothing changes for presence sensors
    assert rig.take("move") == []
    rig.press()
    ev = rig.take("confirm")
    assert ev and "2 green.0 t3-t5" in ev[0]["moves"], ev
    rig.press()
    assert rig.moves()[-1] in ("2 green.0 t3-t5", "2 green.1 t3-t5")


@heavy
def test_moving_before_rolling_is_a_mismatch_and_rolling_waits_for_the_board():
    rig = at("ludo classic seats=gr turn=g rolls=- g=t3,base,base,base r=base,base,base,base")
    rig.move("t3", "t6")
    assert rig.situation() == "mismatch"
    rig.press()
    assert rig.take("refused") and rig.take("roll") == []
    rig.move("t6", "t3")
    assert rig.situation() == "idle"
    rig.die(2)
    rig.press()
    assert [e["value"] for e in rig.take("roll")] == [2]


@heavy
def test_undo_puts_the_roll_back_and_guides_the_token_home():
    rig = at("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base")
    rig.lift("t9")
    rig.place("red.base")
    rig.move("t5", "t9")
    assert rig.moves() == ["4 green.0 t5-t9 x red.0"]
    assert rig.referee.game.awaiting_roll()  # a capture earns another roll
    rig.long_press()
    assert rig.take("undo")
    assert rig.referee.game.rolls == [4]
    assert rig.situation() == "undo"
    rig.move("t9", "t5")
    rig.move("red.base", "t9")
    assert rig.situation() == "idle"
    assert rig.moves() == []


@heavy
def test_power_cut_keeps_the_game_and_the_dice_stream():
    a = at("ludo classic seats=gr turn=g rolls=- g=base,base,base,base r=base,base,base,base")
    b = at("ludo classic seats=gr turn=g rolls=- g=base,base,base,base r=base,base,base,base")
    a.press()
    b.press()
    b.power_cut()
    assert b.take("restored")
    a.press()
    b.press()
    assert a.moves() == b.moves()
    assert a.referee.game.notation() == b.referee.game.notation()


@heavy
def test_a_finished_game_shows_placements_and_the_start_position_begins_a_new_one():
    rig = at("ludo classic seats=gr turn=g rolls=1 g=home,home,home,green.c4 r=t3,base,base,base")
    rig.move("green.c4", "green.home")
    over = rig.take("game_over")
    assert over and over[0]["placements"] == [0, 2]
    assert rig.referee.phase == 2
    if rig.lights:
        from ludus import palette

        led = rig.board.turn_leds[0]
        assert rig.referee.scene.meaning_at(led) == palette.WINNER
    rig.fill(ludo.start_position("classic/2"))
    rig.settle()
    assert [e["start"] for e in rig.take("new_game")] == ["ludo/classic/2"]


def test_adapter_lists_capture_squares_as_touched():
    from ludus.referee_ludo import LudoAdapter

    game = ludo.from_notation("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base")
    ad = LudoAdapter("classic")
    (move,) = game.legal_moves()
    changes = sorted(ad.changes(game, move))
    names = game.place_names
    assert [(names[p], d) for p, d in changes] == sorted(
        [("t5", -1), ("t9", 0), ("red.base", 1)], key=lambda x: names.index(x[0])
    ), changes
    frm, to, path, victims = ad.ends(game, move)
    assert (
        names[frm] == "t5"
        and names[to] == "t9"
        and [(names[v], names[b]) for v, b in victims] == [("t9", "red.base")]
    )


def test_adapter_changes_are_the_games_net_changes_plus_the_touched_squares():
    # LudoAdapter.changes works the net changes out from the move's fields (no dict): they must be
    # game.move_changes(move), in its order, then the capture and star/arrow squares with delta 0
    from ludus.games import position
    from ludus.ludo_play import SeededDie
    from ludus.referee_ludo import LudoAdapter

    checked = 0
    for rules in ("classic", "master", "danish", "arrow", "teamup"):
        ad = LudoAdapter(rules)
        game = position("ludo/%s/4" % rules)
        die = SeededDie(7)
        for _ in range(300):
            if game.is_over():
                break
            if game.awaiting_roll():
                game.apply_roll(die.roll())
                continue
            moves = game.legal_moves()
            for m in moves:
                want = list(game.move_changes(m))
                touched = []
                if m.kind < 3 and (m.caps or m.via >= 0):
                    row = game.geo.place_of[m.gi >> 2]
                    touched = [row[m.to + 1]] + ([row[m.via + 1]] if m.via >= 0 else [])
                    touched += [game.geo.place_of[c >> 2][game.pos[c] + 1] for c in m.caps]
                for p in touched:
                    if p not in [q for q, _ in want]:
                        want.append((p, 0))
                assert list(ad.changes(game, m)) == want, (rules, str(m))
                checked += 1
            game.push(moves[die.below(len(moves))])
    assert checked > 500


def test_adapter_presets():
    from ludus.referee_games import split_preset

    assert split_preset("ludo/classic/4") == ("ludo", "classic")
    assert split_preset("ludo/teamup+arrow") == ("ludo", "teamup+arrow")
    assert split_preset("checkers/2") == ("checkers", "")
    from ludus.errors import ConfigError
    from support import raises

    assert "unknown game preset" in str(raises(ConfigError, split_preset, "chess/2"))

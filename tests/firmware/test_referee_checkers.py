"""Scripted physical scenarios for the referee playing Chinese Checkers: setup detection, steps, jump
chains with touch-downs, illegal placements, bumps, undo, power cut, game over and a new game.

They run on both runtimes with the real board file, sensing and lights (under the MicroPython unix port
with 160K of heap, the firmware in ROM: docs/referee.md, "Memory"), the power cuts included."""


def started(spec="2", real=None):
    import ludus.checkers.game as checkers
    from referee_rig import Rig

    rig = Rig("checkers", "checkers", real=real)
    rig.settle()
    rig.fill(checkers.start_position(spec))
    rig.settle()
    return rig


def test_setup_detects_the_setup_from_the_filled_points():
    rig = None
    for spec in ("2", "3", "2x2"):
        rig = None  # the last board's referee goes before the next is built: a tight heap
        rig = started(spec)
        games = rig.take("new_game")
        assert [e["start"] for e in games] == ["checkers/" + spec], games
        assert rig.referee.game.seats == len(rig.referee.game.config.seat_points)
        assert rig.situation() == "idle"


def test_all_points_filled_asks_which_setup_by_button():
    rig = started("6")
    choice = rig.take("setup_choice")
    assert choice and choice[0]["starts"] == ["checkers/2x3", "checkers/3x2", "checkers/6"]
    assert rig.referee.phase == 0
    _shows_the_seats_of(rig, "2x3")
    rig.press()
    _shows_the_seats_of(rig, "3x2")
    rig.press()  # 2x3 -> 3x2 -> 6
    assert rig.take("setup_next")[-1]["start"] == "checkers/6"
    _shows_the_seats_of(rig, "6")
    rig.long_press()
    assert [e["start"] for e in rig.take("new_game")] == ["checkers/6"]
    assert rig.referee.game.seats == 6


def _shows_the_seats_of(rig, spec):
    # the start offered: each point's turn LED in its seat's colour (the colour of the seat's first
    # point), as the setup names them
    from ludus.checkers.options import SETUPS
    from ludus.light.palette import checkers_colour

    scene = rig.referee.scene
    for points in SETUPS[spec]:
        for p in points:
            led = rig.led("turn.%d" % p)
            assert rig.lit("turn.%d" % p, "player"), (spec, p)
            assert scene.colour_at(led) == checkers_colour(points[0]), (spec, p, scene.colour_at(led))


def test_setup_lights_a_part_filled_point_and_waits():
    from referee_rig import Rig

    rig = Rig("checkers", "checkers")
    rig.settle()
    rig.place("h0")
    rig.place("h1")
    assert rig.take("new_game") == []
    assert rig.lit("h0", "player")
    assert rig.lit("h2", "missing")  # the rest of point 0 still to fill
    rig.place("h60")  # the centre hole is in no point
    assert rig.lit("h60", "unexpected")


def test_a_step_is_accepted_when_the_piece_rests():
    rig = started()
    rig.lift("h7")
    assert rig.situation() == "moving"
    assert rig.lit("h15", "destination") and rig.lit("h16", "destination")
    rig.place("h16")
    assert [e["move"] for e in rig.take("move")] == ["h7-h16"]
    assert rig.referee.game.turn == 1
    assert rig.situation() == "idle"


def test_after_a_move_the_frame_comes_first_and_the_next_tick_makes_the_move_table():
    from ludus.referee.states import TABLE_DUE

    rig = started(real=False)  # (a change settles on the tick it is made)
    rig.lift("h7")
    rig.counts[rig.cell("h16")] += 1  # put down: one settled change commits the move
    rig.tick()
    ref = rig.referee
    assert [e["move"] for e in rig.take("move")] == ["h7-h16"]
    assert ref.table is TABLE_DUE  # not made yet: the new frame went out first
    led = rig.board.turn_leds[ref.adapter.turn_index(ref.game, ref.game.turn)]
    import ludus.light.palette as palette

    assert ref.scene.meaning_at(led) == palette.TURN  # the next seat's turn is shown already
    rig.tick()
    assert ref.table is not TABLE_DUE and ref.table.count == len(ref.game.legal_moves())
    rig.lift("h112")  # and the next lift is judged against it
    assert rig.situation() == "moving" and rig.lit("h104", "destination")


def opened():
    rig = started()
    rig.move("h7", "h16")
    rig.move("h112", "h104")
    assert rig.moves() == ["h7-h16", "h112-h104"]
    rig.take()
    return rig


def test_jump_chain_with_a_touch_down_shows_continuations_and_commits_at_the_end():
    rig = opened()
    rig.lift("h2")
    assert rig.lit("h7", "destination") and rig.lit("h29", "destination")
    rig.place("h7")  # touch down between jumps
    assert rig.situation() == "pending"
    assert rig.lit("h29", "destination")  # where it can jump on
    assert rig.lit("h7", "confirm")
    assert rig.take("move") == []
    rig.lift("h7")
    rig.place("h29")  # no jump continues from here: committed
    assert [e["move"] for e in rig.take("move")] == ["h2-h29"]
    assert rig.referee.game.turn == 1


def test_a_pending_chain_is_committed_by_the_next_player_lifting():
    rig = opened()
    rig.move("h2", "h7")
    assert rig.situation() == "pending"
    rig.lift("h104")
    assert [e["move"] for e in rig.take("move")] == ["h2-h7"]
    assert rig.situation() == "moving"
    assert rig.referee.game.turn == 1


def test_a_pending_chain_is_committed_by_the_button():
    rig = opened()
    rig.move("h2", "h7")
    rig.press()
    assert [e["move"] for e in rig.take("move")] == ["h2-h7"]
    assert rig.situation() == "idle"


def test_illegal_placement_blinks_and_shows_the_way_back():
    rig = opened()
    rig.move("h6", "h26")
    ev = rig.take("illegal")
    assert ev and ev[-1]["missing"] == ["h6"] and ev[-1]["unexpected"] == ["h26"]
    assert rig.lit("h26", "illegal")
    assert rig.lit("h6", "way back")
    rig.move("h26", "h6")
    assert rig.take("resume")
    assert rig.situation() == "idle"
    assert rig.moves() == ["h7-h16", "h112-h104"]


def test_a_knocked_piece_is_shown_and_play_resumes_when_it_is_back():
    rig = opened()
    rig.move("h120", "h110")  # bumped off, lands elsewhere (the opponent's piece, not on turn)
    ev = rig.take("mismatch")
    assert ev and ev[-1]["missing"] == ["h120"] and ev[-1]["unexpected"] == ["h110"]
    assert rig.lit("h110", "move from") and rig.lit("h120", "move to")
    rig.move("h110", "h120")
    assert rig.take("resume")
    rig.move("h6", "h15")
    assert rig.moves()[-1] == "h6-h15"


def test_moving_out_of_turn_is_a_mismatch_not_a_move():
    rig = opened()
    rig.move("h111", "h103")  # seat 1 moves, but seat 0 is to play
    assert rig.take("move") == []
    assert rig.situation() == "mismatch"
    rig.move("h103", "h111")
    assert rig.situation() == "idle"


def test_undo_by_long_press_guides_the_piece_back():
    rig = opened()
    rig.long_press()
    ev = rig.take("undo")
    assert ev and ev[0]["move"] == "h112-h104"
    assert rig.referee.game.turn == 1
    assert rig.situation() == "undo"
    assert rig.lit("h104", "move from") and rig.lit("h112", "move to")
    rig.move("h104", "h112")
    assert rig.situation() == "idle"
    assert rig.moves() == ["h7-h16"]
    rig.move("h111", "h103")
    assert rig.moves() == ["h7-h16", "h111-h103"]


def test_power_cut_and_restart_restores_the_game():
    rig = opened()
    before = rig.referee.game.notation()
    rig.power_cut()
    assert rig.take("restored")
    assert rig.referee.game.notation() == before
    assert rig.situation() == "idle"
    rig.move("h6", "h15")
    assert rig.moves() == ["h7-h16", "h112-h104", "h6-h15"]


def test_power_cut_mid_move_shows_the_lifted_piece_after_restart():
    rig = opened()
    rig.lift("h6")
    rig.power_cut()
    assert rig.situation() == "moving"
    rig.place("h15")
    assert rig.moves()[-1] == "h6-h15"


def test_adapter_continuations_leave_out_the_holes_already_jumped():
    import ludus.checkers.game as checkers
    from ludus.referee.checkers import CheckersAdapter

    game = checkers.start_position("2")
    for text in ("h7-h16", "h112-h104"):
        game.push(game.parse_move(text))
    ad = CheckersAdapter()
    by_text = {}
    for m in game.legal_moves():
        by_text[str(m)] = m
    assert ad.continuations(game, by_text["h2-h7"]) == [29]  # on to h29 (not back to h2)
    assert ad.continuations(game, by_text["h2-h29"]) == []  # h7 was passed already: the chain ends
    assert ad.continuations(game, by_text["h6-h15"]) == ()  # a step
    assert 29 in ad.chain_reach(game, 2) and 7 in ad.chain_reach(game, 2)


def test_a_start_is_begun_over_the_two_ticks_after_the_pieces_settle_unless_they_move_again():
    # the tick that sees a start settle, the one that makes its position and the one that begins its
    # game are three (in one they ran a Pico's loop iteration to 40 ms); a piece moved cancels the start
    import ludus.checkers.game as checkers
    from referee_rig import Rig

    rig = Rig("checkers", "checkers", real=False)
    rig.settle()
    rig.fill(checkers.start_position("2"))
    rig.tick()
    ref = rig.referee
    assert ref.start_due == "checkers/2" and ref.game is None and not rig.take("new_game")
    rig.tick()
    assert ref.start_due[0] == "checkers/2" and ref.game is None and not rig.take("new_game")
    rig.lift("h7")
    rig.tick()  # the board changed before the game began: no start shows now
    assert ref.start_due is None and ref.game is None and not rig.take("new_game")
    rig.place("h7")  # (place settles: the start is seen again and begun a tick later)
    assert [e["start"] for e in rig.take("new_game")] == ["checkers/2"] and ref.game is not None


def test_a_chain_carried_in_one_go_to_where_it_can_go_on_waits_with_its_path_lit():
    # Lifted and put down two or more jumps away, on a hole from which the chain could go on: pending,
    # the holes it passed lit as its path (worked out only then: a chain that cannot go on is committed
    # without it), where it can jump on lit, never a hole it passed.
    rig = started()
    game = rig.referee.game
    chain = None
    for _ in range(10):  # steps (committed at once) until a player has such a chain
        for m in game.legal_moves():
            if len(m.path) > 2:
                ahead = [h for h in game.continuations(m.to, m.frm) if h not in m.path]
                if ahead:
                    chain = m, ahead
                    break
        if chain:
            break
        step = [m for m in game.legal_moves() if len(m.path) == 2 and not m.is_jump()][0]
        rig.move("h%d" % step.frm, "h%d" % step.to)
        assert rig.take("move")[-1]["move"] == step.text()
    assert chain, "no two-jump chain that goes on in 10 plies"
    m, ahead = chain
    rig.move("h%d" % m.frm, "h%d" % m.to)
    assert rig.situation() == "pending" and rig.take("move") == []
    for h in m.path[1:-1]:
        assert rig.lit("h%d" % h, "jump path"), h
    for h in ahead:
        assert rig.lit("h%d" % h, "destination"), h
    assert rig.referee.chain_next == ahead
    rig.press()
    assert [e["move"] for e in rig.take("move")] == [m.text()]

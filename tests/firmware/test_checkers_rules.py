"""Chinese Checkers rules, one scenario per rule of the rule text (source 000 and docs/checkers.md):
steps, jumps over exactly one piece, chains, the ban on ending where a chain started, one move per
(from, to) with a shortest path, finishing and placements, passing, and every setup and option."""

from array import array

import ludus.checkers.moves as checkers_moves
import support
from ludus import checkers
from ludus.errors import ConfigError, IllegalMoveError, NotationError
from ludus.outcome import BLOCKED, FINISHED, MOVE_CAP, Outcome

C = (8, 12)  # the centre hole h60, as (row, column in half pitches)
E, W, SE, SW, NE, NW = (0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)


def H(r, c):
    h = checkers.hole_at(r, c)
    assert h >= 0, (r, c)
    return h


def at(origin, *steps):
    """The hole reached from origin (row, col) by the given direction steps."""
    r, c = origin
    for dr, dc in steps:
        r += dr
        c += dc
    return H(r, c)


def position(spec, pieces, turn=0, opts="-", finished="-", plies=0, empty=()):
    """A game from {hole: set letter}; each set's remaining pieces fill its own start point from the
    tip, then (if that is taken) the points nobody starts in or heads for."""
    game = checkers.start_position(spec)
    cfg = game.config
    board = {}
    for h in pieces:
        board[h] = pieces[h]
    spare = []
    for p in (5, 4, 2, 1, 0, 3):
        if cfg.set_seat[p + 1] == 255 and cfg.set_seat[(p + 3) % 6 + 1] == 255:
            spare.extend(sorted(checkers.POINT_HOLES[p], key=lambda h: -checkers.distance(h, 60)))
    for code in cfg.codes:
        letter = checkers.SET_LETTERS[code - 1]
        have = sum(1 for h in board if board[h] == letter)
        region = sorted(cfg.start_region[code], key=lambda h: -checkers.distance(h, 60)) + spare
        for h in region:
            if have >= cfg.pieces:
                break
            if h not in board and h not in empty:
                board[h] = letter
                have += 1
        assert have == cfg.pieces, (letter, have)
    rows = []
    h = 0
    for n in checkers.ROW_LENGTHS:
        row = ""
        run = 0
        for _ in range(n):
            if h in board:
                row += (str(run) if run else "") + board[h]
                run = 0
            else:
                run += 1
            h += 1
        rows.append(row + (str(run) if run else ""))
    text = "checkers %s %s %d %s %s %d" % (spec, opts, turn, "/".join(rows), finished, plies)
    return checkers.from_notation(text)


def dests(game, hole):
    return sorted([m.to for m in game.destinations(hole)])


def move_to(game, frm, to):
    for m in game.destinations(frm):
        if m.to == to:
            return m
    raise AssertionError("no move h%d-h%d" % (frm, to))


# ---------------------------------------------------------------------------------------------
# Moving


def test_a_step_goes_to_any_adjacent_empty_hole():
    game = position("2", {H(*C): "a"})
    assert dests(game, H(*C)) == sorted([at(C, d) for d in (E, W, SE, SW, NE, NW)])
    for m in game.destinations(H(*C)):
        assert m.path == (m.frm, m.to) and not m.is_jump()


def test_a_step_never_goes_to_an_occupied_hole():
    game = position("2", {H(*C): "a", at(C, E): "d", at(C, E, E): "d"})
    assert at(C, E) not in dests(game, H(*C))


def test_a_jump_goes_over_one_adjacent_piece_of_any_colour_into_the_hole_beyond():
    for colour in ("a", "d"):  # own piece or opponent's
        game = position("2", {H(*C): "a", at(C, E): colour})
        m = move_to(game, H(*C), at(C, E, E))
        assert m.is_jump() and m.path == (H(*C), at(C, E, E))
    # in any of the six directions
    for d in (E, W, SE, SW, NE, NW):
        game = position("2", {H(*C): "a", at(C, d): "d"})
        assert at(C, d, d) in dests(game, H(*C))


def test_the_jumped_piece_stays():
    game = position("2", {H(*C): "a", at(C, E): "d"})
    game.push(move_to(game, H(*C), at(C, E, E)))
    assert game.seat_at(at(C, E)) == 1 and game.seat_at(at(C, E, E)) == 0 and game.seat_at(H(*C)) == -1


def test_no_jump_over_two_adjacent_pieces():
    game = position("2", {H(*C): "a", at(C, E): "d", at(C, E, E): "d"})
    assert at(C, E, E, E) not in dests(game, H(*C))
    assert at(C, E, E, E, E) not in dests(game, H(*C))


def test_no_jump_over_an_empty_hole_or_into_an_occupied_one():
    game = position("2", {H(*C): "a", at(C, E, E): "d"})
    assert at(C, E, E) not in dests(game, H(*C)) and at(C, E, E, E) not in dests(game, H(*C))
    game = position("2", {H(*C): "a", at(C, E): "d", at(C, E, E): "a"})
    assert at(C, E, E) not in dests(game, H(*C))


def test_jumps_chain_in_any_directions_within_one_move():
    # E over one piece, then SW over another, then W over a third: one move, three jumps.
    first = at(C, E, E)
    second = at(C, E, E, SW, SW)
    third = at(C, E, E, SW, SW, W, W)
    game = position("2", {H(*C): "a", at(C, E): "d", at(C, E, E, SW): "a", at(C, E, E, SW, SW, W): "d"})
    m = move_to(game, H(*C), third)
    assert m.path == (H(*C), first, second, third), m.path
    assert first in dests(game, H(*C)) and second in dests(game, H(*C))  # a chain may stop anywhere


def test_a_chain_may_not_end_where_it_started():
    # C -E-> X -SW-> Y -NW-> C: the loop closes on the start, which is not a destination.
    loop = {H(*C): "a", at(C, E): "d", at(C, E, E, SW): "d", at(C, SE): "d"}
    game = position("2", loop)
    assert H(*C) not in dests(game, H(*C))
    assert at(C, E, E) in dests(game, H(*C)) and at(C, SE, SE) in dests(game, H(*C))
    exc = support.raises(IllegalMoveError, game.parse_move, "h60-h60")
    assert "where it started" in support.message_of(exc)


def test_a_chain_may_pass_its_start_and_go_on():
    # C -E-> X -SW-> Y -NW-> C -W-> Z: passing over the start hole again is fine.
    loop = {H(*C): "a", at(C, E): "d", at(C, E, E, SW): "d", at(C, SE): "d", at(C, W): "d"}
    game = position("2", loop)
    assert at(C, W, W) in dests(game, H(*C))


def test_several_chains_to_one_hole_are_one_move_with_a_shortest_path():
    # C reaches C+2SE directly (one jump) and around the loop via C+2E (two jumps).
    game = position("2", {H(*C): "a", at(C, E): "d", at(C, E, E, SW): "d", at(C, SE): "d"})
    moves = game.destinations(H(*C))
    targets = [m.to for m in moves]
    assert len(targets) == len(set(targets))
    m = move_to(game, H(*C), at(C, SE, SE))
    assert m.path == (H(*C), at(C, SE, SE))
    assert len(game.legal_moves()) == len(set([(m.frm, m.to) for m in game.legal_moves()]))


def test_move_to_is_the_destination_with_its_path_and_none_where_not_legal():
    # in a crowded six-player game, for every piece: each of its destinations, and nothing else
    from ludus.bots.checkers import Lcg, choose_move

    game = checkers.start_position("6")
    rng = Lcg(3)
    for _ in range(60):
        game.push(choose_move(game, rng))
    holes = [h for h in range(121) if game.destinations(h)]
    assert len(holes) >= 5
    for frm in holes:
        moves = game.destinations(frm)
        reached = [m.to for m in moves]
        for m in moves:
            one = game.move_to(frm, m.to)
            assert one == m and one.path == m.path, (frm, m.to, one and one.path, m.path)
        for to in range(121):
            if to not in reached:
                assert game.move_to(frm, to) is None, (frm, to)
    chains = [m for h in holes for m in game.destinations(h) if len(m.path) > 2]
    assert chains  # (jump chains of two jumps and more among them)


def test_jump_paths_come_from_the_move_table_s_search_while_it_stands_and_are_searched_again_after():
    # in a crowded six-player game: a chain's path and the hole before its last, from the search of
    # legal_move_codes(keep_chains=True) (no search of their own), then once the generator has run for
    # something else and once the position has changed, searched for again; the same answers each time
    import ludus.checkers.moves as moves
    from ludus.bots.checkers import Lcg, choose_move

    game = checkers.start_position("6")
    rng = Lcg(5)
    for _ in range(50):
        game.push(choose_move(game, rng))
    chains = [m for m in game.legal_moves() if len(m.path) > 2]
    steps = [m for m in game.legal_moves() if len(m.path) == 2]
    assert chains and steps
    game.legal_move_codes(keep_chains=True)
    n = moves.searches()
    for m in chains + steps:
        assert game.jump_path(m.frm, m.to) == m.path, m
        assert game.chain_before(m.frm, m.to) == m.path[-2], m
    assert moves.searches() == n  # (the kept search answered: the generator did not run)
    for m in chains:
        # of the chain's holes, one jump from its last reaches only the one before it
        assert [h for h in game.continuations(m.to, m.frm) if h in m.path] == [m.path[-2]], m
    game.destinations(chains[0].frm)  # the generator runs for one piece: the kept chains are gone
    assert moves.searches() == n + 1
    for m in chains:
        assert game.jump_path(m.frm, m.to) == m.path and game.chain_before(m.frm, m.to) == m.path[-2]
    played = chains[0]
    game.legal_move_codes(keep_chains=True)
    game.push(played)
    game.pop()  # the same position again, its search not kept
    assert game.jump_path(played.frm, played.to) == played.path
    game.legal_move_codes(keep_chains=True)
    assert game.jump_path(played.to, played.frm) is None  # not a legal move
    assert support.raises(IllegalMoveError, game.chain_before, played.to, played.frm)


def test_every_generator_run_is_counted_the_count_wrapping_at_24_bits():
    import ludus.checkers.moves as moves

    game = checkers.start_position("2")
    n = moves.searches()
    game.legal_move_codes()
    game.destinations(game.legal_moves()[0].frm)
    assert moves.searches() == (n + 3) & 0xFFFFFF  # legal_move_codes, legal_moves, destinations
    keep = bytes(moves.STAMP)
    moves.STAMP[1:4] = b"\xff\xff\xff"
    try:
        game.legal_move_codes()
        assert moves.searches() == 0
    finally:
        moves.STAMP[1:4] = keep[1:4]


def test_continuations_show_the_next_jumps_of_a_chain():
    game = position("2", {H(*C): "a", at(C, E): "d", at(C, E, E, SW): "d", at(C, SE): "d"})
    mid = at(C, E, E)
    # from the middle of the chain: on over the SW piece, or back over the piece it just jumped
    assert sorted(game.continuations(mid, H(*C))) == sorted([at(C, E, E, SW, SW), H(*C)])
    assert game.continuations(at(C, NW, NW, NW), H(*C)) == ()


def test_only_the_seat_to_move_has_destinations():
    game = checkers.start_position("2")
    assert game.destinations(H(3, 11)) and not game.destinations(H(13, 11))
    assert game.destinations(H(8, 12)) == []
    exc = support.raises(IllegalMoveError, game.parse_move, "h111-h99")
    assert "seat 1" in support.message_of(exc)


def test_every_step_and_jump_of_the_start():
    game = checkers.start_position("2")
    # the front row steps down, the second row jumps over it; the pieces behind are stuck
    assert sorted([str(m) for m in game.legal_moves()]) == sorted(
        [
            "h6-h14",
            "h6-h15",
            "h7-h15",
            "h7-h16",
            "h8-h16",
            "h8-h17",
            "h9-h17",
            "h9-h18",
            "h3-h14",
            "h3-h16",
            "h4-h15",
            "h4-h17",
            "h5-h16",
            "h5-h18",
        ]
    )


# ---------------------------------------------------------------------------------------------
# Turns, finishing, placements


def test_seats_move_in_turn_and_pop_restores_exactly():
    game = checkers.start_position("3")
    before = game.notation()
    seen = []
    for _ in range(6):
        seen.append(game.turn)
        game.push(game.legal_moves()[0])
    assert seen == [0, 1, 2, 0, 1, 2]
    assert game.plies == 6
    for _ in range(6):
        game.pop()
    assert game.notation() == before
    assert support.raises(IllegalMoveError, game.pop)


def _almost_home(spec, letter, last_from, last_to, others=None):
    """Set `letter` in its target except one piece on last_from (one step from last_to)."""
    cfg = checkers.start_position(spec).config
    code = checkers.SET_LETTERS.index(letter) + 1
    pieces = {}
    for h in cfg.target_region[code]:
        if h != last_to:
            pieces[h] = letter
    pieces[last_from] = letter
    if others:
        pieces.update(others)
    return pieces


def test_a_player_with_every_piece_in_the_target_has_won():
    # Seat 0 (set a, point 0 -> point 3) needs one step into h111.
    pieces = _almost_home("2", "a", H(12, 8), H(13, 9))
    game = position("2", pieces, empty=(H(13, 9),))
    assert not game.is_over() and game.placements() == [] and game.outcome() is None
    game.push(game.parse_move("h%d-h%d" % (H(12, 8), H(13, 9))))
    assert game.is_finished(0) and game.is_over() and game.outcome().reason == FINISHED
    assert game.placements() == [0, 1] and game.outcome() == Outcome([0, 1], FINISHED)
    assert game.outcome().winner == 0
    assert game.legal_moves() == []
    game.pop()
    assert not game.is_finished(0) and game.placements() == []


def test_play_continues_for_the_other_places_and_finished_seats_are_skipped():
    pieces = _almost_home("3", "a", H(12, 8), H(13, 9))
    game = position("3", pieces, empty=(H(13, 9),))
    game.push(game.parse_move("h%d-h%d" % (H(12, 8), H(13, 9))))
    assert game.placements() == [0] and not game.is_over()
    order = []
    for _ in range(6):
        order.append(game.turn)
        game.push(game.legal_moves()[0])
    assert order == [1, 2, 1, 2, 1, 2]
    assert "0" in game.notation().split()[5]


def test_placements_list_every_seat_once_the_second_to_last_finishes():
    # 3 players: seat 0 has finished; seat 2 (set e, point 4 -> 1) needs one step.
    others = {}
    game0 = checkers.start_position("3")
    for h in game0.config.target_region[1]:  # set a home in point 3
        others[h] = "a"
    pieces = _almost_home("3", "e", H(7, 19), H(7, 21), others)
    game = position("3", pieces, turn=2, finished="0", plies=40, empty=(H(7, 21),))
    assert game.placements() == [0]
    game.push(game.parse_move("h%d-h%d" % (H(7, 19), H(7, 21))))
    assert game.placements() == [0, 2, 1] and game.is_over()


def test_a_multi_set_player_needs_every_set_home():
    # 2x2: seat 0 has a (0 -> 3) and b (1 -> 4); a home alone is not a win.
    cfg = checkers.start_position("2x2").config
    pieces = {}
    for h in cfg.target_region[1]:
        pieces[h] = "a"
    game = position("2x2", pieces)
    assert not game.is_finished(0)
    # ...and a piece of a in b's target does not count for either set
    pieces = _almost_home("2x2", "b", H(11, 7), H(12, 6))
    for h in cfg.target_region[1]:
        pieces[h] = "a"
    game = position("2x2", pieces, empty=(H(12, 6),))
    game.push(game.parse_move("h%d-h%d" % (H(11, 7), H(12, 6))))
    assert game.is_finished(0) and game.placements() == [0, 1]


def test_a_seat_without_a_move_passes():
    # 2x2 with the locked option: seat 0's set b fills its target (it may not leave, and there is no
    # room inside); set a sits in its start point walled in by seat 1's pieces on rows 4 and 5.
    cfg = checkers.start_position("2x2").config
    pieces = {}
    for h in cfg.target_region[2]:
        pieces[h] = "b"
    wall = [H(4, c) for c in (8, 10, 12, 14, 16)] + [H(5, c) for c in (7, 9, 11, 13, 15, 17)]
    for i in range(len(wall)):
        pieces[wall[i]] = "d" if i < 10 else "e"
    game = position("2x2", pieces, opts="locked")
    assert [str(m) for m in game.legal_moves()] == ["pass"]
    assert list(game.legal_move_codes()) == [checkers.PASS_CODE]
    assert not game.is_over()
    game.push(game.parse_move("pass"))
    assert game.turn == 1 and game.plies == 1
    assert game.move_changes(game.pop()) == ()
    game.push(game.legal_moves()[0])
    exc = support.raises(IllegalMoveError, game.parse_move, "pass")
    assert "cannot pass" in support.message_of(exc)
    assert game.perft(1) == len(game.legal_moves())


# ---------------------------------------------------------------------------------------------
# Setups


def test_every_setup_puts_ten_pieces_in_each_used_point_and_heads_for_the_opposite():
    expected = {
        "2": ((0,), (3,)),
        "2x2": ((0, 1), (3, 4)),
        "2x3": ((0, 1, 2), (3, 4, 5)),
        "3": ((0,), (2,), (4,)),
        "3x2": ((0, 3), (1, 4), (2, 5)),
        "4": ((1,), (2,), (4,), (5,)),
        "5": ((0,), (1,), (2,), (4,), (5,)),
        "6": ((0,), (1,), (2,), (3,), (4,), (5,)),
    }
    for spec in expected:
        game = checkers.start_position(spec)
        assert game.seats == len(expected[spec])
        used = []
        for seat in range(game.seats):
            assert game.config.seat_points[seat] == expected[spec][seat]
            for p in expected[spec][seat]:
                used.append(p)
                for h in checkers.POINT_HOLES[p]:
                    assert game.set_at(h) == p and game.seat_at(h) == seat, (spec, h)
                assert game.config.target_region[p + 1] == checkers.POINT_HOLES[(p + 3) % 6]
            assert len(game.pieces(seat)) == 10 * len(expected[spec][seat])
        occupied = [h for h in range(121) if game.seat_at(h) >= 0]
        assert len(occupied) == 10 * len(used)
        assert game.turn == 0 and not game.is_over() and game.placements() == []


def test_with_five_players_seat_zero_heads_for_the_empty_point():
    game = checkers.start_position("5")
    assert game.config.seat_points[0] == (0,)
    assert all(game.seat_at(h) == -1 for h in checkers.POINT_HOLES[3])
    empty_targets = []
    for s in range(5):
        target = game.config.target_region[game.config.seat_codes[s][0]]
        if all(game.seat_at(h) == -1 for h in target):
            empty_targets.append(s)
    assert empty_targets == [0]


def test_three_players_with_one_set_head_for_empty_points():
    game = checkers.start_position("3")
    for seat in range(3):
        code = game.config.seat_codes[seat][0]
        assert all(game.seat_at(h) == -1 for h in game.config.target_region[code])


def test_four_players_leave_one_opposite_pair_empty():
    game = checkers.start_position("4")
    for p in (0, 3):
        assert all(game.seat_at(h) == -1 for h in checkers.POINT_HOLES[p])


def test_fifteen_piece_variant_extends_both_points_by_a_row():
    game = checkers.start_position("2/15")
    for seat, p, row in ((0, 0, 4), (1, 3, 12)):
        holes = game.pieces(seat)
        assert len(holes) == 15
        assert holes == sorted(list(checkers.POINT_HOLES[p]) + [H(row, c) for c in (8, 10, 12, 14, 16)])
    assert tuple(game.config.target_region[1]) == tuple(game.pieces(1))
    assert support.raises(ConfigError, checkers.start_position, "3/15")


def test_unknown_setups_are_refused_with_the_list():
    exc = support.raises(ConfigError, checkers.start_position, "7")
    assert "'7'" in support.message_of(exc) and "2x3" in support.message_of(exc)


# ---------------------------------------------------------------------------------------------
# Options


def test_noparking_forbids_ending_in_a_foreign_point_but_not_passing_through():
    # Seat 0 heads 0 -> 3; point 1 (upper right) is neither its start nor its target.
    frm = H(6, 18)  # a hexagon hole on point 1's edge
    into = H(6, 20)  # a point-1 hole
    assert checkers.POINT_OF[frm] == checkers.CENTRE and checkers.POINT_OF[into] == 1
    plain = position("2", {frm: "a"})
    parked = position("2", {frm: "a"}, opts="noparking")
    assert into in dests(plain, frm) and into not in dests(parked, frm)
    exc = support.raises(IllegalMoveError, parked.parse_move, "h%d-h%d" % (frm, into))
    assert "noparking" in support.message_of(exc)
    # A chain may cross the point: (8,20) -NE-> (6,22) [point 1] -W-> (6,18) [hexagon].
    start = H(8, 20)
    game = position("2", {start: "a", H(7, 21): "d", H(6, 20): "d"}, opts="noparking")
    assert H(6, 22) not in dests(game, start)
    assert checkers.POINT_OF[H(6, 18)] == checkers.CENTRE
    assert move_to(game, start, H(6, 18)).path == (start, H(6, 22), H(6, 18))


def test_noparking_still_allows_own_start_and_target():
    game = position("2", {}, opts="noparking")
    assert len(game.legal_moves()) == 14  # steps out of the own start point are fine
    pieces = _almost_home("2", "a", H(12, 8), H(13, 9))
    game = position("2", pieces, opts="noparking", empty=(H(13, 9),))
    assert H(13, 9) in dests(game, H(12, 8))


def test_locked_keeps_pieces_in_their_target():
    pieces = _almost_home("2", "a", H(12, 10), H(13, 9))
    del pieces[H(14, 10)]  # a gap inside the target to move within
    pieces[H(11, 11)] = "a"
    plain = position("2", pieces, empty=(H(13, 9), H(14, 10)))
    locked = position("2", pieces, opts="locked", empty=(H(13, 9), H(14, 10)))
    inside = H(13, 11)
    assert H(12, 12) in dests(plain, inside) and H(12, 12) not in dests(locked, inside)
    assert H(14, 10) in dests(locked, inside)  # moving within the target is fine
    exc = support.raises(IllegalMoveError, locked.parse_move, "h%d-h%d" % (inside, H(12, 12)))
    assert "locked" in support.message_of(exc)
    # pieces outside their target move freely
    assert len(dests(locked, H(11, 11))) == len(dests(plain, H(11, 11)))


def test_antispoil_finishes_a_player_whose_target_is_full_with_one_own_piece():
    # Point 3 is seat 0's target: 9 of seat 1's pieces sit there, one hole is free for a's piece.
    pieces = {}
    target = checkers.POINT_HOLES[3]
    for h in target[1:]:
        pieces[h] = "d"
    pieces[H(12, 10)] = "a"
    for opts, finished in (("-", False), ("antispoil", True)):
        game = position("2", pieces, opts=opts, empty=(target[0],))
        game.push(game.parse_move("h%d-h%d" % (H(12, 10), target[0])))
        assert game.is_finished(0) == finished, opts
        assert game.is_over() == finished
    # the target full of the opponent's pieces alone does not finish anybody
    pieces = {}
    for h in target:
        pieces[h] = "d"
    game = position("2", pieces, opts="antispoil", turn=1)
    assert not game.is_finished(0)


def test_long_hops_jump_a_distant_piece_to_the_mirror_hole():
    game = position("2", {H(*C): "a", at(C, E, E): "d"}, opts="super")
    # two holes away: land two holes beyond it, with the hole between empty
    assert at(C, E, E, E, E) in dests(game, H(*C))
    plain = position("2", {H(*C): "a", at(C, E, E): "d"})
    assert at(C, E, E, E, E) not in dests(plain, H(*C))
    # a piece on the way beyond blocks the hop; so does a second piece before the jumped one
    blocked = position("2", {H(*C): "a", at(C, E, E): "d", at(C, E, E, E): "d"}, opts="super")
    assert at(C, E, E, E, E) not in dests(blocked, H(*C))
    # adjacent pieces still give ordinary jumps, and two adjacent pieces still cannot be jumped
    game = position("2", {H(*C): "a", at(C, E): "d", at(C, E, E): "d"}, opts="super")
    assert at(C, E, E, E) not in dests(game, H(*C)) and at(C, E, E, E, E) not in dests(game, H(*C))
    game = position("2", {H(*C): "a", at(C, W): "d"}, opts="super")
    assert at(C, W, W) in dests(game, H(*C))
    # continuations follow the option
    game = position("2", {H(*C): "a", at(C, E, E): "d"}, opts="super")
    assert at(C, E, E, E, E) in game.continuations(H(*C))


def test_move_cap_ends_the_game_as_a_draw():
    game = checkers.start_position("2", {"cap": 4})
    for _ in range(4):
        assert not game.is_over()
        game.push(game.legal_moves()[0])
    assert game.is_over() and game.outcome() == Outcome([], MOVE_CAP) and game.placements() == []
    assert game.legal_moves() == [] and game.perft(2) == 0
    exc = support.raises(IllegalMoveError, game.parse_move, "h3-h14")
    assert "over" in support.message_of(exc)
    game.pop()
    assert not game.is_over()


def test_a_position_where_nobody_can_move_ends_blocked():
    # no real position of ten pieces a side leaves both sides without a move, so the generator is told
    # to find none: what is checked is how the game reads that
    game = position("3", {})
    game.push(game.legal_moves()[0])
    assert game.outcome() is None
    game._codes = lambda seat, sources=None: []
    game._blocked = -1
    assert game.is_over() and game.outcome() == Outcome([], BLOCKED)
    assert repr(game.outcome()) == "Outcome([], 'blocked')" and game.outcome().winner is None


def test_options_are_off_by_default_and_named_in_the_notation():
    game = checkers.start_position("2")
    assert game.options == {} and game.notation().split()[2] == "-"
    game = checkers.start_position("2", "cap=300,super,noparking,locked,antispoil")
    assert game.notation().split()[2] == "noparking,locked,antispoil,super,cap=300"
    assert game.options == {"noparking": True, "locked": True, "antispoil": True, "super": True, "cap": 300}
    assert checkers.start_position("2", game.options).notation() == game.notation()


def test_bad_or_clashing_options_raise_config_error_naming_them():
    cases = (
        ("nostop", "nostop"),
        ("cap=0", "cap"),
        ("cap", "cap"),
        ("cap=x", "cap"),
        ("super,super", "twice"),
        ("locked=1", "locked"),
        ({"cap": "10"}, "cap"),
        ({"super": 1}, "super"),
        ({"colour": True}, "colour"),
        (5, "options"),
    )
    for options, word in cases:
        exc = support.raises(ConfigError, checkers.start_position, "2", options)
        assert word in support.message_of(exc), (options, support.message_of(exc))
    exc = support.raises(ConfigError, checkers.start_position, "3/15", "noparking")
    assert "15-piece" in support.message_of(exc)


def test_set_options_changes_the_rules_of_a_game():
    game = checkers.start_position("2")
    game.set_options({"cap": 2})
    game.push(game.legal_moves()[0])
    game.push(game.legal_moves()[0])
    assert game.is_over() and game.outcome().reason == MOVE_CAP
    assert support.raises(NotationError, game.set_options, {"cap": 1})  # already past the cap


# ---------------------------------------------------------------------------------------------
# Sensing helpers


def test_place_names_fill_counts_and_move_changes():
    game = checkers.start_position("2")
    names = game.place_names
    assert len(names) == 121 and names[0] == "h0" and names[120] == "h120" and list(names)[7] == "h7"
    assert names.index("h42") == 42 and "h121" not in names and "h07" not in names
    buf = bytearray(121)
    game.fill_counts(buf)
    assert sum(buf) == 20 and buf[0] == 1 and buf[60] == 0 and buf[120] == 1
    move = game.parse_move("h3-h14")
    assert game.move_changes(move) == ((3, -1), (14, 1))
    game.push(move)
    game.fill_counts(buf)
    assert buf[3] == 0 and buf[14] == 1 and sum(buf) == 20


def test_moves_print_and_parse_back():
    game = checkers.start_position("6")
    for m in game.legal_moves():
        again = game.parse_move(str(m))
        assert again == m and again.path == m.path and m.text() == str(m)
    assert game.parse_move(" H7-h16 ") == game.parse_move("h7-h16")
    for bad in ("h7h16", "h7-", "7-16", "h7-h16-h25", "h121-h7", "hx-h1", "h07-h16", "", "pas"):
        exc = support.raises(NotationError, game.parse_move, bad)
        assert support.message_of(exc)
    exc = support.raises(IllegalMoveError, game.parse_move, "h7-h60")
    assert "h60" in support.message_of(exc)
    exc = support.raises(IllegalMoveError, game.parse_move, "h60-h61")
    assert "no piece" in support.message_of(exc)
    exc = support.raises(IllegalMoveError, game.parse_move, "h3-h7")
    assert "occupied" in support.message_of(exc)


def test_copy_is_independent_and_keeps_the_move_stack():
    game = checkers.start_position("2")
    game.push(game.parse_move("h7-h16"))
    twin = game.copy()
    second = twin.legal_moves()[0]
    twin.push(second)
    assert game.plies == 1 and twin.plies == 2 and game.notation() != twin.notation()
    popped = twin.pop()
    assert popped == second and popped.path == second.path
    assert str(twin.pop()) == "h7-h16" and twin.notation() == checkers.start_position("2").notation()
    assert game.plies == 1 and [str(m) for m in game.move_stack()] == ["h7-h16"]


def test_push_checks_moves_against_the_legal_codes_and_trusted_moves_skip_the_check():
    game = checkers.start_position("2")
    codes = game.legal_move_codes()
    # an array("H") (the referee's move table reads it directly); has_code searches it
    assert type(codes) is type(array("H")) and len(codes) == 14
    assert checkers_moves.has_code(codes, codes[3]) and not checkers_moves.has_code(codes, 7 << 7 | 60)
    start = game.notation()
    # with the codes worked out, an illegal move is still refused, with the rule named
    for frm, to in ((7, 60), (60, 61), (3, 7), (7, 200), (200, 7), (-1, -1)):
        exc = support.raises(IllegalMoveError, game.push, checkers.Move(frm, to, (frm, to)))
        assert support.message_of(exc) and game.notation() == start
    # a move off the board whose code would read as a legal one is refused too
    f, t = [(c >> 7, c & 127) for c in codes if (c >> 7) % 2 == 1][0]
    exc = support.raises(IllegalMoveError, game.push, checkers.Move(f - 1, t + 128, (f - 1, t + 128)))
    assert "no such hole" in support.message_of(exc) and game.notation() == start
    # a legal move is played by push and push(trusted=True) alike, and each new position
    # works out its own codes (the old list is not used for it)
    results = []
    for way in range(3):
        game = checkers.start_position("2")
        codes = game.legal_move_codes()
        m = game.legal_moves()[5]
        if way == 0:
            game.push(m)
        elif way == 1:
            game.push(m, trusted=True)
        else:
            game.push(checkers.Move(m.frm, m.to, ()), trusted=True)  # a trusted move needs no path
        assert game.legal_move_codes() != codes and (m.frm << 7 | m.to) not in list(game.legal_move_codes())
        exc = support.raises(IllegalMoveError, game.push, m)  # the seat that moved is not to move
        results.append(game.notation())
        assert game.pop() == m and game.legal_move_codes() == codes
    assert results[0] == results[1] == results[2]


def test_push_checks_passes_and_game_ends_with_the_legal_codes_known():
    game = checkers.start_position("2", {"cap": 2})
    game.legal_move_codes()
    exc = support.raises(IllegalMoveError, game.push, checkers.PASS)
    assert "cannot pass" in support.message_of(exc)
    game.push(game.legal_moves()[0])
    game.push(game.legal_moves()[0])
    assert list(game.legal_move_codes()) == []
    exc = support.raises(IllegalMoveError, game.push, checkers.Move(3, 14, (3, 14)))
    assert "over" in support.message_of(exc)


def test_legal_move_codes_grow_the_shared_buffer_when_a_position_has_more_moves():
    # (MicroPython: the viper generator writes into ludus.checkers.moves.CODES, grown and run again when
    # a position has more moves than it holds; CPython appends into the array directly)
    game = checkers.start_position("6")
    game.push(game.legal_moves()[0])
    want = list(game.legal_move_codes())
    saved = checkers_moves.CODES
    checkers_moves.CODES = array("H", bytes(4))
    try:
        game.push(game.legal_moves()[0])
        game.pop()
        assert list(game.legal_move_codes()) == want and len(want) > 2
        if checkers_moves.fast_codes is not None:
            assert len(checkers_moves.CODES) == len(want)
    finally:
        checkers_moves.CODES = saved

"""Whole-state move inference on hand-made moves: exact matches, moves under way, foreign states,
presence-sensor saturation, carried-not-conjured pieces and nearest pairing of differences."""

from ludus.referee.infer import FOREIGN, IDLE, MATCH, PARTIAL, MoveTable, classify, diff_places, pair_nearest

# places 0..5 are squares (one cell each), 6 is a base zone of 4 slots
CAP = bytearray([1, 1, 1, 1, 1, 1, 4])


def table(expected, moves):
    # moves: list of change lists; each move is represented by its index
    t = MoveTable(CAP)
    t.load(bytearray(expected), list(range(len(moves))), lambda i: moves[i])
    return t


def judge(t, sensed, seen=None):
    exp_sat = bytearray(t.expected)
    for p in range(len(exp_sat)):
        if exp_sat[p] > CAP[p]:
            exp_sat[p] = CAP[p]
    diffs = []
    diff_places(bytearray(sensed), exp_sat, diffs)
    return classify(t, bytearray(sensed), exp_sat, diffs, seen)


def test_a_step_matches_and_a_lift_is_partial():
    t = table([1, 0, 0, 0, 0, 0, 0], [[(0, -1), (1, 1)], [(0, -1), (2, 1)]])
    assert judge(t, [1, 0, 0, 0, 0, 0, 0])[0] == IDLE
    kind, matches, partials = judge(t, [0, 0, 1, 0, 0, 0, 0])
    assert kind == MATCH and matches == [1]
    kind, matches, partials = judge(t, [0, 0, 0, 0, 0, 0, 0])
    assert kind == PARTIAL and sorted(partials) == [0, 1]
    assert judge(t, [0, 0, 0, 1, 0, 0, 0])[0] == FOREIGN  # put down where no move goes


def test_a_capture_matches_in_either_order():
    # mover 0 -> 3, victim on 3 goes to the base zone 6; square 3 is touched with net 0
    t = table([1, 0, 0, 1, 0, 0, 1], [[(0, -1), (3, 1), (3, -1), (6, 1), (3, 0)]])
    assert judge(t, [1, 0, 0, 0, 0, 0, 1])[0] == PARTIAL  # victim lifted first
    assert judge(t, [1, 0, 0, 0, 0, 0, 2])[0] == PARTIAL  # ... and put in its base
    assert judge(t, [0, 0, 0, 1, 0, 0, 1])[0] == PARTIAL  # or: the mover stands on the victim
    assert judge(t, [0, 0, 0, 1, 0, 0, 2])[0] == MATCH


def test_a_pair_captured_may_be_taken_off_before_the_mover_lands():
    # mover 0 -> 3 where two victims stand (the sensor says one); both go to the base zone 6. Square 3
    # is emptied and filled (net -1, listed as touched too): it may read empty on the way.
    t = table([1, 0, 0, 2, 0, 0, 0], [[(0, -1), (3, -1), (6, 2), (3, 0)]])
    assert judge(t, [1, 0, 0, 0, 0, 0, 2])[0] == PARTIAL  # both victims off first
    assert judge(t, [1, 0, 0, 1, 0, 0, 1])[0] == PARTIAL  # one victim off
    assert judge(t, [0, 0, 0, 1, 0, 0, 2])[0] == MATCH
    assert judge(t, [1, 0, 0, 0, 0, 0, 3])[0] == FOREIGN  # three in the base: conjured
    # without the touch the square is bounded by its net change, and reading empty is a difference
    t = table([1, 0, 0, 2, 0, 0, 0], [[(0, -1), (3, -1), (6, 2)]])
    assert judge(t, [1, 0, 0, 0, 0, 0, 2])[0] == FOREIGN


def test_changes_of_one_sign_add_up_and_of_both_signs_are_mixed():
    from ludus.referee.infer import MIXED, signed_delta

    t = table([1, 0, 0, 1, 0, 0, 0], [[(0, -1), (3, 1), (3, 1)], [(0, -1), (3, 1), (3, -2)]])
    assert t.changes(0) == [(0, -1), (3, 2)] and t.changes(1) == [(0, -1), (3, -1)]
    assert t.delta[1] == 2 and t.delta[3] == MIXED - 1 and signed_delta(t.delta[3]) == -1
    assert signed_delta(255) == -1 and signed_delta(MIXED) == 0 and signed_delta(5) == 5


def test_pieces_are_not_conjured():
    # the only move goes 0 -> 2; a piece appearing on 2 while 0 is still full is not that move
    t = table([1, 0, 0, 0, 0, 0, 0], [[(0, -1), (2, 1)]])
    assert judge(t, [1, 0, 1, 0, 0, 0, 0])[0] == FOREIGN


def test_a_stack_hides_a_lift_from_presence_sensors():
    # two pieces on 0 (the sensor says one); one moves 0 -> 1
    t = table([2, 0, 0, 0, 0, 0, 0], [[(0, -1), (1, 1)]])
    kind, matches, _ = judge(t, [1, 1, 0, 0, 0, 0, 0])
    assert kind == MATCH and matches == [0]


def test_moves_that_look_the_same_both_match_and_seen_squares_decide():
    # from 0 to 3 or to 4, each capturing a lone opponent there (net 0 on the square): identical readings
    moves = [
        [(0, -1), (3, 0), (6, 1)],
        [(0, -1), (4, 0), (6, 1)],
    ]
    t = table([1, 0, 0, 1, 1, 0, 0], moves)
    kind, matches, _ = judge(t, [0, 0, 0, 1, 1, 0, 1])
    assert kind == MATCH and sorted(matches) == [0, 1]
    seen = bytearray(7)
    seen[4] = 1  # square 4 was seen empty while the move went on
    kind, matches, _ = judge(t, [0, 0, 0, 1, 1, 0, 1], seen)
    assert matches == [1]


def test_nearest_pairs():
    xy = [(0, 0), (10, 0), (100, 0), (110, 0)]
    pairs = pair_nearest([0, 2], [3, 1], lambda p: xy[p])
    assert sorted(pairs) == [(1, 0), (3, 2)]
    assert pair_nearest([0], [], lambda p: xy[p]) == []


def test_native_judge_and_diffs_agree_with_the_bytecode_versions():
    # On MicroPython the judgement of moves (alone and a place's chain) and diff_places run as viper
    # code (ludus.referee.native); on CPython this compares the bytecode versions with themselves.
    # Every reading of every cap on random moves.
    import ludus.referee.infer as ri

    x = 12345
    for _ in range(300):
        moves = []
        for _m in range(4):
            changes = []
            for _c in range(1 + x % 4):
                x = (x * 1103515245 + 12345) & 0x3FFFFFFF
                changes.append(((x >> 8) % 7, (x >> 12) % 5 - 2))
            moves.append(changes)
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        expected = [(x >> (3 * k)) % 3 for k in range(7)]
        t = table(expected, moves)
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        sensed = bytearray([(x >> (2 * k)) % 3 for k in range(7)])
        exp_sat = bytearray([min(expected[p], CAP[p]) for p in range(7)])
        want = []
        ri._list_diffs_py(sensed, exp_sat, 7, want)
        got = []
        assert diff_places(sensed, exp_sat, got) == len(want) and got == want
        t.exp_sat = exp_sat
        nd = len(want)
        for i in range(len(moves)):  # a rise the sensors see, against the table's own delta reading
            rises = False
            for k in range(t.start[i], t.start[i + 1]):
                d = ri.signed_delta(t.delta[k])
                rises = rises or (d > 0 and ri._rises(t, t.place[k], d, exp_sat))
            assert t.shows_arrival(i, exp_sat) == rises, moves[i]
        for i in range(len(moves)):  # each move alone
            assert ri._judge_moves(t, -2 - i, sensed, nd) == ri._judge_py(t, i, sensed, nd), moves[i]
        for p in range(7):  # the chain of each place's moves
            got = []
            for kernel in (ri._judge_moves, ri._judge_moves_py):
                t.matches = []
                t.partials = []
                assert kernel(t, t.head[p], sensed, nd) == 0
                got.append((t.matches, t.partials))
            assert got[0] == got[1], (p, moves, sensed)
            want_m, want_p = [], []
            k = t.head[p]
            while k >= 0:
                kind = ri._judge_py(t, t.owner[k], sensed, nd)
                (want_m if kind == MATCH else want_p if kind == PARTIAL else []).append(t.owner[k])
                k = t.link[k]
            assert got[0] == (want_m, want_p)


def test_inlined_constants_agree():
    # referee.core, referee.judge, referee.lights and referee.botseats inline ludus.referee.states'
    # values as private const()s (no global lookup), and the judge the kinds 1..3 below: their source
    # must agree (CPython reads it)
    import sys

    if sys.implementation.name == "micropython":
        return
    import os
    import re

    import ludus.referee.states as referee_states

    assert (MATCH, PARTIAL, FOREIGN) == (1, 2, 3)
    here = os.path.dirname(referee_states.__file__)
    for name in ("core", "judge", "lights", "botseats"):
        with open(os.path.join(here, name + ".py")) as f:
            found = re.findall(r"^_([A-Z_]+) = const\((\d+)\)", f.read(), re.M)
        assert found
        for const_name, value in found:
            assert getattr(referee_states, const_name) == int(value), (name, const_name)

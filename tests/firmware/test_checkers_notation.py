"""The Chinese Checkers position notation: every start and played positions round-trip, and every kind
of malformed text is refused with a NotationError that names the fault (never a crash, never a
different position). Also the geometry the notation and the board rely on, and the demo bot."""

import gc

import support
from ludus import checkers, games
from ludus.bots.checkers import Lcg, choose_move, play
from ludus.errors import LudusError, NotationError

START_2 = "checkers 2 - 0 a/aa/aaa/aaaa/13/12/11/10/9/10/11/12/13/dddd/ddd/dd/d - 0"
SPECS = ("2", "2x2", "2x3", "3", "3x2", "4", "5", "6", "2/15")


def test_start_notation_is_documented_form():
    assert checkers.start_position("2").notation() == START_2
    assert (
        checkers.start_position("2/15").notation()
        == "checkers 2/15 - 0 a/aa/aaa/aaaa/4aaaaa4/12/11/10/9/10/11/12/4ddddd4/dddd/ddd/dd/d - 0"
    )
    assert games.position("checkers/2").notation() == START_2
    assert games.position(START_2).notation() == START_2


def test_every_start_and_played_position_round_trips():
    for spec in SPECS:
        game = checkers.start_position(spec, "noparking,cap=500" if spec == "3x2" else None)
        rng = Lcg(len(spec))
        for _ in range(80 if support.IS_MICROPYTHON else 120):
            text = game.notation()
            again = checkers.from_notation(text)
            assert again.notation() == text
            assert again.turn == game.turn and again.plies == game.plies
            assert sorted(again.legal_move_codes()) == sorted(game.legal_move_codes())
            if support.IS_MICROPYTHON:
                gc.collect()
            if game.is_over():
                break
            game.push(choose_move(game, rng))


def test_finished_seats_round_trip_in_order():
    game = checkers.start_position("3")
    play(game, Lcg(4), 3000)
    assert game.is_over() and len(game.placements()) == 3
    text = game.notation()
    again = checkers.from_notation(text)
    assert again.placements() == game.placements() and again.notation() == text
    assert again.is_over()


def _bad(text, *words):
    exc = support.raises(NotationError, checkers.from_notation, text)
    message = support.message_of(exc)
    for word in words:
        assert word in message, (text, message)
    return message


def _with(field, value, text=START_2):
    words = text.split()
    words[field] = value
    return " ".join(words)


def test_malformed_notation_names_the_fault():
    _bad("", "checkers")
    _bad("ludo " + START_2[9:], "checkers")
    _bad(START_2 + " 7", "8 fields", "expected 7")
    _bad(START_2.rsplit(" ", 1)[0], "fields")
    _bad(_with(1, "7"), "setup", "'7'")
    _bad(_with(1, "3/15"), "15-piece")
    _bad(_with(2, "fast"), "fast")
    _bad(_with(2, "cap=0"), "cap")
    _bad(_with(3, "x"), "seat to move", "'x'")
    _bad(_with(3, "2"), "seat 2", "0..1")
    _bad(_with(6, "-3"), "move count")
    _bad(_with(6, "ten"), "move count")
    _bad(_with(6, "007"), "move count")
    _bad(_with(5, "7"), "finished", "'7'")
    _bad(_with(5, "00"), "twice")


def test_numbers_are_plain_ascii_digits_within_range():
    # Other scripts' digits (Arabic-Indic, superscripts), signs, leading zeros and huge values are
    # refused by name: none may crash, and none may be read as a different, canonical number.
    rows = START_2.split()[4]
    _bad(_with(6, "\u0663"), "move count", "digits 0-9")
    _bad(_with(6, "+5"), "move count")
    _bad(_with(6, "9" * 40), "move count", "at most 1000000")
    _bad(_with(6, "1000001"), "at most 1000000")
    _bad(_with(3, "\u0660"), "seat to move")
    _bad(_with(3, "\u00b2"), "seat to move")
    _bad(_with(3, "9" * 30), "seat " + "9" * 30, "0..1")
    _bad(_with(5, "\u00b2"), "finished", "not a seat")
    _bad(_with(4, rows.replace("/13/", "/\u0661\u0663/", 1)), "row 4", "neither a set letter")
    _bad(_with(4, rows.replace("/13/", "/013/", 1)), "row 4", "empty run")
    _bad(_with(4, rows.replace("/13/", "/" + "9" * 40 + "/", 1)), "row 4", "expected 13")
    for cap in ("cap=01", "cap=\u00b2", "cap=\u0663", "cap=-3", "cap=+3", "cap=" + "9" * 40, "cap=1000001"):
        _bad(_with(2, cap), "cap")
    game = checkers.from_notation(_with(2, "cap=1000000", _with(6, "1000000")))
    assert game.is_over() and game.notation().endswith(" 1000000")
    game = checkers.start_position("2")
    for hole in ("h\u0663", "h\u00b2", "h+3", "h03", "h" + "9" * 40):
        exc = support.raises(NotationError, game.parse_move, hole + "-h14")
        assert repr(hole) in support.message_of(exc), support.message_of(exc)
    exc = support.raises(LudusError, checkers.start_position, "2", {"cap": 10**7})
    assert "1..1000000" in support.message_of(exc)


def test_occupancy_faults_are_named():
    rows = START_2.split()[4]
    _bad(_with(4, rows + "/1"), "18 rows")
    _bad(_with(4, rows.replace("/13/", "/12/", 1)), "row 4", "12 holes", "expected 13")
    _bad(_with(4, rows.replace("/13/", "/14/", 1)), "row 4", "14 holes")
    _bad(_with(4, rows.replace("aaaa/", "aaaaa/", 1)), "row 3", "5 holes")
    _bad(_with(4, rows.replace("/9/", "/0b8/", 1)), "empty run", "'0'")
    _bad(_with(4, rows.replace("/9/", "/x8/", 1)), "'x'", "set letter")
    _bad(_with(4, rows.replace("/9/", "/A8/", 1)), "'A'")
    # a set the setup does not use, and wrong piece counts
    _bad(_with(4, rows.replace("/9/", "/b8/", 1)), "set b", "does not use")
    _bad(_with(4, rows.replace("a/aa/", "1/aa/", 1)), "set a has 9 pieces", "10")
    _bad(_with(4, rows.replace("/9/", "/a8/", 1)), "set a has 11 pieces")
    _bad(_with(4, rows.replace("a/aa/", "d/aa/", 1)), "9 pieces")


def test_impossible_game_states_are_refused():
    game = checkers.start_position("3")
    play(game, Lcg(4), 3000)
    text = game.notation()
    first = game.placements()[0]
    # a finished seat that is not listed, and a listed seat that has not finished
    _bad(_with(5, "-", text), "seat %d" % first, "not listed")
    _bad(_with(5, "1"), "seat 1", "not all its pieces")
    # the seat to move may not be a finished one while the game goes on
    two = checkers.start_position("3")
    rng = Lcg(4)
    while not two.placements():
        two.push(choose_move(two, rng))
    done = two.placements()[0]
    _bad(_with(3, str(done), two.notation()), "already finished")
    # the move count may not pass the cap
    _bad(_with(2, "cap=3", _with(6, "5")), "past the move cap")


def test_notation_errors_never_crash_on_garbage():
    rows = START_2.split()[4]
    samples = [
        "checkers",
        "checkers 2",
        "checkers 2 - 0 / - 0",
        "checkers 2 - 0 " + rows,
        "checkers ☃ - 0 a - 0 0",
    ]
    rng = Lcg(99)
    alphabet = "ad0123456789/ -xb,="
    for _ in range(60 if support.IS_MICROPYTHON else 400):
        chars = list(START_2)
        for _ in range(1 + rng.randrange(3)):
            i = rng.randrange(len(chars))
            chars[i] = alphabet[rng.randrange(len(alphabet))]
        samples.append("".join(chars))
    for text in samples:
        try:
            game = checkers.from_notation(text)
        except LudusError as exc:
            assert support.message_of(exc)
            continue
        # accepted: then it is exactly the position it prints
        assert game.notation() == " ".join(text.split()), text


def test_geometry_tables():
    assert checkers.HOLE_COUNT == 121
    assert checkers.ROW_LENGTHS == (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
    assert [len(p) for p in checkers.POINT_HOLES] == [10] * 6
    # POINT_HOLES[p] is bytes (compact on the Pico): compare as tuples of hole numbers
    assert tuple(checkers.POINT_HOLES[0]) == (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    assert checkers.POINT_HOLES[3] == bytes(range(111, 121))
    assert tuple(checkers.POINT_HOLES[1]) == (19, 20, 21, 22, 32, 33, 34, 44, 45, 55)  # upper right
    assert tuple(checkers.POINT_HOLES[5]) == (10, 11, 12, 13, 23, 24, 25, 35, 36, 46)  # upper left
    assert checkers.POINT_TIPS == (0, 22, 110, 120, 98, 10)
    assert (checkers.ROW[60], checkers.COL[60]) == (8, 12)
    total = 0
    for h in range(121):
        near = list(checkers.NEIGHBOURS[h])
        total += len(near)
        for n in near:
            assert h in list(checkers.NEIGHBOURS[n]) and checkers.adjacent(h, n)
            assert checkers.distance(h, n) == 1
        for j in checkers.JUMPS[h]:
            over = j & 127
            land = j >> 7
            assert over in near and checkers.distance(h, land) == 2
            assert 2 * checkers.COL[over] == checkers.COL[h] + checkers.COL[land]
            assert 2 * checkers.ROW[over] == checkers.ROW[h] + checkers.ROW[land]
    assert total == 2 * 312  # edges of the star's lattice
    assert checkers.hole_at(8, 12) == 60 and checkers.hole_at(8, 13) == -1 and checkers.hole_at(0, 0) == -1


def test_bot_plays_every_setup_to_the_end_deterministically():
    specs = ("2", "3", "6") if support.IS_MICROPYTHON else SPECS
    for spec in specs:
        game = checkers.start_position(spec)
        n = play(game, Lcg(7), 2000)
        assert game.is_over() and game.outcome().reason == "finished", spec
        assert sorted(game.placements()) == list(range(game.seats)), spec
        again = checkers.start_position(spec)
        assert play(again, Lcg(7), 2000) == n and again.notation() == game.notation()


def test_bot_takes_a_prng_object_or_a_callable():
    game = checkers.start_position("2")
    calls = []

    def pick(n):
        calls.append(n)
        return n - 1

    move = choose_move(game, pick)
    assert move in game.legal_moves()
    assert calls and all(c > 1 for c in calls)
    # an advancing jump beats a step
    assert move.is_jump()
    assert choose_move(checkers.start_position("2", "cap=1"), pick) is not None
    finished = checkers.start_position("2", "cap=1")
    finished.push(finished.legal_moves()[0])
    assert choose_move(finished, pick) is None


def test_named_starts_are_one_word_and_positions_are_text():
    for spec in SPECS:
        assert games.position(" checkers/%s " % spec).notation() == checkers.start_position(spec).notation()
    exc = support.raises(NotationError, games.position, "checkers/2 extra")
    assert "one word" in support.message_of(exc) and "'checkers/2 extra'" in support.message_of(exc)
    exc = support.raises(NotationError, games.position, 42)
    assert "42" in support.message_of(exc)
    exc = support.raises(NotationError, games.position, "chess/2")
    assert "'chess'" in support.message_of(exc)
    assert "empty" in support.message_of(support.raises(NotationError, games.position, " \t"))

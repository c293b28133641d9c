"""Random physical play: random legal moves carried out in random physical orders, with touch-downs,
slides, bumps and sensor flicker, must end in exactly the game the logical moves give; the referee must
never accept a move that was not made, and every mismatch must clear once the board is put right.

Everything runs on both runtimes, with the real board files, sensing and lights (fewer moves under the
MicroPython port's 160K heap, to keep the run short). The same referee driven by a tiny race game
(tests/firmware/referee_fake.py: stacks, captures in any order, invisible and ambiguous moves) runs too.
Ludo is in test_referee_random_ludo.py: a board is one game's board, so each runs in its own process."""

import gc

import support
from random_play import finish_move, rng, shuffled_steps
from referee_rig import Rig

MOVES = 30 if support.IS_MICROPYTHON else 120
FAKE_GAMES = 3 if support.IS_MICROPYTHON else 12
FAKE_MOVES = 30 if support.IS_MICROPYTHON else 60


def _bump(rig, rnd, game):
    # Someone knocks a piece off and puts it back: a mismatch that must clear.
    occupied = [h for h in range(121) if game.seat_at(h) >= 0]
    h = occupied[rnd.randrange(len(occupied))]
    rig.lift("h%d" % h)
    assert rig.situation() in ("mismatch", "moving", "illegal"), rig.situation()
    rig.place("h%d" % h)
    assert rig.situation() == "idle", rig.situation()


def play_checkers(seed, spec, moves, real=None):
    import ludus.checkers.game as checkers

    # The moves are drawn from the referee's own game (one game in memory: the MicroPython heap is
    # tight) and checked against an independent replay at the end.
    rnd = rng(seed)
    rig = Rig("checkers", "checkers", real=real)
    rig.settle()
    rig.fill(checkers.start_position(spec))
    rig.settle()
    done = []
    for _ in range(moves):
        gc.collect()  # the legal move list of the last turn goes first: a tight heap
        game = rig.referee.game
        if game.is_over():
            break
        legal = game.legal_moves()
        m = legal[rnd.randrange(len(legal))]
        text = str(m)
        legal = None
        if rnd.randrange(8) == 0:
            _bump(rig, rnd, game)
        frm = "h%d" % m.frm
        to = "h%d" % m.to
        r = rnd.randrange(4)
        if r == 0 and rig.real and not m.is_jump():
            rig.slide([frm, to])
        else:
            rig.lift(frm)
            for h in m.path[1:-1]:
                if rnd.randrange(2):
                    rig.place("h%d" % h)  # touch down between jumps
                    rig.lift("h%d" % h)
            if r == 1 and rig.real:
                rig.flick(to, 20)
            rig.place(to)
        finish_move(rig, text)
        done.append(text)
        rig.take()
    actions = [t for t in rig.moves() if t != "pass"]
    assert actions == done, (actions[-3:], done[-3:])
    final = rig.referee.game.notation()
    rig = None
    logical = checkers.start_position(spec)  # an independent replay
    for text in done:
        if logical.legal_moves() == [checkers.PASS]:
            logical.push(checkers.PASS)
        logical.push(logical.parse_move(text))
    assert final == logical.notation()
    return len(done)


def test_random_two_player_checkers_games_end_as_the_logical_game():
    for seed in (1,) if support.IS_MICROPYTHON else (1, 2):
        assert play_checkers(seed, "2", MOVES) > 0


def test_random_three_player_checkers_with_settling_at_every_step():
    # Every intermediate state reaches the referee (no settle time): a harsher test of the inference.
    assert play_checkers(7, "3", MOVES // 2, real=False) > 0


def play_fake(seed, moves):
    from referee_fake import TRACK, FakeGame

    rnd = rng(seed)
    rig = Rig("fake", "fake")
    rig.settle()
    rig.fill(FakeGame())
    rig.settle()
    assert rig.take("new_game")
    done = []
    for _ in range(moves):
        game = rig.referee.game
        legal = game.legal_moves()
        m = legal[rnd.randrange(len(legal))]
        text = str(m)
        frm = "a.base" if m.frm < 0 and m.seat == 0 else ("b.base" if m.frm < 0 else "t%d" % m.frm)
        to = "t%d" % m.to
        steps = [[("lift", frm), ("place", to)]]
        base = "b.base" if m.seat == 0 else "a.base"
        for _ in m.victims:
            steps.append([("lift", to), ("place", base)])
        order = shuffled_steps(rnd, steps)
        if rnd.randrange(6) == 0:
            h = rnd.randrange(TRACK)
            if rig.counts[rig.cell("t%d" % h)]:
                rig.lift("t%d" % h)  # a bump
                rig.place("t%d" % h)
                assert rig.situation() == "idle", rig.situation()
        for verb, where in order:
            if verb == "lift":
                rig.lift(where)
            else:
                rig.place(where)
        finish_move(rig, text)
        done.append(text)
        rig.take()
    assert rig.moves() == done, (rig.moves()[-3:], done[-3:])
    final = rig.referee.game.notation()
    logical = FakeGame()
    for text in done:
        logical.push(logical.parse_move(text))
    assert final == logical.notation(), (final, logical.notation())
    return len(done)


def test_random_race_games_with_stacks_and_captures_end_as_the_logical_game():
    for seed in range(1, FAKE_GAMES + 1):
        assert play_fake(seed, FAKE_MOVES) == FAKE_MOVES

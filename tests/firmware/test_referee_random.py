"""Random physical play: random legal moves carried out in random physical orders, with touch-downs,
slides, bumps and sensor flicker, must end in exactly the game the logical moves give; the referee must
never accept a move that was not made, and every mismatch must clear once the board is put right.

Chinese Checkers runs on both runtimes (under the MicroPython port's 160K heap with the rig's compact
board, no lights, and fewer moves); the Ludo games need more than that heap and run on CPython. The
same referee driven by a tiny race game (tests/firmware/referee_fake.py: stacks, captures in any order,
invisible and ambiguous moves) runs on both runtimes."""

import gc
import random

import support
from referee_rig import Rig
from support import cpython_only as heavy

MOVES = 30 if support.IS_MICROPYTHON else 120
FAKE_GAMES = 3 if support.IS_MICROPYTHON else 12
FAKE_MOVES = 30 if support.IS_MICROPYTHON else 60


def _moves_only(rig):
    return [t for t in rig.moves() if t != "pass" and not t.startswith("roll ")]


def _finish_move(rig, text, before):
    # A move the sensors could not settle alone: a jump chain that may go on or a move that may be the
    # start of another (pending), two moves that look the same (confirm) or a move they cannot see at
    # all (idle): press, after picking the reading that was really made.
    ref = rig.referee
    for _ in range(8):
        moves = _moves_only(rig)
        if len(moves) > before:
            break
        sit = rig.situation()
        if sit == "confirm":
            if str(ref.choices[ref.choice]) != text:
                rig.long_press()
                continue
            rig.press()
        elif sit == "pending" or sit == "idle":
            rig.press()
        else:
            raise AssertionError("after %s the referee is in %s" % (text, sit))
    moves = _moves_only(rig)
    assert len(moves) == before + 1 and moves[-1] == text, (text, moves[-3:], rig.situation())


def _bump(rig, rnd, game):
    # Someone knocks a piece off and puts it back: a mismatch that must clear.
    occupied = [h for h in range(121) if game.seat_at(h) >= 0]
    h = occupied[rnd.randrange(len(occupied))]
    rig.lift("h%d" % h)
    assert rig.situation() in ("mismatch", "moving", "illegal"), rig.situation()
    rig.place("h%d" % h)
    assert rig.situation() == "idle", rig.situation()


def play_checkers(seed, spec, moves, real=None):
    from ludus import checkers

    # The moves are drawn from the referee's own game (one game in memory: the MicroPython heap is
    # tight) and checked against an independent replay at the end.
    rnd = random.Random(seed) if not support.IS_MICROPYTHON else _MpRandom(seed)
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
        _finish_move(rig, text, len(done))
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


class _MpRandom:
    # random.Random is not in every MicroPython build: a small LCG with the two methods used here.
    def __init__(self, seed):
        self.x = seed * 2654435761 + 12345 & 0x3FFFFFFF

    def randrange(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


def test_random_two_player_checkers_games_end_as_the_logical_game():
    for seed in (1,) if support.IS_MICROPYTHON else (1, 2):
        assert play_checkers(seed, "2", MOVES) > 0


def test_random_three_player_checkers_with_settling_at_every_step():
    # Every intermediate state reaches the referee (no settle time): a harsher test of the inference.
    assert play_checkers(7, "3", MOVES // 2, real=False) > 0


def _shuffled_steps(rnd, steps):
    # A random order of the physical steps that keeps each piece's own order (lift before place).
    out = []
    queues = [list(q) for q in steps if q]
    while queues:
        k = rnd.randrange(len(queues))
        out.append(queues[k].pop(0))
        if not queues[k]:
            queues.pop(k)
    return out


def play_fake(seed, moves):
    from referee_fake import TRACK, FakeGame

    rnd = random.Random(seed) if not support.IS_MICROPYTHON else _MpRandom(seed)
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
        order = _shuffled_steps(rnd, steps)
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
        _finish_move(rig, text, len(done))
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


def play_ludo(seed, preset, actions):
    from ludus import ludo

    rnd = random.Random(seed) if not support.IS_MICROPYTHON else _MpRandom(seed)
    rig = Rig("ludo/" + preset, "ludo52")
    rig.settle()
    rig.fill(ludo.start_position(preset + "/4"))
    rig.settle()
    assert rig.take("new_game")
    ad = rig.referee.adapter
    names = rig.referee.place_names
    done = []
    moves = 0
    for _ in range(actions):
        game = rig.referee.game
        if game.is_over():
            break
        if game.awaiting_roll():
            v = 1 + rnd.randrange(6)
            rig.die(v)
            rig.press()
            done.append("roll %d" % v)
            assert rig.moves() == done, (rig.moves()[-3:], done[-3:])
            continue
        legal = game.legal_moves()
        m = legal[rnd.randrange(len(legal))]
        text = str(m)
        frm, to, path, victims = ad.ends(game, m)
        steps = [[("lift", names[frm]), ("place", names[to])]]
        for v, base in victims:
            steps.append([("lift", names[v]), ("place", names[base])])
        if rnd.randrange(8) == 0:  # a bump first
            occupied = [c for c in range(rig.board.cell_count) if rig.counts[c]]
            c = occupied[rnd.randrange(len(occupied))]
            rig.counts[c] -= 1
            rig.settle()
            rig.counts[c] += 1
            rig.settle()
            assert rig.situation() == "idle", rig.situation()
        for verb, where in _shuffled_steps(rnd, steps):
            if verb == "lift":
                rig.lift(where)
            else:
                rig.place(where)
        _finish_move(rig, text, moves)
        moves += 1
        done.append(text)
        rig.take()
    assert rig.moves() == done, (rig.moves()[-3:], done[-3:])
    final = rig.referee.game.notation()
    logical = ludo.start_position(preset + "/4")
    from ludus.record import roll_values

    for text in done:
        values = roll_values(text)
        if values is None:
            logical.push(logical.parse_move(text))
        else:
            logical.apply_roll(values[0])
    assert final == logical.notation()
    return moves


@heavy
def test_random_ludo_games_with_captures_in_any_order_end_as_the_logical_game():
    for seed in (1, 2, 3):
        assert play_ludo(seed, "classic", 300) > 20

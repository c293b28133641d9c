"""Random physical play of Ludo (the Chinese Checkers and race games are in test_referee_random.py):
random legal moves, captures carried out in random orders, bumps, on the real ludo52 board file with
sensing and lights, must end in exactly the game an independent replay of the same actions gives.
Runs on both runtimes (under MicroPython: 160K of heap, firmware from ROM: tests/mpy_runner.py)."""

from random_play import bump, carry_out, finish_move, ludo_move_steps, rng
from referee_rig import Rig


def play_ludo(seed, preset, actions):
    # Each action is also applied to an independent game from its text; the two must agree at the end.
    import ludus.ludo.game as ludo

    rnd = rng(seed)
    rig = Rig("ludo/" + preset, "ludo52")
    rig.settle()
    rig.fill(ludo.start_position(preset + "/4"))
    rig.settle()
    assert rig.take("new_game")
    record = rig.referee.record
    logical = ludo.start_position(preset + "/4")
    moves = 0
    for _ in range(actions):
        game = rig.referee.game
        if game.is_over():
            break
        if game.awaiting_roll():
            v = 1 + rnd.randrange(6)
            rig.die(v)
            rig.press()
            assert record.actions[-1] == "roll %d" % v, record.actions[-1]
            logical.apply_roll(v)
            continue
        text, steps = ludo_move_steps(rig, rnd)
        if rnd.randrange(8) == 0:  # a bump first
            bump(rig, rnd)
        carry_out(rig, rnd, steps)
        finish_move(rig, text)
        moves += 1
        logical.push(logical.parse_move(text))
        rig.take()
    assert rig.referee.game.notation() == logical.notation()
    return moves


def test_random_ludo_games_with_captures_in_any_order_end_as_the_logical_game():
    for seed in (1, 2, 3):
        assert play_ludo(seed, "classic", 300) > 20

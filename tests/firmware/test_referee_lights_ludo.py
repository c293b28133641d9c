"""The referee's light scene as composed in play against the same situation composed afresh, for Ludo
(test_referee_lights.py says why): rolls, the die and the waiting rolls, moves, captures taken off in any
order, bumps, a finished player, a game's end. Runs on both runtimes."""

import gc

import support
from random_play import bump, carry_out, finish_move, ludo_move_steps, rng
from referee_rig import Rig
from test_referee_lights import Checked

# the referee's names (bots included) and these games' come close to the 64-bit unix port's first name
# pool: it is grown first, inside the 160K budget, not mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True


def test_ludo_compositions_equal_fresh_ones():
    # four players, green one move from finishing (then the others play on, green lit as finished): rolls,
    # moves, captures taken off in random orders, bumps
    rig = Rig("ludo/classic", "ludo52")
    watch = Checked(rig)
    rig.settle()
    rig.start_at(
        "ludo classic seats=gyrb turn=g rolls=1 g=home,home,home,green.c4 y=t3,t9,base,base"
        " r=t14,t20,base,base b=t27,t33,t40,base"
    )
    rig.move("green.c4", "green.home")
    assert rig.referee.game.placements() == [0]
    rig.take()
    rnd = rng(3)
    for k in range(14 if support.IS_MICROPYTHON else 40):
        gc.collect()
        game = rig.referee.game
        if game.is_over():
            break
        if game.awaiting_roll():
            rig.die(1 + rnd.randrange(6))
            rig.press()
            continue
        text, steps = ludo_move_steps(rig, rnd)
        if k % 4 == 1:  # a bump first
            bump(rig, rnd)
        carry_out(rig, rnd, steps)
        finish_move(rig, text)
        rig.take()
    # a capture: the victim and its base lit while the capturing token is lifted, taken off first
    rig.start_at(
        "ludo classic seats=gyrb turn=g rolls=4 g=t5,base,base,base y=t3,base,base,base r=t9,base,base,base"
        " b=base,base,base,base"
    )
    rig.lift("t5")
    assert rig.lit("t9", "capture victim")
    rig.place("t9")
    rig.lift("t9")
    rig.place("red.base")
    assert rig.take("move")
    # two waiting rolls on the die display, then a game's end and a new game
    rig.start_at(
        "ludo classic seats=gyrb turn=g rolls=6,5 g=t3,t9,t14,t20 y=t15,t19,t25,t30 r=t28,t34,t38,t45"
        " b=t41,t47,t50,t1"
    )
    rig.start_at("ludo classic seats=gr turn=g rolls=1 g=home,home,home,green.c4 r=t3,base,base,base")
    rig.move("green.c4", "green.home")
    assert rig.take("game_over")
    for seen in ((1, 0), (1, 1), (1, 4), (2, 0)):
        assert seen in watch.seen, (seen, watch.seen)

"""Helpers of the random physical play tests (test_referee_random*.py), MicroPython-compatible: a
random source on both runtimes, random orders of physical steps, and finishing a move the sensors alone
cannot settle."""

import random

import support


def rng(seed):
    """A seeded random source with randrange, on both runtimes."""
    return random.Random(seed) if not support.IS_MICROPYTHON else MpRandom(seed)


class MpRandom:
    # random.Random is not in every MicroPython build: a small LCG with the two methods used here.
    def __init__(self, seed):
        self.x = seed * 2654435761 + 12345 & 0x3FFFFFFF

    def randrange(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


def shuffled_steps(rnd, steps):
    # A random order of the physical steps that keeps each piece's own order (lift before place).
    out = []
    queues = [list(q) for q in steps if q]
    while queues:
        k = rnd.randrange(len(queues))
        out.append(queues[k].pop(0))
        if not queues[k]:
            queues.pop(k)
    return out


def _moved(rig):
    # the moves committed since the rig's events were last taken (a list of the whole record per
    # move would cost time and heap as the game grows)
    return [e["move"] for e in rig.events if e["event"] == "move"]


def finish_move(rig, text):
    # A move the sensors could not settle alone: a jump chain that may go on or a move that may be the
    # start of another (pending), two moves that look the same (confirm) or a move they cannot see at
    # all (idle): press, after picking the reading that was really made.
    ref = rig.referee
    for _ in range(8):
        if _moved(rig):
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
    moved = _moved(rig)
    assert moved == [text], (text, moved, rig.situation())


def ludo_move_steps(rig, rnd):
    """A random legal move of the referee's Ludo game: (its text, its physical steps as queues of
    (verb, place name): the mover's lift and placement, each victim's)."""
    game = rig.referee.game
    names = rig.referee.place_names
    legal = game.legal_moves()
    m = legal[rnd.randrange(len(legal))]
    frm, to, path, victims = rig.referee.adapter.ends(game, m)
    steps = [[("lift", names[frm]), ("place", names[to])]]
    for v, base in victims:
        steps.append([("lift", names[v]), ("place", names[base])])
    return str(m), steps


def bump(rig, rnd):
    """Someone knocks a random piece off a cell and puts it back; the board must read idle again."""
    occupied = [c for c in range(rig.board.cell_count) if rig.counts[c]]
    c = occupied[rnd.randrange(len(occupied))]
    rig.counts[c] -= 1
    rig.settle()
    rig.counts[c] += 1
    rig.settle()
    assert rig.situation() == "idle", rig.situation()


def carry_out(rig, rnd, steps):
    """The steps in a random order that keeps each piece's own order."""
    for verb, where in shuffled_steps(rnd, steps):
        if verb == "lift":
            rig.lift(where)
        else:
            rig.place(where)

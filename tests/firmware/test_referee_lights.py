"""The referee's light scene as composed in play, with what the composer keeps between compositions (each
seat's turn LED and inks for the game, a lifted piece's jump paths with the move table, inks that stay
defined), against the same situation composed afresh on a new scene: through setups, lifts, jump chains,
illegal placements, mismatches, undo, rolls, captures, finished players and a game's end, every LED and
every frame must be the same. Runs on both runtimes (the real board files, sensing and lights); Ludo is
in test_referee_lights_ludo.py (a board is one game's board: each runs in its own process)."""

import gc

import support
from ludus.referee.build import default_scene
from random_play import finish_move, rng
from referee_rig import Rig

FRAME_TIMES = (0, 130, 250, 700, 1050, 1150, 1900, 2500)  # every pattern on and off, two waiting rolls


class Checked:
    """Wraps a rig's referee so that every composition is checked against one made afresh."""

    def __init__(self, rig):
        self.rig = rig
        self.seen = set()  # (phase, situation) composed
        ref = rig.referee
        self.compose = ref._compose  # (an attribute the referee has: its dictionary does not grow)
        ref._compose = self._checked

    def _checked(self, r):
        self.compose(r)
        self.seen.add((r.phase, r.situation if r.phase == 1 else 0))
        live = r.scene
        fresh = default_scene(r.board)
        table = r.table
        ends = getattr(table, "ends", None)  # the move ends the lights keep with a table
        if ends is not None:
            table.ends = None
        r.scene = fresh
        try:
            self.compose(r)
        finally:
            r.scene = live
            if ends is not None:
                table.ends = ends
        _same_scene(live, fresh, r)


def _same_scene(live, fresh, r):
    where = (r.phase, r.situation)
    for led in range(live.led_count):
        got = (live.meaning_at(led), live.colour_at(led))
        assert got == (fresh.meaning_at(led), fresh.colour_at(led)), (where, led, got)
    a = bytearray(3 * live.led_count)
    b = bytearray(3 * live.led_count)
    for now in FRAME_TIMES:
        assert live.render(now, a) == fresh.render(now, b), (where, now)
        assert a == b, (where, now)


def test_checkers_compositions_equal_fresh_ones():
    import ludus.checkers.game as checkers

    rig = Rig("checkers", "checkers")
    watch = Checked(rig)
    rig.settle()
    start = checkers.start_position("2")
    rig.fill(start)
    # setup: a point partly filled (its colour and the slots still missing) and a stray piece
    rig.counts[rig.cell("h0")] = 0
    rig.counts[rig.cell("h60")] = 1
    rig.settle()
    rig.counts[rig.cell("h60")] = 0
    rig.place("h0")
    assert rig.referee.phase == 1
    rnd = rng(7)
    for k in range(6 if support.IS_MICROPYTHON else 16):
        gc.collect()
        game = rig.referee.game
        legal = game.legal_moves()
        m = legal[rnd.randrange(len(legal))]
        if k % 2:  # a jump when there is one: its chain touched down and pending
            for j in legal:
                if j.is_jump():
                    m = j
                    break
        text = str(m)
        legal = j = None
        frm = "h%d" % m.frm
        to = "h%d" % m.to
        if k % 5 == 2:  # an illegal placement first, then the way back
            rig.lift(frm)
            rig.place("h60" if game.seat_at(60) < 0 else "h61")
            rig.lift("h60" if rig.counts[rig.cell("h60")] else "h61")
            rig.place(frm)
        if k % 5 == 3:  # an opponent's piece knocked off and put back
            other = "h%d" % game.pieces(1 - game.turn)[0]
            rig.lift(other)
            rig.place(other)
        rig.lift(frm)
        for h in m.path[1:-1]:
            rig.place("h%d" % h)  # touch down between jumps
            rig.lift("h%d" % h)
        rig.place(to)
        finish_move(rig, text)
        rig.take()
        if k == 3:  # undo: the board shows how to put the piece back
            rig.long_press()
            assert rig.situation() == "undo", rig.situation()
            rig.move(to, frm)
            assert rig.situation() == "idle", rig.situation()
    # the end of a two-player game: the winner's pieces and placements, then a long press undoes it
    rig.start_at("checkers 2 - 0 1/2/3/4/13/12/11/10/ddddddddd/d9/11/12/4a8/1aaa/aaa/aa/a - 0")
    rig.move("h102", "h111")
    assert rig.take("game_over")
    rig.long_press()
    assert rig.referee.phase == 1
    # a new game of three: its seats' colours and turn LEDs are not the last game's
    rig.start_at(checkers.start_position("3").notation())
    rig.move("h6", "h15")
    assert rig.referee.game.turn == 1
    # setup; play: idle, a move under way, a jump pending, a mismatch, illegal, undo; the game's end
    for seen in ((0, 0), (1, 0), (1, 1), (1, 2), (1, 4), (1, 5), (1, 6), (2, 0)):
        assert seen in watch.seen, (seen, watch.seen)

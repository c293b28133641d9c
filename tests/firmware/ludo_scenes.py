"""Rigs for the Ludo referee scenarios (tests/firmware/test_referee_ludo*.py), MicroPython-compatible:
a ludo52 rig continuing from a position, one with a game's start on the board, one with bases filled,
one running the turn clock."""

import ludus.ludo.game as ludo


def at(position, preset=None):
    """A rig on the ludo52 board continuing from a position, its pieces on the board."""
    from referee_rig import Rig

    if preset is None:
        preset = "ludo/" + position.split()[1]
    rig = Rig(preset, "ludo52")
    rig.settle()
    rig.start_at(position)
    return rig


def fresh(preset, seats):
    """A rig with the start of `seats` (a tuple of seats) put on the board: the referee begins a game."""
    from referee_rig import Rig

    rig = Rig(preset, "ludo52")
    rig.settle()
    game = ludo.LudoGame(ludo.rules_from_spec(preset.split("/")[1]), seats)
    game._set_up_start()
    rig.fill(game)
    rig.settle()
    return rig


def bases_filled(preset, colours):
    """A rig with four tokens in each named colour's base and nothing else (any colours, even ones no
    rule set seats together)."""
    from referee_rig import Rig

    rig = Rig(preset, "ludo52")
    rig.settle()
    for colour in colours:
        for _ in range(4):
            rig.place(colour + ".base", False)
    rig.settle()
    return rig


def moves_of(rig):
    return [e["move"] for e in rig.take("move")]


def game_of(rig):
    return rig.referee.game


def clocked(position, turn_clock=True):
    """A rig whose referee runs the turn clock (off by default: docs/referee.md)."""
    from referee_rig import Rig

    class ClockRig(Rig):
        def _referee(self):
            from ludus.referee.core import Referee
            from ludus.sensing.instant import InstantOccupancy

            n = self.board.channel_count
            if self.real:
                from ludus.sensing.occupancy import Occupancy

                occ = Occupancy(n)
            else:
                occ = InstantOccupancy(n)
            scene = None if self.lights else False
            return Referee(
                self.board, self.preset, occupancy=occ, seed=self.seed, scene=scene, turn_clock=turn_clock
            )

    rig = ClockRig("ludo/" + position.split()[1], "ludo52")
    rig.settle()
    rig.start_at(position)
    return rig

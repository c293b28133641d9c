"""Scripted physical scenarios for the referee with analog sensors, which count stacked tokens (0, 1 or 2
magnets per cell through a per-cell calibration): the moves that presence sensors cannot see, or cannot
tell apart, are committed at once; a stack of two reads as two; a third token on a cell reads as two.

All run on both runtimes."""

from array import array

from ludo_pair_scene import capture_a_pair_in_either_order
from ludus.sensing.instant import InstantOccupancy
from referee_rig import Rig

GROW_NAMES = True  # the unix port's name pool grown first: past its cliff it would grow mid-test

LEVELS = (2000, 22000, 42000)  # simulated ADC readings for 0, 1 and 2 magnets


class AnalogRig(Rig):
    """The test rig with analog sensors: each cell's level says how many tokens stand on it (2 at most)."""

    def _referee(self):
        from ludus.referee.core import Referee

        b = self.board
        if self.real:
            from ludus.sensing.calibration import Calibration
            from ludus.sensing.occupancy import Occupancy

            cal = Calibration.uniform(b.channel_count, *LEVELS)
            occ = Occupancy(b.channel_count, analog=True, calibration=cal)
            self.levels = array("H", [LEVELS[0]] * b.channel_count)
        else:
            occ = InstantOccupancy(b.channel_count, analog=True)
        scene = None if self.lights else False
        return Referee(b, self.preset, occupancy=occ, seed=self.seed, scene=scene)

    def tick(self, button=0):
        b = self.board
        lv = self.levels
        for c in range(b.cell_count):
            n = self.counts[c]
            if n > 2:
                n = 2
            lv[b.channel_of_cell[c]] = LEVELS[n] if self.real else n
        if self.referee.tick(lv, self.now, button):
            self.frames += 1
        self.events.extend(self.referee.take_events())
        self.now += 10


def test_calibrated_analog_levels_count_a_stack_of_two():
    from ludus.sensing.calibration import Calibration
    from ludus.sensing.occupancy import Occupancy

    cal = Calibration.uniform(3, *LEVELS)
    occ = Occupancy(3, analog=True, calibration=cal)
    levels = array("H", [LEVELS[0], LEVELS[1], LEVELS[2]])
    occ.reset(levels, 0)
    assert list(occ.settled) == [0, 1, 2]
    levels[2] = LEVELS[1]  # one token lifted off the stack
    now = 0
    while not occ.update(levels, now):
        now += 10
        assert now < 2000
    assert list(occ.settled) == [0, 1, 1]


def at(position):
    rig = AnalogRig("ludo/" + position.split()[1], "ludo52")
    rig.settle()
    rig.start_at(position)
    return rig


def moves_of(rig):
    return [e["move"] for e in rig.take("move")]


def test_analog_sensors_see_a_token_put_onto_its_own_colour():
    # presence sensors see only t3 empty and wait for a press (test_referee_ludo.py)
    rig = at("ludo classic seats=gr turn=g rolls=2 g=t3,t5,base,base r=base,base,base,base")
    assert rig.referee.cap[rig.board.place_id("t5")] == 2
    rig.move("t3", "t5")
    done = rig.take()
    assert [e["move"] for e in done if e["event"] == "move"] == ["2 green.0 t3-t5"]
    assert [e for e in done if e["event"] == "pending"] == []


def test_analog_sensors_tell_apart_two_moves_that_look_alike_to_presence_sensors():
    # the 2 (t3-t5) and the 6 (t3-t9) both only empty t3 for presence sensors: they ask to confirm
    rig = at("ludo classic seats=gr turn=g rolls=6,2 g=t3,t5,t9,base r=base,base,base,base")
    rig.move("t3", "t9")
    done = rig.take()
    assert [e for e in done if e["event"] == "confirm"] == [] and rig.situation() == "idle"
    assert [e["move"] for e in done if e["event"] == "move"] == ["6 green.0 t3-t9"]
    assert rig.referee.game.rolls == [2]


def test_analog_sensors_see_one_token_leave_a_stack_for_another():
    # presence sensors see nothing at all here: the player must press and confirm
    rig = at("ludo classic seats=gr turn=g rolls=2 g=t3,t3,t5,base r=base,base,base,base")
    rig.lift("t3")
    assert rig.situation() == "moving"
    rig.place("t5")
    assert moves_of(rig) in (["2 green.0 t3-t5"], ["2 green.1 t3-t5"])
    assert "g=t5,t3,t5,base" in rig.referee.game.notation() or "g=t3,t5,t5" in rig.referee.game.notation()


def test_analog_master_wall_half_moved_is_still_ambiguous_until_the_second_token():
    # one token off a wall of two is a legal single move and half of the wall's move: even counting
    # sensors must wait (a press plays the single token; the second token makes it the wall's move)
    rig = at("ludo master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t40,base,base,base")
    rig.move("t2", "t5")
    assert rig.situation() == "pending"
    rig.move("t2", "t5")
    assert moves_of(rig) == ["3 green.0+green.1 t2-t5"]


def test_analog_capture_of_a_pair_in_classic_either_order():
    capture_a_pair_in_either_order(at)


def test_analog_stacked_start_tokens_of_blitz_count_as_two():
    rig = AnalogRig("ludo/blitz/2", "ludo52")
    rig.settle()
    import ludus.ludo.game as ludo

    rig.fill(ludo.start_position("blitz/2"))
    rig.settle()
    assert [e["start"] for e in rig.take("new_game")] == ["ludo/blitz/2"]
    assert rig.referee.sensed[rig.board.place_id("t0")] == 2

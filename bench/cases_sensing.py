"""Benchmark cases for the sensing and light layers: one idle sensor tick (digital and analog sensors, 121
channels, nothing changing) and one render of a busy light frame. See bench/README.md."""

from array import array

import ludus.light.palette as palette
from ludus.light.scene import LightScene
from ludus.sensing.calibration import Calibration
from ludus.sensing.occupancy import Occupancy

CHANNELS = 121
TICK_MS = 5


class _IdleBoard:
    """A settled board with 60 pieces on it whose sensors keep reading the same levels."""

    def __init__(self, analog):
        if analog:
            cal = Calibration.uniform(CHANNELS, 32768, 40000, 45000)
            self.occ = Occupancy(CHANNELS, analog=True, calibration=cal)
            # realistic analog readings: a little different on every channel
            self.levels = array("H", [(40100 if ch % 2 else 32700) + ch for ch in range(CHANNELS)])
        else:
            self.occ = Occupancy(CHANNELS)
            self.levels = bytearray([ch % 2 for ch in range(CHANNELS)])
        self.now = 0
        for _ in range(200):  # debounce and settle the starting position
            self.tick()
        assert self.occ.version == 1 and not self.occ.unsettled

    def tick(self):
        self.now += TICK_MS
        self.occ.update(self.levels, self.now)
        return self.occ.version


def idle_tick():
    return _IdleBoard(analog=False).tick


def idle_tick_analog():
    return _IdleBoard(analog=True).tick


class _BusyFrame:
    """A Chinese Checkers mid-jump frame plus a mismatch, a capture and a waiting die: most LEDs lit,
    several patterns and inks, the current budget scaling it down."""

    def __init__(self):
        scene = LightScene(128)
        scene.set_die_leds(range(121, 128))
        scene.mark(range(0, 60), palette.PLAYER, palette.RED)
        scene.mark(range(0, 121, 3), palette.DESTINATION)
        scene.mark(range(1, 121, 7), palette.JUMP_PATH)
        scene.mark((5, 17, 33), palette.MISSING)
        scene.mark((44, 58), palette.UNEXPECTED)
        scene.set(70, palette.MOVE_FROM)
        scene.set(90, palette.MOVE_TO)
        scene.set(100, palette.CAPTURE_VICTIM)
        scene.set(110, palette.CAPTURE_BASE)
        scene.mark(range(111, 121), palette.FINISHED, palette.BLUE)
        scene.set(120, palette.TURN, palette.YELLOW)
        scene.set_die(6, waiting=(6, 3))
        self.scene = scene
        self.out = bytearray(3 * 128)
        self.now = 0

    def render(self):
        self.now += 20
        return self.scene.render(self.now, self.out)


def render_busy():
    return _BusyFrame().render


CASES = [
    ("sensing.idle_tick", idle_tick, 1000),
    ("sensing.idle_tick_analog", idle_tick_analog, 1000),
    ("scene.render_busy", render_busy, 200),
]

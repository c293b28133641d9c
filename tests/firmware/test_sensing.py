"""Sensing: raw levels -> debounced current -> settled occupancy, calibration of analog sensors."""

from array import array

import support
from ludus.errors import ConfigError
from ludus.sensing import MAX_LEVEL, Occupancy, elapsed_ms
from ludus.sensing.calibration import Calibration, _quantise, _quantise_py

TICK = 5  # ms between ticks in these scenarios


class Rng:
    """A small deterministic generator (MicroPython's random has no Random class)."""

    def __init__(self, seed):
        self.state = seed * 2654435761 % 4294967296 or 1

    def randrange(self, a, b=None):
        if b is None:
            a, b = 0, a
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return a + x % (b - a)

    def choice(self, seq):
        return seq[self.randrange(len(seq))]


class Bench:
    """A board of digital sensors driven tick by tick; records every publication."""

    def __init__(self, n=8, start=0, **options):
        self.occ = Occupancy(n, **options)
        self.levels = bytearray(n)
        self.now = start
        self.published = []  # (time, settled bytes)

    def run(self, ms, step=TICK):
        for _ in range(ms // step):
            self.now = (self.now + step) & 0x3FFFFFFF
            if self.occ.update(self.levels, self.now):
                self.published.append((self.now, bytes(self.occ.settled)))

    def start(self, counts):
        """Power up with these pieces on the board (adopted at once)."""
        self.levels[:] = bytearray(counts)
        self.occ.reset(self.levels, self.now)

    def put(self, ch, value=1):
        self.levels[ch] = value


def test_placement_settles_after_debounce_and_settle_time():
    b = Bench(settle_ms=200, debounce_ms=30)
    b.run(100)
    assert b.published == [] and b.occ.version == 0
    b.put(2)
    placed = b.now
    b.run(500)
    assert len(b.published) == 1
    when, settled = b.published[0]
    assert settled == bytes([0, 0, 1, 0, 0, 0, 0, 0])
    # first seen one tick after placing, accepted 30 ms later, published 200 ms after it was first
    # seen: the debounce lies inside the settle time
    assert when - placed == TICK + 200, when - placed
    assert b.occ.version == 1 and b.occ.current_version == 1
    assert not b.occ.unsettled


def test_glitch_shorter_than_debounce_never_reaches_current():
    b = Bench(debounce_ms=30)
    b.put(5)
    b.run(25)  # seen on 5 ticks spanning 20 ms
    b.put(5, 0)
    b.run(500)
    assert b.occ.current_version == 0 and b.published == []
    assert b.occ.current == bytearray(8)


def test_change_needs_consecutive_ticks_even_when_ticks_are_slow():
    # One tick 100 ms after the raw change would satisfy debounce_ms but not debounce_ticks=2.
    b = Bench(debounce_ms=30, debounce_ticks=2)
    b.put(1)
    b.run(100, step=100)
    assert b.occ.current[1] == 0
    b.run(100, step=100)
    assert b.occ.current[1] == 1


def test_lifted_piece_shows_in_current_before_the_board_settles():
    b = Bench()
    b.start([1, 1, 0, 0, 0, 0, 0, 0])
    assert b.occ.settled == bytearray([1, 1, 0, 0, 0, 0, 0, 0]) and b.occ.version == 1
    seen = b.occ.current_version
    b.put(1, 0)
    b.run(50)
    assert b.occ.current[1] == 0 and b.occ.current_version == seen + 1
    assert b.occ.settled[1] == 1 and b.occ.unsettled  # not settled yet
    b.run(300)
    assert b.occ.settled[1] == 0 and b.occ.version == 2


def test_lift_and_put_back_within_settle_publishes_nothing():
    b = Bench()
    b.start([0, 0, 0, 1, 0, 0, 0, 0])
    b.put(3)
    b.run(50)
    b.put(3, 0)
    b.run(60)
    assert b.occ.current[3] == 0
    b.put(3)
    b.run(500)
    assert b.published == [] and b.occ.version == 1 and not b.occ.unsettled
    assert b.occ.current_version == 3  # reset, lifted, put back


def test_slide_across_cells_registers_only_the_end_cell():
    # A piece slides from cell 0 over 1, 2, 3 to 4, resting 80 ms (> debounce, < settle) on each.
    b = Bench(settle_ms=200, debounce_ms=30)
    b.start([1, 0, 0, 0, 0, 0, 0, 0])
    b.put(0, 0)
    for cell in (1, 2, 3, 4):
        b.put(cell)
        b.run(80)
        if cell != 4:
            b.put(cell, 0)
    b.run(400)
    assert [s for _, s in b.published] == [bytes([0, 0, 0, 0, 1, 0, 0, 0])]
    assert b.occ.current_version > 4  # the intermediate cells did pass through current


def test_capture_in_either_order_settles_to_the_same_board():
    for order in ((2, 5), (5, 2)):
        b = Bench()
        b.start([0, 0, 1, 0, 0, 1, 0, 0])
        # the captured piece on 5 is taken off, the capturer moves 2 -> 5; quick hands, 100 ms apart
        for ch in order:
            b.put(ch, 0)
            b.run(100)
        b.put(5)
        b.run(400)
        assert [s for _, s in b.published] == [bytes([0, 0, 0, 0, 0, 1, 0, 0])], order


def test_fast_flicker_never_changes_anything():
    b = Bench(debounce_ms=30)
    b.put(6)
    b.run(300)
    assert b.occ.version == 1
    for _ in range(100):  # channel 7 chatters every 10 ms, faster than the debounce
        b.levels[7] ^= 1
        b.run(10)
    assert b.occ.current[7] == 0 and b.occ.version == 1
    b.put(0)
    for _ in range(40):
        b.levels[7] ^= 1
        b.run(10)
    assert b.occ.settled == bytearray([1, 0, 0, 0, 0, 0, 1, 0]) and b.occ.version == 2


def test_slow_flicker_is_quarantined_and_does_not_hold_the_board_up():
    b = Bench(settle_ms=200, debounce_ms=30, flicker_limit=4, flicker_hold_ms=1000)
    b.put(4)
    toggles = 0
    start = b.now
    while b.now - start < 3000:  # channel 7 toggles every 70 ms (slower than the debounce) for 3 s
        b.levels[7] ^= 1
        toggles += 1
        b.run(70)
    assert b.occ.flickering[7] == 1
    # the real placement on 4 was published while 7 kept flickering; 7 never was
    assert b.published and all(s[4] == 1 and s[7] == 0 for _, s in b.published)
    assert len(b.published) == 1
    b.put(7)  # it stops, present
    b.run(1500)
    assert b.occ.flickering[7] == 0
    assert b.occ.settled == bytearray([0, 0, 0, 0, 1, 0, 0, 1])


def test_random_chatter_during_play_settles_to_the_true_board():
    rng = Rng(4)
    rounds = 15 if support.IS_MICROPYTHON else 60
    n = 16
    b = Bench(n)
    truth = bytearray(n)
    for _ in range(rounds):
        # a real move: a random channel toggles for good
        ch = rng.randrange(n)
        truth[ch] ^= 1
        for _ in range(rng.randrange(1, 12)):  # chatter bursts shorter than the debounce
            burst = rng.randrange(n)
            b.levels[:] = truth
            b.levels[burst] ^= 1
            b.run(rng.choice((5, 10, 15, 20)))
        b.levels[:] = truth
        b.run(400)
        assert b.occ.settled == truth and b.occ.current == truth and not b.occ.unsettled


def test_tick_counter_wraparound():
    start = (1 << 30) - 100
    b = Bench(start=start)
    b.put(1)
    b.run(600)
    assert len(b.published) == 1 and b.published[0][0] < 1000
    assert elapsed_ms(5, (1 << 30) - 5) == 10


def test_levels_of_the_wrong_length_are_refused():
    occ = Occupancy(4)
    exc = support.raises(ConfigError, occ.update, bytearray(5), 0)
    assert "5 levels for 4 channels" in support.message_of(exc)


def test_bad_options_are_refused_with_their_name():
    for kwargs, word in (
        ({"settle_ms": -1}, "settle_ms"),
        ({"debounce_ticks": 0}, "debounce_ticks"),
        ({"flicker_limit": 0}, "flicker_limit"),
        ({"analog": True}, "Calibration"),
        ({"calibration": Calibration.uniform(4, 0, 5000)}, "analog"),
        ({"analog": True, "calibration": Calibration.uniform(5, 0, 5000)}, "5 channels"),
    ):
        exc = support.raises(ConfigError, Occupancy, 4, **kwargs)
        assert word in support.message_of(exc), (kwargs, support.message_of(exc))


# ---- analog sensors and calibration ------------------------------------------------------------------


def _analog(cal, **options):
    return Occupancy(cal.channel_count, analog=True, calibration=cal, **options)


def test_analog_counts_stacked_magnets():
    cal = Calibration.uniform(3, 32768, 40000, 45000)
    occ = _analog(cal, settle_ms=100, debounce_ms=20)
    levels = array("H", [32768, 40100, 44900])
    t = 0
    for _ in range(40):
        t += TICK
        occ.update(levels, t)
    assert occ.settled == bytearray([0, 1, 2])


def test_analog_descending_channel():
    # The other pole faces this sensor: its level falls as magnets are stacked.
    cal = Calibration(2)
    cal.set(0, 32768, 25000, 20000)
    cal.set(1, 32768, 40000)  # no stack calibration: counts 0 or 1
    occ = _analog(cal, settle_ms=0, debounce_ms=0, debounce_ticks=1)
    for levels, want in (
        ([32768, 32768], [0, 0]),
        ([24000, 50000], [1, 1]),
        ([19000, 60000], [2, 1]),
        ([33000, 30000], [0, 0]),
    ):
        occ.update(array("H", levels), 0)
        assert list(occ.settled) == want, (levels, list(occ.settled))


def test_analog_hysteresis_holds_a_level_that_hovers_at_the_midpoint():
    # empty 30000, one 40000: midpoint 35000, 20 % hysteresis: rise at 36000, fall below 34000.
    cal = Calibration.uniform(1, 30000, 40000, hysteresis_pct=20)
    occ = _analog(cal, settle_ms=0, debounce_ms=0, debounce_ticks=1)
    steps = (
        (35500, 0),
        (36000, 1),
        (34500, 1),
        (35900, 1),
        (34000, 1),
        (33999, 0),
        (35999, 0),
    )
    for level, want in steps:
        occ.update(array("H", [level]), 0)
        assert occ.settled[0] == want, (level, occ.settled[0])


def test_noisy_analog_channel_near_a_threshold_does_not_flicker_the_count():
    rng = Rng(7)
    cal = Calibration.uniform(1, 30000, 40000)
    occ = _analog(cal)
    t = 0
    for _ in range(200 if support.IS_MICROPYTHON else 2000):
        t += TICK
        occ.update(array("H", [35000 + rng.randrange(-900, 900)]), t)  # noise inside the band
    assert occ.current_version == 0 and occ.settled[0] == 0


def test_viper_quantiser_matches_the_reference():
    rng = Rng(11)
    n = 40
    cal = Calibration(n)
    for ch in range(n):
        e = rng.randrange(20000, 40000)
        step = rng.choice((-1, 1)) * rng.randrange(2000, 8000)
        cal.set(ch, e, e + step, e + 2 * step if ch % 3 else None)
    table = cal.thresholds()
    a = bytearray(n)
    b = bytearray(n)
    for _ in range(50):
        levels = array("H", [rng.randrange(0, MAX_LEVEL + 1) for _ in range(n)])
        assert _quantise(levels, table, a, n) == _quantise_py(levels, table, b, n)
        assert a == b


def test_calibration_round_trips_through_json():
    cal = Calibration(3, min_gap=500, hysteresis_pct=30)
    cal.set(0, 30000, 38000, 43000)
    cal.set(1, 30000, 22000)
    cal.set(2, 100, 9000, 15000)
    again = Calibration.from_json(cal.to_json())
    assert [again.get(ch) for ch in range(3)] == [cal.get(ch) for ch in range(3)]
    assert again.min_gap == 500 and again.hysteresis_pct == 30
    assert list(again.thresholds()) == list(cal.thresholds())


def test_calibration_faults_name_each_channel():
    cal = Calibration(5, min_gap=1000)
    cal.set(0, 30000, 38000, 43000)  # fine
    cal.set(1, 30000, 30500)  # gap too small
    cal.set(2, 30000, 38000, 36000)  # not monotonic
    cal.set(3, 30000, 38000, 38600)  # second gap too small
    exc = support.raises(ConfigError, cal.validate)
    text = support.message_of(exc)
    assert "4 faulty channels" in text
    for phrase in ("channel 1: one magnet", "channel 2: levels not monotonic", "channel 3: two magnets",
                   "channel 4: not calibrated"):  # fmt: skip
        assert phrase in text, (phrase, text)
    assert "channel 0" not in text


def test_calibration_json_errors():
    for text, word in (
        ("{", "not valid JSON"),
        ('{"format": "other"}', "not a calibration"),
        ('{"format": "ludus-calibration", "version": 9, "channels": [[1, 2]]}', "version"),
        ('{"format": "ludus-calibration", "version": 1, "channels": []}', "channels"),
        ('{"format": "ludus-calibration", "version": 1, "channels": [[1]]}', "channel 0"),
        ('{"format": "ludus-calibration", "version": 1, "channels": [[0, 5000], [0, 70000]]}', "channel 1"),
        ('{"format": "ludus-calibration", "version": 1, "channels": [[0, 5000], [0, 10]]}', "channel 1"),
        # found by `ludus fuzz` (issue 10): null or text where a whole number belongs was a TypeError
        (
            '{"format": "ludus-calibration", "version": 1, "min_gap": null, "channels": [[0, 5000]]}',
            "min_gap",
        ),
        (
            '{"format": "ludus-calibration", "version": 1, "hysteresis_pct": "x", "channels": [[0, 5000]]}',
            "hysteresis",
        ),
        (
            '{"format": "ludus-calibration", "version": 1, "min_gap": 1e308, "channels": [[0, 5000]]}',
            "min_gap",
        ),
    ):
        exc = support.raises(ConfigError, Calibration.from_json, text)
        assert word in support.message_of(exc), (text, support.message_of(exc))


# ---- no allocation per tick --------------------------------------------------------------------------


def _no_alloc(fn, prepare=None):
    """Run fn with the heap locked (no object may be allocated), then again counting the bytes taken
    (MicroPython borrows large call frames from the heap when it is not locked): there must be none.
    prepare() runs before each run, outside the measurement."""
    import micropython

    if prepare:
        prepare()
    micropython.heap_lock()
    try:
        fn()
    finally:
        micropython.heap_unlock()
    if hasattr(micropython, "mem_total"):
        if prepare:
            prepare()
        before = micropython.mem_total()
        fn()
        used = micropython.mem_total() - before
        assert used == 0, "%d bytes allocated" % used


class _Rig:
    """Both kinds of board ticking together (a class, not a closure: MicroPython allocates when calling
    a closure over more than a handful of variables, which would spoil the heap_lock check)."""

    def __init__(self, n):
        self.digital = Occupancy(n)
        self.levels = bytearray(n)
        self.analog = Occupancy(n, analog=True, calibration=Calibration.uniform(n, 30000, 40000, 45000))
        self.alevels = array("H", [30000] * n)
        self.now = 0
        self.channel = 0

    def ticks(self, count):
        for _ in range(count):
            self.now += TICK
            self.digital.update(self.levels, self.now)
            self.analog.update(self.alevels, self.now)

    def toggle(self):
        ch = self.channel
        self.levels[ch] ^= 1
        self.alevels[ch] = 45500 if self.levels[ch] else 30000

    def idle(self):
        self.ticks(50)

    def settle(self):
        self.ticks(60)  # 300 ms: debounce, commit, settle time, publish

    def flicker(self):
        self.ticks(7)


def test_update_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return
    rig = _Rig(121)
    rig.ticks(5)
    idle = rig.idle
    _no_alloc(idle)
    for ch in (3, 50):  # a change: debounce, commit, settle, publish
        rig.channel = ch
        _no_alloc(rig.settle, rig.toggle)
        assert rig.digital.version == rig.analog.version > 1
    rig.channel = 9
    for _ in range(10):  # slow flicker: quarantine and hold
        _no_alloc(rig.flicker, rig.toggle)
    assert rig.digital.flickering[9] == 1


@support.cpython_only
def test_docs_examples_run():
    import os
    import re

    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "docs", "sensing.md")
    with open(path) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert blocks
    for i, block in enumerate(blocks):
        exec(compile(block, "docs/sensing.md example %d" % (i + 1), "exec"), {})


def test_calibration_is_loaded_only_when_asked_for():
    import sys

    from ludus import sensing

    assert sensing.Calibration is Calibration  # the old import path still works
    from ludus.sensing import Calibration as again

    assert again is Calibration
    assert "ludus.sensing.calibration" in sys.modules

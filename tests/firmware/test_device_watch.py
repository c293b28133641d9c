"""The loop between ticks (ludus.device, docs/firmware.md "Between ticks"): a digital board's sensors are
read again every SENSE_MS, and while a change is debounced and settles the loop ticks that often, so a
magnet moved is taken when its debounce and settle are over, not up to a tick or two later. Times are
the fake platform's board time, in ms. Runs on both runtimes."""

from device_bench import Bench
from ludus.device import SENSE_MS, TICK_MS

DEBOUNCE_SETTLE_MS = 30 + 200  # ludus.sensing.occupancy's defaults


class _Watch:
    # when the occupancy published a settled change, and when each tick ran, as the table sees it (the
    # bench's each_ms runs after every ms of board time)
    def __init__(self, b):
        self.b = b
        self.version = None
        self.changes = []
        self.ticks = None

    def __call__(self):
        occ = self.b.device.app.referee.occ
        if self.version is not None and occ.version != self.version:
            self.changes.append(self.b.platform.now)
        self.version = occ.version


def _bench():
    b = Bench()
    b.at(100, b.setup_checkers)
    watch = _Watch(b)
    each = b._each

    def every_ms(now):
        each(now)
        if b.device.app is not None:
            watch()

    b.platform.each_ms = every_ms
    return b, watch


def test_a_lifted_piece_is_taken_within_sense_ms_of_its_debounce_and_settle_whatever_the_tick():
    # a piece lifted and put back at every phase of the 20 ms tick: each change is published within
    # SENSE_MS (plus the ms the table sees it in) of the magnet moving plus debounce and settle; the
    # 20 ms tick alone took 10 to 50 ms more (the wait for the tick, the debounce rounded up to 40 ms)
    b, watch = _bench()
    moved = []
    t = 1000
    for phase in range(0, TICK_MS, 3):
        for count in (0, 1):
            at = t + phase

            def move(at=at, count=count):
                b.platform.put(b.cell("h7"), count)
                moved.append(b.platform.now)

            b.at(at, move)
            t += 600
    b.run(t + 500)
    changes = [c for c in watch.changes if c > moved[0]]  # (not the setup's)
    assert len(moved) == 14 and len(changes) == 14, (moved, changes)
    late = [changes[k] - moved[k] - DEBOUNCE_SETTLE_MS for k in range(14)]
    assert all(0 <= d <= SENSE_MS + 1 for d in late), late
    assert not b.events("refused") and not b.events("move")  # lifted and put back: no move


def test_at_rest_the_loop_ticks_every_20_ms_and_a_bounce_between_ticks_is_ignored():
    # nothing moving: one tick per TICK_MS (the probes between them are reads, not ticks); a 6 ms
    # bounce on one sensor, seen by a probe, wakes a tick and ends in the debounce: nothing published
    b, watch = _bench()
    counts = {}

    def count(name):
        counts[name] = b.device.stats["ticks"]

    b.at(1000, lambda: count("a"))
    b.at(2000, lambda: count("b"))
    b.at(2507, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(2513, lambda: b.platform.put(b.cell("h7"), 1))
    b.at(2600, lambda: count("c"))
    b.run(3500)
    assert 49 <= counts["b"] - counts["a"] <= 51, counts
    # the bounce: a tick at once, another SENSE_MS later (its reading back: the candidate dropped)
    assert 600 // TICK_MS + 1 <= counts["c"] - counts["b"] <= 600 // TICK_MS + 3, counts
    assert [c for c in watch.changes if c > b.start + 1000] == [], watch.changes
    assert not b.events("refused") and not b.events("move")


def _three_readings(app):
    # as the loop reads between two ticks at rest
    return app.touched() or app.touched() or app.touched()


def test_the_reading_between_ticks_allocates_nothing_and_sees_a_magnet_moved():
    # App.touched with the heap locked on MicroPython (a MemoryError if it allocates); its answer:
    # False at rest, True once a magnet moved (seen, but not yet taken: the next tick does that),
    # False again when it is back
    from support import IS_MICROPYTHON, locked

    b = Bench()
    b.at(100, b.setup_checkers)
    b.run(1500)
    app = b.device.app
    app.step(b.platform.now)  # (the last step's reading is the board as it stands)
    quiet = locked(_three_readings, app) if IS_MICROPYTHON else _three_readings(app)
    assert quiet is False
    b.platform.put(b.cell("h7"), 0)
    assert app.touched() is True and app.busy() is False
    b.platform.put(b.cell("h7"), 1)
    assert app.touched() is False


def test_no_collection_runs_while_a_change_is_taken_in():
    # A command 100 ms before a lift leaves the heap to collect 200 ms after it: in the middle of the
    # lift's debounce and settle. The collection waits until the board has settled (a collection in a
    # tick before the settle would make the lift's lights late by the collection's time).
    b, watch = _bench()
    seen = []  # (ms, the occupancy busy, collections so far), every ms

    def sample(now):
        if b.device.app is not None:
            seen.append((now, b.device.app.referee.occ.busy(), b.device.stats["gc"]))

    each = b.platform.each_ms

    def every_ms(now):
        each(now)
        sample(now)

    b.platform.each_ms = every_ms
    b.at(1900, lambda: b.send({"cmd": "hello", "id": 1}))
    b.at(2000, lambda: b.platform.put(b.cell("h7"), 0))
    b.run(3000)
    during = [k for k in range(1, len(seen)) if seen[k - 1][1] and seen[k][1] and seen[k][2] > seen[k - 1][2]]
    assert during == [], [seen[k] for k in during]
    lifted = [s for s in seen if s[0] >= b.start + 2000]
    assert lifted[0][1] or lifted[5][1]  # (the lift was being taken in ...)
    assert lifted[-1][2] > lifted[0][2]  # (... and the collection came once it was settled)

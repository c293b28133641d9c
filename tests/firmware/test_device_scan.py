"""Between ticks the loop reads a digital board's sensors every SCAN_MS (ludus.device, docs/firmware.md
"The tick"): a lifted piece is read within SCAN_MS, not at the next 20 ms tick, its tick comes at once,
and the settle time runs from that reading. Times are the fake platform's board time, in ms. Runs on
both runtimes."""

from device_bench import Bench
from ludus.device import SCAN_MS, TICK_MS
from support import cpython_only


def _watch(b):
    # (ms, the occupancy busy, the settled occupancy's version) whenever either changed. The bench's
    # hook runs at each ms before the loop's work of that ms, so a state is seen 1 ms after the tick
    # that made it.
    seen = []
    last = [None]
    each = b.platform.each_ms

    def every_ms(now):
        each(now)
        app = b.device.app
        if app is not None:
            occ = app.referee.occ
            state = (occ.busy(), occ.version)
            if state != last[0]:
                seen.append((now,) + state)
                last[0] = state

    b.platform.each_ms = every_ms
    return seen


def test_a_lifted_piece_is_read_within_a_scan_and_settles_from_that_reading():
    b = Bench()
    b.at(100, b.setup_checkers)
    seen = _watch(b)
    # lifts at three phases of the 20 ms tick, each put back once the board has settled
    lifts = (2003, 2611, 3217)
    for at in lifts:
        b.at(at, lambda: b.platform.put(b.cell("h7"), 0))
        b.at(at + 400, lambda: b.platform.put(b.cell("h7"), 1))
    b.run(4000)
    for at in lifts:
        lifted = b.start + at
        busy = [s for s in seen if s[0] >= lifted and s[1]]
        assert busy, seen
        read = busy[0][0] - 1  # the tick that first read the lift
        assert read - lifted <= SCAN_MS, (at, read - lifted, seen)
        # published 200 ms (the settle time) after that reading: the debounce lies inside it
        version = busy[0][2]
        published = [s for s in seen if s[0] > read and s[2] > version]
        assert published and published[0][0] - 1 - read == 200, (at, seen)


def test_a_settle_that_ends_between_ticks_gets_a_tick_of_its_own():
    # On a Pico the tick that first reads a change can begin a millisecond after the 20 ms grid it sets
    # (the reading, then the tick), so the settle's end falls 1 ms after a tick of the grid. Here the
    # reading's time is moved 7 ms later by hand: the change must be taken at its settle's end, not at
    # the next tick of the grid 13 ms after it.
    b = Bench()
    b.at(100, b.setup_checkers)
    seen = _watch(b)
    shifted = []

    def shift(now):
        occ = b.device.app.referee.occ
        if occ.unsettled and not shifted:
            occ.still_since_ms = (occ.still_since_ms + 7) & 0x3FFFFFFF
            shifted.append(occ.still_since_ms)

    each = b.platform.each_ms

    def every_ms(now):
        each(now)
        if b.device.app is not None and b.start is not None and now - b.start >= 2003:
            shift(now)

    b.platform.each_ms = every_ms
    b.at(2003, lambda: b.platform.put(b.cell("h7"), 0))
    b.run(2600)
    assert shifted, seen
    lifted = b.start + 2003
    busy = [s for s in seen if s[0] >= lifted and s[1]]
    version = busy[0][2]
    published = [s for s in seen if s[0] > lifted and s[2] > version]
    assert published, seen
    # the hook sees a state 1 ms after the tick that made it
    assert (published[0][0] - 1 - shifted[0]) & 0x3FFFFFFF == 200, (shifted, seen)


def test_no_readings_between_ticks_while_a_change_is_taken_in():
    # A still board is read at each tick and every SCAN_MS between; a board taking a change in is read
    # only at its ticks (a flickering sensor must not call for a tick every SCAN_MS)
    b = Bench()
    b.at(100, b.setup_checkers)
    counts = {}

    def count(name):
        counts[name] = b.platform.chain.latches

    b.at(1500, lambda: count("still from"))
    b.at(1900, lambda: count("still to"))
    b.at(1950, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1960, lambda: count("busy from"))
    b.at(2120, lambda: count("busy to"))
    b.run(2500)
    still = counts["still to"] - counts["still from"]
    busy = counts["busy to"] - counts["busy from"]
    per_tick = TICK_MS // SCAN_MS  # the tick's own reading and those between
    assert abs(still - 400 // TICK_MS * per_tick) <= per_tick, counts
    assert abs(busy - 160 // TICK_MS) <= 1, counts


@cpython_only
def test_a_board_with_analog_sensors_waits_for_its_ticks():
    # its levels differ a little at every reading: read between ticks, they would call for a tick each
    # time. (A Ludo board with analog sensors and this bench need more than the unix port's 160K with
    # the tests' own heap: it boots there with 600K. The check is App.moved(), the same code on both.)
    from calibrate_rig import board_path

    b = Bench(
        config='{"board": "ludo40", "game": "ludo/hebrew-40"}',
        paths={"boards/ludo40.json": board_path("ludo40", analog=True)},
    )
    b.run(500)
    app = b.device.app
    assert app is not None and app.peek is None
    b.platform.put(0, 1)
    assert not app.moved(600)


def test_readings_between_ticks_allocate_nothing():
    from support import IS_MICROPYTHON, locked

    b = Bench()
    b.at(100, b.setup_checkers)
    b.run(1500)
    app = b.device.app

    def readings(n):
        moved = 0
        for _ in range(n):
            moved += app.moved(2000)
        return moved

    b.platform.put(b.cell("h7"), 0)  # lifted: every reading differs from the last tick's
    assert (locked(readings, 50) if IS_MICROPYTHON else readings(50)) == 50
    b.platform.put(b.cell("h7"), 1)
    assert (locked(readings, 50) if IS_MICROPYTHON else readings(50)) == 0

"""The loop while a change is taken in (ludus.device, docs/firmware.md "The tick"): no journal erase and no
collection while a sensor's reading is in its debounce or the board has not settled, so the tick that takes
the change never waits behind one. Times are the fake platform's board time, in ms. Runs on both
runtimes."""

from device_bench import Bench


def _bench():
    b = Bench()
    b.at(100, b.setup_checkers)
    return b


def test_no_collection_runs_while_a_change_is_taken_in():
    # A command 20 ms before a lift leaves the heap to collect 40 ms after it (GC_AFTER_MS): in the
    # middle of the lift's debounce and settle. The collection waits until the board has settled (a
    # collection in a tick before the settle would make the lift's lights late by the collection's time).
    b = _bench()
    seen = []  # (ms, the occupancy busy, collections so far) whenever either changed (few: the heap is 160K)
    last = [None]
    each = b.platform.each_ms

    def every_ms(now):
        each(now)
        if b.device.app is not None:
            state = (b.device.app.referee.occ.busy(), b.device.stats["gc"])
            if state != last[0]:
                seen.append((now,) + state)
                last[0] = state

    b.platform.each_ms = every_ms
    b.at(1980, lambda: b.send({"cmd": "hello", "id": 1}))
    b.at(2000, lambda: b.platform.put(b.cell("h7"), 0))
    b.run(3000)
    # a collection counted in a ms whose ms before was busy too
    during = [s for k, s in enumerate(seen) if k and seen[k - 1][1] and s[1] and s[2] > seen[k - 1][2]]
    assert during == [], during
    lifted = b.start + 2000
    busy = [s[0] for s in seen if s[0] >= lifted and s[1]]
    assert busy and busy[0] - lifted <= 60, seen  # (the lift was being taken in ...)
    after = [s for s in seen if s[0] > busy[0] and not s[1]]
    assert after and after[-1][2] > after[0][2], seen  # (... and the collection came once it was settled)


def test_the_heap_a_collection_left_is_counted_in_a_later_tick():
    # gc.mem_free() walks the whole heap (a few ms on a Pico): never in the tick that collected, which
    # has spent its time on the collection. (On CPython mem_free() is -1: counted all the same.)
    b = _bench()
    seen = []  # (collections so far, free_low) at the end of every tick that changed either
    last = [None]
    each = b.platform.each_ms

    def every_ms(now):
        each(now)
        stats = b.device.stats
        state = (stats["gc"], stats["free_low"])
        if state != last[0]:
            seen.append(state)
            last[0] = state

    b.platform.each_ms = every_ms
    b.run(3000)
    collected = [k for k in range(1, len(seen)) if seen[k][0] > seen[k - 1][0]]
    assert collected, seen
    for k in collected:
        assert seen[k][1] == seen[k - 1][1], seen  # (the collection's tick left free_low alone ...)
    assert seen[-1][1] != 0, seen  # (... and a later one counted it)

"""The die button driver against a fake pin: debouncing, short and long presses, contact bounce, a noisy
line, a tap while the loop stalls, tick wrap-around, no allocation. Runs on both runtimes."""

import ludus.referee.states as states
import support
from ludus.hw.button import LONG_PRESS, NO_PRESS, SHORT_PRESS, Button
from ludus.hw.fake import FakePin


def _run(button, pin, levels):
    # levels: (ms, pin level) steps at 5 ms ticks; the events seen, with their times
    out = []
    now = 0
    for ms, level in levels:
        pin.value(level)
        end = now + ms
        while now < end:
            e = button.poll(now)
            if e:
                out.append((e, now))
            now += 5
    return out


def test_the_events_are_the_referees():
    assert (NO_PRESS, SHORT_PRESS, LONG_PRESS) == (states.NO_PRESS, states.SHORT_PRESS, states.LONG_PRESS)


def test_a_short_press_is_reported_on_release():
    pin = FakePin()
    events = _run(Button(pin), pin, [(100, 1), (200, 0), (200, 1)])
    assert [e for e, _ in events] == [SHORT_PRESS]
    assert 300 <= events[0][1] <= 330  # released at 300, debounced 20 ms later


def test_a_long_press_is_reported_while_held_and_its_release_says_nothing():
    pin = FakePin()
    events = _run(Button(pin), pin, [(100, 1), (1500, 0), (200, 1), (100, 1)])
    assert [e for e, _ in events] == [LONG_PRESS]
    assert 900 <= events[0][1] <= 930  # pressed at 100, held 800 ms


def test_contact_bounce_makes_one_press():
    pin = FakePin()
    bounce = [(5, 0), (5, 1), (5, 0), (5, 1), (5, 0)]
    events = _run(Button(pin), pin, [(100, 1)] + bounce + [(200, 0)] + bounce[:4] + [(5, 1), (200, 1)])
    assert [e for e, _ in events] == [SHORT_PRESS]


def test_a_noisy_line_shorter_than_the_debounce_makes_no_press():
    pin = FakePin()
    noise = [(5, 0), (10, 1)] * 40
    assert _run(Button(pin), pin, [(100, 1)] + noise + [(100, 1)]) == []


def test_an_edge_never_seen_held_for_the_debounce_time_is_no_press():
    # the loop held 70 ms (a flash erase) while the line went low and high again: a spike when the LEDs'
    # current stepped, or a tap nobody could tell from one. Either way no roll (before: a pin's latched
    # edge counted as a press, so noise could roll the die exactly when an erase stalled the loop)
    pin = FakePin()
    b = Button(pin)
    assert [b.poll(t) for t in (0, 20, 40)] == [NO_PRESS] * 3
    pin.value(0)
    pin.value(1)
    assert [b.poll(t) for t in (110, 130, 150)] == [NO_PRESS] * 3
    # seen low once, gone at the next reading (the loop held 45 ms between them): no press either
    for polls in ((500, 520, 540, 585, 605), (700, 720, 775, 795, 815)):
        seen = []
        for k in range(len(polls)):
            if k == 2:
                pin.value(0)  # (down from before the third reading until after it)
            if k == 3:
                pin.value(1)
            seen.append(b.poll(polls[k]))
        assert seen == [NO_PRESS] * 5, (polls, seen)
    # a press held through a stall and seen held after it is an ordinary press, reported once
    pin.value(0)
    events = [b.poll(t) for t in (900, 920, 940)]
    pin.value(1)
    events += [b.poll(t) for t in (960, 980, 1000)]
    assert [e for e in events if e] == [SHORT_PRESS]


def test_a_quick_tap_between_two_ticks_is_seen_by_the_samples_between_them():
    # ticks 20 ms apart, the pin sampled every 5 ms between them (ludus.app.App.moved): a 30 ms tap
    # that falls between two ticks and is held past the debounce is one press, reported at the tick
    pin = FakePin()
    b = Button(pin)
    events = []
    for t in range(0, 200, 5):
        pin.value(0 if 42 <= t < 72 else 1)
        if t % 20 == 0:
            events.append((b.poll(t), t))
        else:
            b.sample(t)
    assert [(e, t) for e, t in events if e] == [(SHORT_PRESS, 100)], events
    # ticks alone (no samples) see the same tap only now and then: it is the samples that catch it
    b = Button(pin)
    seen = []
    for t in range(0, 200, 20):
        pin.value(0 if 45 <= t < 75 else 1)
        seen.append(b.poll(t))
    assert SHORT_PRESS not in seen


def test_active_high_wiring():
    pin = FakePin(0)
    events = _run(Button(pin, active_low=False), pin, [(100, 0), (200, 1), (200, 0)])
    assert [e for e, _ in events] == [SHORT_PRESS]


def test_ticks_wrap_around():
    pin = FakePin()
    b = Button(pin)
    t = (1 << 30) - 100  # time.ticks_ms wraps at 2**30
    events = []
    for step in range(200):
        pin.value(0 if 20 <= step < 60 else 1)
        now = (t + 5 * step) & 0x3FFFFFFF
        e = b.poll(now)
        if e:
            events.append(e)
    assert events == [SHORT_PRESS]


def test_poll_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return  # heap_lock exists only on MicroPython
    import micropython

    pin = FakePin()
    b = Button(pin)
    for now in range(0, 100, 5):
        b.poll(now)
    micropython.heap_lock()
    try:
        for now in range(100, 2000, 5):
            if now == 500:
                pin.level = 0
            if now == 1600:
                pin.level = 1
            b.poll(now)
    finally:
        micropython.heap_unlock()
    assert not b.down

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


def test_a_tap_inside_a_stall_of_the_loop_is_still_a_press():
    # the loop held 70 ms (a flash erase) while a 60 ms tap came and went: the pin's latched edge
    pin = FakePin()
    b = Button(pin)
    assert [b.poll(t) for t in (0, 20, 40)] == [NO_PRESS] * 3
    pin.value(0)
    pin.value(1)
    assert b.poll(110) == SHORT_PRESS  # (the polls around the tap 70 ms apart)
    assert [b.poll(t) for t in (130, 150, 170)] == [NO_PRESS] * 3  # once
    # at the ordinary spacing the same edge is bounce (polling sees every real press there)
    pin.value(0)
    pin.value(1)
    assert [b.poll(t) for t in (190, 210, 230)] == [NO_PRESS] * 3
    # a press held through the stall and seen down after it is an ordinary press, reported once
    pin.value(0)
    events = [b.poll(t) for t in (300, 320, 340)]
    pin.value(1)
    events += [b.poll(t) for t in (360, 380, 400)]
    assert [e for e in events if e] == [SHORT_PRESS]

    # a press seen down by one poll and gone at the next, which the loop held 45 ms later (the
    # emulated Pico lost a 60 ms press so, at move 311 of a Ludo game): one press; and the same with
    # the stall before the poll that saw it
    for polls in ((500, 520, 540, 585, 605), (700, 720, 775, 795, 815)):
        seen = []
        for k in range(len(polls)):
            if k == 2:
                pin.value(0)  # (down from before the third poll until after it)
            if k == 3:
                pin.value(1)
            seen.append(b.poll(polls[k]))
        assert [e for e in seen if e] == [SHORT_PRESS], (polls, seen)
    # a glitch seen by one poll at the ordinary spacing is no press
    seen = []
    for t in (900, 920, 940, 960, 980):
        pin.value(0 if t == 940 else 1)
        seen.append(b.poll(t))
    assert seen == [NO_PRESS] * 5

    # a pin without irq() (polling alone): the tap inside the stall is lost, as before
    class Plain:
        level = 1

        def value(self):
            return self.level

    plain = Plain()
    b = Button(plain)
    b.poll(0)
    b.poll(20)
    assert b.poll(110) == NO_PRESS


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

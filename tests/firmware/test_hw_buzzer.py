"""The piezo driver against a fake PWM: a cue's notes in time, rests, a cue replaced, mute, wrap-around,
no allocation. Runs on both runtimes."""

import support
from ludus.hw.buzzer import ILLEGAL, REFUSED, YOUR_TURN, Buzzer
from ludus.hw.fake import FakePWM


def _heard(buzzer, pwm, start, ms):
    # the tone at every 5 ms tick from start, as (ms from start, Hz) changes
    out = []
    last = None
    for t in range(0, ms, 5):
        buzzer.tick((start + t) & 0x3FFFFFFF)
        now = pwm.sounding()
        if now != last:
            out.append((t, now))
            last = now
    return out


def test_a_cue_plays_its_notes_in_time():
    pwm = FakePWM()
    b = Buzzer(pwm)
    b.play(YOUR_TURN, 1000)
    assert pwm.sounding() == 660
    assert _heard(b, pwm, 1000, 400) == [(0, 660), (80, 880), (200, 0)]


def test_rests_are_silent():
    pwm = FakePWM()
    b = Buzzer(pwm)
    b.play(REFUSED, 0)
    assert _heard(b, pwm, 0, 300) == [(0, 440), (50, 0), (100, 440), (150, 0)]


def test_a_new_cue_replaces_the_one_sounding_and_mute_silences_all():
    pwm = FakePWM()
    b = Buzzer(pwm)
    b.play(ILLEGAL, 0)
    b.tick(50)
    b.play(YOUR_TURN, 50)
    assert pwm.sounding() == 660
    pwm2 = FakePWM()
    quiet = Buzzer(pwm2, muted=True)
    quiet.play(ILLEGAL, 0)
    assert _heard(quiet, pwm2, 0, 500) == [(0, 0)]


def test_ticks_wrap_around():
    pwm = FakePWM()
    b = Buzzer(pwm)
    start = (1 << 30) - 40
    b.play(YOUR_TURN, start)
    assert _heard(b, pwm, start, 300) == [(0, 660), (80, 880), (200, 0)]


def test_tick_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return  # heap_lock exists only on MicroPython
    import micropython

    pwm = FakePWM()
    b = Buzzer(pwm)
    b.play(ILLEGAL, 0)
    micropython.heap_lock()
    try:
        for t in range(0, 600, 5):
            b.tick(t)
    finally:
        micropython.heap_unlock()
    assert b.cue is None and pwm.sounding() == 0

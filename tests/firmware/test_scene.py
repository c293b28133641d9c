"""Light scene and palette: composition by priority, pattern phases, the die display, the current budget
and the colour-blind rule over the meaning table."""

from array import array

import ludus.light.palette as P
import ludus.light.scene as scene_module
import support
from ludus.board.places import DIE_FACES
from ludus.board.power import DEFAULT_BUDGET_MA, led_budget_ma
from ludus.errors import ConfigError
from ludus.light.scene import LightScene

BIG = 15000  # a budget these small scenes never reach


def grb_at(out, led):
    """(r, g, b) of an LED in a GRB frame."""
    j = 3 * led
    return out[j + 1], out[j], out[j + 2]


def frame(scene, now_ms):
    out = bytearray(3 * scene.led_count)
    scene.render(now_ms, out)
    return out


# ---- composition -------------------------------------------------------------------------------------


def test_higher_priority_wins_whatever_the_order():
    for first, second in ((P.DESTINATION, P.CAPTURE_VICTIM), (P.CAPTURE_VICTIM, P.DESTINATION)):
        s = LightScene(4, budget_ma=BIG)
        s.set(1, first)
        s.set(1, second)
        assert s.meaning_at(1) == P.CAPTURE_VICTIM
    s = LightScene(4, budget_ma=BIG)
    s.set(0, P.TURN, P.RED)
    assert s.set(0, P.TURN, P.BLUE)  # equal priority: the later call wins
    assert s.colour_at(0) == P.BLUE
    assert s.set(0, P.JUMP_PATH) and s.meaning_at(0) == P.JUMP_PATH
    assert not s.set(0, P.PLAYER, P.RED) and s.meaning_at(0) == P.JUMP_PATH


def test_mark_and_clear():
    s = LightScene(10, budget_ma=BIG)
    s.mark((2, 3, 4), P.DESTINATION)
    s.mark(range(4, 7), P.MISSING)  # missing (60) beats destination (40) on LED 4
    assert [s.meaning_at(i) for i in range(8)] == [0, 0, 5, 5, 9, 9, 9, 0]
    out = frame(s, 0)
    assert grb_at(out, 2) == (255, 255, 255) and grb_at(out, 0) == (0, 0, 0)
    s.clear()
    assert [s.meaning_at(i) for i in range(10)] == [0] * 10
    assert frame(s, 0) == bytearray(30)


def test_many_compositions_do_not_run_out_of_inks():
    s = LightScene(121, budget_ma=BIG)
    for round_ in range(30):
        s.clear()
        for led in range(121):
            s.set(led, (P.TURN, P.FINISHED, P.PLAYER)[led % 3], 1 + (led + round_) % (P.COLOUR_COUNT - 1))
    # and within one composition, overwritten inks are reused
    s.clear()
    for colour in range(1, P.COLOUR_COUNT):
        for meaning in (P.TURN, P.FINISHED, P.WINNER, P.PLAYER):
            for led in range(5):
                s.set(led, meaning, colour)
    assert s.colour_at(0) == P.COLOUR_COUNT - 1


def test_player_colours_are_required_and_fixed_colours_refused():
    s = LightScene(4)
    exc = support.raises(ConfigError, s.set, 0, P.TURN)
    assert "meaning %d needs a player's colour" % P.TURN in support.message_of(exc)
    exc = support.raises(ConfigError, s.set, 0, P.DESTINATION, P.RED)
    assert "meaning %d has its own colour" % P.DESTINATION in support.message_of(exc)
    s.set(0, P.DESTINATION, P.WHITE)  # its own colour is accepted
    for args in ((4, P.DESTINATION), (-1, P.DESTINATION), (0, P.MEANING_COUNT), (0, P.TURN, 99)):
        support.raises(ConfigError, s.set, *args)
    for bad in ({"led_count": 0}, {"budget_ma": 100}, {"ma_per_channel": 0}):
        kwargs = {"led_count": 121}
        kwargs.update(bad)
        support.raises(ConfigError, LightScene, **kwargs)
    support.raises(ConfigError, s.set_brightness, 256)


# ---- patterns ----------------------------------------------------------------------------------------


def test_blink_phases_at_given_times():
    s = LightScene(8, budget_ma=BIG)
    s.set(0, P.DESTINATION)  # solid
    s.set(1, P.MISSING)  # slow blink
    s.set(2, P.UNEXPECTED)  # fast blink
    s.set(3, P.CONFIRM)  # double flash
    s.set(4, P.MOVE_FROM)
    s.set(5, P.MOVE_TO)
    s.set(6, P.TURN, P.GREEN)  # pulse
    s.set(7, P.FINISHED, P.BLUE)  # wink

    def lit(now):
        out = frame(s, now)
        return [grb_at(out, i) != (0, 0, 0) for i in range(8)]

    #              solid slow  fast   double from   to     pulse wink
    assert lit(0) == [1, 1, 1, 1, 1, 0, 1, 1]
    assert lit(150) == [1, 1, 1, 0, 1, 0, 1, 1]
    assert lit(250) == [1, 1, 0, 1, 1, 0, 1, 1]
    assert lit(700) == [1, 0, 0, 0, 0, 1, 1, 1]
    assert lit(850) == [1, 0, 1, 0, 0, 1, 1, 1]
    assert lit(1050) == [1, 1, 0, 0, 0, 1, 1, 0]
    assert lit(1150) == [1, 1, 0, 0, 0, 0, 1, 0]
    # the pulse breathes: dim at 0, full at 1000 ms, dim again at 2000
    green = [grb_at(frame(s, t), 6)[1] for t in (0, 500, 1000, 1500, 2000)]
    assert green[0] < green[1] < green[2] == 255 and green[2] > green[3] > green[4] == green[0] > 0


def test_patterns_flash_at_most_three_times_a_second():
    for p in range(P.PATTERN_COUNT):
        rises = 0
        previous = P.pattern_level(p, 0)
        for t in range(1, 1001):
            level = P.pattern_level(p, t)
            if previous == 0 and level > 0:
                rises += 1
            previous = level
        assert rises <= 3, (p, rises)


def test_relay_pair_is_never_lit_together():
    for t in range(0, 1200, 10):
        assert not (P.pattern_level(P.RELAY_FROM, t) and P.pattern_level(P.RELAY_TO, t)), t


def test_brightness_scales_every_colour():
    s = LightScene(2, budget_ma=BIG, brightness=128)
    s.set(0, P.DESTINATION)
    s.set(1, P.MOVE_FROM)
    out = frame(s, 0)
    assert grb_at(out, 0) == (128, 128, 128)
    assert grb_at(out, 1) == (128, 170 * 128 // 255, 0)
    s.set_brightness(0)
    assert frame(s, 0) == bytearray(6)


# ---- die display -------------------------------------------------------------------------------------


def test_die_faces_on_seven_pips():
    pips = (10, 11, 12, 13, 14, 15, 16)
    s = LightScene(20, budget_ma=BIG)
    s.set_die_leds(pips)
    expected = {1: {13}, 2: {10, 16}, 3: {10, 13, 16}, 4: {10, 11, 15, 16}, 5: {10, 11, 13, 15, 16},
                6: {10, 11, 12, 14, 15, 16}}  # fmt: skip
    for value in range(1, 7):
        s.set_die(value)
        out = frame(s, 0)
        lit = set(led for led in range(20) if grb_at(out, led) != (0, 0, 0))
        assert lit == expected[value], (value, lit)
        assert bin(DIE_FACES[value]).count("1") == value


def test_die_bar_and_player_colour():
    s = LightScene(10, budget_ma=BIG)
    s.set_die_leds((4, 5, 6, 7, 8, 9))
    s.set_die(3, colour=P.BLUE)
    out = frame(s, 0)
    assert [grb_at(out, led) for led in range(4, 10)] == [(0, 40, 255)] * 3 + [(0, 0, 0)] * 3


def test_die_value_replaces_set_meanings_and_zero_gives_them_back():
    s = LightScene(7, budget_ma=BIG)
    s.set_die_leds(range(7))
    s.mark(range(7), P.TURN, P.RED)
    s.set_die(1)
    out = frame(s, 1000)  # pulse at full
    assert grb_at(out, 3) == (255, 255, 255) and grb_at(out, 0) == (0, 0, 0)
    s.set_die(0)
    out = frame(s, 1000)
    assert all(grb_at(out, led) == (255, 0, 0) for led in range(7))


def test_waiting_rolls_take_turns_with_a_dark_gap():
    s = LightScene(7, budget_ma=BIG)
    s.set_die_leds(range(7))
    s.set_die(6, waiting=(6, 2))

    def shown(now):
        out = frame(s, now)
        return sum(1 for led in range(7) if grb_at(out, led) != (0, 0, 0))

    assert [shown(t) for t in (0, 900, 1100, 1300, 2300, 2500)] == [6, 6, 0, 2, 0, 6]
    s.set_die(4, waiting=(4,))  # one waiting roll: just the value, steady
    assert [shown(t) for t in (0, 1100, 1300)] == [4, 4, 4]
    for bad in ((7,), (0, (9,)), (1, (1,) * 9)):
        support.raises(ConfigError, s.set_die, *bad)


# ---- current budget ----------------------------------------------------------------------------------


def _estimate(out, led_count, ma_per_channel, idle):
    return sum(out) * ma_per_channel / 255 + led_count * idle


def test_all_white_at_full_brightness_stays_within_budget():
    for budget in (DEFAULT_BUDGET_MA, 200, 1000, 122):
        s = LightScene(121, budget_ma=budget)
        s.set_die_leds(range(114, 121))
        s.mark(range(121), P.DESTINATION)
        s.set_die(6)
        out = frame(s, 0)
        real = _estimate(out, 121, 20, 1)
        assert real <= budget, (budget, real)
        assert s.last_current_ma <= budget
        # scaled down as little as 8-bit channels allow: one step more on every lit channel would break it
        lit = sum(1 for v in out if v)
        if budget >= 200:
            assert (sum(out) + lit) * 20 / 255 + 121 > budget, (budget, real)
        r, g, b = grb_at(out, 0)
        assert r == g == b and (r > 0 or budget < 200)  # one factor for all channels keeps white white


def test_frames_under_budget_are_not_scaled():
    s = LightScene(121)
    s.mark(range(5), P.DESTINATION)  # 5 x 60 mA + 121 idle = 421 < 423
    out = frame(s, 0)
    assert grb_at(out, 0) == (255, 255, 255)
    assert s.last_current_ma == 421


def test_every_frame_of_busy_scenes_stays_within_budget():
    rng = 12345
    cases = 6 if support.IS_MICROPYTHON else 40
    for case in range(cases):
        budget = 150 + case * 23
        s = LightScene(121, budget_ma=budget, ma_per_channel=20 - case % 5, idle_ma_per_led=1)
        s.set_die_leds(range(114, 121))
        for led in range(121):
            rng = (rng * 1103515245 + 12345) % 2147483648
            meaning = rng % P.MEANING_COUNT
            colour = 1 + rng // 7 % (P.COLOUR_COUNT - 1)
            s.set(led, meaning, colour if P.is_player_coloured(meaning) else 0)
        s.set_die(1 + case % 6, waiting=(3, 5) if case % 2 else ())
        s.set_brightness(255 - case * 5)
        for now in range(0, 2400, 50 if support.IS_MICROPYTHON else 10):
            out = frame(s, now)
            real = _estimate(out, 121, s.ma_per_channel, 1)
            assert real <= budget, (case, now, real, budget)
            assert abs(s.last_current_ma - real) < 1.01, (s.last_current_ma, real)


def test_default_budget_arithmetic():
    assert DEFAULT_BUDGET_MA == 500 - 25 - 2 - 50 == led_budget_ma()
    # 16 analog sensors (one multiplexer bank) powered at a time, 6 mA each
    assert led_budget_ma(sensor_count=16, sensor_ua=6000) == 500 - 25 - 96 - 50
    exc = support.raises(ConfigError, led_budget_ma, sensor_count=121, sensor_ua=6000)
    assert "121 sensors" in support.message_of(exc)


# ---- the colour-blind rule ---------------------------------------------------------------------------

# Vienot, Brettel & Mollon (1999) dichromat simulation in linear RGB (LED drive values are linear light).
PROTAN = ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0))
DEUTAN = ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0))
MIN_LUMINANCE_RATIO = 2.0


def _luminance(rgb, matrix=None):
    r, g, b = (c / 255 for c in rgb)
    if matrix:
        r, g, b = (m[0] * r + m[1] * g + m[2] * b for m in matrix)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _shown_colours(meaning):
    colour = P.MEANING_COLOUR[meaning]
    if colour == P.PLAYER_COLOUR:
        return list(range(1, P.COLOUR_COUNT))
    return [colour]


def _could_co_occur(a, b):
    domains, phases = P.MEANING_DOMAINS, P.MEANING_PHASES
    return bool(domains[a] & domains[b]) and bool(phases[a] & phases[b])


def _apart(ca, cb):
    """Told apart by luminance alone, for normal, protan and deutan vision."""
    for matrix in (None, PROTAN, DEUTAN):
        la = _luminance(P.rgb(ca), matrix)
        lb = _luminance(P.rgb(cb), matrix)
        if max(la, lb) < MIN_LUMINANCE_RATIO * min(la, lb):
            return False
    return True


def _red_green_pair(ca, cb):
    """One reddish (red, orange, yellow) and one greenish colour, neither with much blue: the pair a
    red-green colour-blind player confuses, whatever their luminance."""
    (ra, ga, ba), (rb, gb, bb) = P.rgb(ca), P.rgb(cb)
    if ba >= 128 or bb >= 128:
        return False
    return (ra > ga and gb > rb) or (ga > ra and rb > gb)


def test_meanings_shown_together_differ_in_pattern_or_luminance_never_hue_alone():
    faults = []
    for a in range(1, P.MEANING_COUNT):
        for b in range(a + 1, P.MEANING_COUNT):
            if not _could_co_occur(a, b):
                continue
            if P.MEANING_PATTERN[a] != P.MEANING_PATTERN[b]:
                continue
            for ca in _shown_colours(a):
                for cb in _shown_colours(b):
                    if _red_green_pair(ca, cb) or not _apart(ca, cb):
                        faults.append("meaning %d/colour %d vs %d/%d" % (a, ca, b, cb))
    assert not faults, faults


def test_the_rule_would_catch_red_against_green():
    for a, b in ((P.RED, P.GREEN), (P.GREEN, P.YELLOW)):
        assert _red_green_pair(a, b) and _red_green_pair(b, a)
    for a, b in ((P.WHITE, P.RED), (P.BLUE, P.YELLOW), (P.PURPLE, P.GREEN), (P.RED, P.YELLOW)):
        assert not _red_green_pair(a, b)
    assert not _apart(P.RED, P.PURPLE) and not _apart(P.GREEN, P.YELLOW)
    assert _apart(P.WHITE, P.RED) and _apart(P.YELLOW, P.BLUE)


def test_every_meaning_has_colour_pattern_and_priority():
    tables = (P.MEANING_COLOUR, P.MEANING_PATTERN, P.MEANING_PRIORITY, P.MEANING_DOMAINS, P.MEANING_PHASES)
    for table in tables:
        assert len(table) == P.MEANING_COUNT
    for m in range(1, P.MEANING_COUNT):
        assert 0 <= P.MEANING_COLOUR[m] < P.COLOUR_COUNT and 0 <= P.MEANING_PATTERN[m] < P.PATTERN_COUNT, m
        assert P.MEANING_PRIORITY[m] > 0 and P.MEANING_DOMAINS[m] and P.MEANING_PHASES[m], m
    assert len(P.PATTERN_PERIOD_MS) == P.PATTERN_COUNT
    assert len(P.COLOUR_RGB) == 3 * P.COLOUR_COUNT


def test_player_colour_tables():
    assert [P.ludo_colour(s) for s in range(4)] == [P.GREEN, P.YELLOW, P.RED, P.BLUE]
    assert len(set(P.CHECKERS_POINT_COLOURS)) == 6
    for point in range(3):  # two-player games use opposite points: told apart by luminance too
        assert _apart(P.checkers_colour(point), P.checkers_colour(point + 3)), point


# The scene's ink buffer (its private consts, which MicroPython does not keep as module attributes).
LAYOUT = {"_GRB": 8, "_SPEC": 200, "_INKS": 456, "_BRIGHT": 457, "_FACE": 458, "_DIE_VALUE": 459,
          "_WAITING_COUNT": 460, "_WAITING": 461, "_DIE_COUNT": 469, "_FACES": 470, "_LEDS": 477,
          "_BUDGET": 479, "_IDLE": 481, "_PER_CHANNEL": 483, "_BUF": 488}  # fmt: skip


@support.cpython_only
def test_ink_buffer_layout():
    m = scene_module
    for name, at in LAYOUT.items():
        assert getattr(m, name) == at, name
    assert m._SPEC == m._GRB + 3 * m._MAX_INKS and m._INKS == m._SPEC + 4 * m._MAX_INKS


def _random(rng, top):
    rng = (rng * 1103515245 + 12345) % 2147483648
    return rng, (rng >> 8) % top


def _random_buffer(rng, leds, budget, per, idle):
    L = LAYOUT
    buf = bytearray(L["_BUF"])
    for i in range(L["_GRB"], L["_INKS"]):
        rng, buf[i] = _random(rng, 256)
    for k in range(64):
        rng, buf[L["_SPEC"] + 4 * k + 3] = _random(rng, P.PATTERN_COUNT)
    buf[L["_SPEC"] : L["_SPEC"] + 4] = bytes(4)  # ink 0 is dark
    rng, inks = _random(rng, 63)
    buf[L["_INKS"]] = 2 + inks
    rng, buf[L["_BRIGHT"]] = _random(rng, 256)
    for name, value in (("_LEDS", leds), ("_BUDGET", budget), ("_IDLE", idle), ("_PER_CHANNEL", per)):
        at = L[name]
        buf[at] = value & 255
        buf[at + 1] = value >> 8
    buf[L["_FACES"] : L["_FACES"] + 7] = DIE_FACES
    return rng, buf


def test_native_kernel_matches_the_reference():
    # On MicroPython the frame loop is viper code; it must agree with the Python reference byte for byte.
    m = scene_module
    L = LAYOUT
    rng = 99
    for case in range(60):
        # 101 LEDs (not a whole number of words), padded with dark ones; sparse and busy frames, a die of
        # 7 pips or a bar, a face or the waiting rolls, budgets that scale the frame or do not
        rng, buf = _random_buffer(rng, 101, 150 + case * 40, 20 - case % 3, 101)
        inks = bytearray(104)
        for i in range(101):
            rng, k = _random(rng, buf[L["_INKS"]])
            inks[i] = k if case % 2 or i % 9 == 0 else 0
        if case % 5 == 0:  # not word-aligned: every LED copied
            inks = memoryview(bytearray(1) + inks)[1:]
        dice = array("H", [(i * 13 + case) % 101 for i in range(7 - case % 3)])
        buf[L["_DIE_COUNT"]] = len(dice)
        rng, face = _random(rng, 128)
        buf[L["_FACE"]] = (0, face, 255)[case % 3]
        buf[L["_WAITING_COUNT"]] = 2 + case % 3
        for i in range(4):
            rng, v = _random(rng, 6)
            buf[L["_WAITING"] + i] = 1 + v
        rng, now = _random(rng, 5000)
        out1, out2 = bytearray(304), bytearray(304)
        if case % 4 == 0:
            out1, out2 = memoryview(out1)[1:], memoryview(out2)[1:]
        buf2 = bytearray(buf)
        assert m._render(out1, buf, inks, dice, now) == m._render_py(out2, buf2, inks, dice, now), case
        assert out1 == out2 and buf == buf2, case
        levels = [P.pattern_level(p, now) * (buf[L["_BRIGHT"]] + 1) >> 8 for p in range(8)]
        assert list(buf[:8]) == levels, case
    for bright in (255, 128, 0):  # every pattern level over time
        rng, buf = _random_buffer(rng, 4, 1000, 20, 4)
        buf[L["_BRIGHT"]] = bright
        for now in range(0, 4800, 10 if support.IS_MICROPYTHON else 1):
            m._render(bytearray(12), buf, bytearray(4), array("H"), now)
            assert list(buf[:8]) == [P.pattern_level(p, now) * (bright + 1) >> 8 for p in range(8)], now


# ---- no allocation per frame -------------------------------------------------------------------------


class _Frames:
    def __init__(self, scene):
        self.scene = scene
        self.out = bytearray(3 * scene.led_count)

    def run(self):
        for now in range(0, 5000, 17):
            self.scene.render(now, self.out)


def test_render_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return
    import micropython

    s = LightScene(121)
    s.set_die_leds(range(114, 121))
    s.mark(range(0, 60), P.DESTINATION)
    s.mark(range(50, 70), P.MISSING)
    s.set(80, P.TURN, P.GREEN)
    s.set(81, P.CAPTURE_VICTIM)
    s.set_die(5, waiting=(5, 2))
    frames = _Frames(s)
    run = frames.run
    micropython.heap_lock()
    try:
        run()
    finally:
        micropython.heap_unlock()
    assert s.last_current_ma <= s.budget_ma
    if hasattr(micropython, "mem_total"):  # nor any transient heap use (large frames borrow the heap)
        before = micropython.mem_total()
        run()
        used = micropython.mem_total() - before
        assert used == 0, "%d bytes allocated" % used


@support.cpython_only
def test_docs_examples_run():
    import os
    import re

    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "docs", "lights.md")
    with open(path) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert blocks
    for i, block in enumerate(blocks):
        exec(compile(block, "docs/lights.md example %d" % (i + 1), "exec"), {})

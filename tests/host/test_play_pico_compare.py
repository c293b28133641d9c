"""How `ludus play --pico` compares the emulated Pico's run with its own (ludus_host.commands.play.compare),
on runs made up here: the same lights in each span between events agree whatever the blink's phase;
a cell lit on one side only, a cell in another colour, or another event, is a difference."""

from ludus_host.commands.play import compare
from ludus_host.virtual.board import load_board

BOARD = load_board("checkers")
LED = {BOARD.cell_ids[i]: BOARD.led_of_cell[i] for i in range(BOARD.cell_count)}


def _grb(lit, level=255):
    frame = bytearray(3 * BOARD.led_count)
    for cell, rgb in lit.items():
        led = LED[cell]
        frame[3 * led : 3 * led + 3] = bytes(
            (rgb[1] * level // 255, rgb[0] * level // 255, rgb[2] * level // 255)
        )
    return frame.hex()


WHITE, RED = (255, 255, 255), (255, 0, 0)
EVENTS = [{"event": "move", "seat": 0, "move": "h7-h16"}, {"event": "move", "seat": 1, "move": "h112-h104"}]


def _here(first_lit):
    # ludus play's items: an event, then its frame (the scene's lights, the bytes at that instant)
    return [
        dict(EVENTS[0], t=1000),
        {"t": 1000, "lights": [["h7", "destination"]], "grb": _grb(first_lit)},
        dict(EVENTS[1], t=2000),
        {"t": 2000, "lights": [["h29", "illegal"]], "grb": _grb({"h29": RED})},
    ]


def _report(frames, events=EVENTS):
    return {
        "events": [dict(events[0], ms=1010), dict(events[1], ms=2015)],
        "frames": frames,
        "restarts": [],
        "latches": 0,
        "emulated_ms": 3000,
    }


def test_the_same_lights_agree_whatever_the_phase_of_a_blink():
    # this run caught h7 dark (blinking); the board shows it on and off at its own moments
    frames = [(1020, _grb({"h7": WHITE})), (1400, _grb({})), (1800, _grb({"h7": WHITE}, 40))]
    frames.append((2030, _grb({"h29": RED})))
    result = compare(_here({}), _report(frames), BOARD)
    assert result["events_equal"] and result["frames_equal"] and result["spans_compared"] == 2


def test_a_cell_lit_on_one_side_only_or_in_another_colour_is_a_difference():
    extra = [(1020, _grb({"h7": WHITE, "h8": WHITE})), (2030, _grb({"h29": RED}))]
    result = compare(_here({"h7": WHITE}), _report(extra), BOARD)
    assert not result["frames_equal"]
    assert result["first_difference_in_lights"]["pico"] == ["h7:7", "h8:7"]
    colour = [(1020, _grb({"h7": WHITE})), (2030, _grb({"h29": WHITE}))]
    result = compare(_here({"h7": WHITE}), _report(colour), BOARD)
    assert not result["frames_equal"] and result["first_difference_in_lights"]["after_event"] == 1


def test_another_event_is_a_difference_named():
    other = [
        {"event": "move", "seat": 0, "move": "h7-h16"},
        {"event": "move", "seat": 1, "move": "h111-h103"},
    ]
    result = compare(_here({"h7": WHITE}), _report([(1020, _grb({"h7": WHITE}))], other), BOARD)
    assert not result["events_equal"] and result["first_difference"]["index"] == 1


def test_a_steady_light_must_be_on_the_board_a_blinking_one_may_be_caught_dark():
    # h7 is a destination (steady), h29 illegal (blinking): the board shows neither in the first span
    here = _here({"h7": WHITE})
    here[3]["lights"] = [["h29", "illegal"]]
    missing = [(1020, _grb({})), (2030, _grb({}))]
    result = compare(here, _report(missing), BOARD)
    assert not result["frames_equal"] and result["first_difference_in_lights"]["after_event"] == 0
    blink_dark = [(1020, _grb({"h7": WHITE})), (2030, _grb({}))]  # h29 dark all through its span
    assert compare(here, _report(blink_dark), BOARD)["frames_equal"]

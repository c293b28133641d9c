"""The calibration wizard (ludus.calibrate) against a simulated Ludo 40 board wired otherwise than its
drawing, with a person who puts magnets where it lights: it must recover the true wiring or name each
fault, and the device must take the map it writes. Runs on both runtimes (tests/firmware/calibrate_rig.py)."""

import json

from calibrate_rig import ANALOG_EMPTY, ANALOG_STEP, Person, Port
from calibrate_rig import Table as _Table
from ludus.calibrate import Wizard
from support import IS_MICROPYTHON, cpython_only

GROW_NAMES = True


def Table(**options):
    # the whole device on CPython; on MicroPython its drivers alone (calibrate_rig.BareBoard)
    options.setdefault("device", not IS_MICROPYTHON)
    return _Table(**options)


PROGRESS = "/tmp/ludus-calibrate-progress.json"


def calibrate(table, person=None, progress=None):
    person = person or Person(table)

    def save(p):  # as ludus calibrate keeps it: a file, written as it goes (json.dump streams it)
        with open(PROGRESS, "w") as f:
            json.dump(p, f)

    wizard = Wizard(table.board, Port(table), person, progress=progress, save=save)
    return wizard.run(), person


def learnt(result):
    cells = result["wiring"]["cells"]
    return dict([(c, cells[c][0]) for c in cells]), dict([(c, cells[c][1]) for c in cells])


def test_a_board_wired_as_drawn_is_learnt_as_drawn_without_a_question():
    t = Table()
    result, person = calibrate(t)
    channels, leds = learnt(result)
    assert channels == t.true_channel and leds == t.true_led
    assert result["faults"] == [] and result["notes"] == [] and person.asked == []
    lights = result["wiring"]["indicators"]
    assert lights["turn"] == list(t.board.turn_leds) and lights["die-pip"] == list(t.board.die_pip_leds)


def test_swapped_sensor_lines_are_found_and_named():
    t = Table(swap=[("t3", "t17")])
    result, person = calibrate(t)
    channels, leds = learnt(result)
    assert channels == t.true_channel and leds == t.true_led
    assert channels["t3"] == t.board.channel_of_cell[t.ids.index("t17")]
    assert any("t3" in n and "t17" in n and "swapped" in n for n in result["notes"]), result["notes"]
    assert len(person.asked) == 2 and result["faults"] == []  # each cell that disagrees with the drawing


def test_a_reversed_led_chain_is_learnt_after_two_answers():
    t = Table(reverse_leds=True)
    result, person = calibrate(t)
    channels, leds = learnt(result)
    assert channels == t.true_channel and leds == t.true_led
    lights = result["wiring"]["indicators"]
    assert lights["die-pip"] == [t.lights["die-pip %d" % k] for k in range(7)]
    assert lights["turn"] == [t.lights["turn %d" % k] for k in range(4)]
    assert any("other way round" in n for n in result["notes"]), result["notes"]
    assert len(person.asked) == 2  # two cells asked, the rest follow the pattern, the lights too


def test_a_dead_sensor_is_named_and_its_channel_still_placed():
    t = Table(dead=["t12"])
    result, _ = calibrate(t)
    channels, leds = learnt(result)
    assert channels == t.true_channel and leds == t.true_led
    assert [f for f in result["faults"] if "dead sensor" in f and "t12" in f], result["faults"]
    assert len(result["faults"]) == 1


def test_a_stuck_sensor_is_named_with_its_cell():
    t = Table(stuck=["green.c2"])
    result, person = calibrate(t)
    channels, _ = learnt(result)
    assert channels == t.true_channel
    ch = t.true_channel["green.c2"]
    assert result["faults"] == ["stuck sensor: channel %d (green.c2) reads a magnet with none there" % ch]
    assert any("reads a magnet with none there" in s for s in person.said)


def test_a_dark_led_is_skipped_and_named():
    t = Table(dark=[5])
    result, _ = calibrate(t)
    _, leds = learnt(result)
    assert leds == t.true_led  # the one dark LED left over is the cell's that lacked one
    assert result["faults"] == ["dark LED: LED 5 (%s) gives no light" % t.at_led[5]]


def test_a_chain_dark_from_one_led_on_is_named_as_broken_there():
    n = 86  # (ludo40's LEDs)
    t = Table(dark=list(range(n - 4, n)))
    result, _ = calibrate(t)
    broken = [f for f in result["faults"] if "goes dark from LED %d" % (n - 4) in f]
    assert broken and len(result["faults"]) == 1, result["faults"]


@cpython_only
def test_a_board_of_analog_sensors_has_its_levels_recorded_a_noisy_cell_and_a_weak_one_named():
    # (CPython only: the wizard is a laptop's tool that `ludus flash` leaves off the board, and the
    # 160K heap the unix port runs the tests in is the board's budget; there the analog run's readings
    # left no 1.7 KB in one piece for the calibration's text)
    t = Table(analog=True, noisy="t7", weak="t20")
    result, _ = calibrate(t)
    channels, leds = learnt(result)
    assert leds == t.true_led and channels["t20"] == t.true_channel["t20"]
    faults = result["faults"]
    assert [f for f in faults if f.startswith("noisy sensor") and "t7" in f], faults
    assert [f for f in faults if f.startswith("outlier: t20")], faults
    rows = dict([(r[0], r) for r in result["levels"]])
    assert rows["t1"][2:5] == [ANALOG_EMPTY, ANALOG_EMPTY + ANALOG_STEP, ANALOG_EMPTY + 2 * ANALOG_STEP]
    assert "outlier" in rows["t20"][5] and "noisy" in rows["t7"][5]
    from ludus.sensing.calibration import Calibration

    cal = Calibration.from_json(result["calibration"])  # loads: the faulty cells given nominal levels
    assert cal.get(t.true_channel["t1"]) == (
        ANALOG_EMPTY,
        ANALOG_EMPTY + ANALOG_STEP,
        ANALOG_EMPTY + 2 * ANALOG_STEP,
    )


def _send_file(table, name, text):
    port = Port(table)
    parts = [text[i : i + 600] for i in range(0, len(text), 600)]
    reply = None
    for k, part in enumerate(parts):
        reply = port.ask("file", name=name, text=part, part=k, more=k < len(parts) - 1)
    return reply


@cpython_only
def test_the_device_takes_the_map_and_sees_and_lights_each_cell_where_it_is():
    t = Table(swap=[("t3", "t17")], reverse_leds=True)
    result, _ = calibrate(t)
    assert learnt(result) == (t.true_channel, t.true_led)
    reply = _send_file(t, "wiring.json", json.dumps(result["wiring"]))
    assert reply["restart"] and "wiring.json" in t.files
    board = t.device.board  # booted again, with the map laid over the definition
    for i in range(board.cell_count):
        cell = board.cell_id(i)
        assert board.channel_of_cell[i] == t.true_channel[cell] and board.led_of_cell[i] == t.true_led[cell]
        assert board.cell_of_channel[t.true_channel[cell]] == i
    assert list(board.die_pip_leds) == [t.lights["die-pip %d" % k] for k in range(7)]


@cpython_only
def test_a_wiring_map_that_does_not_fit_is_refused_and_a_bad_file_on_the_board_is_reported():
    from ludus.calibrate import CalibrationError
    from support import raises

    t = Table()
    wiring = {
        "format": "ludus-wiring",
        "version": 1,
        "board": "ludo40",
        "cells": {"t0": [5, 999], "t99": [1, 1]},
    }
    exc = raises(CalibrationError, _send_file, t, "wiring.json", json.dumps(wiring))
    assert "LED 999 is not 0..85" in str(exc) and "no cell 't99'" in str(exc) and "wiring.json" not in t.files
    t = Table(
        files={
            "wiring.json": json.dumps(dict(wiring, cells={"t0": [0, 0]})),
        }
    )
    faults = [json.loads(x) for x in t.lines if '"fault"' in x]
    assert [
        f for f in faults if f["where"] == "wiring" and "channel 0 is given to two cells" in f["error"]
    ], faults
    assert t.device.board.channel_of_cell[0] == t.true_channel["t0"]  # the definition's wiring kept


def test_an_interrupted_run_resumes_where_it_stopped():
    t = Table(swap=[("t3", "t17")])
    try:
        calibrate(t, Person(t, stop_after=30))
        raise AssertionError("the person walked away: the run should have stopped")
    except KeyboardInterrupt:
        pass
    with open(PROGRESS) as f:
        progress = json.load(f)
    assert progress["next"] == 30 and len(progress["cells"]) == 30
    result, person = calibrate(t, progress=progress)
    channels, leds = learnt(result)
    assert channels == t.true_channel and leds == t.true_led
    assert person.steps == t.board.led_count - 30  # the LEDs done before were not asked again


def test_every_fault_at_once_on_one_board():
    # crossed lines, the chain wired from its far end, a dead and a stuck sensor and a dark LED
    t = Table(swap=[("t3", "t17")], reverse_leds=True, dead=["t25"], stuck=["red.c1"], dark=[40])
    result, person = calibrate(t)
    channels, leds = learnt(result)
    assert channels == t.true_channel and leds == t.true_led
    faults = result["faults"]
    assert [f for f in faults if f.startswith("dead sensor: t25")], faults
    assert [f for f in faults if f.startswith("stuck sensor") and "(red.c1)" in f], faults
    assert [f for f in faults if f.startswith("dark LED: LED 40 (%s)" % t.at_led[40])], faults
    assert len(faults) == 3 and len(person.asked) <= 6, (faults, person.asked)

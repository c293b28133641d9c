"""The wiring map: which sensor channel and which LED each cell of a board really has, as `ludus
calibrate` learnt it, laid over the board definition so that the order the maker soldered things in
does not matter (docs/calibration.md). The device reads it from wiring.json at boot; the simulator and
the emulator take it with --wiring.

    notes = apply(board, text)     # the board's tables rewired; the faults the wizard found, as text
    check(board, text)             # the same checks, nothing changed

A map that does not fit the board raises BoardDefinitionError naming every fault, and the board keeps
the definition's wiring. The format, version 1:

    {"format": "ludus-wiring", "version": 1, "board": "ludo40",
     "cells": {"t0": [20, 20], ...},                  # cell id: [sensor channel, LED index]
     "indicators": {"turn": [72, ...], "die-pip": [...], "die-waiting": [...]},
     "faults": ["the sensor of t5 stays on with no magnet: stuck", ...]}

Cells and indicator groups left out keep the definition's numbers; after the map is laid over them every
channel and every LED must still be used once."""

import json

from ludus.errors import BoardDefinitionError

FORMAT = "ludus-wiring"
VERSION = 1
_GROUPS = (("turn", "turn_leds"), ("die-pip", "die_pip_leds"), ("die-waiting", "waiting_leds"))


def _number(value, top):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < top


def _read(board, text):
    # (the new channel and LED tables, the indicator tables, the notes), or BoardDefinitionError
    from ludus.scan import repeated_key

    try:
        key = repeated_key(text)
        data = json.loads(text)
    except ValueError as exc:
        raise BoardDefinitionError("the wiring map is not JSON: %s" % (exc,)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BoardDefinitionError('not a wiring map: expected "format": "%s"' % FORMAT)
    faults = []
    if key is not None:
        faults.append("key %r appears twice in one object" % (key,))
    if data.get("version") != VERSION:
        faults.append("version %r not supported (want %d)" % (data.get("version"), VERSION))
    if data.get("board") != board.game and data.get("board") != board.name:
        faults.append("it is for board %r, this board is %r" % (data.get("board"), board.game))
    cells = data.get("cells", {})
    groups = data.get("indicators", {})
    notes = data.get("faults", [])
    if not isinstance(cells, dict) or not isinstance(groups, dict):
        faults.append('"cells" and "indicators" must be objects')
        cells, groups = {}, {}
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        faults.append('"faults" must be a list of texts')
        notes = []
    channels = board.channel_of_cell[:]
    leds = board.led_of_cell[:]
    index = {}
    for i in range(board.cell_count):
        index[board.cell_id(i)] = i
    for cell_id, pair in cells.items():
        at = index.get(cell_id)
        if at is None:
            faults.append("no cell %r on this board" % (cell_id,))
        elif not isinstance(pair, list) or len(pair) != 2:
            faults.append("cell %s: expected [channel, led], got %r" % (cell_id, pair))
        elif not _number(pair[0], board.channel_count):
            faults.append("cell %s: channel %r is not 0..%d" % (cell_id, pair[0], board.channel_count - 1))
        elif not _number(pair[1], board.led_count):
            faults.append("cell %s: LED %r is not 0..%d" % (cell_id, pair[1], board.led_count - 1))
        else:
            channels[at] = pair[0]
            leds[at] = pair[1]
    tables = []
    for group, attr in _GROUPS:
        table = getattr(board, attr)[:]
        given = groups.get(group)
        if given is not None:
            if not isinstance(given, list) or len(given) != len(table):
                faults.append("indicators %s: expected a list of %d LEDs" % (group, len(table)))
            else:
                for k, led in enumerate(given):
                    if _number(led, board.led_count):
                        table[k] = led
                    else:
                        faults.append(
                            "indicators %s: LED %r is not 0..%d" % (group, led, board.led_count - 1)
                        )
        tables.append(table)
    for unknown in groups:
        if unknown not in ("turn", "die-pip", "die-waiting"):
            faults.append("no indicator group %r (turn, die-pip, die-waiting)" % (unknown,))
    seen = bytearray(board.channel_count)
    for i in range(board.cell_count):
        if seen[channels[i]]:
            faults.append("channel %d is given to two cells" % channels[i])
        seen[channels[i]] = 1
    seen = bytearray(board.led_count)
    for table in [leds] + tables:
        for led in table:
            if seen[led]:
                faults.append("LED %d is given twice" % led)
            seen[led] = 1
    if faults:
        raise BoardDefinitionError("wiring map refused, nothing changed:\n" + "\n".join(faults))
    return channels, leds, tables, notes


def check(board, text):
    """The notes of a wiring map that fits BOARD; BoardDefinitionError naming every fault otherwise."""
    return _read(board, text)[3]


def apply(board, text):
    """Lay the wiring map over BOARD's tables (in place) and return its notes (the faults the wizard
    found, one line each, for the device to report)."""
    channels, leds, tables, notes = _read(board, text)
    board.channel_of_cell = channels
    board.led_of_cell = leds
    for (_group, attr), table in zip(_GROUPS, tables):
        setattr(board, attr, table)
    owner = board.cell_of_channel
    for ch in range(len(owner)):
        owner[ch] = 0xFFFF  # (NO_CELL: a channel no cell uses)
    for i in range(board.cell_count):
        owner[channels[i]] = i
    return notes

"""The wiring map's case (see bench/README.md and docs/calibration.md): what laying `ludus calibrate`'s
wiring.json over a board costs at boot, for the largest board (Chinese Checkers, 121 cells, 127 LEDs)
with every cell and LED moved (the LED chain wired from its far end): the JSON parsed and checked, the
tables rebuilt."""

import json

from ludus.board.definition import BoardDefinition
from ludus.board.wiring import apply


def _here():
    try:
        return __file__.rsplit("/", 1)[0]
    except (AttributeError, NameError):  # (frozen or run from the Pico's root)
        return "."


def _reversed_map():
    board = BoardDefinition.load(_here() + "/../hardware/boards/checkers.json")
    last = board.led_count - 1
    cells = {}
    for i in range(board.cell_count):
        cells[board.cell_id(i)] = [board.channel_of_cell[i], last - board.led_of_cell[i]]
    text = json.dumps(
        {
            "format": "ludus-wiring",
            "version": 1,
            "board": board.game,
            "cells": cells,
            "indicators": {"turn": [last - led for led in board.turn_leds]},
            "faults": [],
        }
    )
    drawn = (board.led_of_cell[:], board.turn_leds[:])

    def work():
        board.led_of_cell, board.turn_leds = drawn[0][:], drawn[1][:]  # (as drawn again each time)
        return len(apply(board, text))

    return work


CASES = [
    ("wiring.apply", _reversed_map, 5),
]

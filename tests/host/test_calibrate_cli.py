"""`ludus calibrate` itself, end to end: the wizard at a terminal (its prompts answered on its standard
input) against a mis-wired Ludo 40 board with its firmware in another process (tests/host/
calibrate_board.py, over an exec: port as over a serial one). It writes the wiring map, sends it to the
board, which boots with it; stopped half way with q, the next run goes on from where it stopped."""

import json
import os
import subprocess
import sys

from tools import ROOT

BOARD = os.path.join(ROOT, "tests", "host", "calibrate_board.py")


def _run(tmp_path, *board_args, extra=()):
    fifo = str(tmp_path / "words")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    keep = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # (so the wizard never reads an end of input)
    os.set_blocking(reader, True)
    os.write(keep, b"\n")  # Enter: "take every piece off the board"
    port = "exec:%s %s --words %s --files %s %s" % (
        sys.executable,
        BOARD,
        fifo,
        tmp_path / "board-files.json",
        " ".join(board_args),
    )
    cmd = [os.path.join(os.path.dirname(sys.executable), "ludus"), "calibrate", port, "--out", str(tmp_path)]
    try:
        proc = subprocess.run(
            cmd + list(extra), stdin=reader, capture_output=True, text=True, timeout=300, cwd=ROOT
        )
    finally:
        os.close(reader)
        os.close(keep)
    return proc


def test_the_wizard_at_a_terminal_learns_the_board_names_its_faults_and_installs_the_map(tmp_path):
    proc = _run(tmp_path, "--dark 40", "--dead t25", "--stuck red.c1")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    assert "LED 40 is lit" in out and "Put a magnet on t39" in out  # (LED 40 is beside t39)
    faults = [line for line in out.splitlines() if line.startswith("FAULT: ")]
    assert len(faults) == 3 and any("dead sensor: t25" in f for f in faults), out[-2000:]
    with open(tmp_path / "wiring-ludo40.json") as f:
        wiring = json.load(f)
    from ludus.board.definition import BoardDefinition
    from ludus_host.paths import board_file

    board = BoardDefinition.load(board_file("ludo40"))
    for i in range(board.cell_count):  # (wired as drawn: the map says so, faults aside)
        assert wiring["cells"][board.cell_id(i)] == [board.channel_of_cell[i], board.led_of_cell[i]]
    assert "the board has them now" in out
    with open(tmp_path / "board-files.json") as f:
        files = json.load(f)
    assert json.loads(files["wiring.json"]) == wiring  # what the board keeps is what was written here
    assert not os.path.exists(tmp_path / "calibration-progress-ludo40.json")


def test_stopped_half_way_it_goes_on_from_there_the_next_time(tmp_path):
    proc = _run(tmp_path, "--stop-after 30", extra=["--no-install"])
    assert proc.returncode == 1 and "run the same command to go on" in proc.stdout, proc.stdout[-2000:]
    with open(tmp_path / "calibration-progress-ludo40.json") as f:
        assert json.load(f)["next"] == 30
    proc = _run(tmp_path, extra=["--no-install"])
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "resuming: 30 of 86 LEDs done" in proc.stdout and "LED 3 is lit" not in proc.stdout
    assert "no faults found" in proc.stdout


def test_ludus_play_lays_a_wiring_map_over_its_board_and_names_a_bad_one(tmp_path):
    from ludus.errors import BoardDefinitionError
    from ludus_host.virtual.board import load_board
    from tools import ludus

    plain = load_board("ludo40")
    t3, t17 = plain.cell_ids.index("t3"), plain.cell_ids.index("t17")
    wiring = {
        "format": "ludus-wiring",
        "version": 1,
        "board": "ludo40",
        "cells": {
            "t3": [plain.channel_of_cell[t17], plain.led_of_cell[t3]],
            "t17": [plain.channel_of_cell[t3], 7],
        },
    }
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(wiring))  # t17 takes LED 7, which another cell has
    try:
        load_board("ludo40", str(bad))
        raise AssertionError("a map giving one LED twice must be refused")
    except BoardDefinitionError as exc:
        assert "bad.json" in str(exc) and "LED 7 is given twice" in str(exc)
    wiring["cells"]["t17"][1] = plain.led_of_cell[t17]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(wiring))
    board = load_board("ludo40", str(good))
    assert (
        board.channel_of_cell[t3] == plain.channel_of_cell[t17]
        and board.cell_of_channel[plain.channel_of_cell[t3]] == t17
    )
    script = tmp_path / "s.play"
    script.write_text("press\n")
    proc = ludus("play", "--board", "ludo40", "--game", "ludo/hebrew-40", "--wiring", str(bad), str(script))
    assert proc.returncode != 0 and "LED 7 is given twice" in proc.stderr and "Traceback" not in proc.stderr
    proc = ludus("play", "--board", "ludo40", "--game", "ludo/hebrew-40", "--wiring", str(good), str(script))
    assert proc.returncode == 0, proc.stderr

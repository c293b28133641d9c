"""The laptop's end of a board's USB link (ludus_host.link.client.Link) and the tools on it, `ludus
monitor`, `ludus games` and `ludus calibrate`: a board that sends valid JSON of the wrong kinds, a board
that sends fast, and a board that resets, its port going away and coming back as a Pico's USB does
(tests/host/fake_port.py: a pseudo-terminal at a stable path)."""

import json
import os
import subprocess
import sys
import threading
import time

import pytest
from fake_port import PtyBoard, PtyPort
from ludus_host.commands.calibrate import SerialPort, install
from ludus_host.link.client import Link
from ludus_host.link.words import describe
from tools import ROOT, ludus

pytestmark = pytest.mark.cpython_only

# valid JSON whose fields are not of the kinds the protocol gives them
ODD = [
    {"event": ["x"]},
    {"event": {"a": 1}},
    {"event": None, "x": 1},
    {"event": "self_test", "ok": True, "stuck": 5, "noisy": [1, [2]], "rail": {"a": 1}},
    {"event": "season", "rules": "danish", "ties": [1, 2], "games": "x"},
    {"event": "season", "ties": "ab"},
    {"event": "game_over", "placements": [[1], {"a": 2}], "players": [1]},
    {"event": "game_over", "placements": 5, "players": "x"},
    {"event": "new_game", "players": {"0": ["x"]}, "seed_sha256": 7},
    {"event": "hello", "dropped": 3},
    {"event": "hello", "dropped": "many"},
    {"reply": ["hello"], "ok": True},
    {"reply": "games", "id": "games", "ok": True, "record": 5},
    {"reply": "games", "id": "games", "ok": True, "record": None},
    {"reply": "games", "id": "games", "ok": True, "record": ["a"]},
    {"reply": "games", "id": "games", "ok": True, "record": {"a": 1}},
]
DEEP = "[" * 5000 + "]" * 5000  # deeper than the JSON reader goes


def _program(tmp_path, lines):
    """exec: a program that prints lines and ends (the monitor stops when its link closes)."""
    script = tmp_path / "board.py"
    script.write_text("for line in %r:\n    print(line, flush=True)\n" % ([*lines],))
    return "exec:%s %s" % (sys.executable, script)


def test_monitor_shows_lines_of_the_wrong_kinds_without_a_traceback(tmp_path):
    lines = [json.dumps(item) for item in ODD] + [DEEP, '{"event": ' * 3000, "not json at all"]
    save = tmp_path / "games"
    proc = ludus("monitor", _program(tmp_path, lines), "--save", str(save), "--for", "30", timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    out = proc.stdout.splitlines()
    assert len(out) >= len(lines), out
    assert "self-test passed: None LEDs, None sensors; stuck: 5" in proc.stdout
    assert "the board hears this laptop again: 3 lines it could not send meanwhile were dropped" in out
    assert proc.stdout.count("not saved: the board sent a record that is not text") == 4
    assert not save.exists() or not os.listdir(save)  # nothing half-made saved
    for item in ODD:  # every line gets words, the same as the monitor's
        assert describe(item)


def test_a_board_that_stops_listening_still_has_its_lines_shown(tmp_path):
    # the monitor asks for a finished game by itself; a board that no longer reads (here a program
    # that closed its input before it spoke) refuses the question, and what it sent is still shown
    script = tmp_path / "deaf.py"
    over = {"event": "game_over", "placements": [0, 1], "players": {"0": "Anna", "1": "Bo"}}
    script.write_text(
        "import os, sys, time\nos.close(0)\nprint(%r, flush=True)\ntime.sleep(0.5)\n"
        "print(%r, flush=True)\n" % (json.dumps(over), json.dumps({"event": "hello", "dropped": 0}))
    )
    board = "exec:%s %s" % (sys.executable, script)
    proc = ludus("monitor", board, "--save", str(tmp_path / "g"), "--for", "30", timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0] == describe(over) and "(not asked: cannot send to the board" in out[1], out
    assert out[2] == describe({"event": "hello", "dropped": 0}), out


def _answering(tmp_path, answers):
    """exec: a board that answers `games` and `season` with the lines given (its id filled in)."""
    script = tmp_path / "answers.py"
    script.write_text(
        "import json, sys\n"
        "answers = %r\n"
        "for line in sys.stdin:\n"
        "    cmd = json.loads(line)\n"
        "    for item in answers.get(cmd['cmd'], []):\n"
        "        print(json.dumps(dict(item, reply=cmd['cmd'], id=cmd['id'], ok=True)), flush=True)\n"
        % (answers,)
    )
    return "exec:%s %s" % (sys.executable, script)


def test_games_takes_records_and_a_season_of_the_wrong_kinds(tmp_path):
    records = [{"game": k, "record": r} for k, r in enumerate([5, None, [1], {"a": 1}, "[" * 5000])]
    season = {"rules": "danish", "season": {"standings": [{"player": 5}], "ties": [], "games": 1}}
    board = _answering(tmp_path, {"games": [*records, {"count": 5, "done": True}], "season": [season]})
    proc = ludus("games", board, "--save", str(tmp_path / "g"), "--season", "--wait", "5", timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.count("a record that is not text") == 4 and "cannot be read" in proc.stdout
    assert "the board's season cannot be read: a row of the standings" in proc.stderr
    assert not os.listdir(tmp_path / "g")
    for season in ({"rules": 5, "season": {}}, {"rules": "danish", "season": [1]}):
        board = _answering(tmp_path, {"games": [{"count": 0, "done": True}], "season": [season]})
        proc = ludus("games", board, "--season", "--wait", "5", timeout=60)
        assert proc.returncode == 2 and "season cannot be read" in proc.stderr, proc.stderr


def test_the_monitor_reads_a_fast_board_in_blocks(tmp_path):
    # 2 MB of event lines as fast as the port takes them: the monitor keeps up (before: it read one
    # byte per system call, about 40 KB/s, and fell behind a burst)
    port = PtyPort(tmp_path / "board")
    line = json.dumps({"event": "x", "pad": "y" * 1000}) + "\n"
    count = 2000
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludus_host.cli", "monitor", port.path, "--raw", "--for", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        time.sleep(1.0)  # (the monitor opens the port)
        began = time.monotonic()
        writer = threading.Thread(target=lambda: port.write(line * count))
        writer.start()
        seen = 0
        while seen < count and time.monotonic() - began < 25:
            if proc.stdout.readline().startswith('{"event": "x"'):
                seen += 1
        took = time.monotonic() - began
        writer.join()
    finally:
        proc.terminate()
        proc.communicate(timeout=20)
        port.close()
    rate = count * len(line) / took / 1e6
    print(
        "the monitor took %d lines (%.1f MB) in %.2f s: %.2f MB/s"
        % (seen, count * len(line) / 1e6, took, rate)
    )
    assert seen == count and rate > 0.4, (seen, rate)


def _record_reply(cmd):
    if cmd["cmd"] == "hello":
        return {"board": "checkers"}
    if cmd["cmd"] == "games":
        return [
            {"reply": "games", "id": cmd["id"], "ok": True, "game": 1, "record": '{"after": "the reset"}'},
            {"reply": "games", "id": cmd["id"], "ok": True, "count": 1, "done": True},
        ]
    return None


def test_the_monitor_opens_a_port_again_after_the_board_resets(tmp_path):
    # the board answers hello, resets (its port gone for half a second), and once back ends a game:
    # the monitor carries on: it shows the boot and the game's end and fetches and saves the game
    # (before: its reader spun on the lost port and never opened it again: nothing after the reset)
    board = PtyBoard(tmp_path / "board", _record_reply, resets=("hello",))
    save = tmp_path / "games"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludus_host.cli", "monitor", board.path, "--send", "hello", "--raw"]
        + ["--save", str(save), "--for", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    out = []
    try:
        began = time.monotonic()
        while time.monotonic() - began < 15:
            line = proc.stdout.readline()
            out.append(line)
            if '"event": "boot"' in line:
                board.write(json.dumps({"event": "game_over", "placements": [0, 1]}) + "\n")
            if line.startswith("saved "):
                break
    finally:
        proc.terminate()
        out += proc.communicate(timeout=20)[0].splitlines(True)
        board.close()
    text = "".join(out)
    assert board.drops == 1 and "went away" in text and "is back" in text, text
    assert '"event": "game_over"' in text and "saved " in text, text
    (saved,) = os.listdir(save)
    assert (save / saved).read_text() == '{"after": "the reset"}\n'


def test_ludus_games_asks_again_after_a_reset_in_the_middle(tmp_path):
    # the board resets instead of answering `games` the first time: once back and booted, it is asked
    # again and answers (before: no answer until --wait ran out)
    asked = []

    def answer(cmd):
        asked.append(cmd["cmd"])
        return "reset" if len(asked) == 1 else _record_reply(cmd)

    board = PtyBoard(tmp_path / "board", answer)
    try:
        proc = ludus("games", board.path, "--wait", "30", timeout=90)  # (a loaded CI machine)
    finally:
        board.close()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 finished game kept on the board" in proc.stdout and board.drops == 1
    assert asked[:2] == ["games", "games"]


def test_calibration_installs_both_files_across_the_resets_they_cause(tmp_path):
    # each file the board takes makes it reset: its port goes away, comes back, and the board boots
    # before it listens; the wiring map and then the levels both arrive whole (before: the link never
    # came back after the first file, and calibration.json was never sent)
    files = {}
    parts = {}

    def answer(cmd):
        if cmd["cmd"] == "hello":
            return {"board": "ludo40"}
        if cmd["cmd"] == "file":
            parts.setdefault(cmd["name"], []).append(cmd["text"])
            if cmd["more"]:
                return {"part": cmd["part"]}
            files[cmd["name"]] = "".join(parts.pop(cmd["name"]))
            return {"written": cmd["name"], "restart": True}
        return None

    # a file's last part: written, then the board resets
    board = PtyBoard(tmp_path / "board", answer, resets=lambda cmd: cmd["cmd"] == "file" and not cmd["more"])
    wiring = {
        "format": "ludus-wiring",
        "version": 1,
        "board": "ludo40",
        "cells": {"t%d" % k: [k, k] for k in range(60)},
    }
    calibration = json.dumps({"levels": list(range(400))})
    link = Link(board.path)
    try:
        began = time.monotonic()
        install(SerialPort(link), wiring, calibration)
        took = time.monotonic() - began
    finally:
        link.close()
        board.close()
    assert json.loads(files["wiring.json"]) == wiring and files["calibration.json"] == calibration
    assert board.drops == 2 and link.generation == 3
    print("both files installed across two resets in %.1f s" % took)

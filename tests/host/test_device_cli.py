"""The laptop's commands for a board: `ludus flash` (its plan, the tree it stages, running mpremote and
checking what the device says), `ludus config` (the firmware's validator), and `ludus monitor` against
the firmware itself on the MicroPython unix port (tests/unix_board.py)."""

import json
import os
import sys

import pytest
from tools import ROOT, ludus, tool

FAKE_MPREMOTE = """import sys
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(sys.argv[2:]) + "\\n")
if "exec" in sys.argv and "ludus.__version__" in sys.argv[-1]:
    print(sys.argv[1].endswith("old.log") and "ludus 0.0.9" or "ludus 0.1.0")
if "fail" in sys.argv[1] and "cp" in sys.argv:
    print("mpremote: could not enter raw repl", file=sys.stderr)
    sys.exit(1)
"""


@pytest.fixture()
def fake_mpremote(tmp_path):
    script = tmp_path / "mpremote.py"
    script.write_text("import json\n" + FAKE_MPREMOTE)
    return "%s %s" % (sys.executable, script)


def _config(tmp_path, **fields):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(fields))
    return str(path)


def test_dry_run_prints_every_mpremote_operation_and_copies_nothing(tmp_path):
    proc = ludus(
        "flash", "--dry-run", "--port", "/dev/ttyACM7", "--config", _config(tmp_path, board="checkers")
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "would flash" in out and "board checkers" in out
    ops = [line.strip() for line in out.splitlines() if line.startswith("      mpremote")]
    assert len(ops) == 5 and all(op.startswith("mpremote connect /dev/ttyACM7 ") for op in ops)
    assert "fs cp -r" in ops[1] and ":lib/" in ops[1]
    assert ":boards/checkers.json" in ops[2] and ":config.json" in ops[2] and ":main.py" in ops[2]
    assert "ludus.__version__" in ops[3] and ops[4].endswith(" reset")
    # the files named are there, staged: the package compiled for the RP2040
    staged = os.path.join(ROOT, "build", "device-files")
    assert os.path.exists(os.path.join(staged, "lib", "ludus", "device.mpy"))
    with open(os.path.join(staged, "lib", "ludus", "referee", "native.mpy"), "rb") as f:
        head = f.read(4)
    assert head[0:2] == b"M\x06" and head[2] >> 2 == 4  # .mpy v6 with viper code for armv6m (arch 4)
    assert not os.path.exists(os.path.join(staged, "lib", "ludus", "bots", "selfplay.mpy"))  # host-only


def test_a_test_build_carries_the_hooks_and_a_plain_flash_removes_them(tmp_path):
    proc = ludus("flash", "--dry-run", "--test-hooks", "--config", _config(tmp_path, board="checkers"))
    assert proc.returncode == 0, proc.stderr
    ops = [line.strip() for line in proc.stdout.splitlines() if line.startswith("      mpremote")]
    assert len(ops) == 6 and "ludus_testhooks.mpy :lib/" in ops[2]
    assert "copy the test hooks" in proc.stdout
    staged = os.path.join(ROOT, "build", "device-files")
    assert os.path.exists(os.path.join(staged, "lib", "ludus_testhooks.mpy"))
    proc = ludus("flash", "--dry-run", "--config", _config(tmp_path, board="checkers"))
    ops = [line.strip() for line in proc.stdout.splitlines() if line.startswith("      mpremote")]
    assert len(ops) == 5 and "ludus_testhooks" not in " ".join(ops[1:])
    prepare = proc.stdout.split("[2/5]")[0]  # step 1's code: a test build's hooks do not outlive it
    assert "os.remove(" in prepare and "/lib/ludus_testhooks.mpy" in prepare
    assert not os.path.exists(os.path.join(staged, "lib", "ludus_testhooks.mpy"))


def _traceback_lines(tree):
    # the line numbers a traceback through the staged bytecode gives (a button driver given no pin:
    # ludus.hw.button keeps its line numbers in ROMFS, unlike the modules of WITHOUT_LINES)
    import subprocess

    code = (
        "import sys\nsys.path.insert(0, %r)\nfrom ludus.hw.button import Button\n"
        "try:\n    Button(None).poll(0)\nexcept Exception as e:\n    sys.print_exception(e)\n"
    ) % os.path.join(str(tree), "lib")
    out = subprocess.run([tool("micropython"), "-c", code], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if '"ludus.hw.button"' in line]


def test_files_mode_drops_line_numbers_unless_asked_to_keep_them(tmp_path):
    # files mode loads the bytecode into RAM, where line numbers would cost a Ludo game 7.5 KB
    for keep, dest in ((False, "plain"), (True, "lines")):
        args = ["flash", "--stage", str(tmp_path / dest), "--march", "x64"] + (["--lines"] if keep else [])
        proc = ludus(*args)
        assert proc.returncode == 0, proc.stderr
    plain, lines = _traceback_lines(tmp_path / "plain"), _traceback_lines(tmp_path / "lines")
    # (poll reads the pin in _step: two frames of the module, each without or with its line)
    assert plain == [
        '  File "ludus.hw.button", line 1, in poll',
        '  File "ludus.hw.button", line 1, in _step',
    ]
    assert len(lines) == 2 and not [line for line in lines if "line 1," in line], lines
    assert "in poll" in lines[0] and "in _step" in lines[1], lines
    size = os.path.getsize
    mpy = os.path.join("lib", "ludus", "device.mpy")
    assert size(tmp_path / "plain" / mpy) < size(tmp_path / "lines" / mpy)


def test_romfs_mode_deploys_an_image(tmp_path):
    proc = ludus("flash", "--dry-run", "--mode", "romfs")
    assert proc.returncode == 0, proc.stderr
    assert "romfs deploy" in proc.stdout and "firmware.romfs" in proc.stdout
    image = os.path.join(ROOT, "build", "device-romfs", "firmware.romfs")
    with open(image, "rb") as f:
        assert f.read(2) == b"\xd2\xcd"  # the ROMFS header
    assert os.path.getsize(image) <= 256 * 1024  # the whole partition (the journal sits below it)
    # the journal's room on that build is the 48 KiB between its firmware and the partition
    config = tmp_path / "big.json"
    config.write_text(json.dumps({"journal_kb": 64}))
    proc = ludus("flash", "--dry-run", "--mode", "romfs", "--config", str(config))
    assert proc.returncode == 2 and "journal_kb 64: the ROMFS build leaves 48 KiB" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_flash_runs_the_plan_with_mpremote_and_checks_the_version(tmp_path, fake_mpremote):
    log = tmp_path / "calls.log"
    proc = ludus("flash", "--port", "COM3", "--mpremote", fake_mpremote.replace(" ", " ", 1) + " " + str(log))
    assert proc.returncode == 0, proc.stderr
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(calls) == 5 and all(c[:2] == ["connect", "COM3"] for c in calls)
    assert calls[-1][2:] == ["reset"]
    assert "[5/5] reset" in proc.stdout and "done" in proc.stdout


def test_flash_stops_at_a_failing_step_and_says_which(tmp_path, fake_mpremote):
    log = tmp_path / "fail.log"
    proc = ludus("flash", "--mpremote", fake_mpremote + " " + str(log))
    assert proc.returncode == 2
    assert "copy the package" in proc.stderr and "could not enter raw repl" in proc.stderr
    assert len(log.read_text().splitlines()) == 2  # nothing after the failed copy


def test_flash_refuses_a_device_that_reports_another_version(tmp_path, fake_mpremote):
    log = tmp_path / "old.log"
    proc = ludus("flash", "--mpremote", fake_mpremote + " " + str(log))
    assert proc.returncode == 2 and "expected 'ludus 0.1.0'" in proc.stderr
    assert "reset" not in log.read_text()


def test_flash_refuses_a_bad_config_before_anything_is_copied(tmp_path):
    proc = ludus("flash", "--dry-run", "--config", _config(tmp_path, brightness=999, board="nowhere"))
    assert proc.returncode == 2
    assert "brightness must be a whole number" in proc.stderr and "mpremote" not in proc.stdout


def test_config_writes_only_a_valid_configuration(tmp_path):
    out = tmp_path / "config.json"
    proc = ludus(
        "config",
        "--set",
        "board=checkers",
        "--set",
        "game=checkers",
        "--set",
        "pins.buzzer=null",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["board"] == "checkers" and data["pins"]["buzzer"] is None and data["pins"]["leds"] == 15
    assert ludus("config", "--check", str(out)).returncode == 0
    bad = ludus("config", "--from", str(out), "--set", "pins.leds=14", "--out", str(out))
    assert bad.returncode == 2 and "GPIO 14 is used twice" in bad.stderr
    assert json.loads(out.read_text()) == data  # nothing written
    assert ludus("config", "--set", "nonsense").returncode == 2


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("monitor")
    config = root / "config.json"
    config.write_text(json.dumps({"board": "checkers", "game": "checkers"}))
    proc = ludus("flash", "--stage", str(root / "tree"), "--march", "x64", "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    return str(root / "tree")


def _board(tree):
    return "exec:%s -X heapsize=512K %s %s" % (
        tool("micropython"),
        os.path.join(ROOT, "tests", "unix_board.py"),
        tree,
    )


def test_monitor_shows_a_board_in_words_and_sends_commands(tree):
    proc = ludus(
        "monitor",
        _board(tree),
        "--send",
        "hello",
        "--send",
        '{"cmd": "stats", "id": 7}',
        "--send",
        "nonsense",
        "--for",
        "4",
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "board started: firmware 0.1.0 on MicroPython 1.28.0, protocol 1" in out
    assert "self-test passed: 127 LEDs, 128 sensors" in out
    hello = [line for line in out.splitlines() if line.startswith("reply hello: ")]
    assert hello and '"board": "checkers"' in hello[0] and '"referee": {"phase": "setup"' in hello[0]
    assert "reply stats:" in out and '"worst_us"' in out
    assert "reply nonsense: ERROR unknown command 'nonsense'" in out


def test_monitor_fetches_and_saves_finished_games(tree, tmp_path):
    proc = ludus("monitor", _board(tree), "--games", "--save", str(tmp_path), "--for", "4", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert 'reply games: {"count": 0, "done": true}' in proc.stdout  # a new board has none yet


def test_monitor_names_a_bad_port_or_command():
    proc = ludus("monitor", "/dev/no-such-port")
    assert proc.returncode == 2 and "cannot open /dev/no-such-port" in proc.stderr
    proc = ludus("monitor", "exec:true", "--send", "{not json")
    assert proc.returncode == 2 and "is not JSON" in proc.stderr


def test_a_game_kept_in_the_journal_comes_out_as_a_record_ludus_verify_accepts(tmp_path):
    # a whole game (the demo's bots), journalled as the board does it: its start with the dice
    # commitment, every action, its end; `games` hands records() out, `ludus monitor --save` writes them
    from ludus.hw.fake import FakeFlash
    from ludus.record.game import GameRecord
    from ludus.record.journal import Journal

    played = tmp_path / "played.json"
    assert ludus("demo", "--seed", "3", "--record", str(played), "--delay", "0", "--quiet").returncode == 0
    game = json.loads(played.read_text())
    start = GameRecord(game["start"], game["options"], game["seed_sha256"])  # as the board's start
    journal = Journal(FakeFlash(16, 4096))
    journal.begin({"record": start.to_json(), "seed": game["seed"], "dice_used": 0})
    for action in game["actions"]:
        journal.add(action)
    journal.end(json.dumps(game["result"]))
    (text,) = journal.records()
    kept = tmp_path / "kept.json"
    kept.write_text(text)
    proc = ludus("verify", str(kept))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(text)["actions"] == game["actions"] and json.loads(text)["result"] == game["result"]
    # and one action changed in flash's copy is caught
    bad = json.loads(text)
    bad["actions"][4] = bad["actions"][5]
    kept.write_text(json.dumps(bad))
    assert ludus("verify", str(kept)).returncode != 0

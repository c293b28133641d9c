"""What a maker does with a board, done to the emulated Pico (the real MicroPython 1.28 RPI_PICO build in
rp2040js, with the board around it modelled: host_tools/pico_emu): `ludus emulate` puts its USB serial
on a pseudo-terminal; the real mpremote, `ludus flash` (both modes) and `ludus monitor` use it as a
port; pieces are moved on its stdin. And the power cut for real: during a journal write, leaving the
page half programmed, then a boot from the flash as it was left.

Skipped, saying so, without ../shared/pico's UF2 and bootrom (LUDUS_PICO_DIR names another folder).
The long runs (dozens of random cuts, whole games) are marked `long`: `pytest -m long`."""

import json
import os
import random
import subprocess
import sys
import time

import pytest
from ludus_host import pico
from tools import ROOT, ludus


@pytest.fixture(scope="module")
def harness():
    try:
        pico.assets()
        pico.assets(romfs=True)
    except pico.PicoError as exc:
        pytest.skip(str(exc))
    pico.node()


@pytest.fixture(scope="module")
def checkers_config(tmp_path_factory):
    path = tmp_path_factory.mktemp("cfg") / "config.json"
    path.write_text(json.dumps({"board": "checkers", "game": "checkers"}))
    return str(path)


class Emulate:
    """`ludus emulate` running in the background, as a maker starts it in a terminal."""

    def __init__(self, tmp, config, *options):
        self.link = str(tmp / "pico")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ludus_host.cli", "emulate", "--config", config, "--link", self.link]
            + ["--fast", *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware")),
        )
        self.banner = [self.proc.stdout.readline(), self.proc.stdout.readline()]
        assert os.path.islink(self.link), self.banner

    def type(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stop(self):
        self.proc.terminate()
        out = self.proc.communicate(timeout=60)[0]
        return self.banner + [out]


def monitor(link, *argv, seconds):
    proc = ludus("monitor", link, "--raw", "--for", str(seconds), *argv, timeout=seconds + 120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("mode", ["files", "romfs"])
def test_ludus_flash_through_ludus_emulate_then_a_boot_and_a_move(harness, checkers_config, tmp_path, mode):
    image = str(tmp_path / "pico.flash")
    options = ["--flash-image", image, "--erase"] + (["--romfs"] if mode == "romfs" else [])
    board = Emulate(tmp_path, checkers_config, *options)
    try:
        assert "/dev/pts/" in board.banner[0] and ("ROMFS build" in board.banner[0]) == (mode == "romfs")
        # the real mpremote on the pseudo-terminal: a bare MicroPython, nothing on it yet
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "mpremote",
                "connect",
                board.link,
                "exec",
                "import sys; print(sys.platform)",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0 and proc.stdout.strip() == "rp2", proc.stdout + proc.stderr
        # ludus flash, exactly as on a real board: its five steps, ending in a reset
        proc = ludus("flash", "--port", board.link, "--config", checkers_config, "--mode", mode, timeout=900)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        assert "[5/5] reset" in proc.stdout
        # the firmware boots from what was flashed (mpremote's reset is a watchdog reboot of the
        # emulated chip); the monitor asks it who it is while a game is set up and a move played
        mon = subprocess.Popen(
            [sys.executable, "-m", "ludus_host.cli", "monitor", board.link, "--raw", "--for", "60"]
            + ["--send", "hello", "--send", "config"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware")),
        )
        time.sleep(8)
        board.type("start")  # the pieces of checkers/2 put on the board
        time.sleep(12)
        board.type("lift h7")
        time.sleep(0.5)
        board.type("put h16")
        out = mon.communicate(timeout=240)[0]
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        hello = next(e for e in lines if e.get("reply") == "hello")
        assert hello["ok"] and hello["board"] == "checkers" and hello["platform"] == "rp2", lines
        assert next(e for e in lines if e.get("reply") == "config")["config"]["game"] == "checkers"
        new = [e for e in lines if e.get("event") == "new_game"]
        assert new and new[0]["start"] == "checkers/2", lines
        assert [e["move"] for e in lines if e.get("event") == "move"] == ["h7-h16"], lines
        assert not [e for e in lines if e.get("event") in ("fault", "safe_mode")]
    finally:
        said = board.stop()
    assert "the flash kept in" in said[-1], said
    assert os.path.getsize(image) == 2 * 1024 * 1024


def _boot(config_text, board_name, tree_dir):
    """The staged tree of a config, on an emulated Pico just powered up (its littlefs image cached)."""
    from ludus.config import read_config
    from ludus_host.simboard import load_board

    config_path = os.path.join(os.path.dirname(tree_dir), board_name + "-config.json")
    with open(config_path, "w") as f:
        f.write(config_text)
    if not os.path.exists(tree_dir):
        proc = ludus("flash", "--stage", tree_dir, "--config", config_path)
        assert proc.returncode == 0, proc.stderr
    board = load_board(board_name)
    config = read_config(config_text)[0]
    return pico.booted_pico(tree_dir, board, config), board


@pytest.fixture(scope="module")
def checkers_tree(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cut") / "tree")


def test_a_power_cut_during_a_journal_write_loses_at_most_that_move(harness, checkers_tree):
    # (ludus_host.pico_table.power_back checks the promise: the moves announced restored, the same
    # game, the move in flight taken again from the pieces, no fault; it raises TableError otherwise)
    from ludus_host.pico_table import PicoTable, play_until_cut, power_back

    p, board = _boot(json.dumps({"board": "checkers", "game": "checkers"}), "checkers", checkers_tree)
    with p:
        assert p.wait(lambda e: e.get("event") == "self_test", 120000)["ok"]
        table = PicoTable(p, board, "checkers/2", seed=3)
        commitment = table.setup()["seed_sha256"]
        for _ in range(2):
            table.turn()
        before = table.moves
        cut = play_until_cut(table, 1, seed=11)  # the next move's page program, left half done
        assert cut["kind"] == "program" and 0x90000 <= cut["address"] < 0xA0000  # the journal's flash
        assert table.moves == before and table.in_flight is not None  # its move event never came
        assert power_back(table, commitment) in ("confirmed", "taken again", "kept")
        assert table.moves == before + 1  # the move carried out counts, once
        table.turn()  # and the game goes on
        assert p.command("state")["actions"] == table.moves == before + 2


@pytest.mark.long
def test_many_random_power_cuts_through_a_checkers_game(harness, checkers_tree):
    # each cut at a random flash program or erase a few moves ahead (erases ahead of need included),
    # then the board powered up from its flash as the cut left it; the figures are in docs/benchmarks.md
    from ludus_host.pico_table import PicoTable, play_until_cut, power_back

    cuts = int(os.environ.get("LUDUS_CUTS", "25"))
    rng = random.Random(2026)
    p, board = _boot(json.dumps({"board": "checkers", "game": "checkers"}), "checkers", checkers_tree)
    kinds = {}
    with p:
        assert p.wait(lambda e: e.get("event") == "self_test", 120000)["ok"]
        table = PicoTable(p, board, "checkers/2", seed=5)
        commitment = table.setup()["seed_sha256"]
        for _ in range(cuts):
            if rng.random() < 0.3:
                p.run(2500)  # idle long enough for the journal to erase ahead: a cut may land there
            cut = play_until_cut(table, rng.randint(1, 3), seed=rng.randrange(1 << 30))
            how = power_back(table, commitment)
            key = "%s, %s" % (cut["kind"], how)
            kinds[key] = kinds.get(key, 0) + 1
    print("cuts:", kinds)
    assert sum(kinds.values()) == cuts

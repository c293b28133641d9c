"""What a maker does with a board, done to the emulated Pico (the real MicroPython 1.28 RPI_PICO build in
rp2040js, with the board around it modelled: host_tools/pico_emu): `ludus emulate` puts its USB serial
on a pseudo-terminal; the real mpremote, `ludus flash` (both modes) and `ludus monitor` use it as a
port; pieces are moved on its stdin. And the power cut for real: during a journal write, leaving the
page half programmed, then a boot from the flash as it was left.

Skipped, saying so, without ../shared/pico's UF2 and bootrom (LUDUS_PICO_DIR names another folder).
The long runs (dozens of random cuts, whole games) are marked `long`: `pytest -m long`."""

import json
import os
import subprocess
import sys
import time

import pytest
from ludus_host.emulator import harness as pico
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


@pytest.mark.parametrize("mode", [pytest.param("files", marks=pytest.mark.long), "romfs"])
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
            [sys.executable, "-m", "ludus_host.cli", "monitor", board.link, "--raw", "--for", "600"]
            + ["--send", "hello", "--send", "config"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware")),
        )
        lines = []

        def until(pred, what):
            deadline = time.time() + 300
            while time.time() < deadline:
                line = mon.stdout.readline()
                if not line:
                    break
                if line.startswith("{"):
                    lines.append(json.loads(line))
                    if pred(lines[-1]):
                        return lines[-1]
            raise AssertionError("no %s from the board: %r" % (what, lines[-8:]))

        try:
            hello = until(lambda e: e.get("reply") == "hello", "hello")
            assert hello["ok"] and hello["board"] == "checkers" and hello["platform"] == "rp2", lines
            assert until(lambda e: e.get("reply") == "config", "config")["config"]["game"] == "checkers"
            board.type("start")  # the pieces of checkers/2 put on the board
            new = until(lambda e: e.get("event") == "new_game", "new_game")
            assert new["start"] == "checkers/2"
            board.type("lift h7")
            time.sleep(0.3)
            board.type("put h16")
            assert until(lambda e: e.get("event") == "move", "move")["move"] == "h7-h16"
        finally:
            mon.terminate()
            mon.communicate(timeout=60)
        assert not [e for e in lines if e.get("event") in ("fault", "safe_mode")]
    finally:
        said = board.stop()
    assert "the flash kept in" in said[-1], said
    assert os.path.getsize(image) == 2 * 1024 * 1024


def _stage(config_text, board_name, tree_dir):
    """The tree `ludus flash` stages for a config (once per module)."""
    config_path = os.path.join(os.path.dirname(tree_dir), board_name + "-config.json")
    with open(config_path, "w") as f:
        f.write(config_text)
    if not os.path.exists(tree_dir):
        proc = ludus("flash", "--stage", tree_dir, "--config", config_path)
        assert proc.returncode == 0, proc.stderr


def _boot(config_text, board_name, tree_dir):
    """The staged tree of a config on an emulated Pico (its littlefs image cached), powered up and
    through its self-test: (the EmulatedPico, the board definition)."""
    from ludus.config import read_config
    from ludus_host.virtual.board import load_board

    _stage(config_text, board_name, tree_dir)
    board = load_board(board_name)
    p = pico.booted_pico(tree_dir, board, read_config(config_text)[0])
    st = p.wait(lambda e: e.get("event") == "self_test", 120000)
    assert st is not None and st["ok"], p.usb[-2000:]
    return p, board


@pytest.fixture(scope="module")
def checkers_tree(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cut") / "tree")


def test_a_power_cut_during_a_journal_write_loses_at_most_that_move(harness, checkers_tree):
    # (ludus_host.emulator.table.power_back checks the promise: the moves announced restored, the same
    # game, the move in flight taken again from the pieces, no fault; it raises TableError otherwise)
    from ludus_host.emulator.table import PicoTable, play_until_cut, power_back

    p, board = _boot(json.dumps({"board": "checkers", "game": "checkers"}), "checkers", checkers_tree)
    with p:
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
def test_many_random_power_cuts_through_a_checkers_game(harness):
    # each cut at a random flash program or erase one to three operations ahead (after an idle spell
    # now and then, when the journal erases ahead), the board powered up from its flash as the cut
    # left it, and the journal's promise checked after every one (ludus_host.emulator.table.power_back
    # raises TableError otherwise). The run is `ludus bench --pico`'s, figures in docs/benchmarks.md.
    # Each torn write retires the rest of its block, so a long run ends when the game's journal is
    # full: the firmware must have said so, and at least 12 of its 16 blocks must have taken a cut.
    from ludus_host.bench import pico as pico_bench

    cuts = int(os.environ.get("LUDUS_CUTS", "25"))
    result = pico_bench.power_cuts(cuts)
    print("cuts:", result)
    done = result["cuts"]
    assert sum(result["outcomes"].values()) == done and result["moves"] >= done
    assert all(k.split(": ")[1] in ("kept", "confirmed", "taken again") for k in result["outcomes"])
    if result["journal_full_after_cuts"] is None:
        assert done == cuts
    else:
        assert done >= 12 and result["journal_full_after_cuts"] == done


MUX_PINS = {"kind": "mux", "select": [10, 11, 12, 13], "adc": [26, 27, 28]}
BITBANG_PINS = {"kind": "shift", "load": 2, "sck": 3, "miso": 5}  # GP3 is no SPI clock: bit-banged


def _wired(sensors, checkers_tree):
    from ludus.config import defaults
    from ludus_host.virtual.board import load_board

    _stage(json.dumps({"board": "checkers", "game": "checkers"}), "checkers", checkers_tree)
    config = defaults()
    config["pins"]["sensors"] = sensors
    board = load_board("checkers")
    return pico.booted_pico(checkers_tree, board, config), board


def test_the_emulated_multiplexers_adc_and_piezo_answer_the_firmwares_drivers(harness, checkers_tree):
    # the harness wires the board as config.json's pins say: CD74HC4067 select lines choosing which
    # sensor each ADC pin sees, and the piezo's pitch read from its PWM slice; the firmware's own
    # drivers (ludus.hw.mux, ludus.hw.buzzer) run on the real MicroPython build against it
    p, _board = _wired(MUX_PINS, checkers_tree)
    with p:
        p.wait(lambda e: e.get("event") == "self_test", 120000)
        levels = {ch: 400 + 31 * ch for ch in range(40)}  # 12-bit counts, each channel its own
        p.analog(levels)
        code = (
            "from machine import ADC, Pin, PWM\n"
            "from array import array\n"
            "from ludus.hw.mux import MuxScanner, PinSelect, SioSelect\n"
            "import machine, time\n"
            "for n in (10, 11, 12, 13): Pin(n, Pin.OUT, value=0)\n"
            "adcs = [ADC(Pin(n)) for n in (26, 27, 28)]\n"
            "out = []\n"
            "selects = (lambda: PinSelect([Pin(n, Pin.OUT) for n in (10, 11, 12, 13)]),\n"
            "           lambda: SioSelect(10, machine.mem32))\n"
            "for make in selects:  # (SioSelect after PinSelect has left the lines high)\n"
            "    select = make()\n"
            "    levels = array('H', bytes(80))\n"
            "    MuxScanner(40, select, adcs).read(levels)\n"
            "    out.append(list(levels))\n"
            "print(out)\n"
            "from ludus.hw.buzzer import Buzzer, ILLEGAL\n"
            "b = Buzzer(PWM(Pin(22)))\n"
            "b.play(ILLEGAL, time.ticks_ms())\n"
            "t = time.ticks_ms()\n"
            "while b.cue is not None:\n"
            "    b.tick(time.ticks_ms())\n"
            "    time.sleep_ms(5)\n"
            "print('played', time.ticks_diff(time.ticks_ms(), t))\n"
        )
        out, err = p.exec(code, fresh=True)
        assert not err, err
        readings = json.loads(out.splitlines()[0])
        for got in readings:  # read_u16 scales the 12-bit count to 16 bits (x16 on the RP2040)
            assert [v >> 4 for v in got] == [levels[ch] for ch in range(40)]
        tones = [hz for _ms, hz in p.tones]
        # the ILLEGAL cue: 220 Hz 120 ms, a 60 ms rest, 220 Hz 220 ms, then silence
        assert [hz for hz in tones if hz] and all(abs(hz - 220) <= 2 for hz in tones if hz), tones
        assert tones[-1] == 0 and tones.count(0) >= 2, tones
        on = [t for t, hz in p.tones if hz]
        assert on[1] - on[0] >= 170  # the second note begins after the first and the rest (180 ms)


def test_a_bit_banged_shift_chain_reads_the_emulated_sensors(harness, checkers_tree):
    p, _board = _wired(BITBANG_PINS, checkers_tree)
    with p:
        p.wait(lambda e: e.get("event") == "self_test", 120000)
        magnets = [0, 7, 8, 63, 100, 127]
        p.lines({ch: 0 for ch in magnets})
        code = (
            "from machine import Pin\n"
            "from ludus.hw.shift import ShiftScanner\n"
            "s = ShiftScanner(128, Pin(2, Pin.OUT), clock=Pin(3, Pin.OUT), data=Pin(5, Pin.IN))\n"
            "levels = bytearray(128)\n"
            "s.read(levels)\n"
            "print([c for c in range(128) if levels[c]])\n"
        )
        out, err = p.exec(code, fresh=True)
        assert not err, err
        assert json.loads(out.splitlines()[0]) == magnets


@pytest.fixture(scope="module")
def ludo_tree(tmp_path_factory):
    return str(tmp_path_factory.mktemp("ludo") / "tree")


@pytest.mark.long  # (many emulated minutes: pytest -m long)
def test_a_few_turns_of_ludo_on_the_emulated_board(harness, ludo_tree):
    # the board rolls its own dice: the table presses the button, reads each roll from the USB
    # events, applies it to its copy of the rules and carries out a legal move on the pins; the
    # firmware on the real MicroPython build must announce exactly that move
    from ludus_host.emulator.table import PicoTable

    p, board = _boot(json.dumps({"board": "ludo52", "game": "ludo/classic"}), "ludo52", ludo_tree)
    with p:
        table = PicoTable(p, board, "ludo/classic/2", seed=4, chooser=lambda g: g.preferred_move())
        new = table.setup()
        assert new["start"] == "ludo/classic/2" and len(new["seed_sha256"]) == 64
        rolls = 0
        while table.moves < 3 and rolls < 60:
            if table.game.awaiting_roll():
                rolls += 1
            table.turn()
        assert table.moves >= 3, "60 rolls and fewer than 3 moves"
        announced = [e["move"] for e in p.events if e.get("event") == "move"]
        assert len(announced) == table.moves
        state = p.command("state")
        assert state["ok"] and state["referee"]["phase"] == "play"
        assert state["position"] == table.game.notation()  # the board's game is the table's, roll for roll
        p.run(1500)  # idle: the collection after the last move (none while a change is taken in)
        stats = p.command("stats")
        assert stats["tick"]["free_low"] > 0 and not [e for e in p.events if e.get("event") == "fault"]


def test_ludus_emulate_refuses_a_bad_config_and_names_the_fault(tmp_path):
    # (before any emulator starts: no harness needed)
    bad = tmp_path / "config.json"
    bad.write_text(json.dumps({"board": "checkers", "brightness": 999}))
    proc = ludus("emulate", "--config", str(bad), "--no-input")
    assert proc.returncode == 2 and "brightness" in proc.stderr and "Traceback" not in proc.stderr
    proc = ludus("emulate", "--config", str(tmp_path / "missing.json"), "--no-input")
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_ludus_emulate_names_a_place_or_channel_it_does_not_know():
    from ludus.config import defaults
    from ludus.errors import LudusError
    from ludus_host.commands.emulate import _channels
    from ludus_host.virtual.board import load_board

    board = load_board("checkers")
    config = dict(defaults(), board="checkers", game="checkers")
    assert len(_channels(["h7", "0", "127"], board, config)) == 3
    for word, said in (("h999", "neither a channel nor a place"), ("500", "the board has 128")):
        with pytest.raises(LudusError) as err:
            _channels([word], board, config)
        assert said in str(err.value)


def test_ludus_emulate_drops_its_usb_at_a_reset_and_the_tools_open_it_again(
    harness, checkers_config, tmp_path
):
    # a bare MicroPython (seconds to boot, not the firmware's minute): the REPL is told to reset; the
    # emulated Pico's USB serial goes away as a real one's does (a tool reading it gets an error),
    # and comes back at the same --link; `ludus monitor` carries on across it and hears the Pico
    # after the reset (before: the pseudo-terminal stayed up through the reset, which a real board's
    # port never does, so no tool's reopening was ever tried)
    board = Emulate(tmp_path, checkers_config, "--flash-image", str(tmp_path / "pico.flash"), "--erase")
    mon = subprocess.Popen(
        [sys.executable, "-m", "ludus_host.cli", "monitor", board.link, "--for", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware")),
    )
    heard = []

    def until(text, typed=None):
        deadline = time.time() + 120
        while time.time() < deadline:
            if typed is not None:  # (typed into the REPL again until it is heard: a booting Pico)
                fd = os.open(board.link, os.O_WRONLY | os.O_NOCTTY)
                os.write(fd, typed.encode())
                os.close(fd)
            line = mon.stdout.readline()
            heard.append(line)
            if text in line:
                return
        raise AssertionError("not heard: %r in %r" % (text, heard[-10:]))

    try:
        time.sleep(1.0)
        until("before 42", "print('before', 6 * 7)\r\n")
        os.write(fd := os.open(board.link, os.O_WRONLY | os.O_NOCTTY), b"import machine; machine.reset()\r\n")
        os.close(fd)
        until("went away")
        until("is back")
        until("after 42", "print('after', 6 * 7)\r\n")
    finally:
        mon.terminate()
        heard += mon.communicate(timeout=30)[0].splitlines(True)
        said = board.stop()
    text = "".join(said)
    assert "the Pico resets (" in text and "its USB serial is back, on /dev/pts/" in text, text
    assert mon.returncode is not None and "Traceback" not in "".join(heard)

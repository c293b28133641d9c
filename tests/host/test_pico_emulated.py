"""The firmware on the real MicroPython 1.28 RPI_PICO build, in an emulated RP2040 (rp2040js, npm, with
the project's harness in host_tools/pico_emu): the tree `ludus flash` stages, copied onto littlefs
and started as a Pico starts it, boots and self-tests, answers the USB link, and stops on Ctrl-C as
mpremote stops it, leaving a REPL that the watchdog no longer resets.

The UF2 and the RP2040 bootrom come from ../shared/pico (the bootrom's licence keeps it out of this
repository); LUDUS_PICO_DIR names another folder with the same layout. Without them the test is
skipped, saying so."""

import json
import os
import subprocess

import pytest
from ludus_host.emulator import harness as pico
from tools import ROOT, ludus


@pytest.fixture(scope="module")
def harness():
    """(node, UF2, bootrom): the harness's packages installed (npm ci, from its lock file)."""
    try:
        uf2, bootrom = pico.assets()
    except pico.PicoError as exc:
        pytest.skip(str(exc))
    return pico.node(), uf2, bootrom


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """The checkers tree `ludus flash` stages (armv6m)."""
    root = tmp_path_factory.mktemp("pico")
    config = root / "config.json"
    config.write_text(json.dumps({"board": "checkers", "game": "checkers"}))
    proc = ludus("flash", "--stage", str(root / "tree"), "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    return str(root / "tree")


def test_the_flashed_firmware_runs_on_the_emulated_pico_and_hands_over_to_mpremote(harness, tree):
    node, uf2, bootrom = harness
    proc = subprocess.run(
        [node, "firmware-check.mjs", "--uf2", uf2, "--bootrom", bootrom, "--tree", tree],
        cwd=pico.HARNESS,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads(proc.stdout.splitlines()[-1])
    boot = report["boot"]
    assert boot and boot["platform"] == "rp2" and boot["micropython"] == "1.28.0" and boot["protocol"] == 1
    st = report["self_test"]  # (the harness's empty board: every sensor line pulled up)
    assert st and st["ok"] and st["leds"] == 127 and st["channels"] == 128 and st["on"] == 0
    assert (
        report["hello"]["ok"]
        and report["hello"]["board"] == "checkers"
        and report["hello"]["safe_mode"] is None
    )
    assert not report["nonsense"]["ok"] and "unknown command" in report["nonsense"]["error"]
    stats = report["stats"]
    assert stats["ok"] and stats["tick"]["ticks"] > 100 and stats["journal"]["blocks"] == 12
    assert stats["tick"]["late"] <= stats["tick"]["ticks"] // 20  # the 20 ms tick holds
    assert stats["free"] > 50000  # the heap left with the checkers referee running (files mode)
    assert report["faults"] == []
    assert report["stopped"]["why"] == "Ctrl-C" and report["prompt"]
    # 7 s in the REPL after Ctrl-C, past the 5 s watchdog: no reset (cause 1 is power-on), a file written
    assert report["after_ctrl_c"]["err"] == "" and report["after_ctrl_c"]["out"].split() == [
        "alive",
        "1",
        "ok",
    ]


def test_set_config_resets_the_board_and_it_boots_with_the_new_configuration(harness, tree):
    # (a boot in place after the command, as set_config did before, hung the emulated Pico after its
    # second `boot` line: the board now replies, then resets as at power-up)
    from ludus.config import read_config
    from ludus_host.virtual.board import load_board

    with open(os.path.join(tree, "config.json"), encoding="utf-8") as f:
        config = read_config(f.read())[0]
    with pico.booted_pico(tree, load_board("checkers"), config) as emu:
        assert emu.wait(lambda e: e.get("event") == "self_test", 90000)
        new = dict(config, brightness=17)
        reply = emu.command("set_config", config=new)
        assert reply and reply["ok"] and reply["restart"], reply
        again = emu.wait(lambda e: e.get("event") == "self_test", 90000)
        assert again and again["ok"]
        assert [n for n in emu.notes if n.get("reset") == "machine"]  # machine.reset(), not a boot in place
        assert len([e for e in emu.events if e.get("event") == "boot"]) == 2
        shown = emu.command("config")
        assert shown and shown["config"]["brightness"] == 17


def test_a_move_on_the_emulated_board_is_seen_through_the_real_drivers(harness, tree):
    # the harness's board (host_tools/pico_emu/board.mjs): a 74HC165 chain answering the firmware's
    # SH/LD pin and SPI0 reads with the sensor lines, and the WS2812 chain decoded from what the PIO
    # state machine on GPIO 15 is given
    from ludus.board.definition import BoardDefinition
    from ludus.games import position

    board = BoardDefinition.load(os.path.join(ROOT, "hardware", "boards", "checkers.json"))
    game = position("checkers/2")
    binding = board.bind(game.place_names)

    def channel(place):
        return board.channel_of_cell[binding.cells(place)[0]]

    names = game.place_names
    start = [[channel(h), 0] for seat in (0, 1) for h in game.pieces(seat)]  # a magnet pulls it low
    steps = [
        {"at": 200, "lines": start},
        {"at": 1500, "lines": [[channel(names.index("h7")), 1]]},  # lift h7 ...
        {"at": 1700, "lines": [[channel(names.index("h16")), 0]]},  # ... and put it on h16
        {"at": 2600, "send": json.dumps({"cmd": "state", "id": 9})},
    ]
    report = pico.run_session(tree, steps, board, end_ms=400)
    events = report["events"]
    new = [e for e in events if e.get("event") == "new_game"]
    assert new and new[0]["start"] == "checkers/2" and 200 < new[0]["ms"] < 1000  # placed, then settled
    moves = [e for e in events if e.get("event") == "move"]
    assert [m["move"] for m in moves] == ["h7-h16"] and 1700 < moves[0]["ms"] < 2300
    state = next(e for e in events if e.get("reply") == "state")
    assert state["actions"] == 1 and state["referee"] == {"phase": "play", "situation": "idle", "turn": 1}
    # one latch of the chain per 20 ms tick, and three more between ticks while the board is still
    # (ludus.device.SCAN_MS); the LED frames whole (127 LEDs) and lit
    ticks = report["emulated_ms"] / 20
    latches = report["latches"] - 8  # (8: the self-test's reads)
    assert 2 * ticks < latches < 4 * ticks + 10, (latches, ticks)
    last = report["frames"][-1][1]
    assert len(report["frames"]) > 5 and len(last) == 2 * 3 * board.led_count
    # sent by PIO and DMA (ludus.hw.ws2812): the state machine on the LED pin was given every byte
    assert report["pio_words"] >= 3 * board.led_count * len(report["frames"])
    # (the turn LED breathes, dark for a moment at this brightness: some frame of the last second lit)
    recent = [grb for ms, grb in report["frames"] if ms > report["emulated_ms"] - 1000]
    assert [grb for grb in recent if bytes.fromhex(grb) != bytes(3 * board.led_count)]
    assert not [e for e in events if e.get("event") in ("fault", "safe_mode")]


def _header(name):
    # each example's first line says how ludus play runs it: --board B --game G
    with open(os.path.join(ROOT, "examples", name + ".play"), encoding="utf-8") as f:
        words = f.readline().split()
    return words[words.index("--board") + 1], words[words.index("--game") + 1]


@pytest.mark.parametrize(
    "name",
    [
        "checkers-jump-chain",
        pytest.param("ludo-capture", marks=pytest.mark.long),
        pytest.param("ludo-at-the-table", marks=pytest.mark.long),
        "ludo-six-and-power-cut",
    ],
)
def test_ludus_play_pico_gives_the_events_and_lights_ludus_play_gives(harness, name):
    # the script recorded tick by tick on CPython, replayed as pin levels on the emulated Pico running
    # the flashed firmware with its test hooks (forced dice and `start` positions over USB; a
    # `power` line a cut and the power back): the same referee events, and every LED frame of the
    # cells in the same order (docs/emulator.md, "ludus play --pico")
    board, game = _header(name)
    proc = ludus(
        "play",
        os.path.join("examples", name + ".play"),
        "--board",
        board,
        "--game",
        game,
        "--pico",
        timeout=900,
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    summary = lines[-1]["pico"]
    assert proc.returncode == 0 and summary["events_equal"] and summary["frames_equal"], summary
    assert summary["events"] >= 3 and summary["frames_sent"] > 10
    boots = [e for e in lines if e.get("event") == "boot"]
    assert boots and all(b["test_hooks"] for b in boots)  # a test build, and it says so
    with open(os.path.join(ROOT, "examples", name + ".play"), encoding="utf-8") as f:
        text = f.read()
    restarts = text.count("\nstart ") + text.count("\npower")
    assert len(boots) == 1 + restarts, len(boots)  # each `start` and `power` restarts the board
    if "\npower" in text:
        assert [e for e in lines if e.get("event") == "journal" and e["restored"] > 0]


def test_ludus_play_pico_refuses_a_script_longer_than_the_emulator_runs(harness):
    proc = ludus(
        "play",
        os.path.join("examples", "quiet-evening.play"),
        "--board",
        "checkers",
        "--game",
        "checkers/2",
        "--pico",
    )
    assert proc.returncode == 2 and "the script spans 1440 min of the board's time" in proc.stderr
    assert "Traceback" not in proc.stderr

"""A long game survives a power cut on the real MicroPython 1.28 build in the emulated RP2040 (rp2040js
with the project's harness): the journal's flash is written with a game made on the laptop
(ludus_host.emulator.journal_flash) and the board powered up, its watchdog's feeds timed by the harness. And
the ways back when that fails: watchdog resets counted across resets and a game kept but not
restored after two, the journal cleared over USB, the die button held at power-up for the REPL, a
host that stops reading, a long finished game handed out whole (docs/firmware.md, docs/journal.md).

The UF2 and the RP2040 bootrom come from ../shared/pico (the bootrom's licence keeps it out of this
repository); without them the tests are skipped, saying so. The longer combinations (the other mode
for each game) run in `ludus bench --pico --pico-part restore` and `pytest -m long`."""

import json
import os

import pytest
from ludus.config import read_config
from ludus_host.emulator import harness as pico
from ludus_host.emulator.journal_flash import journal_game, journal_image, journal_offset
from ludus_host.virtual.board import load_board
from tools import ludus

GAP_MS = 2000  # the longest a restore may leave the 5 s watchdog unfed (issue 42's target)


@pytest.fixture(scope="module")
def harness():
    try:
        pico.assets()
        pico.assets(romfs=True)
    except pico.PicoError as exc:
        pytest.skip(str(exc))
    return pico.node()


def _tree(tmp_path_factory, board, game, mode):
    root = tmp_path_factory.mktemp("tree")
    config = root / "config.json"
    config.write_text(json.dumps({"board": board, "game": game}))
    proc = ludus("flash", "--stage", str(root / "tree"), "--config", str(config), "--mode", mode)
    assert proc.returncode == 0, proc.stderr
    return str(root / "tree")


@pytest.fixture(scope="module")
def ludo_files(tmp_path_factory):
    return _tree(tmp_path_factory, "ludo52", "ludo/classic", "files")


@pytest.fixture(scope="module")
def checkers_romfs(tmp_path_factory):
    return _tree(tmp_path_factory, "checkers", "checkers", "romfs")


def _config(tree):
    with open(os.path.join(tree, "config.json"), encoding="utf-8") as f:
        return read_config(f.read())[0]


def _with_journal(emu, tmp_path, games, config, romfs):
    # the power cut, the journal's flash written as the laptop made it, the power back
    image = tmp_path / "journal.bin"
    image.write_bytes(journal_image(games, blocks=config["journal_kb"] // 4))
    emu.cut(0)
    emu.write_flash(journal_offset(config["journal_kb"], romfs), str(image))
    emu.power_on()


def _romfs(tree):
    return os.path.exists(os.path.join(tree, "firmware.romfs"))


def restore(tree, game, tmp_path):
    """Boot TREE with GAME unfinished in its journal: (the `journal` event, the `state` reply, the
    watchdog's feeds, the harness's notes, the `reseed` events)."""
    config = _config(tree)
    with pico.booted_pico(tree, load_board(config["board"]), config) as emu:
        _with_journal(emu, tmp_path, [game], config, _romfs(tree))
        restored = emu.wait(lambda e: e.get("event") == "journal", 120000, step_ms=250)
        emu.wait(lambda e: e.get("event") == "self_test", 30000)
        state = emu.command("state")
        reseeds = [e for e in emu.events if e.get("event") == "reseed"]
        return restored, state, emu.stats()["watchdog"], emu.notes, reseeds


def _check_restored(game, restored, state, watchdog, notes, reseeds):
    n = len(game.record.actions)
    if game.record.start.startswith("ludo"):
        # a game with dice goes on with fresh ones: the old seed revealed, a new one committed
        # (the journal's flash was readable while the power was off: docs/dice-and-records.md)
        (reseed,) = reseeds
        assert reseed["why"] == "restart" and reseed["actions"] == n, reseed
        assert reseed["seed"] == game.seed_hex and reseed["seed_sha256"] != game.record.seed_sha256
    else:
        assert reseeds == []
    assert restored is not None and restored["restored"] == n, restored
    assert state is not None and state["actions"] == n
    # the board's game is the record's, replayed on the laptop
    assert state["position"] == game.record.replay().notation()
    assert not [note for note in notes if note.get("reset")]  # no watchdog reset on the way
    assert watchdog["now"]["max_gap_ms"] < GAP_MS, watchdog
    return restored


def test_a_900_action_four_player_ludo_game_is_restored_with_files(harness, ludo_files, tmp_path):
    # the longest four-player Ludo games run to 830-909 actions; the board's worst mode for it
    game = journal_game("ludo/classic/4", 900, seed=1)
    restored = _check_restored(game, *restore(ludo_files, game, tmp_path))
    assert restored["free_low"] > 32000, restored  # the least heap left after a collection meanwhile


@pytest.mark.long  # (many emulated minutes: pytest -m long)
def test_a_300_move_six_player_checkers_game_is_restored_in_romfs(harness, checkers_romfs, tmp_path):
    game = journal_game("checkers/6", 300, seed=1)
    restored = _check_restored(game, *restore(checkers_romfs, game, tmp_path))
    assert restored["free_low"] > 100000, restored


def test_two_watchdog_resets_in_a_row_keep_the_game_and_journal_clear_lets_the_board_start_afresh(
    harness, checkers_romfs, tmp_path
):
    # the firmware as if it hung after starting its watchdog, twice: the third boot must not restore
    # the game again (the journal outlives reflashing: a restore that hung would hang for ever)
    config = _config(checkers_romfs)
    game = journal_game("checkers/2", 40, seed=2)
    with pico.booted_pico(checkers_romfs, load_board("checkers"), config) as emu:
        emu.starve(2)
        _with_journal(emu, tmp_path, [game], config, True)
        safe = emu.wait(lambda e: e.get("event") == "safe_mode", 60000, step_ms=250)
        bites = [n for n in emu.notes if n.get("reset") == "watchdog"]
        assert len(bites) == 2, emu.notes
        boots = [e for e in emu.events if e.get("event") == "boot"]
        causes = [(b["reset_cause"], b["watchdog_resets"]) for b in boots]
        # (the power-up's boot line may go before the host's terminal is open: a board with no
        # terminal attached drops its lines rather than wait)
        assert causes[-2:] == [("watchdog", 1), ("watchdog", 2)], (boots, emu.notes)
        assert set(causes[:-2]) <= {("power_on", 0)}, (boots, emu.notes)
        assert safe and "not restored" in safe["error"], safe
        hello = emu.command("hello")
        assert hello["recovery"] and hello["reset_cause"] == "watchdog"
        kept = emu.command("journal")
        assert kept["ok"] and json.loads(kept["state"]["record"])["actions"] == list(game.record.actions)
        emu.run(8000)  # the safe mode's loop feeds its watchdog: no third reset
        assert len([n for n in emu.notes if n.get("reset") == "watchdog"]) == 2
        cleared = emu.command("journal_clear", max_ms=10000)
        assert cleared and cleared["ok"] and cleared["erased"] == 12, cleared
        again = emu.wait(lambda e: e.get("event") == "self_test", 60000)
        assert again is not None
        boot = [e for e in emu.events if e.get("event") == "boot"][-1]
        assert boot["reset_cause"] == "reset" and boot["watchdog_resets"] == 0
        assert not [e for e in emu.events if e.get("event") == "journal" and e["ms"] > boot["ms"]]


def test_the_die_button_held_at_power_up_leaves_the_repl_with_no_watchdog(harness, checkers_romfs):
    config = _config(checkers_romfs)
    with pico.booted_pico(checkers_romfs, load_board("checkers"), config) as emu:
        emu.cut(0)
        emu.press(True)
        emu.power_on()
        stopped = emu.wait(lambda e: e.get("event") == "stopped", 10000)
        assert stopped and "held at power-up" in stopped["why"], emu.usb[-2000:]
        assert not [e for e in emu.events if e.get("event") == "boot"]  # the firmware never started
        emu.press(False)
        emu.run(7000)  # past the 5 s a watchdog would allow
        out, err = emu.exec("import machine\nprint(machine.reset_cause(), 6 * 7)")
        assert err == "" and out.split() == ["1", "42"]  # 1: power-on, no watchdog reset
        assert not [n for n in emu.notes if n.get("reset")]


def test_a_host_that_stops_reading_does_not_stall_the_board(harness, checkers_romfs):
    # the host keeps the port open and reads nothing for 6 s while it sends commands (whose replies
    # pile up in the USB driver): the loop ticks on, then the host reads again and is told what it
    # missed. Before, each line waited up to 0.5 s for room, and a few of them starved the watchdog.
    config = _config(checkers_romfs)
    with pico.booted_pico(checkers_romfs, load_board("checkers"), config) as emu:
        assert emu.wait(lambda e: e.get("event") == "self_test", 60000)
        emu.run(500)
        emu.host(reading=False)
        for k in range(60):
            emu.send(json.dumps({"cmd": "state", "id": 1000 + k}) + "\n")
            emu.run(100)
        emu.host(reading=True)
        hello = emu.wait(lambda e: e.get("event") == "hello", 5000)
        assert hello and hello["dropped"] > 0 and hello["referee"]["phase"] == "setup", hello
        stats = emu.command("stats")
        assert stats["link"]["dropped"] == hello["dropped"] and stats["link"]["stalls"] <= 2, stats
        # the USB driver's wait for room, when the host stopped: 0.5 s, begun again once if the host
        # took a packet meanwhile; then nothing is written until the host reads (before: up to 0.5 s
        # for every line)
        assert stats["tick"]["worst_us"] < 1100000, stats["tick"]
        assert not [n for n in emu.notes if n.get("reset")]
        assert emu.stats()["watchdog"]["now"]["max_gap_ms"] < 1200


@pytest.mark.long  # (many emulated minutes: pytest -m long)
def test_a_long_finished_game_is_handed_out_whole_with_the_watchdog_fed(harness, ludo_files, tmp_path):
    config = _config(ludo_files)
    game = journal_game("ludo/classic/4", None, seed=3)  # to its end: 960 actions
    with pico.booted_pico(ludo_files, load_board("ludo52"), config) as emu:
        _with_journal(emu, tmp_path, [game], config, False)
        assert emu.wait(lambda e: e.get("event") == "self_test", 60000)
        t0 = emu.ms
        emu.send(json.dumps({"cmd": "games", "id": 7}) + "\n")
        done = emu.wait(lambda e: e.get("id") == 7 and e.get("done"), 60000, step_ms=100)
        took = emu.ms - t0
        records = [e["record"] for e in emu.events if e.get("id") == 7 and "record" in e]
        assert done and done["count"] == 1 and records == [game.record.to_json()], done
        assert emu.stats()["watchdog"]["now"]["max_gap_ms"] < GAP_MS
        print("games: one %d-action record in %.0f ms" % (len(game.record.actions), took))


def test_the_firmware_knows_its_chip_and_where_its_image_ends_and_ludus_flash_clears_the_journal(
    harness, checkers_romfs, tmp_path
):
    from ludus_host.build.flash_tree import _CLEAR_JOURNAL

    config = _config(checkers_romfs)
    game = journal_game("checkers/2", 40, seed=4)
    with pico.booted_pico(checkers_romfs, load_board("checkers"), config) as emu:
        _with_journal(emu, tmp_path, [game], config, True)
        assert emu.wait(lambda e: e.get("event") == "journal", 60000)["restored"] == 40
        emu.send("\x03")
        out, err = emu.exec(
            "from ludus.hw.pico import Platform\nfrom ludus.hw.pico_boot import firmware_end\n"
            "p = Platform()\nprint(hex(firmware_end()), p.journal_room_kb(), p.unsupported())"
        )
        assert err == "", err
        end, room, refusal = out.split()
        assert end == "0x536fc"  # the ROMFS build's image ends here (its binary info, read on the chip)
        # the room below its ROMFS partition, where the journal sits (0x54000..0x60000)
        assert int(room) == (0x60000 - 0x54000) // 1024 and refusal == "None"
        # `ludus flash --clear-journal`'s step, as mpremote runs it
        out, err = emu.exec(_CLEAR_JOURNAL % (13, 12), timeout_ms=30000)
        assert err == "" and out.split() == ["erased", "12"], (out, err)
        out, err = emu.exec(
            "import rp2\nf = rp2.Flash()\nb = bytearray(4096)\nn = 0\nfor k in range(65, 77):\n"
            " f.readblocks(-k, b)\n n += b == b'\\xff' * 4096\nprint(n)"
        )
        assert out.split() == ["12"], (out, err)
    proc = ludus("flash", "--dry-run", "--clear-journal")
    assert proc.returncode == 0 and "clear the journal: erase its 48 KiB" in proc.stdout, proc.stdout

"""The firmware on the real MicroPython 1.28 RPI_PICO build, in an emulated RP2040 (rp2040js, npm, with
the project's harness in host_tools/pico_emu): the tree `ludus flash` stages, copied onto littlefs
and started as a Pico starts it, boots and self-tests, answers the USB link, and stops on Ctrl-C as
mpremote stops it, leaving a REPL that the watchdog no longer resets.

The UF2 and the RP2040 bootrom come from ../shared/pico (the bootrom's licence keeps it out of this
repository); LUDUS_PICO_DIR names another folder with the same layout. Without them the test is
skipped, saying so."""

import json
import os
import shutil
import subprocess

import pytest
from tools import ROOT, ludus

HARNESS = os.path.join(ROOT, "host_tools", "pico_emu")
PICO = os.environ.get("LUDUS_PICO_DIR", os.path.join(os.path.dirname(ROOT), "shared", "pico"))
UF2 = os.path.join(PICO, "RPI_PICO-v1.28.0.uf2")
BOOTROM = os.path.join(PICO, "emulator", "bootrom.bin")


@pytest.fixture(scope="module")
def harness():
    if not (os.path.exists(UF2) and os.path.exists(BOOTROM)):
        pytest.skip("no MicroPython UF2 and RP2040 bootrom in %s (see docs/firmware.md)" % PICO)
    node, npm = shutil.which("node"), shutil.which("npm")
    assert node and npm, "the emulator needs Node.js and npm (Debian: apt install nodejs npm)"
    if not os.path.exists(os.path.join(HARNESS, "node_modules", "rp2040js")):
        proc = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=HARNESS, capture_output=True, text=True, timeout=600
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return node


def test_the_flashed_firmware_runs_on_the_emulated_pico_and_hands_over_to_mpremote(harness, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"board": "checkers", "game": "checkers"}))
    tree = tmp_path / "tree"
    proc = ludus("flash", "--stage", str(tree), "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run(
        [harness, "firmware-check.mjs", "--uf2", UF2, "--bootrom", BOOTROM, "--tree", str(tree)],
        cwd=HARNESS,
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
    assert stats["ok"] and stats["tick"]["ticks"] > 100 and stats["journal"]["blocks"] == 16
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

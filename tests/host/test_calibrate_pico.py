"""The calibration wizard against the real firmware on the emulated Pico (the stock MicroPython 1.28
RPI_PICO build in rp2040js): a Ludo 40 board wired otherwise than its drawing (two sensor lines crossed,
the LED chain wired from its far end, a dead sensor, a stuck one and a dark LED). The person puts
magnets on the emulated sensor lines where the LED frames decoded from the data pin show a light. The
wizard must recover the true wiring and name each fault, and the board must take the map over its USB
link (the `file` command: checked, written to littlefs, a boot) and report the faults it records.

Skipped without ../shared/pico (the bootrom's licence keeps it out of this repository)."""

import json
import os
import sys

import pytest
from ludus.calibrate import CalibrationError, Wizard
from ludus_host.commands.calibrate import send_file
from ludus_host.emulator import harness as pico

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "firmware"))
from calibrate_rig import GAMES, Person, truth


class EmulatedTable:
    """The emulated board as built: the same truth as calibrate_rig.Table, magnets as sensor lines
    (0: a magnet), the lit LEDs read from the last decoded frame."""

    analog = False

    def __init__(self, p, board, swap=(), reverse_leds=False, dead=(), stuck=(), dark=()):
        self.pico = p
        self.board = board
        truth(self, board, swap, reverse_leds)
        self.dead, self.stuck, self.dark = dead, stuck, dark
        self.magnets = {}
        self.sense()

    def sense(self):
        lines = {}
        for cell in self.ids:
            on = (self.magnets.get(cell, 0) and cell not in self.dead) or cell in self.stuck
            lines[self.true_channel[cell]] = 0 if on else 1
        self.pico.lines(lines)

    def lit(self):
        frame = bytes.fromhex(self.pico.frames[-1][1]) if self.pico.frames else b""
        return [k for k in range(len(frame) // 3) if any(frame[3 * k : 3 * k + 3])]


class EmulatedPort:
    def __init__(self, p):
        self.pico = p

    def ask(self, cmd, **fields):
        reply = self.pico.command(cmd, max_ms=5000, **fields)
        if reply is None:
            raise CalibrationError("no answer to %s from the emulated Pico" % cmd)
        if reply.get("ok") is False:
            raise CalibrationError("%s refused: %s" % (cmd, reply.get("error")))
        return reply

    def wait(self, ms):
        self.pico.run(ms)


@pytest.fixture(scope="module")
def harness():
    try:
        pico.assets()
    except pico.PicoError as exc:
        pytest.skip(str(exc))


@pytest.mark.long  # (many emulated minutes: pytest -m long)
def test_the_wizard_learns_a_miswired_board_on_the_emulated_pico_and_the_board_takes_the_map(
    harness, tmp_path
):
    from ludus.config import read_config
    from ludus_host.virtual.board import load_board
    from tools import ludus

    config_text = json.dumps({"board": "ludo40", "game": GAMES["ludo40"]})
    (tmp_path / "config.json").write_text(config_text)
    tree = str(tmp_path / "tree")
    proc = ludus("flash", "--stage", tree, "--config", str(tmp_path / "config.json"))
    assert proc.returncode == 0, proc.stderr
    board = load_board("ludo40")
    p = pico.booted_pico(tree, board, read_config(config_text)[0])
    with p:
        assert p.wait(lambda e: e.get("event") == "self_test", 120000) is not None, p.usb[-2000:]
        table = EmulatedTable(
            p, board, swap=[("t3", "t17")], reverse_leds=True, dead=["t25"], stuck=["red.c1"], dark=[40]
        )
        person = Person(table, patience=8)
        result = Wizard(board, EmulatedPort(p), person).run()
        cells = result["wiring"]["cells"]
        assert dict((c, v[0]) for c, v in cells.items()) == table.true_channel
        assert dict((c, v[1]) for c, v in cells.items()) == table.true_led
        faults = result["faults"]
        assert len(faults) == 3 and [f for f in faults if f.startswith("dead sensor: t25")], faults
        assert [f for f in faults if "(red.c1)" in f] and [f for f in faults if "LED 40" in f], faults
        assert len(person.asked) <= 6, person.asked
        # the map onto the board, in parts over the link: checked there, written, and a reset
        seen = len(p.events)
        reply = send_file(EmulatedPort(p), "wiring.json", json.dumps(result["wiring"]))
        assert reply["restart"] and reply["written"] > 1024
        assert p.wait(lambda e: e.get("event") == "self_test", 60000) is not None
        said = [e["error"] for e in p.events[seen:] if e.get("event") == "fault" and e["where"] == "wiring"]
        assert sorted(said) == sorted(faults), said  # the map was read at boot, and its faults said
        assert any(n.get("reset") for n in p.notes), p.notes  # (a reset, as machine.reset() gives)

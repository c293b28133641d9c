"""The circuit of a board, described with SKiDL from its definition (hardware/boards/*.json, read by the
firmware's BoardDefinition) and the firmware's pin map (ludus.config.defaults()), one function per block.
A change to a board file or a pin changes the circuit. hardware/README.md gives the reason for each part.

    design = build("ludo40")        # or "ludo40-analog"
    design.erc                      # SKiDL's ERC: (errors, warnings, messages)
    design.circuit                  # the SKiDL Circuit (netlist.write() turns it into a KiCad netlist)
"""

import contextlib
import io
import json
import logging
import os
import sys
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from ludus.board.definition import BoardDefinition
from ludus.config import defaults

from ludus_host.boards import definitions as boards
from ludus_host.circuit import designators as ref
from ludus_host.circuit import parts
from ludus_host.circuit.parts import PartSpec
from ludus_host.paths import shipped_board

with contextlib.redirect_stderr(io.StringIO()):
    # SKiDL reports at import that no KiCad symbol library is configured: none is used (parts.py)
    import skidl.circuit
    import skidl.node
    from skidl import POWER, SKIDL, TEMPLATE, Circuit, Group, Net, Part, Pin
    from skidl.logger import erc_logger, stop_log_file_output

stop_log_file_output()  # no skidl .log / .erc files beside the caller
_SKIDL_DIR = os.path.dirname(skidl.circuit.__file__)


def _creation_trace() -> list[tuple[str, str]]:
    # SKiDL records where each part and net was made with inspect.stack(), which reads the source of
    # every frame: two thirds of a board's build time. The same (file, line) list from the frames alone.
    frame: FrameType | None = sys._getframe(1)
    trace = []
    while frame is not None:
        if not frame.f_code.co_filename.startswith(_SKIDL_DIR):
            trace.append((frame.f_code.co_filename, str(frame.f_lineno)))
        frame = frame.f_back
    return trace[::-1]


skidl.circuit.get_skidl_trace = _creation_trace  # type: ignore[attr-defined]
skidl.node.get_skidl_trace = _creation_trace  # type: ignore[attr-defined]

DIGITAL_BOARDS = ("checkers", "ludo52", "ludo40", "ludo56")
ANALOG_BOARD = "ludo40-analog"
VARIANTS = (*DIGITAL_BOARDS, ANALOG_BOARD)
SUPPLY_SENSE_GPIO = 21  # the firmware's config key "supply"; high while the external supply feeds the board
SEGMENT_LEDS = 32  # LEDs per power feed (hardware/README.md, "LED power")
# The analog build's pins: the select lines and ADC inputs of ludus.hw.mux's example, and two enables
# that split the multiplexers into groups sharing the three ADC pins.
ANALOG_PINS: dict[str, Any] = {
    "kind": "mux",
    "select": [10, 11, 12, 13],
    "adc": [26, 27, 28],
    "enable": [8, 9],
}

_FUNCS = {
    parts.PASSIVE: Pin.types.PASSIVE,
    parts.INPUT: Pin.types.INPUT,
    parts.OUTPUT: Pin.types.OUTPUT,
    parts.BIDIR: Pin.types.BIDIR,
    parts.OPEN_DRAIN: Pin.types.OPENCOLL,
    parts.POWER_IN: Pin.types.PWRIN,
    parts.POWER_OUT: Pin.types.PWROUT,
    parts.NO_CONNECT: Pin.types.NOCONNECT,
}


@dataclass
class Design:
    """A board's circuit and what was learnt building it."""

    name: str
    title: str
    analog: bool
    board: Any  # a BoardDefinition (its tables are made when it loads, out of mypy's sight)
    definition: dict
    pins: dict
    circuit: Circuit
    power_flags: dict[str, str] = field(default_factory=dict)  # net: what supplies it (for ERC)
    segments: list[tuple[int, int]] = field(default_factory=list)  # LED feed segments: first, last
    erc: tuple[int, int, list[str]] = (0, 0, [])

    def part_count(self) -> int:
        return len(self.circuit.parts)


class _Builder:
    """Parts and named nets in one SKiDL circuit."""

    def __init__(self, design: Design):
        self.design = design
        self.circuit = design.circuit
        self.nets: dict[str, Net] = {}
        self._templates: dict[PartSpec, Part] = {}

    def net(self, name: str) -> Net:
        if name not in self.nets:
            self.nets[name] = Net(name, circuit=self.circuit)
        return self.nets[name]

    def flag(self, name: str, why: str) -> Net:
        """A supply net whose source is a passive part (a fuse, a diode, a switch): marked driven, as a
        KiCad PWR_FLAG does, with the reason kept for the build guide."""
        n = self.net(name)
        n.drive = POWER
        self.design.power_flags[name] = why
        return n

    def part(self, spec: PartSpec, designator: str, value: str = "", **fields: str) -> Part:
        tmpl = self._templates.get(spec)
        if tmpl is None:
            tmpl = Part(
                name=spec.name,
                tool=SKIDL,
                dest=TEMPLATE,
                ref_prefix=spec.prefix,
                footprint=spec.footprint,
                pins=[Pin(num=n, name=name, func=_FUNCS[kind]) for n, name, kind in spec.pins],
            )
            self._templates[spec] = tmpl
        p = tmpl(ref=designator, tag=designator, value=value or spec.mpn, circuit=self.circuit)
        p.description = spec.description
        p.fields["Manufacturer"] = spec.manufacturer
        p.fields["MPN"] = spec.mpn
        for k, v in sorted(fields.items()):
            p.fields[k] = v
        return p

    def wire(self, p: Part, pin: str, net_name: str) -> None:
        """Pin number PIN of P to the net NET_NAME (None: an explicit no-connect)."""
        p.p[pin] += self.net(net_name)

    def nc(self, p: Part, pin: str) -> None:
        p.p[pin] += self.circuit.NC

    def two(self, spec: PartSpec, designator: str, value: str, a: str, b: str, **fields: str) -> Part:
        """A two-terminal part from net A (pin 1) to net B (pin 2)."""
        p = self.part(spec, designator, value, **fields)
        self.wire(p, "1", a)
        self.wire(p, "2", b)
        return p

    def resistor(
        self, designator: str, value: str, a: str, b: str, size: str = "0603", **fields: str
    ) -> Part:
        return self.two(parts.resistor(value, size), designator, value, a, b, **fields)

    def capacitor(self, designator: str, value: str, a: str, b: str = "GND", **fields: str) -> Part:
        return self.two(parts.capacitor(value), designator, value, a, b, **fields)

    def decouple(self, designator: str, ic: str, supply: str, value: str = "100n") -> Part:
        return self.capacitor(designator, value, supply, "GND", Decouples=ic)


def _group(name: str) -> Group:
    # a hierarchical block; the tag keeps its sheet's identity stable from one build to the next
    return Group(name, tag=name)


# ---- blocks -----------------------------------------------------------------------------------------


def power(b: _Builder) -> None:
    """The supplies: the external 5 V jack (polyfuse, reverse-polarity FET, TVS), USB's VBUS (polyfuse),
    and a priority power mux that feeds the LED rail from the jack when it is good, else from USB,
    never one into the other; the Pico's VSYS from that rail through a Schottky; the supply sense."""
    with _group("power"):
        jack = b.part(parts.JACK, "J1")
        b.wire(jack, "1", "JACK+")
        b.wire(jack, "2", "GND")
        b.two(parts.PTC_4A, "F1", "4A hold", "JACK+", "JACK_F")
        fet = b.part(parts.AO4435, "Q1")
        for pin in ("5", "6", "7", "8"):
            b.wire(fet, pin, "JACK_F")  # drain at the jack: the body diode conducts only the right way
        for pin in ("1", "2", "3"):
            b.wire(fet, pin, "VEXT")
        b.wire(fet, "4", "Q1_GATE")
        b.resistor("R1", "10k", "Q1_GATE", "GND")
        b.flag("VEXT", "the jack, through F1 and Q1")
        b.two(parts.SMAJ12A, "D1", "SMAJ12A", "VEXT", "GND")
        b.capacitor("C1", "10u", "VEXT")
        b.two(parts.PTC_05A, "F2", "0.5A hold", "VBUS", "VBUS_F")
        b.flag("VBUS_F", "USB's VBUS (the Pico's pin 40), through F2")
        mux = b.part(parts.TPS2121, ref.POWER_MUX)
        b.wire(mux, "7", "VEXT")
        b.wire(mux, "2", "VBUS_F")
        b.wire(mux, "1", "+5V_LED")
        b.wire(mux, "8", "+5V_LED")
        b.flag("+5V_LED", "U3's OUT (its two OUT pins are one switch; typed passive so they do not clash)")
        b.decouple("C2", ref.POWER_MUX, "VEXT", "1u")
        b.decouple("C3", ref.POWER_MUX, "VBUS_F", "1u")
        b.resistor("R2", "33k", "VEXT", "PR1")
        b.resistor("R3", "10k", "PR1", "GND")
        b.wire(mux, "6", "PR1")
        b.resistor("R4", "42.2k", "VEXT", "OV1")
        b.resistor("R5", "10k", "OV1", "GND")
        b.wire(mux, "5", "OV1")
        b.wire(mux, "4", "GND")  # OV2: USB needs no over-voltage cut-off
        b.wire(mux, "3", "GND")  # CP2: standard switchover
        b.resistor("R6", "24.9k", "ILM", "GND")
        b.wire(mux, "10", "ILM")
        b.capacitor("C4", "47n", "SS")
        b.wire(mux, "11", "SS")
        b.wire(mux, "12", "GND")
        b.capacitor("C5", "470u", "+5V_LED")
        b.capacitor("C6", "10u", "+5V_LED")
        b.two(parts.MBR0520, "D2", "MBR0520", "VSYS", "+5V_LED")
        b.flag("VSYS", "D2 from the LED rail, and the Pico's own diode from VBUS")
        # supply sense: the jack's 5 V divided to 3.0 V, pulled low by U3's ST while U3 runs on USB
        b.resistor("R7", "10k", "VEXT", "SUPPLY_SENSE")
        b.resistor("R8", "15k", "SUPPLY_SENSE", "GND")
        b.two(parts.BAT54WS, "D3", "BAT54WS", "+3V3", "SUPPLY_SENSE")
        b.wire(mux, "9", "SUPPLY_SENSE")
        b.flag("GND", "the returns of the jack and of USB (the Pico's ground pins)")


def controller(b: _Builder, pins: dict, analog: bool) -> None:
    """The Pico and what sits at its pins: sensor-chain termination and pull-up, the LED data pull-down,
    the die button's pull-up, filter and series resistor, the buzzer's driver, the supply sense."""
    gp = {n: "GP%d" % n for n in range(30)}
    used: dict[str, tuple[str, str]] = {}  # pin name: (net, how the firmware uses the GPIO)
    with _group("controller"):
        pico = b.part(parts.PICO, ref.PICO, "Raspberry Pi Pico")
        for name, net in (
            ("VBUS", "VBUS"),
            ("VSYS", "VSYS"),
            ("3V3_OUT", "+3V3"),
            ("GND", "GND"),
            ("AGND", "GND"),
        ):
            used[name] = (net, "")
        used[gp[pins["leds"]]] = ("LED_DATA", parts.OUTPUT)
        b.resistor("R13", "10k", "LED_DATA", "GND")  # the LED data line floats until the PIO drives it
        used[gp[pins["button"]]] = ("BUTTON", parts.INPUT)
        b.resistor("R14", "10k", "+3V3", "BUTTON_SW")
        b.resistor("R15", "1k", "BUTTON_SW", "BUTTON")
        b.capacitor("C7", "100n", "BUTTON")
        sw = b.part(parts.BUTTON, "SW1", "B3F-4055")
        b.wire(sw, "1", "BUTTON_SW")
        b.wire(sw, "2", "GND")
        used[gp[pins["buzzer"]]] = ("BUZZER", parts.OUTPUT)
        b.resistor("R16", "100", "BUZZER", "Q2_GATE")
        b.resistor("R17", "100k", "Q2_GATE", "GND")
        q = b.part(parts.N7002, "Q2")
        b.wire(q, "1", "Q2_GATE")
        b.wire(q, "2", "GND")
        b.wire(q, "3", "BUZZER_DRIVE")
        bz = b.part(parts.BUZZER, "BZ1", "CMT-8504")
        b.wire(bz, "1", "BUZZER_SUPPLY")
        b.wire(bz, "2", "BUZZER_DRIVE")
        b.resistor("R18", "47", "+5V_LED", "BUZZER_SUPPLY", size="1206")
        b.two(parts.N4148W, "D4", "1N4148W", "BUZZER_SUPPLY", "BUZZER_DRIVE")
        used[gp[SUPPLY_SENSE_GPIO]] = ("SUPPLY_SENSE", parts.INPUT)
        s = pins["sensors"]
        if analog:
            for k, n in enumerate(s["select"]):
                used[gp[n]] = ("MUX_S%d" % k, parts.OUTPUT)
            for k, n in enumerate(s["adc"]):
                used[gp[n]] = ("ADC%d" % k, parts.INPUT)
            for k, n in enumerate(s["enable"]):
                used[gp[n]] = ("MUX_EN%d" % k, parts.OUTPUT)
        else:
            used[gp[s["load"]]] = ("LOAD_GP", parts.OUTPUT)
            used[gp[s["sck"]]] = ("CLK_GP", parts.OUTPUT)
            used[gp[s["miso"]]] = ("SR_DATA", parts.INPUT)
            b.resistor("R10", "47", "CLK_GP", "SR_CLK")  # series termination at the driver
            b.resistor("R11", "47", "LOAD_GP", "SR_LOAD")
            b.resistor("R12", "10k", "SR_DATA", "+3V3")  # an open data line reads 1s
        for number, name, _ in parts.PICO.pins:
            net, use = used.get(name, ("", ""))
            if use:
                pico.p[number].func = _FUNCS[use]
            if net:
                b.wire(pico, number, net)
            else:
                b.nc(pico, number)


def level_shifter(b: _Builder) -> None:
    """The 74AHCT125, whole: gate 1 lifts the LED data to 5 V; gates 2-4 disabled, inputs tied."""
    with _group("level_shifter"):
        u = b.part(parts.AHCT125, ref.LEVEL_SHIFTER)
        b.wire(u, "1", "GND")  # 1OE: always on
        b.wire(u, "2", "LED_DATA")
        b.wire(u, "3", "LED_DATA_5V")
        for oe, a, y in (("4", "5", "6"), ("10", "9", "8"), ("13", "12", "11")):
            b.wire(u, oe, "+5V_LED")  # disabled: outputs high-impedance
            b.wire(u, a, "GND")  # a CMOS input never floats
            b.nc(u, y)
        b.wire(u, "7", "GND")
        b.wire(u, "14", "+5V_LED")
        b.decouple("C8", ref.LEVEL_SHIFTER, "+5V_LED")
        b.resistor("R19", "68", "LED_DATA_5V", "LED_D0")  # series termination at the driver


def led_chain(b: _Builder, design: Design) -> None:
    """Every LED in chain order, DOUT to the next one's DIN, a 100 nF at each, and a power feed (a
    terminal and 100 uF) at the start of every SEGMENT_LEDS LEDs."""
    board, d = design.board, design.definition
    place = {}
    for i, cid in enumerate(board.cell_ids):
        place[board.led_of_cell[i]] = cid
    for ind in d.get("indicators", []):
        place[ind["led"]] = ind["id"]
    count = board.led_count
    for s, first in enumerate(range(0, count, SEGMENT_LEDS)):
        last = min(count, first + SEGMENT_LEDS) - 1
        design.segments.append((first, last))
        with _group("leds_%d" % s):
            j_in = b.part(parts.TERMINAL, ref.feed_in(s), "LED feed", Feed=str(s))
            b.wire(j_in, "1", "+5V_LED")
            b.wire(j_in, "2", "GND")
            j_out = b.part(parts.TERMINAL, ref.feed_out(s), "LED feed", Feed=str(s))
            b.wire(j_out, "1", "+5V_LED")
            b.wire(j_out, "2", "GND")
            b.capacitor(ref.feed_capacitor(s), "100u", "+5V_LED", Place=place[first])
            for k in range(first, last + 1):
                led = b.part(parts.WS2812B, ref.led(k), "WS2812B", Place=place[k])
                b.wire(led, "1", "+5V_LED")
                b.wire(led, "3", "GND")
                b.wire(led, "4", "LED_D%d" % k)
                if k + 1 < count:
                    b.wire(led, "2", "LED_D%d" % (k + 1))
                else:
                    b.nc(led, "2")
                b.decouple(ref.led_capacitor(k), ref.led(k), "+5V_LED")


def sensor_cell(b: _Builder, channel: int, place: str, analog: bool) -> str:
    """One cell's sensor with its decoupling (and, digital, its pull-up at the chip's input, so a broken
    wire reads empty); the net its output drives."""
    out = ("A%d" if analog else "S%d") % channel
    supply = "+3V3_S" if analog else "+3V3"
    h = b.part(parts.DRV5055A3 if analog else parts.DRV5032DU, ref.sensor(channel), Place=place)
    b.wire(h, "1", supply)
    b.wire(h, "2", out)
    b.wire(h, "3", "GND")
    b.decouple(ref.sensor_capacitor(channel), ref.sensor(channel), supply)
    if not analog:
        b.resistor(ref.pull_up(channel), "10k", out, "+3V3", Place=place)
    return out


def shift_bank(b: _Builder, k: int, chips: int, cells: dict[int, str]) -> None:
    """74HC165 number k with the sensors of its eight channels (CELLS: input -> cell id): QH through a
    series resistor to the previous chip's SER (chip 0: to the Pico), SER from the next chip (the last
    chip's grounded, so the byte read past the chain is 0), SH/LD and CLK from the bussed lines."""
    with _group("sensors_%s" % ref.chip(k)):
        u = b.part(parts.HC165, ref.chip(k))
        b.wire(u, "1", "SR_LOAD")
        b.wire(u, "2", "SR_CLK")
        b.wire(u, "15", "GND")
        b.wire(u, "8", "GND")
        b.wire(u, "16", "+3V3")
        b.nc(u, "7")
        b.decouple(ref.chip_capacitor(k), ref.chip(k), "+3V3")
        b.wire(u, "9", "SR_QH%d" % k)
        b.resistor(ref.chip_series(k), "47", "SR_QH%d" % k, "SR_DATA" if k == 0 else "SR_SER%d" % (k - 1))
        b.wire(u, "10", "GND" if k == chips - 1 else "SR_SER%d" % k)
        for i, letter in enumerate(parts.HC165_INPUTS):
            channel = 8 * k + i
            pin = parts.HC165.pin(letter)
            if i in cells:
                b.wire(u, pin, sensor_cell(b, channel, cells[i], analog=False))
            else:
                b.wire(u, pin, "+3V3")  # no cell on this channel: reads empty


def sensor_supply(b: _Builder) -> None:
    """The analog build's 3.3 V for its sensors and multiplexers: a buck from the LED rail (a hundred
    DRV5055 need more than the Pico's 300 mA regulator gives)."""
    with _group("sensor_supply"):
        u = b.part(parts.TPS563201, ref.SENSOR_REGULATOR)
        b.wire(u, "3", "+5V_LED")
        b.wire(u, "1", "GND")
        b.wire(u, "2", "BUCK_SW")
        b.wire(u, "4", "BUCK_FB")
        b.wire(u, "5", "BUCK_EN")
        b.wire(u, "6", "BUCK_BST")
        b.resistor("R22", "100k", "+5V_LED", "BUCK_EN")
        b.capacitor("C9", "100n", "BUCK_BST", "BUCK_SW")
        b.decouple("C10", ref.SENSOR_REGULATOR, "+5V_LED", "10u")
        b.decouple("C11", ref.SENSOR_REGULATOR, "+5V_LED", "10u")
        b.two(parts.INDUCTOR, "L1", "3.3uH", "BUCK_SW", "+3V3_S")
        b.flag("+3V3_S", "U4 through L1")
        b.capacitor("C12", "22u", "+3V3_S")
        b.capacitor("C13", "22u", "+3V3_S")
        b.resistor("R23", "33.2k", "+3V3_S", "BUCK_FB")
        b.resistor("R24", "10k", "BUCK_FB", "GND")


def mux_bank(b: _Builder, k: int, adcs: int, cells: dict[int, str]) -> None:
    """CD74HC4067 number k at 3.3 V with the linear sensors of its 16 channels; its common pin to ADC
    k mod ADCS, enabled with its group (banks 0..ADCS-1, then the next ADCS)."""
    with _group("sensors_%s" % ref.chip(k)):
        u = b.part(parts.CD74HC4067, ref.chip(k))
        b.wire(u, "24", "+3V3_S")
        b.wire(u, "12", "GND")
        b.decouple(ref.chip_capacitor(k), ref.chip(k), "+3V3_S")
        for s, name in enumerate(("S0", "S1", "S2", "S3")):
            b.wire(u, parts.CD74HC4067.pin(name), "MUX_S%d" % s)
        b.wire(u, "15", "MUX_EN%d" % (k // adcs))
        b.wire(u, "1", "ADC%d" % (k % adcs))
        for i in range(16):
            pin = parts.CD74HC4067.pin("I%d" % i)
            if i in cells:
                b.wire(u, pin, sensor_cell(b, 16 * k + i, cells[i], analog=True))
            else:
                b.wire(u, pin, "GND")


# ---- the whole board --------------------------------------------------------------------------------


def board_definition(name: str) -> dict:
    """The parsed definition of board NAME: its file in hardware/boards, or for the analog build the
    generator's Ludo 40 with analog sensors."""
    if name == ANALOG_BOARD:
        return boards.generate("ludo40", sensor_kind="analog")
    with open(shipped_board(name), encoding="utf-8") as f:
        return json.load(f)


def build(name: str) -> Design:
    """The circuit of board NAME (one of VARIANTS), with SKiDL's ERC run on it."""
    d = board_definition(name)
    board = BoardDefinition.from_dict(d)
    analog = board.sensor_kind == "analog"
    pins = dict(defaults()["pins"])
    if analog:
        pins["sensors"] = ANALOG_PINS
    design = Design(
        name=name,
        title=d["name"] + (" (analog sensors)" if analog else ""),
        analog=analog,
        board=board,
        definition=d,
        pins=pins,
        circuit=Circuit(),
    )
    design.circuit.no_files = True
    design.circuit.track_src = False
    b = _Builder(design)
    with design.circuit:
        power(b)
        controller(b, pins, analog)
        level_shifter(b)
        led_chain(b, design)
        by_chip: dict[int, dict[int, str]] = {}
        size = 16 if analog else 8
        for i, cid in enumerate(board.cell_ids):
            ch = board.channel_of_cell[i]
            by_chip.setdefault(ch // size, {})[ch % size] = cid
        chips = (board.channel_count + size - 1) // size
        if analog:
            sensor_supply(b)
            for k in range(chips):
                mux_bank(b, k, len(pins["sensors"]["adc"]), by_chip.get(k, {}))
            with _group("mux_enables"):
                for k in range((chips + len(pins["sensors"]["adc"]) - 1) // len(pins["sensors"]["adc"])):
                    b.resistor("R%d" % (20 + k), "10k", "MUX_EN%d" % k, "+3V3_S")  # off until driven
        else:
            for k in range(chips):
                shift_bank(b, k, chips, by_chip.get(k, {}))
        design.erc = run_erc(design.circuit)
    return design


def run_erc(circuit: Circuit) -> tuple[int, int, list[str]]:
    """SKiDL's electrical rules check of CIRCUIT: (errors, warnings, their messages)."""
    messages = io.StringIO()
    handler = logging.StreamHandler(messages)
    handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    erc_logger.addHandler(handler)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            circuit.ERC()
    finally:
        erc_logger.removeHandler(handler)
    lines = [m for m in messages.getvalue().splitlines() if m.startswith(("ERROR", "WARNING"))]
    return erc_logger.error.count, erc_logger.warning.count, lines

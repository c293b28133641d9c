"""The boards' circuits (ludus_host.circuit): built from the board definitions and the firmware's pins,
clean under SKiDL's ERC, every sensor on the chip input its channel names, the LED chain in the
definition's order, every chip supplied and decoupled, the review's faults fixed in the netlist itself,
the KiCad footprints real; the committed netlists, schematics and BOMs what the generator writes; the
magnet model and the capture radius of every board."""

import copy
import csv
import io
import math
import os
import re
import shutil
import subprocess
import types
import xml.etree.ElementTree as ET

import pytest
from ludus.board.definition import BoardDefinition
from ludus.config import defaults
from ludus_host.boards import documents as hardware
from ludus_host.boards import magnetics
from ludus_host.circuit import checks, design, netlist, outputs, parts
from ludus_host.circuit import designators as ref
from tools import ROOT

VARIANTS = design.VARIANTS
KICAD = "/usr/share/kicad"
# 74HC165 inputs A..H (wiring.md; Nexperia 74HC165 pin configuration), written out again here on purpose
HC165_INPUT_PINS = {0: "11", 1: "12", 2: "13", 3: "14", 4: "3", 5: "4", 6: "5", 7: "6"}


def _committed(name, fname):
    with open(os.path.join(ROOT, "hardware", name, fname), encoding="utf-8") as f:
        return f.read()


def _netlist(name):
    return netlist.parse(_committed(name, "circuit.net"))


@pytest.mark.parametrize("name", VARIANTS)
def test_the_committed_circuit_documents_are_what_the_generator_writes(name):
    docs = outputs.documents(name)
    assert sorted(docs) == sorted(outputs.FILES)
    for fname, text in docs.items():
        assert text == _committed(name, fname), "hardware/%s/%s is stale: run ludus boards circuit" % (
            name,
            fname,
        )
    # reproducible: no date, no path of the machine that wrote it
    assert '(date "")' in docs["circuit.net"] and ROOT not in docs["circuit.net"]


@pytest.mark.parametrize("name", VARIANTS)
def test_the_erc_is_clean(name):
    errors, warnings, messages = outputs.built(name).erc
    assert (errors, warnings, messages) == (0, 0, [])


def test_the_erc_catches_a_fault():
    # the check is live: two outputs driving one net, and a chip input left open, are reported
    d = design.build("ludo40")
    with d.circuit:
        led = next(p for p in d.circuit.parts if p.ref == "LED5")
        u = next(p for p in d.circuit.parts if p.ref == "U10")
        led.p["2"] += u.p["9"].net  # LED5's DOUT onto U10's QH line
    errors, _, messages = design.run_erc(d.circuit)
    assert errors >= 1 and any("OUTPUT" in m and "LED5" in m and "U10" in m for m in messages), messages


@pytest.mark.parametrize("name", VARIANTS)
def test_every_sensor_reaches_the_input_its_channel_names(name):
    d = outputs.built(name)
    nl = _netlist(name)
    board = d.board
    assert board.cell_count == sum(1 for c in nl.components if re.fullmatch(r"H\d+", c))
    for i, cid in enumerate(board.cell_ids):
        ch = board.channel_of_cell[i]
        h = "H%d" % ch
        assert nl.components[h].fields["Place"] == cid
        if d.analog:
            # CD74HC4067 I0..I7 on pins 9..2, I8..I15 on pins 23..16
            k = ch % 16
            pin = str(9 - k) if k < 8 else str(23 - (k - 8))
            chip = "U%d" % (10 + ch // 16)
        else:
            pin, chip = HC165_INPUT_PINS[ch % 8], "U%d" % (10 + ch // 8)
        assert nl.pin_net(h, "2") == nl.pin_net(chip, pin), (cid, ch, h, chip, pin)
    assert checks.check_sensors(nl, board) == []


@pytest.mark.parametrize("name", VARIANTS)
def test_the_led_chain_runs_in_the_definitions_order(name):
    d = outputs.built(name)
    nl = _netlist(name)
    places = {ind["led"]: ind["id"] for ind in d.definition["indicators"]}
    places.update({d.board.led_of_cell[i]: cid for i, cid in enumerate(d.board.cell_ids)})
    assert sum(1 for c in nl.components if c.startswith("LED")) == d.board.led_count
    # LED0's data comes from the level shifter's 1Y through its series resistor
    r19 = {nl.pin_net("R19", "1"), nl.pin_net("R19", "2")}
    assert r19 == {nl.pin_net("U2", "3"), nl.pin_net("LED0", "4")}
    for k in range(d.board.led_count):
        assert nl.components["LED%d" % k].fields["Place"] == places[k]
        if k:
            assert nl.pin_net("LED%d" % k, "4") == nl.pin_net("LED%d" % (k - 1), "2")
    assert nl.pin_net("LED%d" % (d.board.led_count - 1), "2") is None
    assert checks.check_leds(nl, d.board, places) == []


@pytest.mark.parametrize("name", VARIANTS)
def test_every_chip_has_its_supply_and_a_decoupling_capacitor(name):
    nl = _netlist(name)
    assert checks.check_supplies(nl) == []
    for r in nl.components:
        if r.startswith(("U", "H", "LED")) and r != "U1":
            caps = [c for c in nl.components.values() if c.fields.get("Decouples") == r]
            assert caps, r
            power = {nl.pin_net(r, n.pin) for n in nl.pins(r) if n.kind == "power_in"}
            assert "GND" in power and any(
                {nl.pin_net(c.ref, "1"), nl.pin_net(c.ref, "2")} <= power for c in caps
            )


@pytest.mark.parametrize("name", VARIANTS)
def test_all_the_checks_pass(name):
    d = outputs.built(name)
    assert checks.check(_netlist(name), d.board, d.definition, d.pins) == []


def test_a_board_file_that_disagrees_with_the_circuit_is_named():
    d = outputs.built("ludo52")
    nl = _netlist("ludo52")
    mutated = copy.deepcopy(d.definition)
    cells = {c["id"]: c for c in mutated["cells"]}
    cells["t0"]["channel"], cells["t1"]["channel"] = cells["t1"]["channel"], cells["t0"]["channel"]
    cells["green.c0"]["led"], cells["green.c1"]["led"] = cells["green.c1"]["led"], cells["green.c0"]["led"]
    board = BoardDefinition.from_dict(mutated)
    faults = checks.check(nl, board, mutated, d.pins)
    assert any("t0" in f and "H%d" % cells["t0"]["channel"] in f for f in faults), faults
    assert any("LED%d" % cells["green.c0"]["led"] in f and "green.c0" in f for f in faults), faults
    # a board with one more chip than the circuit has
    bigger = copy.deepcopy(d.definition)
    bigger["sensors"]["channels"] += 16
    bigger["cells"][0]["channel"] = bigger["sensors"]["channels"] - 1
    faults = checks.check(nl, BoardDefinition.from_dict(bigger), bigger, d.pins)
    assert any("missing" in f for f in faults) and any("no sensor" in f for f in faults), faults


def test_a_broken_wire_in_the_netlist_is_found():
    text = _committed("ludo40", "circuit.net")
    nl = netlist.parse(text)
    d = outputs.built("ludo40")
    out = nl.pin_net("H20", "2")
    nl.nets[out] = [n for n in nl.nets[out] if n.ref != "U12"]  # H20's line no longer reaches U12.E
    nl._pin_net.clear()
    nl._by_ref.clear()
    faults = checks.check(nl, d.board, d.definition, d.pins)
    assert any("H20 does not reach U12.E" in f for f in faults), faults
    cut = netlist.parse(text)
    cut.nets["GND"] = [n for n in cut.nets["GND"] if not (n.ref == "U19" and n.pin == "10")]
    assert any("U19 is the last chip" in f for f in checks.check_chain(cut, d.board, d.pins))


@pytest.mark.parametrize("name", hardware.BOARDS)
def test_the_sensor_chain_ends_grounded_and_its_lines_are_terminated(name):
    nl = _netlist(name)
    pins = defaults()["pins"]["sensors"]
    chips = sorted((c for c in nl.components if nl.components[c].part == "74HC165"), key=ref.natural_key)
    assert chips[0] == "U10"
    assert nl.pin_net(chips[-1], "10") == "GND"  # the last SER: the byte read past the chain is 0
    data = nl.pin_net("U1", str(hardware.PICO_PINS[pins["miso"]]))
    pull = [n.ref for n in nl.nets[data] if n.ref.startswith("R") and "+3V3" in _other_side(nl, n)]
    assert pull, "no pull-up on the data line: an open line would read as an empty board"
    for gp, line in ((pins["sck"], "SR_CLK"), (pins["load"], "SR_LOAD")):
        net = nl.pin_net("U1", str(hardware.PICO_PINS[gp]))
        series = [n.ref for n in nl.nets[net] if n.ref.startswith("R") and line in _other_side(nl, n)]
        assert series and nl.components[series[0]].value in ("33", "47", "68", "100")
        assert {n.ref for n in nl.nets[line] if n.pin == ("2" if line == "SR_CLK" else "1")} >= set(chips)


def _other_side(nl, node):
    return {nl.pin_net(node.ref, p.pin) for p in nl.pins(node.ref) if p.pin != node.pin}


def _capacitance_uf(nl, net):
    scale = {"n": 1e-3, "u": 1.0}
    total = 0.0
    for n in nl.nets.get(net, []):
        c = nl.components[n.ref]
        if n.ref.startswith("C") and "GND" in _other_side(nl, n):
            total += float(c.value[:-1]) * scale[c.value[-1]]
    return total


@pytest.mark.parametrize("name", VARIANTS)
def test_the_power_path_never_feeds_usb_and_is_protected(name):
    nl = _netlist(name)
    # VBUS: only the Pico's own pin and F2, whose other side goes to U3's IN2 (which blocks reverse current)
    assert {(n.ref, n.pin) for n in nl.nets["VBUS"]} == {("U1", "40"), ("F2", "1")}
    assert nl.pin_net("U3", "2") == nl.pin_net("F2", "2")
    # at most 10 uF on the USB side at attach; the bulk behind the mux (soft-started) and on the jack side
    assert _capacitance_uf(nl, "VBUS") + _capacitance_uf(nl, "VBUS_F") <= 10
    assert _capacitance_uf(nl, "+5V_LED") >= 470
    # the jack: polyfuse, then the P-MOSFET with its drain at the jack side and gate to ground, a TVS
    assert nl.pin_net("J1", "1") == nl.pin_net("F1", "1")
    assert {nl.pin_net("Q1", p) for p in "5678"} == {nl.pin_net("F1", "2")}
    assert {nl.pin_net("Q1", p) for p in "123"} == {"VEXT"} and nl.pin_net("U3", "7") == "VEXT"
    assert nl.components["D1"].fields["MPN"].startswith("SMAJ") and nl.pin_net("D1", "1") == "VEXT"
    # VSYS only from the LED rail through D2's anode->cathode, never the rail from VSYS
    assert {(n.ref, n.pin) for n in nl.nets["VSYS"]} == {("U1", "39"), ("D2", "1")}
    assert nl.pin_net("D2", "2") == "+5V_LED"
    # supply sense on GP21: divided from VEXT, clamped, pulled down by U3's ST while on USB
    sense = nl.pin_net("U1", str(hardware.PICO_PINS[design.SUPPLY_SENSE_GPIO]))
    assert nl.pin_net("U3", "9") == sense and nl.pin_net("D3", "2") == sense
    assert {nl.pin_net("R7", "1"), nl.pin_net("R7", "2")} == {"VEXT", sense}


@pytest.mark.parametrize("name", VARIANTS)
def test_the_level_shifter_button_and_buzzer_are_whole(name):
    nl = _netlist(name)
    pins = defaults()["pins"]
    u2 = {p: nl.pin_net("U2", p) for p in map(str, range(1, 15))}
    assert u2["14"] == "+5V_LED" and u2["7"] == "GND" and u2["1"] == "GND"
    for oe, a in (("4", "5"), ("10", "9"), ("13", "12")):
        assert (u2[oe], u2[a]) == ("+5V_LED", "GND")  # unused gates off, inputs tied
    data = nl.pin_net("U1", str(hardware.PICO_PINS[pins["leds"]]))
    assert any("GND" in _other_side(nl, n) and n.ref.startswith("R") for n in nl.nets[data])  # pull-down
    button = nl.pin_net("U1", str(hardware.PICO_PINS[pins["button"]]))
    series = [
        n for n in nl.nets[button] if n.ref.startswith("R") and nl.pin_net("SW1", "1") in _other_side(nl, n)
    ]
    assert series, "no series resistor between the button's wire and its pin"
    assert _capacitance_uf(nl, button) > 0  # the RC filter
    assert any("+3V3" in _other_side(nl, n) for n in nl.nets[nl.pin_net("SW1", "1")] if n.ref.startswith("R"))
    buzzer = nl.pin_net("U1", str(hardware.PICO_PINS[pins["buzzer"]]))
    assert nl.components["BZ1"].fields["MPN"] == "CMT-8504-100-SMT-TR"
    assert nl.pin_net("Q2", "3") == nl.pin_net("BZ1", "2") and nl.pin_net("D4", "2") == nl.pin_net("BZ1", "2")
    assert any(nl.pin_net("Q2", "1") in _other_side(nl, n) for n in nl.nets[buzzer])


def test_the_analog_build_runs_its_multiplexers_and_sensors_at_3v3():
    nl = _netlist(design.ANALOG_BOARD)
    muxes = [c for c in nl.components if nl.components[c].part == "CD74HC4067"]
    assert len(muxes) == 5
    for m in muxes:
        assert nl.pin_net(m, "24") == "+3V3_S"  # never the 5 V rail: the ADC sees at most 3.3 V
        assert nl.pin_net(m, "1") in ("ADC0", "ADC1", "ADC2")
    for c in nl.components:
        if c.startswith("H"):
            assert nl.pin_net(c, "1") == "+3V3_S"
    for k, gp in enumerate(design.ANALOG_PINS["adc"]):
        assert nl.pin_net("U1", str(hardware.PICO_PINS[gp])) == "ADC%d" % k


def _footprint_library():
    if not os.path.isdir(os.path.join(KICAD, "footprints")):
        _apt("kicad-footprints")
    return os.path.join(KICAD, "footprints")


def _symbol_library():
    if not os.path.isdir(os.path.join(KICAD, "symbols")):
        _apt("kicad-symbols")
    return os.path.join(KICAD, "symbols")


def _apt(package):
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("KiCad's %s is not installed (as root: apt-get install %s)" % (package, package))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=False)
    r = subprocess.run(
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", package],
        env=env,
        capture_output=True,
        text=True,
    )
    if r.returncode:
        pytest.fail("apt-get could not install %s: %s" % (package, r.stderr[-2000:]))


def test_every_footprint_is_kicads_and_has_a_pad_for_every_pin():
    lib = _footprint_library()
    seen = {}
    for name in VARIANTS:
        nl = _netlist(name)
        for c in nl.components.values():
            used = {n.pin for n in nl.pins(c.ref)}
            seen.setdefault(c.footprint, set()).update(used)
    for fp, pins in sorted(seen.items()):
        if fp in parts.PROJECT_FOOTPRINTS:
            continue
        nick, _, fname = fp.partition(":")
        path = os.path.join(lib, nick + ".pretty", fname + ".kicad_mod")
        assert os.path.isfile(path), "no KiCad footprint %s" % fp
        with open(path, encoding="utf-8") as f:
            pads = set(re.findall(r'\(pad "([^"]*)"', f.read()))
        assert pins <= pads, (fp, sorted(pins - pads))
    assert {fp for fp in seen if fp.startswith("Ludus:")} == set(parts.PROJECT_FOOTPRINTS)


def _kicad_symbol_pins(lib, name):
    with open(lib, encoding="utf-8") as f:
        text = f.read()
    start = text.index('(symbol "%s"' % name)
    end = text.find('\n  (symbol "', start + 10)
    block = text[start:end]
    base = re.search(r'\(extends "([^"]*)"\)', block)
    if base:
        return _kicad_symbol_pins(lib, base.group(1))
    return {num: nm for nm, num in re.findall(r'\(name "([^"]*)".*?\(number "([^"]*)"', block, re.S)}


@pytest.mark.parametrize(
    "spec, lib, symbol, rename",
    [
        (parts.HC165, "74xx", "74HC165", {}),
        (parts.CD74HC4067, "74xx", "CD74HC4067M", {"~E": "~{E}"}),
        (parts.WS2812B, "LED", "WS2812B", {}),
        (parts.DRV5055A3, "Sensor_Magnetic", "DRV5055A3xDBZxQ1", {}),
    ],
)
def test_pin_maps_agree_with_kicads_symbols(spec, lib, symbol, rename):
    theirs = _kicad_symbol_pins(os.path.join(_symbol_library(), lib + ".kicad_sym"), symbol)
    ours = {n: rename.get(name, name) for n, name, _ in spec.pins}
    assert set(ours) == set(theirs)
    for n in ours:
        # power pins by name; logic pins by position (names differ between makers: A..H vs D0..D7)
        if ours[n] in (
            "VCC",
            "GND",
            "VDD",
            "VSS",
            "OUT",
            "DIN",
            "DOUT",
            "COM",
            "~{E}",
            "S0",
            "S1",
            "S2",
            "S3",
        ):
            assert theirs[n] == ours[n], (n, theirs[n], ours[n])


def test_the_magnet_model_agrees_with_the_closed_form_on_the_axis_and_with_a_dipole_far_away():
    for d, h, z in ((6, 3, 2), (6, 3, 5), (8, 3, 7), (5, 2, 12)):
        assert math.isclose(
            magnetics.field_bz_mt(1.28, d, h, 0, z), magnetics.axial_field_mt(1.28, d, h, z), rel_tol=1e-9
        )
    # far off, the disc is a dipole at its centre: Bz = Br V / (4 pi r^3) (3 cos^2 - 1)
    volume = math.pi * 4**2 * 3
    for rho in (40, 60):
        depth = 7 + 1.5
        r = math.hypot(rho, depth)
        dipole = 1000 * 1.28 * volume / (4 * math.pi * r**3) * (3 * (depth / r) ** 2 - 1)
        assert math.isclose(magnetics.field_bz_mt(1.28, 8, 3, rho, 7), dipole, rel_tol=0.02)
    # the review's figures for a 6 x 3 mm N42 at 5 mm: ~15 mT 5 mm off the axis, ~4.7 at 7, zero near 9.5
    bz = lambda rho: magnetics.field_bz_mt(1.28, 6, 3, rho, 5)  # noqa: E731
    assert 14 < bz(5) < 16 and 4.4 < bz(7) < 5.0 and bz(9.3) > 0 > bz(9.7)


@pytest.mark.parametrize("name", hardware.BOARDS)
def test_every_cell_sees_a_hand_placed_piece_and_never_its_neighbours(name):
    d = hardware._load(name)
    pieces = hardware.PIECES["checkers" if d["game"] == "checkers" else "ludo"]
    rows = magnetics.role_captures(d, hardware.SENSING, pieces)
    assert {r.role for r in rows} == {c["role"] for c in d["cells"]}
    for r in rows:
        assert r.worst_mm >= hardware.hand_allowance_mm(d), r
        assert r.worst_mm <= r.nominal_mm and r.along_mt == 0 and r.opposing_mt < 0
    # a piece in its recess is well inside the capture radius
    assert (hardware.SENSING.recess_diameter_mm - hardware.SENSING.piece_base_mm) / 2 < min(
        r.worst_mm for r in rows
    )
    text = _committed(name, "parts.md")
    for r in rows:
        assert "| %s | %d |" % (r.role, r.cells) in text and "**%.1f mm**" % r.worst_mm in text


def test_a_stronger_neighbour_shrinks_the_capture_and_an_omnipolar_switch_would_see_it():
    d = hardware._load("ludo52")
    unipolar = {r.role: r for r in magnetics.role_captures(d, hardware.SENSING, 16)}
    # 16 mm apart home slots: the pieces around push the worst capture below the lone piece's
    assert unipolar["home"].worst_mm < unipolar["home"].nominal_mm
    # the opposing field exceeds what an omnipolar switch's release point tolerates (0.5 mT for the
    # DRV5032FA/FC): the reason for the unipolar part
    assert abs(unipolar["home"].opposing_mt) > 0.5


@pytest.mark.parametrize("name", VARIANTS)
def test_the_bom_lists_every_part_once_with_its_maker_and_number(name):
    nl = _netlist(name)
    rows = list(csv.DictReader(io.StringIO(_committed(name, "bom.csv"))))
    listed = [r for row in rows for r in row["References"].split()]
    assert sorted(listed) == sorted(nl.components) and len(listed) == len(set(listed))
    for row in rows:
        assert row["Manufacturer"] and row["MPN"] and row["Footprint"], row
        assert int(row["Quantity"]) == len(row["References"].split())
    # one set of designators: parts.md names the same parts in the same numbers
    text = _committed(name, "parts.md")
    for row in rows:
        assert "%s %s | %s |" % (row["Manufacturer"], row["MPN"], row["Quantity"]) in text, row["MPN"]


@pytest.mark.parametrize("name", VARIANTS)
def test_the_schematic_draws_every_part_and_net(name):
    nl = _netlist(name)
    root = ET.fromstring(_committed(name, "schematic.svg"))
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    words = {w for t in texts if t for w in t.split()}
    assert set(nl.components) <= words
    assert set(nl.nets) <= texts
    sheets = {t[len("sheet: ") :] for t in texts if t and t.startswith("sheet: ")}
    assert {"power", "controller", "level shifter"} <= sheets


def test_the_circuit_command_shows_progress_and_writes_every_board(tmp_path, capsys):
    from ludus_host.commands import boards as cmd_boards

    assert cmd_boards.run(types.SimpleNamespace(action="circuit", out=str(tmp_path))) == 0
    out = capsys.readouterr().out
    for name in VARIANTS:
        assert "%s: building the circuit" % name in out
        assert re.search(r"%s: \d+ parts, ERC 0 errors, 0 warnings" % re.escape(name), out)
        for fname in outputs.FILES:
            assert os.path.isfile(tmp_path / name / fname)

"""The build documents under hardware/ (ludus_host.boards.documents): generated from the board definitions,
their circuits and the firmware's default pins, committed, and kept in step; every cell of every board on
every drawing; the drilling template at true scale, with the LED counterbores and the die button's hole where
the PCB puts it; the parts list's counts and power budgets the firmware's
own; wiring.md's pins the firmware's."""

import os
import xml.etree.ElementTree as ET

import pytest
from ludus.board.definition import BoardDefinition
from ludus.config import defaults
from ludus_host.boards import documents as hardware
from ludus_host.circuit import designators as ref
from ludus_host.circuit import outputs as circuit
from ludus_host.paths import board_file
from ludus_host.pcb import FINISHED, check
from ludus_host.pcb import outputs as pcb
from tools import ROOT

SVG = "{http://www.w3.org/2000/svg}"


def test_the_committed_documents_are_what_the_generator_writes(tmp_path):
    written = hardware.write_all(str(tmp_path), pcbs=os.path.join(ROOT, "hardware"))
    # per board: parts.md, three drawings, the circuit's three documents; the analog build: parts.md and
    # the circuit's; wiring.md and wiring.svg
    assert len(written) == 4 * 7 + 4 + 2
    for path in written:
        rel = os.path.relpath(path, str(tmp_path))
        with (
            open(path, encoding="utf-8") as f,
            open(os.path.join(ROOT, "hardware", rel), encoding="utf-8") as g,
        ):
            assert f.read() == g.read(), "hardware/%s is stale: run ludus boards hardware" % rel


def _texts(path):
    root = ET.parse(path).getroot()  # (well-formed XML, or this raises)
    return root, [t.text or "" for t in root.iter(SVG + "text")]


@pytest.mark.parametrize("name", hardware.BOARDS)
def test_every_cell_appears_on_every_drawing_of_its_board(name):
    board = BoardDefinition.load(board_file(name))
    ids = set(board.cell_ids)
    for drawing in ("layout", "drill", "chains"):
        _, texts = _texts(os.path.join(ROOT, "hardware", name, drawing + ".svg"))
        words = set(w for t in texts for w in t.split())
        assert ids <= words, (drawing, sorted(ids - words)[:5])
    # the layout names each cell's channel and LED; the chains drawing each cell's chip and input
    _, texts = _texts(os.path.join(ROOT, "hardware", name, "layout.svg"))
    for i in range(board.cell_count):
        assert "c%d L%d" % (board.channel_of_cell[i], board.led_of_cell[i]) in texts
    _, texts = _texts(os.path.join(ROOT, "hardware", name, "chains.svg"))
    for i in range(board.cell_count):
        ch = board.channel_of_cell[i]
        assert ref.chip_input(ch) in texts and ref.chip_input(ch).startswith("U%d." % (10 + ch // 8))


@pytest.mark.parametrize("name", hardware.BOARDS)
def test_the_drilling_template_prints_at_true_size(name):
    board = BoardDefinition.load(board_file(name))
    root, texts = _texts(os.path.join(ROOT, "hardware", name, "drill.svg"))
    width = float(root.get("width")[:-2])
    assert root.get("width").endswith("mm") and root.get("viewBox").split()[2] == "%g" % width
    # one unit is one millimetre, and the scale bar is 100 of them
    assert any("100 mm" in t for t in texts)
    bar = [
        p.get("d")
        for p in root.iter(SVG + "path")
        if p.get("d", "").startswith("M10 ") and "h100" in p.get("d")
    ]
    assert bar
    recesses = [c for c in root.iter(SVG + "circle") if c.get("stroke") == "black"]
    assert len(recesses) == board.cell_count
    assert {float(c.get("r")) * 2 for c in recesses} == {hardware.SENSING.recess_diameter_mm}


@pytest.mark.parametrize("name", hardware.BOARDS)
def test_the_drilling_template_marks_each_counterbore_and_the_button_hole_over_sw1(name):
    board = BoardDefinition.load(board_file(name))
    root, texts = _texts(os.path.join(ROOT, "hardware", name, "drill.svg"))
    circles = list(root.iter(SVG + "circle"))
    windows = {
        (c.get("cx"), c.get("cy")) for c in circles if c.get("stroke") == "#c00" and not c.get("class")
    }
    bores = [c for c in circles if c.get("class") == "counterbore"]
    # one round each cell's window, 8 mm across (the die's pips share one pocket, a rectangle)
    assert len(bores) == board.cell_count
    assert {(c.get("cx"), c.get("cy")) for c in bores} <= windows
    assert {float(c.get("r")) * 2 for c in bores} == {hardware.COUNTERBORE_MM}
    pockets = [r for r in root.iter(SVG + "rect") if r.get("class") == "counterbore"]
    assert len(pockets) == (1 if circuit.definition(name).get("indicators") else 0)
    # the button's hole: 13 mm, centred on SW1's four pads as the committed PCB has them (a board
    # whose PCB is not finished has none yet)
    buttons = [c for c in circles if c.get("class") == "button"]
    if name not in FINISHED:
        assert buttons == []
        return
    (hole,) = buttons
    assert float(hole.get("r")) * 2 == hardware.BUTTON_HOLE_MM
    sw1 = check.parse(pcb.board_text(os.path.join(ROOT, "hardware", name, "pcb"), name)).footprints["SW1"]
    xs = [p[2] for p in sw1.places]
    ys = [p[3] for p in sw1.places]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    assert (float(hole.get("cx")), float(hole.get("cy"))) == pytest.approx(centre, abs=0.01)
    assert any(t.startswith("SW1: 13 mm") for t in texts)


@pytest.mark.parametrize("name", hardware.BOARDS)
def test_the_parts_list_counts_this_board_and_its_budget_is_the_firmwares(name):
    board = BoardDefinition.load(board_file(name))
    with open(os.path.join(ROOT, "hardware", name, "parts.md"), encoding="utf-8") as f:
        text = f.read()
    rows = dict(
        (r.split("|")[3].strip(), int(r.split("|")[4]))
        for r in text.splitlines()
        if r.startswith("| ") and r.count("|") == 5 and r.split("|")[4].strip().isdigit()
    )
    assert rows["Texas Instruments DRV5032DUDBZR"] == board.cell_count
    assert rows["Nexperia 74HC165D,653"] == (board.channel_count + 7) // 8
    assert rows["Worldsemi WS2812B"] == board.led_count
    assert rows["Texas Instruments SN74AHCT125DR"] == 1 and rows["Texas Instruments TPS2121RUXR"] == 1
    # on USB the budget the parts list gives is the one the firmware applies with budget_ma null
    assert "**%d mA** (`null`" % board.led_budget_ma() in text
    ext = hardware.power(hardware._load(name), hardware.EXTERNAL_MA)
    assert '"budget_ma": %d' % ext["budget_ma"] in text and ext["budget_ma"] < hardware.EXTERNAL_MA


def test_the_pin_map_is_the_firmwares_default_config():
    pins = defaults()["pins"]
    with open(os.path.join(ROOT, "hardware", "wiring.md"), encoding="utf-8") as f:
        text = f.read()
    for gp in (pins["leds"], pins["button"], pins["buzzer"], pins["sensors"]["load"], pins["sensors"]["sck"]):
        assert "| GP%d | %d |" % (gp, hardware.PICO_PINS[gp]) in text
    assert (
        "| GP%d | %d | sensor data in"
        % (pins["sensors"]["miso"], hardware.PICO_PINS[pins["sensors"]["miso"]])
        in text
    )
    # the supply sense the firmware reads (config key "supply"), and USB's presence on the Pico itself
    assert "| GP21 | %d | supply sense" % hardware.PICO_PINS[21] in text and "| GP24 | (inside) |" in text


def test_the_magnet_arithmetic_behaves_as_physics_says():
    # a very long magnet's face field is Br / 2; the field falls with distance; the trigger distance is
    # where it crosses the threshold
    assert abs(hardware.axial_field_mt(1.3, 6, 10000, 0) - 650) < 1
    fields = [hardware.axial_field_mt(1.28, 6, 3, z) for z in range(0, 20)]
    assert fields == sorted(fields, reverse=True)
    z = hardware.trigger_distance_mm(1.28, 6, 3, 9.5)
    assert hardware.axial_field_mt(1.28, 6, 3, z) >= 9.5 > hardware.axial_field_mt(1.28, 6, 3, z + 0.1)
    assert hardware.neighbour_mt(1.28, 6, 3, 25, 5) < hardware.neighbour_mt(1.28, 6, 3, 15, 5)


@pytest.mark.parametrize("name", hardware.BOARDS)
def test_the_usb_budget_is_at_most_400_ma_and_every_feed_keeps_the_leds_above_their_minimum(name):
    d = hardware._load(name)
    assert hardware.power(d)["budget_ma"] <= 400
    feeds = hardware.led_feeds(d)
    assert feeds[0][0] == 0 and feeds[-1][1] == d["leds"]["count"] - 1
    ext = hardware.power(d, hardware.EXTERNAL_MA)["budget_ma"]
    for first, last, ma, length, drop in feeds:
        assert ma <= min(ext, (last - first + 1) * hardware.LED_FULL_MA) and length > 0
        assert 5.0 - ext / 1000 * (hardware.Q1_OHM + hardware.U3_OHM) - drop > 3.5


@pytest.mark.parametrize("name", hardware.BOARDS)
def test_no_hole_of_the_template_cuts_into_another_and_all_lie_on_the_board(name):
    import math

    d = hardware._load(name)
    spots = [(c["x"], c["y"], hardware.RECESS_MM / 2) for c in d["cells"]]
    windows = hardware.led_windows(d)
    spots += [windows[c["id"]] + (hardware.HOLE_LED_MM / 2,) for c in d["cells"]]
    spots += [(i["x"], i["y"], hardware.HOLE_LED_MM / 2) for i in d["indicators"]]
    for k, (x, y, r) in enumerate(spots):
        assert r <= x <= d["width"] - r and r <= y <= d["height"] - r
        for x2, y2, r2 in spots[k + 1 :]:
            assert math.hypot(x - x2, y - y2) > r + r2 + 1.0  # at least 1 mm of board between two holes


def test_the_build_guide_quotes_the_generated_figures():
    from ludus_host.circuit import outputs

    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        guide = f.read()
    for name in hardware.BOARDS + (hardware.ANALOG,):
        d = outputs.definition(name)
        usb, ext = hardware.power(d), hardware.power(d, hardware.EXTERNAL_MA)
        on_usb = "%d mA" % usb["budget_ma"] if usb["budget_ma"] > 0 else "none: it needs the supply"
        assert "| %s | %s mA | %s | %d mA |" % (name, usb["logic_ma"], on_usb, ext["budget_ma"]) in guide, (
            name
        )
        assert "%s %d" % (name, outputs.built(name).part_count()) in guide.replace(" parts,", ",")
    for name in hardware.BOARDS:
        d = hardware._load(name)
        pieces = hardware.PIECES["checkers" if d["game"] == "checkers" else "ludo"]
        rows = hardware.magnetics.role_captures(d, hardware.SENSING, pieces)
        for r in rows:
            role = "holes" if r.role == "hole" else r.role
            assert "%s %.1f" % (role, r.worst_mm) in guide, (name, r)
        assert "| %s | " % name in guide and "+/- %.1f mm |" % hardware.hand_allowance_mm(d) in guide

"""The boards' PCBs (ludus_host.pcb): each committed board carries every part of its circuit and every pad
on its circuit's net, each sensor at its cell, each LED under its window, an outline within the fab's
limit; pcbnew's design-rules check finds no error and no unrouted pad on it; its fabrication files are
complete and carry no date; the router keeps its clearances; and (pytest -m long) generating again
writes the committed files byte for byte."""

import csv
import filecmp
import io
import itertools
import math
import os
import shutil
import subprocess
import zipfile

import pytest
from ludus_host.boards import documents as hardware
from ludus_host.circuit import designators as ref
from ludus_host.circuit import netlist, outputs
from ludus_host.pcb import check, current, footprints, job, router
from ludus_host.pcb import outputs as pcb
from tools import ROOT

KICAD = "/usr/share/kicad"


def _folder(name):
    return os.path.join(ROOT, "hardware", name, pcb.FOLDER)


BOARDS = list(pcb.FINISHED)
# the board pcbnew checks again in the default run (its pour and check take seconds); pytest -m long
# checks every board
SLOW_DRC = [pytest.param(n, marks=pytest.mark.slow if n == "ludo40" else pytest.mark.long) for n in BOARDS]


def test_the_finished_boards_and_no_other_have_their_pcb_committed():
    for name in pcb.BOARDS:
        if name in BOARDS:
            for rel in pcb.files(name):
                assert os.path.isfile(os.path.join(_folder(name), rel)), (name, rel)
        else:  # not routed whole yet: no half-routed board committed as if it were done
            assert not os.path.exists(_folder(name)), name


def _read(name, rel):
    with open(os.path.join(_folder(name), rel), encoding="utf-8") as f:
        return f.read()


_BOARDS: dict = {}


def _board(name):
    if name not in _BOARDS:
        _BOARDS[name] = check.parse(pcb.board_text(_folder(name), name))
    return _BOARDS[name]


def _netlist(name):
    with open(os.path.join(ROOT, "hardware", name, "circuit.net"), encoding="utf-8") as f:
        return netlist.parse(f.read())


@pytest.mark.parametrize("name", BOARDS)
def test_every_pad_carries_the_circuits_net(name):
    assert check.net_differences(_netlist(name), _board(name)) == []


def test_a_pad_on_the_wrong_net_or_a_missing_part_is_named():
    nl = _netlist("ludo40")
    board = check.parse(pcb.board_text(_folder("ludo40"), "ludo40"))
    board.footprints["H20"].pads["2"] = "S21"
    del board.footprints["C320"]
    faults = check.net_differences(nl, board)
    assert "H20 pad 2: net 'S21' on the board, 'S20' in the circuit" in faults
    assert "C320 is in the circuit but not on the board" in faults


@pytest.mark.parametrize("name", BOARDS)
def test_each_sensor_sits_at_its_cell_and_each_led_under_its_window(name):
    d = outputs.definition(name)
    sensors = {ref.sensor(c["channel"]): (c["x"], c["y"]) for c in d["cells"]}
    windows = hardware.led_windows(d)
    leds = {ref.led(c["led"]): windows[c["id"]] for c in d["cells"]}
    leds.update({ref.led(i["led"]): (i["x"], i["y"]) for i in d["indicators"]})
    board = _board(name)
    assert check.placement_faults(board, sensors, leds) == []
    # the check is live: a sensor 0.2 mm off its cell is named
    first = next(iter(sensors))
    board.footprints[first].x += 0.2
    try:
        assert any(f.startswith(first + " is 0.20 mm") for f in check.placement_faults(board, sensors, leds))
    finally:
        board.footprints[first].x -= 0.2


@pytest.mark.parametrize("name", BOARDS)
def test_the_outline_is_the_board_tops_and_fits_the_fabs_limit(name):
    d = outputs.definition(name)
    board = _board(name)
    w, h = board.size()
    assert (w, h) == (pytest.approx(d["width"]), pytest.approx(d["height"]))
    assert sorted((w, h)) <= sorted(pcb.FAB_LIMIT_MM) and all(
        a <= b for a, b in zip(sorted((w, h)), sorted(pcb.FAB_LIMIT_MM))
    )
    # every part inside the outline, the Pico's USB end at an edge
    for fp in board.footprints.values():
        assert 0 < fp.x < w and 0 < fp.y < h, fp.ref
    pico = board.footprints[ref.PICO]
    assert min(pico.x, pico.y, w - pico.x, h - pico.y) < 30


@pytest.mark.parametrize("name", BOARDS)
def test_the_committed_drc_report_is_clean(name):
    text = _read(name, "drc.txt")
    assert "Severity: error" not in text
    assert "** Found 0 unconnected pads **" in text
    assert "** Found 0 Footprint errors **" in text
    # the only warnings: silkscreen of KiCad's own footprints over their pads, which the Gerbers clip
    # (the plot subtracts the solder mask from the silkscreen), or over a neighbour's silkscreen
    kinds = {line.split("]")[0] + "]" for line in text.splitlines() if line.startswith("[")}
    assert kinds <= {"[silk_over_copper]", "[silk_overlap]"}, kinds


@pytest.mark.parametrize("name", BOARDS)
def test_the_supply_path_and_the_led_rails_feed_are_as_wide_as_their_current_needs(name):
    board = _board(name)
    need = current.width_mm(current.SUPPLY_A)  # IPC-2221, 4 A, 10 C rise, 1 oz outer copper
    assert 2.0 < need < current.SUPPLY_TRACK_MM < need + 0.05
    nets = ("JACK+", "JACK_F", "VEXT")
    neck = router.NECK_MM + router.PITCH
    # the jack's nets join nothing but power parts: every track of them is that wide, but where it
    # narrows into a pad of its own
    assert check.narrow_faults(board, ("JACK+", "JACK_F"), need, neck) == []
    # VEXT (also to the dividers and decoupling, thin): the power parts' pads are joined by tracks
    # that wide
    faults = [f for n in nets for f in check.wide_path_faults(board, n, job.POWER_PARTS, need, neck)]
    assert faults == []
    wide = [t for t in board.tracks if t.net in nets and t.width >= need]
    assert sum(t.length() for t in wide) > 10
    # U3's two OUT pins feed the LED rail's plane through vias beside them, enough for the supply's
    # current (IPC-2221 for the vias' barrels) and split between the pins
    outs = [p for p in board.footprints[job.RAIL_FEED[0]].places if p[1] == "+5V_LED"]
    assert len(outs) == 2
    near = {
        (v[1], v[2])
        for _number, _net, x, y, _hw, _hh in outs
        for v in board.vias
        if v[0] == "+5V_LED" and math.hypot(v[1] - x, v[2] - y) < 4
    }
    assert len(near) >= current.RAIL_VIAS
    assert current.RAIL_VIAS * current.via_amps() >= current.SUPPLY_A + current.via_amps()
    # the project's net class says so to KiCad too
    classes = pcb.project(_folder(name), name)["net_settings"]["classes"]
    supply = next(c for c in classes if c["name"] == "Supply")
    assert supply["track_width"] >= need and set(nets) == set(supply["nets"])
    # the checks are live: the jack's path without its wide tracks is named, and so is a thin track of
    # the supply's in the open
    saved = board.tracks
    board.tracks = [t for t in saved if not (t.net == "JACK_F" and t.width >= need)]
    try:
        assert check.wide_path_faults(board, "JACK_F", job.POWER_PARTS, need, neck)
    finally:
        board.tracks = saved
    board.tracks.append(check.Track("VEXT", "B.Cu", 0.25, 1.0, 1.0, 9.0, 1.0))
    try:
        assert check.narrow_faults(board, ("VEXT",), need, 1.0)
    finally:
        board.tracks.pop()


@pytest.mark.parametrize("name", BOARDS)
def test_the_power_muxs_parts_sit_beside_the_pins_they_serve_and_its_in1_faces_the_fet(name):
    board = _board(name)
    mux = board.footprints[job.RAIL_FEED[0]]
    pins = {net: (x, y) for _number, net, x, y, _hw, _hh in mux.places}
    # its dividers, current limit, soft start and status parts: next to the mux, on its pin's side
    for net in ("OV1", "PR1", "ILM", "SS", "SUPPLY_SENSE"):
        parts = [f for f in board.footprints.values() if f is not mux and net in f.pads.values()]
        parts = [f for f in parts if f.ref != ref.PICO]
        assert parts, net
        for f in parts:
            assert math.hypot(f.x - mux.x, f.y - mux.y) < 12, (net, f.ref)
            assert (f.y - mux.y) * (pins[net][1] - mux.y) > 0, (net, f.ref)
    # the supply's wide track comes straight in: IN1 (VEXT) is the power pin nearer the FET's VEXT pads
    fet = [(x, y) for _n, net, x, y, _hw, _hh in board.footprints["Q1"].places if net == "VEXT"]
    fx, fy = sum(x for x, _ in fet) / len(fet), sum(y for _, y in fet) / len(fet)
    assert math.dist(pins["VEXT"], (fx, fy)) < math.dist(pins["VBUS_F"], (fx, fy))


def test_ipc_2221_widths():
    # IPC-2221's chart as its formula: 1 A on an outer 1 oz layer at 10 C is about 0.3 mm (12 mil)
    assert current.width_mm(1.0) == pytest.approx(0.30, abs=0.01)
    assert current.width_mm(4.0, rise=20) < current.width_mm(4.0) < current.width_mm(4.0, outer=False)
    assert current.width_mm(current.USB_A) < router.TRACK  # USB's path fits the default track
    assert 0.8 < current.via_amps() < 1.1


@pytest.mark.parametrize("name", BOARDS)
def test_the_fabrication_files_are_all_there_and_carry_no_date(name):
    for rel in pcb.files(name):
        if rel.endswith(".zip"):
            continue
        text = _read(name, rel)
        assert "CreationDate" not in text and " date " not in text, rel
    fab = pcb.read_zip(os.path.join(_folder(name), pcb.ZIP))
    assert sorted(fab) == sorted(pcb.fab_files(name))
    for member, text in fab.items():
        assert "CreationDate" not in text and " date " not in text, member
    for layer in pcb.GERBER_LAYERS:
        g = fab["%s-%s.gbr" % (name, layer)]
        assert g.startswith("%TF.GenerationSoftware,KiCad,Pcbnew") and g.rstrip().endswith("M02*"), layer
    for drill in ("PTH", "NPTH"):
        text = fab["%s-%s.drl" % (name, drill)]
        assert text.startswith("M48") and text.rstrip().endswith("M30")
    # each zip is the one its members make: sorted, dated 1980, the same bytes every time
    kicad = pcb.read_zip(os.path.join(_folder(name), pcb.KICAD_ZIP))
    assert sorted(kicad) == sorted(pcb.kicad_files(name))
    assert (
        "(uuid " not in kicad[name + ".kicad_pcb"] or "00000000-0000-4000-8000-" in kicad[name + ".kicad_pcb"]
    )
    for zipped, members in ((pcb.ZIP, fab), (pcb.KICAD_ZIP, kicad)):
        with open(os.path.join(_folder(name), zipped), "rb") as f:
            assert f.read() == pcb.zip_bytes(members), zipped
    nl = _netlist(name)
    rows = list(csv.DictReader(io.StringIO(_read(name, "positions.csv"))))
    assert {r["Ref"] for r in rows} >= set(nl.components)
    bom = list(csv.DictReader(io.StringIO(_read(name, "bom.csv"))))
    assert sum(int(r["Quantity"]) for r in bom) == len(nl.components)
    refs = [x for r in bom for x in r["Designators"].split()]
    assert sorted(refs) == sorted(nl.components)
    assert all(r["Side"] in ("top", "bottom") for r in bom)
    # the sensors and LEDs face the board top; everything else is on the underside, below the gap
    for r in bom:
        top = r["Side"] == "top"
        assert top == any(x.startswith(("H", "LED")) or x == "SW1" for x in r["Designators"].split()), r


@pytest.mark.parametrize("name", BOARDS)
def test_the_bom_and_the_position_file_are_what_the_generator_makes_of_the_committed_board(name):
    # the cheap part of generating again (the rest, routing, takes minutes: pytest -m long): the BOM is
    # the generator's own from the circuit and the board's sides, the position file names every part
    # at its place and side on the board (KiCad's: y up, the underside's x mirrored)
    board = _board(name)
    sides = [
        {"ref": r, "side": "top" if fp.layer == "F.Cu" else "bottom"} for r, fp in board.footprints.items()
    ]
    assert _read(name, "bom.csv") == pcb.assembly_bom(_netlist(name), sides)
    rows = {r["Ref"]: r for r in csv.DictReader(io.StringIO(_read(name, "positions.csv")))}
    assert set(rows) == {r for r in board.footprints if not r.startswith("MH")}  # all but the holes
    for r, row in rows.items():
        fp = board.footprints[r]
        bottom = fp.layer == "B.Cu"
        assert row["Side"] == ("bottom" if bottom else "top"), r
        x, y = float(row["PosX"]), float(row["PosY"])
        assert (-x if bottom else x, -y) == (pytest.approx(fp.x, abs=1e-4), pytest.approx(fp.y, abs=1e-4)), r


def test_the_footprint_library_is_what_the_code_draws():
    for fname, text in footprints.library().items():
        with open(os.path.join(ROOT, "hardware", "footprints", "Ludus.pretty", fname), encoding="utf-8") as f:
            assert f.read() == text, fname
    # the Pico's pins: 20 a side 2.54 mm apart, the rows 17.78 mm apart at the header holes
    pads = footprints.pico_pads()
    assert [p[0] for p in pads] == [str(n) for n in range(1, 41)]
    left = sorted(p[2] for p in pads if p[1] < 0)
    assert all(abs(b - a - 2.54) < 1e-9 for a, b in itertools.pairwise(left))
    assert footprints.PICO_ROW_X * 2 == pytest.approx(17.78)


def test_the_normalisers_leave_no_date_and_number_the_ids():
    gerber = (
        "%TF.CreationDate,2026-01-01T00:00:00+00:00*%\n"
        "G04 Created by KiCad (PCBNEW 6.0.11) date 2026-01-01 00:00:00*\nX0Y0D02*\n"
    )
    assert pcb.normalise_fab(gerber) == "G04 Created by KiCad (PCBNEW 6.0.11)*\nX0Y0D02*\n"
    drill = "M48\n; DRILL file {KiCad 6.0.11} date Mon Dec  7 03:31:22 2026\nM30\n"
    assert pcb.normalise_fab(drill) == "M48\n; DRILL file {KiCad 6.0.11}\nM30\n"
    board = "(tstamp 3f1d2c3a-0000-4000-8000-aaaaaaaaaaaa) (tstamp 9e9e9e9e-1111-4111-8111-bbbbbbbbbbbb)" * 2
    out = pcb.normalise_board(board)
    assert out.count("00000000-0000-4000-8000-000000000001") == 2
    assert out.count("00000000-0000-4000-8000-000000000002") == 2


def test_the_router_goes_round_another_net_and_keeps_its_clearance():
    grid = router.Grid(30, 30)
    a = router.Pad("A", "1", 1, 5, 15, 0.4, 0.4, (0, 1))
    b = router.Pad("B", "1", 1, 25, 15, 0.4, 0.4, (0, 1))
    # a wall of another net across both layers between them, with a gap at its bottom end
    wall = router.Pad("W", "1", 2, 15, 12, 0.4, 10, (0, 1))
    for p in (a, b, wall):
        grid.add_pad(p)
    result, missed = grid.route(1, [grid.pad_nodes(a), grid.pad_nodes(b)], [(a.x, a.y), (b.x, b.y)])
    assert missed == []
    pts = [(x, y) for _, x0, y0, x1, y1, _w in result.segments for x, y in ((x0, y0), (x1, y1))]
    assert max(y for _, y in pts) > 22  # round the wall's end
    # every track keeps the clearance from the wall's copper
    for _, x0, y0, x1, y1, width in result.segments:
        assert width == router.TRACK
        for t in range(11):
            x, y = x0 + (x1 - x0) * t / 10, y0 + (y1 - y0) * t / 10
            dx = max(wall.x - wall.hw - x, 0, x - wall.x - wall.hw)
            dy = max(wall.y - wall.hh - y, 0, y - wall.y - wall.hh)
            assert math.hypot(dx, dy) >= router.CLEARANCE + router.TRACK / 2 - 1e-6
    # and a pad walled in on every side is reported, not crossed
    box = router.Grid(30, 30)
    inner = router.Pad("I", "1", 1, 15, 15, 0.4, 0.4, (0,))
    ring = [
        router.Pad("R", "1", 2, 15 + dx, 15 + dy, 2.5, 2.5, (0,))
        for dx, dy in ((4, 0), (-4, 0), (0, 4), (0, -4))
    ]
    for p in [inner, *ring, b]:
        box.add_pad(p)
    box.block_vias(10, 10, 20, 20)
    _, missed = box.route(1, [box.pad_nodes(inner), box.pad_nodes(b)], [(inner.x, inner.y), (b.x, b.y)])
    assert missed == [1] or missed == [0]


def test_a_net_walled_off_by_another_gets_its_way_by_ripping_that_one_up():
    # one layer, no vias: A's straight track from left to right would cut B's two pads apart, and walls
    # at both ends leave B no way round; routed first, A takes the straight way, so B must rip it up
    # and A, routed again, goes round B
    grid = router.Grid(30, 20)
    grid.block_rect(0, 0, 4.2, 20, layers=(0, 1))
    grid.block_rect(25.8, 0, 30, 20, layers=(0, 1))
    grid.block_vias(0, 0, 30, 20)
    a = [router.Pad("A", str(k), 1, x, 10, 0.4, 0.4, (0,)) for k, x in ((1, 5), (2, 25))]
    b = [router.Pad("B", str(k), 2, 15, y, 0.4, 0.4, (0,)) for k, y in ((1, 7), (2, 13))]
    for p in a + b:
        grid.add_pad(p)
    routes, failed = grid.route_all([router.Net(1, a), router.Net(2, b)])
    assert failed == []
    ys = [y for _, _x0, y0, _x1, y1, _w in routes[1].segments for y in (y0, y1)]
    assert max(ys) > 13 or min(ys) < 7  # A went round B's pads
    xs = {x for _, x0, _y0, x1, _y1, _w in routes[2].segments for x in (x0, x1)}
    assert xs == {15.0}  # B went straight
    # every track node holds one net's copper at most (a via node may be kept from two nets' tracks)
    for g in grid.claims[: router.LAYERS]:
        for claims in g.values():
            assert len({abs(c) for c in claims}) == 1


def _wide_grid():
    grid = router.Grid(40, 20)
    ends = [router.Pad("P", str(k), 1, x, 10, 0.3, 0.2, (1,)) for k, x in ((1, 5), (2, 35))]
    other = router.Pad("Q", "1", 2, 20, 10.5, 0.5, 0.5, (1,))  # in the straight way
    thin = router.Pad("R", "1", 1, 12, 4, 0.3, 0.3, (1,))  # a small-signal pad of the same net
    for p in [*ends, other, thin]:
        grid.add_pad(p)
    return grid, ends, other, thin


def test_a_wide_net_keeps_its_width_and_clearance_and_narrows_only_at_its_pads():
    width = current.SUPPLY_TRACK_MM
    grid, ends, other, _ = _wide_grid()
    routes, failed = grid.route_all([router.Net(1, ends, width)])
    assert failed == []
    segs = routes[1].segments
    assert routes[1].vias == [] and {s[0] for s in segs} == {1}  # a wide net stays on its layer
    for _, x0, y0, x1, y1, w in segs:
        for t in range(21):
            x, y = x0 + (x1 - x0) * t / 20, y0 + (y1 - y0) * t / 20
            gap = math.hypot(max(abs(x - other.x) - other.hw, 0), max(abs(y - other.y) - other.hh, 0))
            assert gap >= router.CLEARANCE + w / 2 - 1e-6, (x, y, w)
            if w < width:  # narrow only in a neck: near one of its own pads (up to a grid step out)
                near = router.NECK_MM + 0.3 + router.PITCH
                assert min(math.hypot(x - p.x, y - p.y) for p in ends) <= near
    assert sum(math.hypot(x1 - x0, y1 - y0) for _, x0, y0, x1, y1, w in segs if w == width) > 25
    # a small-signal pad of the net hangs on its wide copper by a thin track
    grid, ends, other, thin = _wide_grid()
    routes, failed = grid.route_all([router.Net(1, ends, width, tail=[thin])])
    assert failed == []
    thin_ends = [
        p for *_, x0, y0, x1, y1, w in routes[1].segments if w == router.TRACK for p in ((x0, y0), (x1, y1))
    ]
    assert min(math.hypot(x - thin.x, y - thin.y) for x, y in thin_ends) < 0.8


def _mux_row(shared):
    # a fine-pitch row: two ground pins, then two signal pins, led out by their escapes (towards -y);
    # the ground pins' via (or vias), then the signal pins routed to pads straight ahead
    grid = router.Grid(30, 30)
    row = [
        router.Pad("U", str(n), net, x, 15.0, 0.1, 0.3, (1,))
        for n, net, x in ((3, 1, 13.5), (4, 1, 14.0), (5, 2, 14.5), (6, 3, 15.0))
    ]
    ends = [
        router.Pad("R", "1", 2, 14.5, 5.0, 0.4, 0.4, (1,)),
        router.Pad("R", "2", 3, 18.0, 5.0, 0.4, 0.4, (1,)),
    ]
    for p in row + ends:
        grid.add_pad(p)
    assert all(grid.escape_pad(p, (14.25, 16.15)) for p in row)
    if shared:
        assert grid.join_escapes(row[1], row[0])  # the inner ground pin joins the outer one
        grid.fanout_pad(row[0])
    else:
        grid.fanout_pad(row[0])
        grid.fanout_pad(row[1])
    routes, failed = grid.first_pass([router.Net(3, [row[3], ends[1]]), router.Net(2, [row[2], ends[0]])])
    assert failed == []
    vias = [v for r in grid.fanout_routes.values() for v in r.vias]
    return grid, routes, vias


def test_two_ground_pins_side_by_side_share_one_via_and_leave_the_signal_pin_beside_them_its_way():
    grid, routes, vias = _mux_row(shared=True)
    assert len(vias) == 1 and vias[0][0] <= 13.5  # beyond the outer pin, away from the signal pins
    # the joint: a track between the two escapes' ends, held for good like them
    joint = [s for r in grid.fanout_routes.values() for s in r.segments if s[2] == s[4] and s[1] != s[3]]
    assert {(min(s[1], s[3]), max(s[1], s[3])) for s in joint} == {(13.5, 14.0)}
    assert all(o >= router.ESCAPE_BASE for o in grid.joints)
    # pin 5 goes straight out of its escape to its pad
    assert {x for _, x0, _y0, x1, _y1, _w in routes[2].segments for x in (x0, x1)} == {14.5}
    # with a via of its own, the inner ground pin's via stands in that way: pin 5 goes round
    _, routes, vias = _mux_row(shared=False)
    assert len(vias) == 2
    assert {x for _, x0, _y0, x1, _y1, _w in routes[2].segments for x in (x0, x1)} != {14.5}


# ---- with KiCad -------------------------------------------------------------------------------------


def _apt(*packages):
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("KiCad 6 is not installed (as root: apt-get install %s)" % " ".join(packages))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    if subprocess.run(cmd, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=False)
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if r.returncode:
            pytest.fail("apt-get could not install %s: %s" % (" ".join(packages), r.stderr[-2000:]))


def _kicad():
    if not pcb.pcbnew_available() or not os.path.isdir(os.path.join(KICAD, "footprints")):
        _apt("kicad", "kicad-footprints")
    if not pcb.pcbnew_available():
        pytest.skip("%s cannot import pcbnew" % pcb.PYTHON)


_DRC = r"""
import sys, pcbnew
board = pcbnew.LoadBoard(sys.argv[1])
pcbnew.ZONE_FILLER(board).Fill(board.Zones())
pcbnew.WriteDRCReport(board, sys.argv[2], pcbnew.EDA_UNITS_MILLIMETRES, True)
con = board.GetConnectivity()
con.RecalculateRatsnest()
print(con.GetUnconnectedCount())
"""


@pytest.mark.parametrize("name", SLOW_DRC)
def test_pcbnew_finds_no_design_rule_error_and_no_unrouted_pad(name, tmp_path):
    _kicad()
    report = tmp_path / "drc.rpt"
    with zipfile.ZipFile(os.path.join(_folder(name), pcb.KICAD_ZIP)) as z:
        z.extractall(tmp_path)  # the board and its project (its net classes and rules)
    board = tmp_path / (name + ".kicad_pcb")
    r = subprocess.run(
        [pcb.PYTHON, "-c", _DRC, str(board), str(report)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split()[-1] == "0"  # pcbnew's own count of connections the copper lacks
    text = report.read_text()
    assert "Severity: error" not in text and "** Found 0 unconnected pads **" in text, text[:3000]


@pytest.mark.long
@pytest.mark.parametrize("name", BOARDS)
def test_generating_again_writes_the_committed_files(name, tmp_path):
    # placing, routing (minutes: checkers about 7, ludo40 about 4 on one core), pouring, checking and
    # plotting one board
    _kicad()
    out = tmp_path / "hardware"
    os.makedirs(out / name)
    shutil.copy(os.path.join(ROOT, "hardware", name, "circuit.net"), out / name / "circuit.net")
    written = pcb.write_all(str(out), (name,))
    assert len(written) == 2 + len(pcb.files(name))  # and the footprint library's two
    for path in written:
        rel = os.path.relpath(path, out)
        assert filecmp.cmp(path, os.path.join(ROOT, "hardware", rel), shallow=False), (
            "hardware/%s is stale: run ludus boards pcb" % rel
        )

"""The pcbnew side of the PCB generator, run by Debian's python3 (KiCad 6's pcbnew module is built for
it): reads a job (ludus_host.pcb.job), places the footprints, routes, pours the planes, checks the
design rules and writes the board, its Gerbers and drill files, and a JSON report for the caller.

    /usr/bin/python3 engine.py JOB.json OUT_DIR
"""

import json
import math
import os
import sys
from collections.abc import Callable
from typing import Any

import pcbnew

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from ludus_host.pcb import current, render, router

PLANES = {"GND": pcbnew.In1_Cu, "+5V_LED": pcbnew.In2_Cu}
SUPPLY_NETS = ("JACK+", "JACK_F", "VEXT")  # the jack's path to U3, at the supply's current
RAIL = "+5V_LED"  # U3's OUT pins to the LED rail's plane: RAIL_VIAS vias between them
USB_NETS = ("VBUS", "VBUS_F")  # routed early: short, and USB's current
SPACING = 1.5  # mm of routing room kept round each placed part
CONTROLLER_SPACING = 2.5  # round the controller's parts, where most nets meet
RAIL_VIA_REACH = 3.0  # mm from U3's OUT pin to each of its vias into the rail's plane
POWER_SPACING = 4.0  # round the supply's parts: room for a wide track between them
POWER_EDGE = 5.0
MUX_FROM_FET = 8.0  # mm from the FET's pads on VEXT towards where the power mux is sought
MUX_SIDE_ROOM = 3.5  # mm kept free of parts beside the mux's power pins: the rail's vias, IN1's track
SATELLITE_SPACING = 1.0  # round a part on one of the mux's signal pins
SATELLITE_PITCH = 2.5  # mm between those parts' centres along their row
SATELLITE_MM = 6.0  # mm from the mux's centre where a part on one of its signal pins is sought
SATELLITE_ROOM = 5.5  # mm beyond the escapes of the mux's signal rows kept free for those parts
MOUNT_HOLE = 3.2  # M3
PLANE_ARC_ERROR = 0.05

# pcbnew ships no type information: its objects are Any here, named for what they are
Board = Any  # a pcbnew.BOARD
Footprint = Any  # a pcbnew.FOOTPRINT
NetCode = Any  # a pcbnew.NETINFO_ITEM
Job = dict[str, Any]  # the job ludus_host.pcb.job writes (JSON)
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm


def mm(v: float) -> int:
    return round(v * 1_000_000)  # KiCad 6 counts nanometres


def point(x: float, y: float) -> Any:
    return pcbnew.wxPoint(mm(x), mm(y))


class Placer:
    """Footprints placed on a board, each side's occupied rectangles kept for the next."""

    def __init__(self, board: Board, job: Job):
        self.board = board
        self.job = job
        self.w, self.h = job["width"], job["height"]
        self.rects: dict[str, list[tuple[float, float, float, float]]] = {"top": [], "bottom": []}
        self.circles = [(c[0], c[1], c[2]) for c in job["keepout_circles"]]  # the board top's holes
        self.fps: dict[str, Any] = {}
        self.library: dict[str, Any] = {}
        self.sides: dict[str, str] = {}

    def load(self, ref: str, footprint: str, value: str) -> Footprint:
        if footprint not in self.library:
            lib, name = footprint.split(":")
            folder = self.job["libraries"].get(lib) or os.path.join(
                self.job["kicad_footprints"], lib + ".pretty"
            )
            loaded = pcbnew.FootprintLoad(folder, name)
            if loaded is None:
                raise SystemExit("no footprint %s in %s" % (name, folder))
            self.library[footprint] = loaded
        # a duplicate, not a copy: a copy keeps the library footprint's ids, and KiCad then takes every
        # part of one footprint for the same item (a design-rule marker names the wrong part)
        fp = self.library[footprint].Duplicate().Cast()
        lib, name = footprint.split(":")
        fp.SetFPID(pcbnew.LIB_ID(lib, name))  # the board names each footprint with its library
        fp.SetReference(ref)
        fp.SetValue(value)
        fp.Reference().SetVisible(False)  # the pictures and the position file name the parts
        self.board.Add(fp)
        self.fps[ref] = fp
        return fp

    def put(
        self, ref: str, x: float, y: float, rot: float = 0.0, side: str = "top", record: bool = True
    ) -> None:
        fp = self.fps[ref]
        fp.SetPosition(point(x, y))
        fp.SetOrientationDegrees(rot)
        if side == "bottom" and not fp.IsFlipped():
            fp.Flip(fp.GetPosition(), False)
        self.sides[ref] = side
        if record:
            self.record(ref)

    def bbox(self, ref: str) -> Box:
        fp = self.fps[ref]
        fp.BuildCourtyardCaches()
        layer = pcbnew.B_CrtYd if self.sides.get(ref) == "bottom" else pcbnew.F_CrtYd
        poly = fp.GetCourtyard(layer)
        if poly.OutlineCount():
            line = poly.Outline(0)
            xs = [line.CPoint(i).x for i in range(line.PointCount())]
            ys = [line.CPoint(i).y for i in range(line.PointCount())]
            return (pcbnew.ToMM(min(xs)), pcbnew.ToMM(min(ys)), pcbnew.ToMM(max(xs)), pcbnew.ToMM(max(ys)))
        box = fp.GetBoundingBox(False, False)
        return (
            pcbnew.ToMM(box.GetLeft()),
            pcbnew.ToMM(box.GetTop()),
            pcbnew.ToMM(box.GetRight()),
            pcbnew.ToMM(box.GetBottom()),
        )

    def tht(self, ref: str) -> bool:
        return any(p.GetAttribute() == pcbnew.PAD_ATTRIB_PTH for p in self.fps[ref].Pads())

    def record(self, ref: str) -> None:
        box = self.bbox(ref)
        self.rects[self.sides[ref]].append(box)
        if self.tht(ref):  # through-hole leads reach the other side
            other = "top" if self.sides[ref] == "bottom" else "bottom"
            for p in self.fps[ref].Pads():
                b = p.GetBoundingBox()
                self.rects[other].append(
                    (
                        pcbnew.ToMM(b.GetLeft()),
                        pcbnew.ToMM(b.GetTop()),
                        pcbnew.ToMM(b.GetRight()),
                        pcbnew.ToMM(b.GetBottom()),
                    )
                )

    def fits(
        self,
        ref: str,
        margin: float = SPACING,
        top_clear: float | None = None,
        edge: float = 1.0,
        room: tuple[float, float] = (0.0, 0.0),
    ) -> bool:
        """Whether REF fits where it is: MARGIN clear of every part on its side(s), and ROOM (mm along x
        and y beyond its courtyard) free of parts too."""
        x0, y0, x1, y1 = self.bbox(ref)
        if room != (0.0, 0.0):
            rx, ry = room
            for a in self.rects[self.sides[ref]]:
                if x0 - rx < a[2] and a[0] < x1 + rx and y0 - ry < a[3] and a[1] < y1 + ry:
                    return False
        if x0 < edge or y0 < edge or x1 > self.w - edge or y1 > self.h - edge:
            return False
        for p in self.fps[ref].Pads():  # copper keeps its clearance from the board's edge
            b = p.GetBoundingBox()
            if (
                pcbnew.ToMM(b.GetLeft()) < 1
                or pcbnew.ToMM(b.GetTop()) < 1
                or pcbnew.ToMM(b.GetRight()) > self.w - 1
                or pcbnew.ToMM(b.GetBottom()) > self.h - 1
            ):
                return False
        sides = [self.sides[ref]]
        if self.tht(ref):
            sides = ["top", "bottom"]
        for side in sides:
            for a in self.rects[side]:
                if x0 < a[2] + margin and a[0] < x1 + margin and y0 < a[3] + margin and a[1] < y1 + margin:
                    return False
        if "top" in sides or top_clear:
            clear = top_clear if top_clear is not None else 0.5
            for cx, cy, r in self.circles:
                dx = max(x0 - cx, 0, cx - x1)
                dy = max(y0 - cy, 0, cy - y1)
                if math.hypot(dx, dy) < r + clear:
                    return False
        return True

    def near(
        self,
        ref: str,
        x: float,
        y: float,
        rot: float = 0.0,
        side: str = "bottom",
        margin: float = SPACING,
        step: float = 0.5,
        limit: float = 60.0,
        top_clear: float | None = None,
        edge: float = 1.0,
        room: tuple[float, float] = (0.0, 0.0),
    ) -> tuple[float, float]:
        """REF at the free spot nearest (X, Y) (a square spiral of STEP mm, out to LIMIT), on the
        routing grid (see fits)."""
        x, y = round(x / router.PITCH) * router.PITCH, round(y / router.PITCH) * router.PITCH
        rings = int(limit / step)
        for ring in range(rings + 1):
            cands = []
            for k in range(-ring, ring + 1):
                for dx, dy in ((k, -ring), (k, ring), (-ring, k), (ring, k)):
                    cands.append((abs(dx) + abs(dy), dx, dy))
            for _, dx, dy in sorted(set(cands)):
                px, py = x + dx * step, y + dy * step
                self.put(ref, px, py, rot, side, record=False)
                if self.fits(ref, margin, top_clear, edge, room):
                    self.record(ref)
                    return px, py
        raise SystemExit("no room for %s near (%.1f, %.1f)" % (ref, x, y))


def place(board: Board, job: Job, placer: Placer) -> None:
    comps = job["components"]
    for c in comps:
        placer.load(c["ref"], c["footprint"], c["value"])
    refs = {c["ref"] for c in comps}
    # the sensors, centred under their cells, and the LEDs under their windows: fixed
    for s in job["sensors"]:
        placer.put(s["ref"], s["x"], s["y"], 0, "top")
    placed: list[str] = []
    for led in job["leds"]:
        # a quarter turn where a neighbour's courtyard is in the way (the die's pips, 6.6 mm apart)
        # or, failing both, moved by up to 0.5 mm inside its 5 mm window; failing that too, with a
        # neighbour turned the other way (two windows nearer along one axis than both LEDs' long sides
        # allow, but not their short ones)
        if not _place_led(placer, led) and not _turn_neighbour(placer, led, placed):
            placer.record(led["ref"])
        placed.append(led["ref"])
    # each cell's small parts on the underside beneath its sensor, each LED's capacitor beneath it
    for s in job["sensors"]:
        cap, pull = s["capacitor"], s.get("pull_up")
        placer.put(cap, s["x"], s["y"] - 2.2, 0, "bottom")
        if pull:
            placer.put(pull, s["x"], s["y"] + 2.2, 0, "bottom")
    for led in job["leds"]:
        placer.put(led["capacitor"], led["x"], led["y"], 0, "bottom")
    # the controller: the Pico at an edge, its USB out; the jack beside it; the rest round them
    ctl = job["controller"]
    pico = ctl["pico"]
    px, py, prot = _edge_spot(placer, pico, job)
    jack = ctl["jack"]
    placer.near(
        jack, px + 25 if prot in (0, 180) else px, py if prot in (0, 180) else py - 25, prot, "bottom"
    )
    button = ctl["button"]
    placer.near(button, px, py, 0, "top", margin=1.0, limit=120, top_clear=1.0)
    # the supply's path as far as its reverse-polarity FET; then the power mux beside the FET, its IN1
    # towards it, and the parts of the mux's signal pins beside those pins; then the rest of the supply
    # between the FET and the mux, the parts on the mux's other nets round it, the others round the Pico
    mux = job["rail_feed"][0]
    supply = [r for r in job["power_parts"] if r not in (jack, mux)]
    fets = [r for r in supply if _on(job, r, SUPPLY_NETS[-1]) and _on(job, r, SUPPLY_NETS[-2])]
    for ref in supply:
        if not _on(job, ref, SUPPLY_NETS[-1]) or ref in fets:
            _place_power(placer, ref, px, py)
    feed = _pads_at(placer, job, fets[0], SUPPLY_NETS[-1]) if fets else (px, py)
    _place_mux(placer, job, mux, feed, fets[0] if fets else None)
    free = [r for r in ctl["parts"] if r not in placer.sides]
    _place_satellites(placer, job, mux, _satellites(job, mux, free))
    for ref in supply:
        if ref not in placer.sides:
            _place_power(placer, ref, *feed)
    at_mux = _xy(placer, mux)
    for ref in ctl["parts"]:
        if ref in (pico, jack, button) or ref in placer.sides:
            continue
        power = ref in job["power_parts"] + job["rail_feed"]
        margin = POWER_SPACING if power else CONTROLLER_SPACING
        near = at_mux if power or _shares_net(job, ref, mux) else (px, py)
        # a supply part keeps off the board's edge, where its wide tracks would find no room
        placer.near(ref, *near, 0, "bottom", margin=margin, limit=150, edge=POWER_EDGE if power else 1.0)
    # the chips of the sensor chain, each near its cells, its series resistor and capacitor beside it
    for chip in job["chips"]:
        cx, cy = chip["x"], chip["y"]
        x, y = placer.near(chip["ref"], cx, cy, 0, "bottom", limit=150)
        for ref in chip["parts"]:
            placer.near(ref, x, y, 0, "bottom", limit=60)
    # every other part (LED feeds, the analog build's regulator) near the spot the job names
    for extra in job["others"]:
        if extra["ref"] in refs and extra["ref"] not in placer.sides:
            placer.near(extra["ref"], extra["x"], extra["y"], 0, "bottom", limit=150)
    missing = sorted(refs - set(placer.sides))
    if missing:
        raise SystemExit("not placed: %s" % ", ".join(missing))


def _place_led(placer: Placer, led: dict[str, Any]) -> bool:
    """LED at its window, turned or moved by up to 0.5 mm where a neighbour is in the way; False (and
    not recorded) when no such spot is free."""
    for shift in range(6):
        for dx, dy in sorted({(a * shift / 10, b * shift / 10) for a in (-1, 0, 1) for b in (-1, 0, 1)}):
            for rot in (0, 90):
                placer.put(led["ref"], led["x"] + dx, led["y"] + dy, rot, "top", record=False)
                if placer.fits(led["ref"], 0.0, top_clear=-100):
                    placer.record(led["ref"])
                    return True
    return False


def _turn_neighbour(placer: Placer, led: dict[str, Any], placed: list[str]) -> bool:
    """LED placed after turning one of the LEDs placed before it (PLACED) a quarter, nearest first;
    False, with every LED as it was, when no such turn makes room."""
    x, y = led["x"], led["y"]
    for other in sorted(placed, key=lambda r: math.dist(_xy(placer, r), (x, y))):
        ox, oy = _xy(placer, other)
        if math.dist((ox, oy), (x, y)) > 10:
            break
        rot = placer.fps[other].GetOrientationDegrees()
        box = placer.bbox(other)
        placer.rects["top"].remove(box)
        placer.put(other, ox, oy, 90 - rot, "top", record=False)
        if placer.fits(other, 0.0, top_clear=-100):
            placer.record(other)
            if _place_led(placer, led):
                return True
            placer.rects["top"].remove(placer.bbox(other))
        placer.put(other, ox, oy, rot, "top", record=False)
        placer.rects["top"].append(box)
    return False


def _nets_of(job: Job, ref: str) -> set[str]:
    prefix = ref + "."
    return {net for pin, net in job["pin_nets"].items() if pin.startswith(prefix)}


def _on(job: Job, ref: str, net: str) -> bool:
    return net in _nets_of(job, ref)


def _shares_net(job: Job, ref: str, other: str) -> bool:
    """Whether REF and OTHER meet on a net of their own (not a plane's)."""
    return bool((_nets_of(job, ref) & _nets_of(job, other)) - set(PLANES))


def _xy(placer: Placer, ref: str) -> tuple[float, float]:
    pos = placer.fps[ref].GetPosition()
    return pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y)


def _pads_at(placer: Placer, job: Job, ref: str, net: str) -> tuple[float, float]:
    """The middle of REF's pads on NET."""
    pts = [
        (pcbnew.ToMM(p.GetPosition().x), pcbnew.ToMM(p.GetPosition().y))
        for p in placer.fps[ref].Pads()
        if job["pin_nets"].get("%s.%s" % (ref, p.GetNumber())) == net
    ]
    return sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)


def _place_power(placer: Placer, ref: str, x: float, y: float) -> None:
    # a supply part keeps room round it for the wide tracks, and off the board's edge
    placer.near(ref, x, y, 0, "bottom", margin=POWER_SPACING, limit=150, edge=POWER_EDGE)


def _place_mux(placer: Placer, job: Job, mux: str, feed: tuple[float, float], fet: str | None) -> None:
    """The power mux MUX a little beyond FEED (the FET's pads on the mux's IN1 net), turned so that its
    IN1 faces them; the room its pins' escapes and the rail's vias need kept free of other parts."""
    x, y = feed
    if fet is not None:
        fx, fy = _xy(placer, fet)
        d = math.hypot(x - fx, y - fy) or 1.0
        x, y = x + (x - fx) / d * MUX_FROM_FET, y + (y - fy) / d * MUX_FROM_FET
    room = (MUX_SIDE_ROOM, router.ESCAPE_MM - 0.3 + SATELLITE_ROOM)
    x, y = placer.near(mux, x, y, 0, "bottom", margin=POWER_SPACING, limit=150, edge=POWER_EDGE, room=room)
    placer.rects["bottom"].pop()
    best = None
    for rot in (0, 180):
        # a package of 0.5 mm pitch sits half a grid step over, so that a grid node falls on the middle
        # of each of its narrow pads (on the grid, every node between two pads is too near both for a
        # track)
        placer.put(mux, x + router.PITCH / 2, y, rot, "bottom", record=False)
        d = math.dist(_pads_at(placer, job, mux, SUPPLY_NETS[-1]), feed)
        if best is None or d < best[0]:
            best = (d, rot)
    assert best is not None
    placer.put(mux, x + router.PITCH / 2, y, best[1], "bottom")
    # the escapes of its signal rows (along y) and the rail's vias beside its power pins (along x)
    x0, y0, x1, y1 = placer.bbox(mux)
    reach = router.ESCAPE_MM - 0.3  # the courtyard reaches 0.43 mm beyond the pads
    placer.rects["bottom"].append((x0 - MUX_SIDE_ROOM, y0 - reach, x1 + MUX_SIDE_ROOM, y1 + reach))


def _satellites(job: Job, mux: str, parts: list[str]) -> dict[str, str]:
    """The parts on the power mux's signal pins (its dividers, current limit, soft start, status), each
    with the mux's pin it serves, in the order of the pins and parts."""
    out = {}
    skip = set(PLANES) | set(SUPPLY_NETS) | set(USB_NETS) | {RAIL}
    pins = sorted(
        (pin.split(".", 1)[1], net)
        for pin, net in job["pin_nets"].items()
        if pin.startswith(mux + ".") and net not in skip
    )
    for number, net in sorted(pins, key=lambda p: int(p[0]) if p[0].isdigit() else 0):
        for ref in parts:
            if ref != mux and ref not in out and ref not in job["power_parts"] and _on(job, ref, net):
                out[ref] = number
    return out


def _place_satellites(placer: Placer, job: Job, mux: str, satellites: dict[str, str]) -> None:
    """The parts of the mux's signal pins (SATELLITES: part: pin) in a row just beyond each signal row's
    escapes, in the order of their pins along it (so that their tracks need not cross), each turned so
    that its pad on the pin's net faces the mux."""
    cy = _xy(placer, mux)[1]
    pins = {p.GetNumber(): p for p in placer.fps[mux].Pads()}
    rows: dict[int, list[tuple[float, str, str]]] = {}
    for ref, number in satellites.items():
        x, y = pcbnew.ToMM(pins[number].GetPosition().x), pcbnew.ToMM(pins[number].GetPosition().y)
        rows.setdefault(1 if y > cy else -1, []).append((x, ref, number))  # the rows lie along x
    for out, row in sorted(rows.items()):
        row.sort(key=lambda r: r[0])  # (stable: a pin's parts in the order given)
        middle = sum(r[0] for r in row) / len(row)
        for k, (px, ref, number) in enumerate(row):
            x = middle + (k - (len(row) - 1) / 2) * SATELLITE_PITCH
            x, y = placer.near(
                ref, x, cy + out * SATELLITE_MM, 90, "bottom", margin=SATELLITE_SPACING, limit=40
            )
            placer.rects["bottom"].pop()
            net = job["pin_nets"]["%s.%s" % (mux, number)]
            pin = (px, pcbnew.ToMM(pins[number].GetPosition().y))
            best = None
            for rot in (90, 270):
                placer.put(ref, x, y, rot, "bottom", record=False)
                d = math.dist(_pads_at(placer, job, ref, net), pin)
                if best is None or d < best[0]:
                    best = (d, rot)
            assert best is not None
            placer.put(ref, x, y, best[1], "bottom")


def _edge_spot(placer: Placer, ref: str, job: Job) -> tuple[float, float, int]:
    # along the board's edges, USB outwards (the footprint's USB end is its -y; on the underside the
    # flip turns it to +y), the spot nearest the job's corner
    hh = 25.5 + 1.55  # the module's half length and its USB connector's overhang
    gx, gy = job["controller_corner"]
    best = None
    for rot, (ax, ay) in ((0, (0, 1)), (180, (0, -1)), (90, (1, 0)), (270, (-1, 0))):
        step = 1.0
        span = placer.w if ax == 0 else placer.h
        for k in range(int(span / step)):
            t = k * step
            if ax == 0:
                x, y = t, (placer.h - hh - 0.5 if ay > 0 else hh + 0.5)
            else:
                x, y = (placer.w - hh - 0.5 if ax > 0 else hh + 0.5), t
            placer.put(ref, x, y, rot, "bottom", record=False)
            if placer.fits(ref, SPACING, edge=0.1):
                d = math.hypot(x - gx, y - gy)
                if best is None or d < best[0]:
                    best = (d, x, y, rot)
    if best is None:
        raise SystemExit("no room for the Pico at any edge")
    _, x, y, rot = best
    x, y = round(x / router.PITCH) * router.PITCH, round(y / router.PITCH) * router.PITCH
    placer.put(ref, x, y, rot, "bottom")
    return x, y, rot


def mounting_holes(placer: Placer, job: Job) -> list[tuple[float, float]]:
    """M3 holes on a grid of about 100 mm, wherever both sides are free."""
    out = []
    n_x = max(2, round(placer.w / 100) + 1)
    n_y = max(2, round(placer.h / 100) + 1)
    for i in range(n_x):
        for j in range(n_y):
            x = 8 + (placer.w - 16) * i / (n_x - 1)
            y = 8 + (placer.h - 16) * j / (n_y - 1)
            spot = _free_circle(placer, x, y, MOUNT_HOLE / 2 + 3.0)
            if spot:
                out.append(spot)
                r = MOUNT_HOLE / 2 + 3.0
                for side in ("top", "bottom"):
                    placer.rects[side].append((spot[0] - r, spot[1] - r, spot[0] + r, spot[1] + r))
    return out


def _free_circle(
    placer: Placer, x: float, y: float, r: float, limit: float = 20.0
) -> tuple[float, float] | None:
    step = 0.5
    for ring in range(int(limit / step)):
        for k in range(-ring, ring + 1):
            for dx, dy in ((k, -ring), (k, ring), (-ring, k), (ring, k)):
                px, py = x + dx * step, y + dy * step
                if px - r < 1 or py - r < 1 or px + r > placer.w - 1 or py + r > placer.h - 1:
                    continue
                ok = all(
                    not (px - r < a[2] and a[0] < px + r and py - r < a[3] and a[1] < py + r)
                    for side in ("top", "bottom")
                    for a in placer.rects[side]
                ) and all(math.hypot(px - cx, py - cy) > cr + r for cx, cy, cr in placer.circles)
                if ok:
                    return (px, py)
    return None


def nets(board: Board, job: Job, placer: Placer) -> dict[str, NetCode]:
    """Every pad's net as the circuit has it."""
    codes = {}
    for name in sorted(set(job["pin_nets"].values())):
        item = pcbnew.NETINFO_ITEM(board, name)
        board.Add(item)
        codes[name] = item
    for c in job["components"]:
        fp = placer.fps[c["ref"]]
        for pad in fp.Pads():
            net = job["pin_nets"].get("%s.%s" % (c["ref"], pad.GetNumber()))
            if net:
                pad.SetNet(codes[net])
    return codes


def _pads(board: Board, codes: dict[str, NetCode]) -> tuple[list[router.Pad], dict[str, int]]:
    number = {name: k + 1 for k, name in enumerate(sorted(codes))}
    out = []
    for fp in board.GetFootprints():
        for p in fp.Pads():
            b = p.GetBoundingBox()
            x0, y0, x1, y1 = (pcbnew.ToMM(v) for v in (b.GetLeft(), b.GetTop(), b.GetRight(), b.GetBottom()))
            layers = tuple(k for k, layer in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)) if p.IsOnLayer(layer))
            name = p.GetNetname()
            out.append(
                router.Pad(
                    fp.GetReference(),
                    p.GetNumber(),
                    number.get(name, 0),
                    (x0 + x1) / 2,
                    (y0 + y1) / 2,
                    (x1 - x0) / 2,
                    (y1 - y0) / 2,
                    layers,
                    p.GetShape() == pcbnew.PAD_SHAPE_CIRCLE,
                )
            )
    return out, number


def route(
    board: Board,
    job: Job,
    placer: Placer,
    codes: dict[str, NetCode],
    holes: list[tuple[float, float]],
    progress: Callable[[str], None],
) -> list[str]:
    """Every net but the planes' routed (rip-up and reroute, ludus_host.pcb.router), the supply's path
    and the LED rail's feed at the width their current needs, the planes reached by a via beside each
    surface pad. Returns what is left unrouted."""
    pads, number = _pads(board, codes)
    name_of = {v: k for k, v in number.items()}
    by_net: dict[int, list] = {}
    for p in pads:
        if p.net:
            by_net.setdefault(p.net, []).append(p)
    grid = router.Grid(job["width"], job["height"])
    for p in pads:
        grid.add_pad(p)
    for x, y in holes:
        grid.block_hole(x, y, MOUNT_HOLE / 2)
    for ref in job["no_vias_under"]:
        x0, y0, x1, y1 = placer.bbox(ref)
        grid.block_vias(x0 + 3.5, y0 + 1.5, x1 - 3.5, y1 - 1.5)
        grid.block_rect(x0 + 3.5, y0 + 1.5, x1 - 3.5, y1 - 1.5, layers=(1,))
    wide = current.SUPPLY_TRACK_MM
    rail = number.get(RAIL)
    # U3's OUT pins feed the LED rail's plane each through vias of their own beside the pin: the
    # supply's current split over RAIL_VIAS vias, where a wide track round the chip would wall in its
    # signal pins
    feed = [p for p in (by_net.get(rail, []) if rail is not None else []) if p.ref == job["rail_feed"][0]]
    order = []
    for net, ps in by_net.items():
        name = name_of[net]
        if name in PLANES or len(ps) < 2:
            continue
        xs = [p.x for p in ps]
        ys = [p.y for p in ps]
        span = max(xs) - min(xs) + max(ys) - min(ys)
        # the power mux's own small nets and USB's, whose pins leave them one way out; then the rest,
        # the 3.3 V rails last (the supply's wide nets are routed before all of these, below)
        mux = any(p.ref == job["rail_feed"][0] for p in ps)
        if name in SUPPLY_NETS:
            first = 1
        elif mux or name in USB_NETS:
            first = 0
        else:
            first = 3 if name in job["last_nets"] else 2
        if name in SUPPLY_NETS:
            # wide between the parts the supply's current goes through, thin to the rest (dividers,
            # decoupling)
            power = [p for p in ps if p.ref in job["power_parts"]]
            rest = [p for p in ps if p.ref not in job["power_parts"]]
            n = router.Net(net, power, wide, tail=rest) if len(power) >= 2 else router.Net(net, ps)
        else:
            n = router.Net(net, ps)
        order.append((first, span, name, n))
    order.sort(key=lambda o: o[:3])
    nets = [o[3] for o in order]
    failed = []
    routes = []
    shared = escapes(grid, job, placer, pads, {number[n] for n in PLANES if n in number})
    # the supply's wide nets first, before the planes' vias (the rail's six among them) take the room
    # round the mux's power pins
    early = [n for n in nets if name_of[n.net] in SUPPLY_NETS]
    done, queue = grid.first_pass(early, progress)
    for name in PLANES:
        plane = number.get(name)
        for p in by_net.get(plane, []) if plane is not None else []:
            if len(p.layers) == 2 or p in shared:
                continue  # a through-hole pad reaches the plane itself; a shared pin its neighbour's via
            for _ in range(_rail_vias(p, feed)):
                # the rail's vias beside U3's OUT pins, however often rip-ups move them
                grid.fanout_pad(p, RAIL_VIA_REACH if p in feed else None)
    grid.names = name_of
    later, more = grid.first_pass([n for n in nets if n not in early], progress)
    done.update(later)
    done, left = grid.negotiate(nets, done, queue + more, progress)
    for n in nets:
        routes.append((n.net, done[n.net]))
    for net in left:
        failed.append("%s: unrouted" % name_of[net])
    for owner, r in grid.fanout_routes.items():
        routes.append((grid.alias[owner], r))
    for owner in grid.fanout_failed:
        failed.append(
            "%s: a pad has no room for its via: %s" % (name_of[grid.alias[owner]], grid.fanout_pads[owner])
        )
    for net, r in routes:
        item = codes[name_of[net]]
        for layer, x0, y0, x1, y1, width in r.segments:
            t = pcbnew.PCB_TRACK(board)
            t.SetStart(point(x0, y0))
            t.SetEnd(point(x1, y1))
            t.SetWidth(mm(width))
            t.SetLayer(pcbnew.F_Cu if layer == 0 else pcbnew.B_Cu)
            t.SetNet(item)
            board.Add(t)
        for x, y in r.vias:
            v = pcbnew.PCB_VIA(board)
            v.SetPosition(point(x, y))
            v.SetWidth(mm(router.VIA))
            v.SetDrill(mm(current.VIA_DRILL_MM))
            v.SetNet(item)
            board.Add(v)
    return failed


def escapes(
    grid: router.Grid, job: Job, placer: Placer, pads: list[router.Pad], planes: set[int]
) -> list[router.Pad]:
    """Each pin of the fine-pitch parts' signal rows (the power mux's 0.2 mm pads) led straight out of
    the part before anything else is routed (router.Grid.escape_pad); its net, or its plane's via,
    goes on from there. Routed later, the plane vias beside the power pins walled the signal pins in,
    or the signal tracks the power pins. Two neighbouring pins of one plane (PLANES: their net numbers)
    share one via, the outer one's: a via for the inner pin too stood in the way of the signal pin
    beside it. The inner pins, joined to their neighbour's escape and given no via, are returned."""
    shared = []
    for ref in job["half_pitch"]:
        pos = placer.fps[ref].GetPosition()
        centre = (pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y))
        made = [p for p in pads if p.ref == ref and p.net and 2 * min(p.hw, p.hh) < 0.3]
        made = [p for p in made if grid.escape_pad(p, centre)]
        for a in made:
            for b in made:
                if a is b or a.net != b.net or a.net not in planes or a in shared or b in shared:
                    continue
                if abs(a.y - b.y) > 1e-6 or abs(abs(a.x - b.x) - router.PITCH) > 1e-6:
                    continue  # (the signal rows lie along x)
                if abs(a.x - centre[0]) < abs(b.x - centre[0]) and grid.join_escapes(a, b):
                    shared.append(a)  # the inner pin joins the outer
    return shared


def _rail_vias(pad: router.Pad, feed: list[router.Pad]) -> int:
    """How many vias PAD takes into its plane: one, or for U3's OUT pins all but one of RAIL_VIAS on the
    pin whose neighbour is IN2 (USB's small current) and one on the pin beside IN1, where the supply's
    wide track comes in."""
    if pad not in feed:
        return 1
    return current.RAIL_VIAS - 1 if pad.number == "1" else 1


def outline(board: Board, w: float, h: float) -> None:
    pts = [(0, 0), (w, 0), (w, h), (0, h)]
    for a, b in zip(pts, pts[1:] + pts[:1]):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(point(*a))
        s.SetEnd(point(*b))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(mm(0.1))
        board.Add(s)


def planes(board: Board, job: Job, codes: dict[str, NetCode]) -> None:
    w, h = job["width"], job["height"]
    for name, layer in PLANES.items():
        z = pcbnew.ZONE(board)
        z.SetLayer(layer)
        z.SetNet(codes[name])
        z.SetIsFilled(False)
        z.SetLocalClearance(mm(0.3))
        z.SetMinThickness(mm(0.25))
        # solid to every pad: the jack's ground pin returns the supply's whole current through it
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_FULL)
        z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        poly = z.Outline()
        poly.NewOutline()
        for x, y in ((0.5, 0.5), (w - 0.5, 0.5), (w - 0.5, h - 0.5), (0.5, h - 0.5)):
            poly.Append(mm(x), mm(y))
        board.Add(z)


def holes(board: Board, spots: list[tuple[float, float]]) -> None:
    for k, (x, y) in enumerate(spots):
        fp = pcbnew.FootprintLoad(
            os.path.join(
                os.environ.get("KICAD_FOOTPRINTS", "/usr/share/kicad/footprints"), "MountingHole.pretty"
            ),
            "MountingHole_3.2mm_M3",
        )
        fp.SetReference("MH%d" % (k + 1))
        fp.Reference().SetVisible(False)  # the pictures show the holes; their names would cross silk
        fp.SetPosition(point(x, y))
        board.Add(fp)


def design_rules(board: Board, job: Job) -> None:
    board.SetCopperLayerCount(4)
    ds = board.GetDesignSettings()
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(mm(router.CLEARANCE))
    nc.SetTrackWidth(mm(router.TRACK))
    nc.SetViaDiameter(mm(router.VIA))
    nc.SetViaDrill(mm(current.VIA_DRILL_MM))
    ds.SetCopperEdgeClearance(mm(router.EDGE))
    # arcs and circles of the planes' fills drawn within 0.05 mm (KiCad's default 0.005 mm): a tenth of
    # the vertices in the inner layers' Gerbers; the filler keeps each clearance whatever the error
    ds.m_MaxError = mm(PLANE_ARC_ERROR)
    supply = pcbnew.NETCLASSPTR("Supply")
    supply.SetDescription("the jack's path to U3: IPC-2221 width for %g A" % current.SUPPLY_A)
    supply.SetClearance(mm(router.CLEARANCE))
    supply.SetTrackWidth(mm(current.SUPPLY_TRACK_MM))
    supply.SetViaDiameter(mm(router.VIA))
    supply.SetViaDrill(mm(current.VIA_DRILL_MM))
    ds.GetNetClasses().Add(supply)
    names = supply.NetNames()
    for name in SUPPLY_NETS:
        names.insert(name)


def fabrication(board: Board, out: str, name: str) -> list[str]:
    """Gerbers of every layer a fab needs, and the drill files (Excellon, plated and not apart)."""
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(out)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(False)
    po.SetCreateGerberJobFile(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetUseAuxOrigin(False)
    po.SetPlotValue(False)
    po.SetPlotReference(True)
    po.SetExcludeEdgeLayer(True)
    written = []
    for layer, suffix in (
        (pcbnew.F_Cu, "F_Cu"),
        (pcbnew.In1_Cu, "In1_Cu"),
        (pcbnew.In2_Cu, "In2_Cu"),
        (pcbnew.B_Cu, "B_Cu"),
        (pcbnew.F_Mask, "F_Mask"),
        (pcbnew.B_Mask, "B_Mask"),
        (pcbnew.F_SilkS, "F_Silkscreen"),
        (pcbnew.B_SilkS, "B_Silkscreen"),
        (pcbnew.F_Paste, "F_Paste"),
        (pcbnew.B_Paste, "B_Paste"),
        (pcbnew.Edge_Cuts, "Edge_Cuts"),
    ):
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
        written.append(pc.GetPlotFileName())
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(out, True, False)
    return written


def report(board: Board, path: str) -> tuple[dict[str, int], str]:
    pcbnew.WriteDRCReport(board, path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    counts = {"errors": 0, "warnings": 0}
    for line in text.splitlines():
        if "Severity: error" in line:
            counts["errors"] += 1
        elif "Severity: warning" in line:
            counts["warnings"] += 1
        elif line.startswith("** Found") and "unconnected pads" in line:
            counts["unconnected"] = int(line.split()[2])
    return counts, text


def _box(b: Any) -> list[float]:
    return [round(pcbnew.ToMM(v), 3) for v in (b.GetLeft(), b.GetTop(), b.GetRight(), b.GetBottom())]


def geometry(board: Board, job: Job, spots: list[tuple[float, float]], placer: Placer) -> dict[str, Any]:
    """What the pictures draw, read from the finished board."""
    g = {"width": job["width"], "height": job["height"], "title": job["title"], "tracks": [], "vias": []}
    for t in board.GetTracks():
        if t.GetClass() == "PCB_VIA":
            pos = t.GetPosition()
            g["vias"].append([round(pcbnew.ToMM(pos.x), 3), round(pcbnew.ToMM(pos.y), 3)])
        else:
            a, b = t.GetStart(), t.GetEnd()
            layer = 0 if t.GetLayer() == pcbnew.F_Cu else 1
            g["tracks"].append(
                [layer]
                + [round(pcbnew.ToMM(v), 3) for v in (a.x, a.y, b.x, b.y)]
                + [pcbnew.ToMM(t.GetWidth())]
            )
    g["pads"] = []
    g["parts"] = []
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        for p in fp.Pads():
            layers = [k for k, layer in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)) if p.IsOnLayer(layer)]
            g["pads"].append([layers] + _box(p.GetBoundingBox()) + [p.GetShape() == pcbnew.PAD_SHAPE_CIRCLE])
        if ref.startswith("MH"):
            continue
        side = "bottom" if fp.IsFlipped() else "top"
        placer.fps[ref] = fp
        placer.sides[ref] = side
        g["parts"].append([ref, side] + [round(v, 3) for v in placer.bbox(ref)])
    g["holes"] = [[x, y, MOUNT_HOLE / 2] for x, y in spots]
    g["top_holes"] = job["keepout_circles"]
    return g


def main() -> None:
    job_path, out = sys.argv[1], sys.argv[2]
    with open(job_path, encoding="utf-8") as f:
        job = json.load(f)
    os.makedirs(out, exist_ok=True)

    def progress(text: str) -> None:
        print("%s: %s" % (job["name"], text), flush=True)

    # pcbnew gives every item a random id and writes a board's footprints, drawings and tracks in the
    # order of their ids: seeded, the same job writes the same files
    pcbnew.KIID.SeedGenerator(1)
    board = pcbnew.BOARD()
    design_rules(board, job)
    outline(board, job["width"], job["height"])
    placer = Placer(board, job)
    place(board, job, placer)
    progress("placed %d parts" % len(placer.fps))
    spots = mounting_holes(placer, job)
    holes(board, spots)
    codes = nets(board, job, placer)
    failed = route(board, job, placer, codes, spots, progress)
    progress("routed, %d nets failed" % len(failed))
    planes(board, job, codes)
    # the board file keeps its planes unpoured (KiCad pours them on opening, key B): poured, they were
    # most of its size; the Gerbers, the report and the pictures are made from the poured board
    pcb_path = os.path.join(out, job["name"] + ".kicad_pcb")
    pcbnew.SaveBoard(pcb_path, board)
    # the planes are poured on the board read back: pcbnew's filler wants a board as it loads one
    board = pcbnew.LoadBoard(pcb_path)
    board.GetDesignSettings().m_MaxError = mm(PLANE_ARC_ERROR)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    counts, _drc = report(board, os.path.join(out, "drc.rpt"))
    progress("DRC: %s" % counts)
    fabrication(board, os.path.join(out, "gerbers"), job["name"])
    placements = []
    for fp in board.GetFootprints():
        pos = fp.GetPosition()
        placements.append(
            {
                "ref": fp.GetReference(),
                "value": fp.GetValue(),
                "footprint": str(fp.GetFPID().GetLibItemName()),
                "x": pcbnew.ToMM(pos.x),
                "y": pcbnew.ToMM(pos.y),
                "rot": fp.GetOrientationDegrees(),
                "side": "bottom" if fp.IsFlipped() else "top",
            }
        )
    positions = pcbnew.PLACE_FILE_EXPORTER(board, True, False, False, True, True, True, False)
    with open(os.path.join(out, "positions.csv"), "w", encoding="utf-8") as f:
        f.write(positions.GenPositionData())
    g = geometry(board, job, spots, placer)
    for side in ("top", "bottom"):
        with open(os.path.join(out, "%s-%s.svg" % (job["name"], side)), "w", encoding="utf-8") as f:
            f.write(render.svg(g, side))
    with open(os.path.join(out, "report.json"), "w", encoding="utf-8") as f:
        json.dump({"failed": failed, "drc": counts, "placements": placements, "holes": spots}, f, indent=1)


if __name__ == "__main__":
    main()

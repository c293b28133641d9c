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
        self, ref: str, margin: float = SPACING, top_clear: float | None = None, edge: float = 1.0
    ) -> bool:
        x0, y0, x1, y1 = self.bbox(ref)
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
    ) -> tuple[float, float]:
        """REF at the free spot nearest (X, Y) (a square spiral of STEP mm, out to LIMIT), on the
        routing grid."""
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
                if self.fits(ref, margin, top_clear, edge):
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
    for led in job["leds"]:
        # a quarter turn where a neighbour's courtyard is in the way (the die's pips, 6.6 mm apart)
        # or, failing both, moved by up to 0.5 mm inside its 5 mm window
        done = False
        for shift in range(6):
            for dx, dy in sorted({(a * shift / 10, b * shift / 10) for a in (-1, 0, 1) for b in (-1, 0, 1)}):
                for rot in (0, 90):
                    placer.put(led["ref"], led["x"] + dx, led["y"] + dy, rot, "top", record=False)
                    if placer.fits(led["ref"], 0.0, top_clear=-100):
                        done = True
                        break
                if done:
                    break
            if done:
                break
        placer.record(led["ref"])
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
    for ref in ctl["parts"]:
        if ref in (pico, jack, button):
            continue
        power = ref in job["power_parts"] + job["rail_feed"]
        margin = POWER_SPACING if power else CONTROLLER_SPACING
        # a supply part keeps off the board's edge, where its wide tracks would find no room
        x, y = placer.near(
            ref, px, py, 0, "bottom", margin=margin, limit=150, edge=POWER_EDGE if power else 1.0
        )
        if ref in job["half_pitch"]:
            # a package of 0.5 mm pitch sits half a grid step over, so that a grid node falls on the
            # middle of each of its narrow pads (on the grid, every node between two pads is too near
            # both for a track)
            placer.rects["bottom"].pop()
            placer.put(ref, x + router.PITCH / 2, y, 0, "bottom")
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
        # first the power mux's own small nets and USB's, whose pins leave them one way out; then the
        # supply's wide nets, which can go round; then the rest, the 3.3 V rails last
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
    escapes(grid, job, placer, pads)
    for name in PLANES:
        plane = number.get(name)
        for p in by_net.get(plane, []) if plane is not None else []:
            if len(p.layers) == 2:
                continue  # a through-hole pad reaches the plane itself
            for _ in range(_rail_vias(p, feed)):
                # the rail's vias beside U3's OUT pins, however often rip-ups move them
                grid.fanout_pad(p, RAIL_VIA_REACH if p in feed else None)
    grid.names = name_of
    done, left = grid.route_all(nets, progress)
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


def escapes(grid: router.Grid, job: Job, placer: Placer, pads: list[router.Pad]) -> None:
    """Each pin of the fine-pitch parts' signal rows (the power mux's 0.2 mm pads) led straight out of
    the part before anything else is routed (router.Grid.escape_pad); its net, or its plane's via,
    goes on from there. Routed later, the plane vias beside the power pins walled the signal pins in,
    or the signal tracks the power pins."""
    for ref in job["half_pitch"]:
        pos = placer.fps[ref].GetPosition()
        centre = (pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y))
        for p in pads:
            if p.ref == ref and p.net and 2 * min(p.hw, p.hh) < 0.3:
                grid.escape_pad(p, centre)


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

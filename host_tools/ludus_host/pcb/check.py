"""A committed PCB read back without KiCad and held against its circuit: every part of the netlist on the
board and no other, every pad on the net the circuit gives its pin, each sensor at its cell, each LED
under its window, the outline within the fab's limit."""

import math
import re
from dataclasses import dataclass, field

from ludus_host.circuit import netlist


@dataclass
class Footprint:
    ref: str
    lib: str
    x: float
    y: float
    rot: float
    layer: str
    pads: dict[str, str] = field(default_factory=dict)  # pad number: net name ("" when none)
    # each pad's centre on the board and its half sizes (rotated with the footprint): (number, net,
    # x, y, half width, half height)
    places: list[tuple[str, str, float, float, float, float]] = field(default_factory=list)


@dataclass
class Track:
    net: str
    layer: str
    width: float
    x0: float
    y0: float
    x1: float
    y1: float

    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)


@dataclass
class Board:
    footprints: dict[str, Footprint]
    outline: tuple[float, float, float, float]  # x0, y0, x1, y1 of the Edge.Cuts lines
    tracks: list[Track] = field(default_factory=list)
    vias: list[tuple[str, float, float]] = field(default_factory=list)  # net, x, y

    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.outline
        return x1 - x0, y1 - y0


_EDGE = re.compile(
    r'\(gr_line \(start ([-\d.]+) ([-\d.]+)\) \(end ([-\d.]+) ([-\d.]+)\) \(layer "Edge\.Cuts"\)'
)
_AT = re.compile(r"\(at ([-\d.]+) ([-\d.]+)(?: ([-\d.]+))?\)")
_NET = re.compile(r'\(net \d+ "((?:[^"\\]|\\.)*)"\)')
_SIZE = re.compile(r"\(size ([-\d.]+) ([-\d.]+)\)")
_SEGMENT = re.compile(
    r"\(segment \(start ([-\d.]+) ([-\d.]+)\) \(end ([-\d.]+) ([-\d.]+)\) \(width ([-\d.]+)\)"
    r' \(layer "([^"]+)"\) \(net (\d+)\)'
)
_VIA = re.compile(r"\(via \(at ([-\d.]+) ([-\d.]+)\).*?\(net (\d+)\)")
_NET_NAME = re.compile(r'^  \(net (\d+) "((?:[^"\\]|\\.)*)"\)$', re.M)


def parse(text: str) -> Board:
    """The footprints (reference, place, side, pads' nets) and outline of a .kicad_pcb file's TEXT."""
    fps = {}
    chunks = text.split("\n  (footprint ")[1:]
    for chunk in chunks:
        lib = chunk[1 : chunk.index('"', 1)]
        layer = re.search(r'\(layer "([^"]+)"\)', chunk).group(1)  # type: ignore[union-attr]
        at = _AT.search(chunk)
        assert at is not None
        ref = re.search(r'\(fp_text reference "([^"]*)"', chunk).group(1)  # type: ignore[union-attr]
        fp = Footprint(ref, lib, float(at.group(1)), float(at.group(2)), float(at.group(3) or 0), layer)
        turn = math.radians(fp.rot)
        for pad in chunk.split('(pad "')[1:]:
            number = pad[: pad.index('"')]
            net = _NET.search(pad)
            name = net.group(1) if net else ""
            if fp.pads.get(number, "") == "":
                fp.pads[number] = name
            pat = _AT.search(pad)
            size = _SIZE.search(pad)
            if pat and size:
                # KiCad turns a footprint's items by its angle, counter-clockwise as drawn (y down); a
                # pad's own angle includes the footprint's
                px, py = float(pat.group(1)), float(pat.group(2))
                x = fp.x + px * math.cos(turn) + py * math.sin(turn)
                y = fp.y - px * math.sin(turn) + py * math.cos(turn)
                w, h = float(size.group(1)) / 2, float(size.group(2)) / 2
                if round(float(pat.group(3) or 0)) % 180 == 90:
                    w, h = h, w
                fp.places.append((number, name, round(x, 4), round(y, 4), w, h))
        fps[ref] = fp
    xs, ys = [], []
    for m in _EDGE.finditer(text):
        x0, y0, x1, y1 = (float(v) for v in m.groups())
        xs += [x0, x1]
        ys += [y0, y1]
    names = {m.group(1): m.group(2) for m in _NET_NAME.finditer(text)}
    tracks = [
        Track(names[m.group(7)], m.group(6), float(m.group(5)), *(float(v) for v in m.groups()[:4]))
        for m in _SEGMENT.finditer(text)
    ]
    vias = [(names[m.group(3)], float(m.group(1)), float(m.group(2))) for m in _VIA.finditer(text)]
    return Board(fps, (min(xs), min(ys), max(xs), max(ys)), tracks, vias)


def narrow_faults(board: Board, nets: tuple[str, ...], width: float, neck_mm: float) -> list[str]:
    """Tracks of NETS narrower than WIDTH anywhere but within NECK_MM (plus the pad's half length) of
    one of their own pads' centres (where a wide track narrows to enter a small pad), and NETS carried
    on no track at all."""
    faults = []
    pads: dict[str, list[tuple[float, float, float, float]]] = {}
    for fp in board.footprints.values():
        for _n, net, x, y, hw, hh in fp.places:
            pads.setdefault(net, []).append((x, y, hw, hh))

    def near_pad(net: str, x: float, y: float) -> bool:
        return any(
            math.hypot(x - px, y - py) <= neck_mm + max(hw, hh) for px, py, hw, hh in pads.get(net, [])
        )

    for net in nets:
        mine = [t for t in board.tracks if t.net == net]
        if not mine:
            faults.append("%s has no track" % net)
        for t in mine:
            if t.width + 1e-6 < width and not (near_pad(net, t.x0, t.y0) and near_pad(net, t.x1, t.y1)):
                faults.append(
                    "%s: a %g mm track from (%g, %g) to (%g, %g) away from its pads"
                    % (net, t.width, t.x0, t.y0, t.x1, t.y1)
                )
    return faults


def net_differences(nl: netlist.Netlist, board: Board) -> list[str]:
    """Where BOARD's parts and pads' nets differ from the circuit NL (empty: they agree). Mounting
    holes (MH..) are the board's own; a pin the circuit leaves open has no net on the board."""
    faults = []
    parts = {r for r in board.footprints if not r.startswith("MH")}
    for r in sorted(set(nl.components) - parts):
        faults.append("%s is in the circuit but not on the board" % r)
    for r in sorted(parts - set(nl.components)):
        faults.append("%s is on the board but not in the circuit" % r)
    for r in sorted(parts & set(nl.components)):
        c = nl.components[r]
        fp = board.footprints[r]
        if c.footprint != fp.lib:  # library nickname and name alike
            faults.append("%s: footprint %s on the board, %s in the circuit" % (r, fp.lib, c.footprint))
        for number, net in fp.pads.items():
            want = nl.pin_net(r, number) or ""
            if net != want:
                faults.append("%s pad %s: net %r on the board, %r in the circuit" % (r, number, net, want))
        for n in nl.pins(r):
            if n.pin not in fp.pads:
                faults.append("%s: the circuit's pin %s has no pad" % (r, n.pin))
    return faults


def placement_faults(
    board: Board,
    sensors: dict[str, tuple[float, float]],
    leds: dict[str, tuple[float, float]],
    sensor_mm: float = 0.1,
    led_mm: float = 0.5,
) -> list[str]:
    """Sensors (reference: cell centre) off their cell by more than SENSOR_MM or not on the top side, and
    LEDs (reference: window centre) off their window by more than LED_MM."""
    faults = []
    for r, (x, y) in sorted(sensors.items()):
        fp = board.footprints.get(r)
        if fp is None:
            faults.append("%s is not on the board" % r)
            continue
        d = math.hypot(fp.x - x, fp.y - y)
        if d > sensor_mm or fp.layer != "F.Cu":
            faults.append("%s is %.2f mm from its cell at (%g, %g), on %s" % (r, d, x, y, fp.layer))
    for r, (x, y) in sorted(leds.items()):
        fp = board.footprints.get(r)
        if fp is None or math.hypot(fp.x - x, fp.y - y) > led_mm or fp.layer != "F.Cu":
            faults.append("%s is not under its window at (%g, %g)" % (r, x, y))
    return faults


def wide_path_faults(
    board: Board, net: str, refs: tuple[str, ...], width: float, neck_mm: float
) -> list[str]:
    """Where the pads of NET on the parts REFS are not joined by tracks at least WIDTH wide (a narrower
    track counts only within NECK_MM plus its half length of one of those pads' centres: the neck into
    a small pad): the supply's current path, pad to pad."""
    pads = [
        (f"{fp.ref}.{number}", x, y, hw, hh)
        for fp in board.footprints.values()
        if fp.ref in refs
        for number, name, x, y, hw, hh in fp.places
        if name == net
    ]
    if len(pads) < 2:
        return ["%s: fewer than two pads on %s" % (net, ", ".join(refs))]
    parent: dict[object, object] = {}

    def find(a: object) -> object:
        while parent.setdefault(a, a) != a:
            a = parent[a]
        return a

    def join(a: object, b: object) -> None:
        parent[find(a)] = find(b)

    def key(x: float, y: float) -> tuple[int, int]:
        return round(x * 1000), round(y * 1000)

    def in_neck(x: float, y: float) -> bool:
        return any(math.hypot(x - px, y - py) <= neck_mm + max(hw, hh) for _, px, py, hw, hh in pads)

    counted = [
        t
        for t in board.tracks
        if t.net == net and (t.width + 1e-6 >= width or (in_neck(t.x0, t.y0) and in_neck(t.x1, t.y1)))
    ]
    for k, t in enumerate(counted):
        join(("t", k), ("t", k))
        steps = max(1, int(t.length() / 0.25))
        for s in range(steps + 1):  # the pads the track crosses or ends on
            x, y = t.x0 + (t.x1 - t.x0) * s / steps, t.y0 + (t.y1 - t.y0) * s / steps
            for name, px, py, hw, hh in pads:
                if abs(x - px) <= hw + 1e-3 and abs(y - py) <= hh + 1e-3:
                    join(name, ("t", k))
        for j, u in enumerate(counted):  # the tracks it meets end to end or end to side
            if (
                j != k
                and t.layer == u.layer
                and any(_on_segment(x, y, u) for x, y in ((t.x0, t.y0), (t.x1, t.y1)))
            ):
                join(("t", k), ("t", j))
    groups: dict[object, list[str]] = {}
    for name, *_ in pads:
        groups.setdefault(find(name), []).append(name)
    if len(groups) == 1:
        return []
    return [
        "%s: the wide copper leaves these apart: %s" % (net, " | ".join(" ".join(g) for g in groups.values()))
    ]


def _on_segment(x: float, y: float, t: Track) -> bool:
    dx, dy = t.x1 - t.x0, t.y1 - t.y0
    n = dx * dx + dy * dy
    k = 0.0 if n == 0 else max(0.0, min(1.0, ((x - t.x0) * dx + (y - t.y0) * dy) / n))
    return math.hypot(t.x0 + k * dx - x, t.y0 + k * dy - y) < 1e-3

"""A grid router for the boards' two outer copper layers: A* over a 0.5 mm grid, orthogonal steps, vias
between the layers, each net kept its clearance from every other by marking the grid nodes its copper
claims. The two planes (ground, LED 5 V) are reached by a via beside each pad. Stdlib only: it runs in
the pcbnew process and in the tests alike.

    grid = Grid(width, height)
    grid.add_pad(pad)                   # every pad first, with its net (0: no net)
    path = grid.route(net, terminals)   # each net in turn: the tracks and vias it got, or None
"""

import heapq
import math
from array import array
from dataclasses import dataclass, field

PITCH = 0.5  # mm between grid nodes: two 0.25 mm tracks on neighbouring nodes leave 0.25 mm
TRACK = 0.25  # track width
CLEARANCE = 0.2  # copper to copper of another net (the board's design rule)
VIA = 0.6  # via diameter (0.3 mm drill)
EDGE = 0.5  # copper to the board's edge
LAYERS = 2  # 0: F.Cu (top), 1: B.Cu (bottom)
VIA_COST = 12  # in grid steps: a layer change is worth a detour of 6 mm
BEND_COST = 2
# the top layer's tracks run across, the underside's along: a track on one layer then never walls off a
# crossing on the other
WRONG_WAY_COST = 2
BLOCKED = -1
MAX_EXPANDED = 60000  # nodes a first search may visit
LONG_SEARCH = 400000  # and a second one, round whatever is in the way


@dataclass
class Pad:
    """A pad's copper: its net number (0: none), centre, the half sizes of its bounding rectangle (pads
    are turned only by quarter turns here) and the layers it is on."""

    ref: str
    number: str
    net: int
    x: float
    y: float
    hw: float
    hh: float
    layers: tuple[int, ...]
    round: bool = False


@dataclass
class Route:
    """What routing a net added: track segments (layer, x0, y0, x1, y1) and vias (x, y)."""

    segments: list[tuple[int, float, float, float, float]] = field(default_factory=list)
    vias: list[tuple[float, float]] = field(default_factory=list)


class Grid:
    """The routing grid of a board WIDTH x HEIGHT mm with its origin at (0, 0)."""

    def __init__(self, width: float, height: float):
        self.nx = int(width / PITCH) + 1
        self.ny = int(height / PITCH) + 1
        self.size = self.nx * self.ny
        # per layer, the net that owns each node for tracks (0 free, -1 blocked), and for vias
        self.track = [array("i", bytes(4 * self.size)) for _ in range(LAYERS)]
        self.via = [array("i", bytes(4 * self.size)) for _ in range(LAYERS)]
        self.width, self.height = width, height
        self.stubs: dict[tuple[int, int], tuple[float, float]] = {}  # node: the centre of a small pad
        self._edge()

    # ---- marking -------------------------------------------------------------------------------

    def _claim(self, grid: array, i: int, net: int) -> None:
        cur = grid[i]
        if cur == 0:
            grid[i] = net
        elif cur != net:
            grid[i] = BLOCKED

    def _nodes_near_rect(self, x0: float, y0: float, x1: float, y1: float, margin: float, round_r: float = 0):
        """Grid indices whose centre lies within MARGIN of the rectangle (or of the circle of radius
        ROUND_R at its centre, when given)."""
        ix0 = max(0, math.ceil((x0 - margin) / PITCH - 1e-9))
        ix1 = min(self.nx - 1, math.floor((x1 + margin) / PITCH + 1e-9))
        iy0 = max(0, math.ceil((y0 - margin) / PITCH - 1e-9))
        iy1 = min(self.ny - 1, math.floor((y1 + margin) / PITCH + 1e-9))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for iy in range(iy0, iy1 + 1):
            y = iy * PITCH
            dy = max(y0 - y, 0.0, y - y1)
            for ix in range(ix0, ix1 + 1):
                x = ix * PITCH
                if round_r:
                    d = math.hypot(x - cx, y - cy) - round_r
                else:
                    dx = max(x0 - x, 0.0, x - x1)
                    d = math.hypot(dx, dy)
                if d < margin - 1e-9:
                    yield iy * self.nx + ix

    def block_rect(self, x0: float, y0: float, x1: float, y1: float, layers=(0, 1), margin: float = 0.0):
        """No copper of any net inside the rectangle (plus MARGIN) on LAYERS."""
        for layer in layers:
            for i in self._nodes_near_rect(x0, y0, x1, y1, margin + TRACK / 2 + 1e-6):
                self.track[layer][i] = BLOCKED
            for i in self._nodes_near_rect(x0, y0, x1, y1, margin + VIA / 2 + 1e-6):
                self.via[layer][i] = BLOCKED

    def block_vias(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """No via inside the rectangle (under a module whose underside has test pads)."""
        for layer in range(LAYERS):
            for i in self._nodes_near_rect(x0, y0, x1, y1, VIA / 2 + CLEARANCE):
                self.via[layer][i] = BLOCKED

    def block_hole(self, x: float, y: float, r: float) -> None:
        """A hole without copper (a mounting hole) of radius R: copper keeps CLEARANCE + EDGE from it."""
        self.block_rect(x, y, x, y, margin=r + EDGE)

    def _edge(self) -> None:
        for layer in range(LAYERS):
            for g, half in ((self.track[layer], TRACK / 2), (self.via[layer], VIA / 2)):
                lim = EDGE + half
                for iy in range(self.ny):
                    y = iy * PITCH
                    for ix in range(self.nx):
                        x = ix * PITCH
                        if x < lim or y < lim or x > self.width - lim or y > self.height - lim:
                            g[iy * self.nx + ix] = BLOCKED

    def add_pad(self, pad: Pad) -> None:
        """PAD's copper: other nets keep their clearance from it."""
        net = pad.net if pad.net else BLOCKED
        x0, y0, x1, y1 = pad.x - pad.hw, pad.y - pad.hh, pad.x + pad.hw, pad.y + pad.hh
        r = pad.hw if pad.round else 0
        for layer in pad.layers:
            for i in self._nodes_near_rect(x0, y0, x1, y1, CLEARANCE + TRACK / 2, r):
                self._claim(self.track[layer], i, net)
            for i in self._nodes_near_rect(x0, y0, x1, y1, CLEARANCE + VIA / 2, r):
                self._claim(self.via[layer], i, net)

    def _mark_track_node(self, layer: int, i: int, net: int) -> None:
        self._claim(self.track[layer], i, net)
        for j in self._around(i, 1):
            self._claim(self.via[layer], j, net)
        self._claim(self.via[layer], i, net)

    def _mark_via(self, i: int, net: int) -> None:
        for layer in range(LAYERS):
            self._claim(self.track[layer], i, net)
            self._claim(self.via[layer], i, net)
            for j in self._around(i, 1):
                self._claim(self.track[layer], j, net)
                self.via[layer][j] = BLOCKED  # two holes 0.5 mm apart are too close, one net or two
            for j in self._around(i, 2):
                self._claim(self.via[layer], j, net)

    def _around(self, i: int, kind: int):
        # kind 1: the four orthogonal neighbours (0.5 mm); kind 2: the four diagonal ones (0.71 mm)
        ix, iy = i % self.nx, i // self.nx
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1)) if kind == 1 else ((1, 1), (1, -1), (-1, 1), (-1, -1))
        for dx, dy in steps:
            x, y = ix + dx, iy + dy
            if 0 <= x < self.nx and 0 <= y < self.ny:
                yield y * self.nx + x

    # ---- queries -------------------------------------------------------------------------------

    def node(self, x: float, y: float) -> int:
        return round(y / PITCH) * self.nx + round(x / PITCH)

    def xy(self, i: int) -> tuple[float, float]:
        return (i % self.nx) * PITCH, (i // self.nx) * PITCH

    def _free(self, grid: array, i: int, net: int) -> bool:
        v = grid[i]
        return v == 0 or v == net

    def can_via(self, i: int, net: int) -> bool:
        return all(self._free(self.via[layer], i, net) for layer in range(LAYERS)) and all(
            self._free(self.track[layer], i, net) for layer in range(LAYERS)
        )

    def pad_nodes(self, pad: Pad) -> list[tuple[int, int]]:
        """(layer, node) inside PAD's copper that its net may use: where a track ending there touches
        the pad. A pad too small to hold a node gets the nodes within half a pitch of its centre."""
        out = []
        margin = 0.0
        x0, y0, x1, y1 = pad.x - pad.hw, pad.y - pad.hh, pad.x + pad.hw, pad.y + pad.hh
        for layer in pad.layers:
            nodes = [i for i in self._nodes_near_rect(x0, y0, x1, y1, 1e-6 + margin)]
            if pad.round:
                nodes = [i for i in nodes if math.dist(self.xy(i), (pad.x, pad.y)) < pad.hw - TRACK / 2]
            found = [(layer, i) for i in nodes if self._free(self.track[layer], i, pad.net)]
            if not found:
                # a pad narrower than the pitch: the nodes beside its centre, joined to it by a stub
                near = self._nodes_near_rect(pad.x, pad.y, pad.x, pad.y, PITCH * 0.75)
                found = [(layer, i) for i in near if self._free(self.track[layer], i, pad.net)]
                for key in found:
                    self.stubs[key] = (pad.x, pad.y)
            out += found
        return out

    # ---- routing -------------------------------------------------------------------------------

    def route(self, net: int, groups: list[list[tuple[int, int]]], anchors: list[tuple[float, float]]):
        """Connect NET's pads: GROUPS holds each pad's (layer, node) entries, ANCHORS each pad's centre.
        The pads join one by one, nearest first, each to the copper already joined. Returns the Route
        and the indices of the pads it could not reach."""
        result = Route()
        missed: list[int] = []
        if len(groups) < 2:
            return result, missed
        order = _prim_order(anchors)
        start = next((k for k in order if groups[k]), None)
        if start is None:
            return result, list(range(len(groups)))
        tree: set[tuple[int, int]] = set(groups[start])
        joined = [anchors[start]]
        for k in order:
            if k == start:
                continue
            sources = groups[k]
            if not sources:
                missed.append(k)
                continue
            if tree & set(sources):
                tree |= set(sources)
                joined.append(anchors[k])
                continue
            ax, ay = anchors[k]
            target_xy = min(joined, key=lambda p: abs(p[0] - ax) + abs(p[1] - ay))
            path = self._astar(net, sources, tree, target_xy)
            if path is None:  # a long way round: search the whole board
                path = self._astar(net, sources, tree, target_xy, limit=LONG_SEARCH)
            if path is None:
                missed.append(k)
                continue
            self._commit(net, path, result)
            tree |= set(path)
            tree |= set(sources)
            joined.append(anchors[k])
        return result, missed

    def fanout(self, net: int, sources: list[tuple[int, int]], limit: int = 400) -> Route | None:
        """From a pad (SOURCES) to the nearest place a via fits: the pad's way into an inner plane."""
        result = Route()
        best: dict[tuple[int, int], int] = {}
        heap: list[tuple[int, int, int, tuple[int, int] | None]] = []
        came: dict[tuple[int, int], tuple[int, int] | None] = {}
        for s in sources:
            heapq.heappush(heap, (0, s[0], s[1], None))
        expanded = 0
        while heap and expanded < limit:
            g, layer, i, parent = heapq.heappop(heap)
            key = (layer, i)
            if key in came:
                continue
            came[key] = parent
            expanded += 1
            if self.can_via(i, net):
                path = [key]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])  # type: ignore[arg-type]
                path.reverse()
                self._commit(net, path, result)
                self._mark_via(i, net)
                result.vias.append(self.xy(i))
                return result
            for j in self._around(i, 1):
                if (layer, j) not in came and self._free(self.track[layer], j, net):
                    ng = g + 1
                    if best.get((layer, j), 1 << 30) > ng:
                        best[(layer, j)] = ng
                        heapq.heappush(heap, (ng, layer, j, key))
        return None

    def _astar(self, net, sources, targets, target_xy, limit=MAX_EXPANDED):
        nx = self.nx
        tx, ty = target_xy
        inv = 1 / PITCH

        def h(i):
            return abs((i % nx) - tx * inv) + abs((i // nx) - ty * inv)

        heap = []
        g_best: dict[tuple[int, int], float] = {}
        came: dict[tuple[int, int], tuple[int, int] | None] = {}
        for layer, i in sources:
            g_best[(layer, i)] = 0
            heapq.heappush(heap, (h(i), 0.0, layer, i, -1, None))
        track = self.track
        expanded = 0
        while heap:
            _f, g, layer, i, direction, parent = heapq.heappop(heap)
            key = (layer, i)
            if key in came:
                continue
            came[key] = parent
            expanded += 1
            if expanded > limit:
                return None
            if key in targets:
                path = [key]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            ix = i % nx
            grid = track[layer]
            for d, j in ((0, i + 1), (1, i - 1), (2, i + nx), (3, i - nx)):
                if (d == 0 and ix == nx - 1) or (d == 1 and ix == 0) or j < 0 or j >= self.size:
                    continue
                v = grid[j]
                if v != 0 and v != net:
                    continue
                if (layer, j) in came:
                    continue
                ng = g + 1 + (BEND_COST if direction >= 0 and d != direction else 0)
                if (d < 2) == (layer == 1):
                    ng += WRONG_WAY_COST
                if ng < g_best.get((layer, j), 1e18):
                    g_best[(layer, j)] = ng
                    heapq.heappush(heap, (ng + h(j), ng, layer, j, d, key))
            other = 1 - layer
            if (other, i) not in came and self.can_via(i, net):
                ng = g + VIA_COST
                if ng < g_best.get((other, i), 1e18):
                    g_best[(other, i)] = ng
                    heapq.heappush(heap, (ng + h(i), ng, other, i, -1, key))
        return None

    def _commit(self, net: int, path: list[tuple[int, int]], result: Route) -> None:
        for end in {path[0], path[-1]}:
            if end in self.stubs:
                x, y = self.xy(end[1])
                sx, sy = self.stubs[end]
                result.segments.append((end[0], sx, sy, x, y))
        for layer, i in path:
            self._mark_track_node(layer, i, net)
        start = 0
        for k in range(1, len(path) + 1):
            if k == len(path) or path[k][0] != path[start][0]:
                run = path[start:k]
                result.segments += _straight(run[0][0], [self.xy(i) for _, i in run])
                if k < len(path):
                    self._mark_via(path[k][1], net)
                    result.vias.append(self.xy(path[k][1]))
                start = k


def _straight(layer: int, pts: list[tuple[float, float]]) -> list[tuple[int, float, float, float, float]]:
    # a run of grid points as the fewest straight segments
    if len(pts) < 2:
        return []
    segs = []
    a = pts[0]
    for k in range(1, len(pts) - 1):
        p, q = pts[k], pts[k + 1]
        if (p[0] - a[0]) * (q[1] - p[1]) != (p[1] - a[1]) * (q[0] - p[0]):
            segs.append((layer, a[0], a[1], p[0], p[1]))
            a = p
    segs.append((layer, a[0], a[1], pts[-1][0], pts[-1][1]))
    return segs


def _prim_order(points: list[tuple[float, float]]) -> list[int]:
    # the pads in the order a minimum spanning tree reaches them from the first
    n = len(points)
    done = [False] * n
    dist = [math.inf] * n
    dist[0] = 0
    order = []
    for _ in range(n):
        k = min((d, i) for i, d in enumerate(dist) if not done[i])[1]
        done[k] = True
        order.append(k)
        kx, ky = points[k]
        for i in range(n):
            if not done[i]:
                d = abs(points[i][0] - kx) + abs(points[i][1] - ky)
                if d < dist[i]:
                    dist[i] = d
    return order

"""A grid router for the boards' two outer copper layers: A* over a 0.5 mm grid, orthogonal steps, vias
between the layers, each net kept its clearance from every other by the grid nodes its copper claims.
A net that finds no free way is routed again through other nets' copper at a price, those nets are
ripped up and routed after it, and a node fought over grows dearer each time (negotiated congestion, as
PathFinder does it), until every net has its own way or the rounds run out. A wide net (the supply's
path) keeps a wider swath free and narrows only near its own pads. The two planes (ground, LED 5 V) are
reached by a via beside each pad. A fine-pitch part's pins are first led out of it by stubs held for
good (escape_pad), so that its neighbours' plane vias do not wall them in; two such pins of one
plane side by side are joined to share one via (join_escapes). Stdlib only: it runs in the
pcbnew process and in the tests alike.

    grid = Grid(width, height)
    grid.add_pad(pad)                   # every pad first, with its net (0: no net)
    routes, failed = grid.route_all(nets)   # {net: Route}, the nets left unrouted
"""

import heapq
import math
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal, overload

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
# negotiated congestion: the price of a node another net holds, and what each fight adds to it
CONFLICT_COST = 30
HISTORY_COST = 15
RIP_UP_ROUNDS = 150  # nets routed again, at most, before the router gives up
NECK_MM = 1.6  # a wide net narrows to TRACK this close to its own pads' centres
FANOUT_BASE = 1 << 20  # owners of the planes' pad fanouts: above every net number
ESCAPE_BASE = 1 << 24  # owners of the fine-pitch pins' escapes: above every fanout's
JOINT_BASE = ESCAPE_BASE + (1 << 20)  # owners of the joints between two escapes (join_escapes)
ESCAPE_MM = 2.5  # how far a fine-pitch pin's escape leads it out of its part
TABU_COST = 500  # a node of a net this one has traded rip-ups with


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
    """What routing a net added: track segments (layer, x0, y0, x1, y1, width) and vias (x, y)."""

    segments: list[tuple[int, float, float, float, float, float]] = field(default_factory=list)
    vias: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class Net:
    """A net to route: its number, its pads, and its track width (TRACK, or wider for a supply)."""

    net: int
    pads: list[Pad]
    width: float = TRACK
    # pads of the same net joined after PADS with TRACK-wide tracks (a wide net's small-signal pads)
    tail: list[Pad] = field(default_factory=list)


_OFFSETS: dict[float, list[tuple[int, int]]] = {}

Node = tuple[int, int]  # (layer, grid index)
Wide = tuple[float, set[int]]  # a wide net's (width, neck nodes)
Start = tuple[set[Node], list[tuple[float, float]]]  # (nodes, anchors) already joined
Routed = tuple[Route, list[int]]  # a route and the pads it could not reach
SoftRouted = tuple[Route, list[int], set[int]]  # ... and the nets whose copper it crossed
Progress = Callable[[str], None]


def _offsets(radius: float) -> list[tuple[int, int]]:
    # grid steps (dx, dy) whose node lies within RADIUS mm of the centre
    if radius not in _OFFSETS:
        _OFFSETS[radius] = _offsets_of(radius)
    return _OFFSETS[radius]


def _offsets_of(radius: float) -> list[tuple[int, int]]:
    n = int(radius / PITCH) + 1
    return [
        (dx, dy)
        for dy in range(-n, n + 1)
        for dx in range(-n, n + 1)
        if math.hypot(dx * PITCH, dy * PITCH) < radius - 1e-9
    ]


class Grid:
    """The routing grid of a board WIDTH x HEIGHT mm with its origin at (0, 0).

    Each layer has two grids of nodes: "track" (a TRACK-wide track centred there keeps its clearance) and
    "via" (a via centred there does). What the pads, edges and holes take is fixed (the base); what
    routed nets take is held as claims, counted per net so a net can be ripped up again. A node's
    effective value is 0 (free), a net (free for that net only) or BLOCKED."""

    def __init__(self, width: float, height: float):
        self.nx = int(width / PITCH) + 1
        self.ny = int(height / PITCH) + 1
        self.size = self.nx * self.ny
        self.width, self.height = width, height
        # the effective grids the searches read, the base (pads, edges, holes) they are made from
        self.track = [array("i", bytes(4 * self.size)) for _ in range(LAYERS)]
        self.via = [array("i", bytes(4 * self.size)) for _ in range(LAYERS)]
        self.base_track = [array("i", bytes(4 * self.size)) for _ in range(LAYERS)]
        self.base_via = [array("i", bytes(4 * self.size)) for _ in range(LAYERS)]
        # claims: per grid (0, 1: track layers; 2, 3: via layers) node -> {claim: count}; a claim is a
        # net, or minus a net for "no copper of any net here, its own included" (two holes too close)
        self.claims: list[dict[int, dict[int, int]]] = [{} for _ in range(2 * LAYERS)]
        self.owned: dict[int, list[tuple[int, int, int]]] = {}  # net: its claims (grid, node, claim)
        self.history = array("i", bytes(4 * self.size))  # times each node was fought over
        # a plane pad's way to its via is owned by a number of its own (above every net's), so that it
        # can be ripped up and made again alone: alias maps it to the pad's net, fanouts to the pad
        self.alias: dict[int, int] = {}
        self.fanouts: dict[int, tuple[int, list[tuple[int, int]]]] = {}  # owner: (net, pad's nodes)
        self.fanout_routes: dict[int, Route] = {}
        self.fanout_pads: dict[int, str] = {}
        self.fanout_failed: list[int] = []
        # a fanout whose via must stay near its pad (the LED rail's feed): owner: (x, y, mm)
        self.fanout_reach: dict[int, tuple[float, float, float]] = {}
        # a fine-pitch part's pin led out of it, held for good (never ripped up): (ref, pad number): the
        # node at the escape's end, where the pin's net (or its plane's via) starts
        self.escapes: dict[tuple[str, str], list[tuple[int, int]]] = {}
        self.joints: list[int] = []  # owners of escapes' joints, held for good too
        self.names: dict[int, str] = {}  # net numbers' names, for progress reports
        self.ripped: dict[tuple[int, int], int] = {}  # (net, net it ripped up): how often
        self.tabu: dict[int, set[int]] = {}  # net: the nets it must not rip up again but at a high price
        self.stubs: dict[tuple[int, int], tuple[float, float]] = {}  # node: the centre of a small pad
        self._frozen = False
        self._edge()

    def _grids(self) -> list[array]:
        return [self.track[0], self.track[1], self.via[0], self.via[1]]

    def _bases(self) -> list[array]:
        return [self.base_track[0], self.base_track[1], self.base_via[0], self.base_via[1]]

    # ---- the base: pads, edges, holes -----------------------------------------------------------

    def _base_claim(self, grid: array, i: int, net: int) -> None:
        assert not self._frozen, "the base is fixed once routing starts"
        cur = grid[i]
        if cur == 0:
            grid[i] = net
        elif cur != net:
            grid[i] = BLOCKED

    def _freeze(self) -> None:
        if not self._frozen:
            for g, b in zip(self._grids(), self._bases()):
                g[:] = b
            self._frozen = True

    def _nodes_near_rect(
        self, x0: float, y0: float, x1: float, y1: float, margin: float, round_r: float = 0
    ) -> Iterator[int]:
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

    def block_rect(
        self, x0: float, y0: float, x1: float, y1: float, layers: Iterable[int] = (0, 1), margin: float = 0.0
    ) -> None:
        """No copper of any net inside the rectangle (plus MARGIN) on LAYERS."""
        assert not self._frozen
        for layer in layers:
            for i in self._nodes_near_rect(x0, y0, x1, y1, margin + TRACK / 2 + 1e-6):
                self.base_track[layer][i] = BLOCKED
            for i in self._nodes_near_rect(x0, y0, x1, y1, margin + VIA / 2 + 1e-6):
                self.base_via[layer][i] = BLOCKED

    def block_vias(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """No via inside the rectangle (under a module whose underside has test pads)."""
        assert not self._frozen
        for layer in range(LAYERS):
            for i in self._nodes_near_rect(x0, y0, x1, y1, VIA / 2 + CLEARANCE):
                self.base_via[layer][i] = BLOCKED

    def block_hole(self, x: float, y: float, r: float) -> None:
        """A hole without copper (a mounting hole) of radius R: copper keeps CLEARANCE + EDGE from it."""
        self.block_rect(x, y, x, y, margin=r + EDGE)

    def _edge(self) -> None:
        for layer in range(LAYERS):
            for g, half in ((self.base_track[layer], TRACK / 2), (self.base_via[layer], VIA / 2)):
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
                self._base_claim(self.base_track[layer], i, net)
            for i in self._nodes_near_rect(x0, y0, x1, y1, CLEARANCE + VIA / 2, r):
                self._base_claim(self.base_via[layer], i, net)

    # ---- claims: what routed nets hold ------------------------------------------------------------

    def _effective(self, g: int, i: int) -> int:
        b = self._bases()[g][i]
        if b == BLOCKED:
            return BLOCKED
        owner = b
        for claim in self.claims[g].get(i, ()):
            if claim < 0:
                return BLOCKED
            claim = self.alias.get(claim, claim)
            if owner == 0:
                owner = claim
            elif owner != claim:
                return BLOCKED
        return owner

    def _claim(self, net: int, g: int, i: int, claim: int) -> None:
        at = self.claims[g].setdefault(i, {})
        at[claim] = at.get(claim, 0) + 1
        self.owned.setdefault(net, []).append((g, i, claim))
        self._grids()[g][i] = self._effective(g, i)

    def rip_up(self, net: int) -> None:
        """Every claim NET holds released: its copper is gone from the grid."""
        grids = self._grids()
        for g, i, claim in self.owned.pop(net, []):
            at = self.claims[g][i]
            at[claim] -= 1
            if not at[claim]:
                del at[claim]
            if not at:
                del self.claims[g][i]
            grids[g][i] = self._effective(g, i)

    def _mark_track_node(
        self, layer: int, i: int, net: int, reach: list[tuple[int, int]] | None = None
    ) -> None:
        if reach:  # a wide track: every node its copper comes near
            for dx, dy in reach:
                j = self._offset(i, dx, dy)
                if j is not None:
                    self._claim(net, layer, j, net)
            for dx, dy in self._via_reach(reach):
                j = self._offset(i, dx, dy)
                if j is not None:
                    self._claim(net, LAYERS + layer, j, net)
            return
        self._claim(net, layer, i, net)
        self._claim(net, LAYERS + layer, i, net)
        for j in self._around(i, 1):
            self._claim(net, LAYERS + layer, j, net)

    def _mark_via(self, i: int, net: int) -> None:
        for layer in range(LAYERS):
            self._claim(net, layer, i, net)
            self._claim(net, LAYERS + layer, i, -net)  # no second via here, of any net
            for j in self._around(i, 1):
                self._claim(net, layer, j, net)
                self._claim(net, LAYERS + layer, j, -net)  # two holes 0.5 mm apart: too close, any nets
            for j in self._around(i, 2):
                self._claim(net, LAYERS + layer, j, net)

    def _offset(self, i: int, dx: int, dy: int) -> int | None:
        x, y = i % self.nx + dx, i // self.nx + dy
        if 0 <= x < self.nx and 0 <= y < self.ny:
            return y * self.nx + x
        return None

    def _around(self, i: int, kind: int) -> Iterator[int]:
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
        """(layer, node) inside PAD's copper that its net may use, by the base alone: where a track
        ending there touches the pad. A pad too small to hold a node gets the nodes within half a pitch
        of its centre."""
        if (pad.ref, pad.number) in self.escapes:
            return list(self.escapes[(pad.ref, pad.number)])
        out = []
        x0, y0, x1, y1 = pad.x - pad.hw, pad.y - pad.hh, pad.x + pad.hw, pad.y + pad.hh
        for layer in pad.layers:
            base = self.base_track[layer]
            nodes = list(self._nodes_near_rect(x0, y0, x1, y1, 1e-6))
            if pad.round:
                nodes = [i for i in nodes if math.dist(self.xy(i), (pad.x, pad.y)) < pad.hw - TRACK / 2]
            found = [(layer, i) for i in nodes if self._free(base, i, pad.net)]
            if not found:
                # a pad narrower than the pitch: the nodes beside its centre, joined to it by a stub
                near = self._nodes_near_rect(pad.x, pad.y, pad.x, pad.y, PITCH * 0.75)
                found = [(layer, i) for i in near if self._free(base, i, pad.net)]
                for key in found:
                    self.stubs[key] = (pad.x, pad.y)
            out += found
        return out

    # ---- routing -------------------------------------------------------------------------------

    def route_all(
        self, nets: list[Net], progress: Progress = lambda text: None
    ) -> tuple[dict[int, Route], list[int]]:
        """Every net of NETS routed, in their order, then those that found no way routed again through
        the others' copper (negotiated congestion) and the nets in their way ripped up and routed after
        them. Returns each net's Route and the nets left unrouted."""
        routes, queue = self.first_pass(nets, progress)
        return self.negotiate(nets, routes, queue, progress)

    def first_pass(
        self, nets: list[Net], progress: Progress = lambda text: None
    ) -> tuple[dict[int, Route], list[int]]:
        """Every net of NETS routed in their order where it finds a free way: each net's Route and the
        nets that found none (left without copper)."""
        self._freeze()
        routes: dict[int, Route] = {}
        queue: list[int] = []
        for n in nets:
            r, missed = self._route_net(n, soft=False)
            routes[n.net] = r
            if missed:
                self.rip_up(n.net)
                routes[n.net] = Route()
                queue.append(n.net)
        progress("first pass: %d of %d nets routed" % (len(nets) - len(queue), len(nets)))
        return routes, queue

    def negotiate(
        self,
        nets: list[Net],
        routes: dict[int, Route],
        queue: list[int],
        progress: Progress = lambda text: None,
    ) -> tuple[dict[int, Route], list[int]]:
        """The nets of QUEUE (left unrouted by first_pass) routed through the others' copper, the nets
        in their way ripped up and routed again, until every net has its way or the rounds run out."""
        by_net = {n.net: n for n in nets}
        rounds = 0
        given_up: list[int] = []
        # a plane pad with no room for its via waits its turn like a net
        queue += [owner for owner in self.fanout_failed if owner not in queue]
        while queue and rounds < RIP_UP_ROUNDS:
            rounds += 1
            net = queue.pop(0)
            if self.names:
                name = self.fanout_pads.get(net) or self.names.get(net) or str(net)
                progress("rip-up round %d: %s (%d waiting)" % (rounds, name, len(queue)))
            if net in self.fanouts:
                if self._fanout_again(net):
                    continue
                victims = self._fanout_soft(net, CONFLICT_COST + rounds)
                if victims is None:
                    given_up.append(net)
                    continue
                self._reroute(victims, by_net, routes, queue)
                continue
            n = by_net[net]
            r, missed = self._route_net(n, soft=False)
            if not missed:
                routes[net] = r
                continue
            self.rip_up(net)
            # two nets that have ripped each other up: the next one to route keeps off the other
            self.tabu[net] = {v for (a, v) in self.ripped if a == net and self.ripped.get((v, net))}
            r, missed, victims = self._route_net(n, soft=True, rounds=rounds)
            for v in victims:
                self.ripped[(net, v)] = self.ripped.get((net, v), 0) + 1
            routes[net] = r
            if missed:  # no way even through others: give up on it
                self.rip_up(net)
                routes[net] = Route()
                given_up.append(net)
                continue
            self._reroute(victims, by_net, routes, queue)
        for owner in list(self.fanout_failed):
            self._fanout_again(owner)
        failed = sorted({n for n in set(queue) | set(given_up) if n in by_net})
        for net in failed:  # what copper of it still fits, so that the report names only the gaps
            routes[net], _ = self._route_net(by_net[net], soft=False)
        progress("rip-up and reroute: %d rounds, %d nets left unrouted" % (rounds, len(failed)))
        return routes, failed

    def _reroute(
        self, victims: set[int], by_net: dict[int, Net], routes: dict[int, Route], queue: list[int]
    ) -> None:
        # the nets and plane vias a net crossed: ripped up, routed again, and queued when they fail
        for v in sorted(victims):
            self.rip_up(v)
            if v in by_net:
                routes[v] = Route()
        for v in sorted(victims):
            if v in self.fanouts:
                if not self._fanout_again(v) and v not in queue:
                    queue.append(v)
                continue
            rv, mv = self._route_net(by_net[v], soft=False)
            routes[v] = rv
            if mv:
                self.rip_up(v)
                routes[v] = Route()
                if v not in queue:
                    queue.append(v)

    def _fanout_soft(self, owner: int, penalty: int) -> set[int] | None:
        """The plane pad OWNER's way to a via through others' copper, at a price per node fought over
        (as a net's soft route); its copper committed, the owners it crossed returned (None: no way)."""
        net, sources = self.fanouts[owner]
        heap: list[tuple[float, int, int, int, tuple[int, int] | None]] = []
        came: dict[tuple[int, int], tuple[int, int] | None] = {}
        best: dict[tuple[int, int], float] = {}
        for layer, i in sources:
            heapq.heappush(heap, (0.0, 0, layer, i, None))
        expanded = 0
        while heap and expanded < LONG_SEARCH:
            g, is_via, layer, i, parent = heapq.heappop(heap)
            key = (layer, i)
            if is_via:  # the cheapest place for the via
                path = [key]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])  # type: ignore[arg-type]
                path.reverse()
                victims = self._crossed(net, path, None)
                for g2, j in [(LAYERS + la, i) for la in range(LAYERS)] + [(la, i) for la in range(LAYERS)]:
                    for near in [j, *self._around(j, 1)]:
                        for claim in self.claims[g2].get(near, ()):
                            if self.alias.get(abs(claim), abs(claim)) != net:
                                victims.add(abs(claim))
                if any(v >= ESCAPE_BASE for v in victims):
                    continue  # an escape is never ripped up: no via beside it
                victims.discard(owner)
                for v in sorted(victims):
                    self.rip_up(v)
                result = Route()
                self._commit(owner, path, result)
                self._mark_via(i, owner)
                result.vias.append(self.xy(i))
                self.fanout_routes[owner] = result
                if owner in self.fanout_failed:
                    self.fanout_failed.remove(owner)
                return victims
            if key in came:
                continue
            came[key] = parent
            expanded += 1
            vc = self._soft_via_cost(i, net, penalty)
            if vc >= 0:
                heapq.heappush(heap, (g + vc + 0.5, 1, layer, i, parent))
            for j in self._around(i, 1):
                if (layer, j) in came or not self._near(owner, j):
                    continue
                c = self._soft_cost(layer, j, net, penalty)
                if c < 0:
                    continue
                ng = g + 1 + c
                if ng < best.get((layer, j), 1e18):
                    best[(layer, j)] = ng
                    heapq.heappush(heap, (ng, 0, layer, j, key))
        return None

    @overload
    def _route_net(self, n: Net, soft: Literal[False], rounds: int = 0) -> Routed: ...
    @overload
    def _route_net(self, n: Net, soft: Literal[True], rounds: int = 0) -> SoftRouted: ...
    def _route_net(self, n: Net, soft: bool, rounds: int = 0) -> Routed | SoftRouted:
        groups = [self.pad_nodes(p) for p in n.pads]
        anchors = [(p.x, p.y) for p in n.pads]
        wide = None
        if n.width > TRACK + 1e-9:
            neck = set()
            for p in n.pads:
                neck.update(self._nodes_near_rect(p.x, p.y, p.x, p.y, NECK_MM + max(p.hw, p.hh)))
            wide = (n.width, neck)
        penalty = CONFLICT_COST + rounds
        result = self.route(n.net, groups, anchors, soft=soft, wide=wide, penalty=penalty)
        if n.tail and not result[1]:
            # the small-signal pads, joined thin to the wide copper's pads
            tree = {k for g in groups for k in g}
            more = self.route(
                n.net,
                [self.pad_nodes(p) for p in n.tail],
                [(p.x, p.y) for p in n.tail],
                soft=soft,
                penalty=penalty,
                start=(tree, anchors),
            )
            result[0].segments.extend(more[0].segments)
            result[0].vias.extend(more[0].vias)
            result = (result[0], [len(n.pads) + k for k in more[1]], *result[2:])
            if soft:
                result[2].update(more[2])  # type: ignore[misc]
        return result if soft else result[:2]

    @overload
    def route(
        self,
        net: int,
        groups: list[list[Node]],
        anchors: list[tuple[float, float]],
        soft: Literal[False] = False,
        wide: Wide | None = None,
        penalty: int = CONFLICT_COST,
        start: Start | None = None,
    ) -> Routed: ...
    @overload
    def route(
        self,
        net: int,
        groups: list[list[Node]],
        anchors: list[tuple[float, float]],
        soft: Literal[True],
        wide: Wide | None = None,
        penalty: int = CONFLICT_COST,
        start: Start | None = None,
    ) -> SoftRouted: ...
    @overload
    def route(
        self,
        net: int,
        groups: list[list[Node]],
        anchors: list[tuple[float, float]],
        soft: bool,
        wide: Wide | None = None,
        penalty: int = CONFLICT_COST,
        start: Start | None = None,
    ) -> Routed | SoftRouted: ...
    def route(
        self,
        net: int,
        groups: list[list[Node]],
        anchors: list[tuple[float, float]],
        soft: bool = False,
        wide: Wide | None = None,
        penalty: int = CONFLICT_COST,
        start: Start | None = None,
    ) -> Routed | SoftRouted:
        """Connect NET's pads: GROUPS holds each pad's (layer, node) entries, ANCHORS each pad's centre.
        The pads join one by one, nearest first, each to the copper already joined. Returns the Route
        and the indices of the pads it could not reach (and, with SOFT, the nets whose copper it
        crossed: those must be ripped up)."""
        self._freeze()
        result = Route()
        missed: list[int] = []
        victims: set[int] = set()
        if start is not None:  # START: (nodes, anchors) already joined; every pad joins them
            tree: set[tuple[int, int]] = set(start[0])
            joined = list(start[1])
            first = -1
            order = _prim_order(anchors)
        else:
            if len(groups) < 2:
                return (result, missed, victims) if soft else (result, missed)
            order = _prim_order(anchors)
            found = next((k for k in order if groups[k]), None)
            if found is None:
                missed = list(range(len(groups)))
                return (result, missed, victims) if soft else (result, missed)
            first = found
            tree = set(groups[first])
            joined = [anchors[first]]
        for k in order:
            if k == first:
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
            if soft:
                path = self._astar(net, sources, tree, target_xy, limit=LONG_SEARCH, soft=penalty, wide=wide)
            else:
                path = self._astar(net, sources, tree, target_xy, wide=wide)
                if path is None:  # a long way round: search the whole board
                    path = self._astar(net, sources, tree, target_xy, limit=LONG_SEARCH, wide=wide)
            if path is None:
                missed.append(k)
                continue
            if soft:
                victims |= self._crossed(net, path, wide)
            self._commit(net, path, result, wide)
            tree |= set(path)
            tree |= set(sources)
            joined.append(anchors[k])
        return (result, missed, victims) if soft else (result, missed)

    def _crossed(self, net: int, path: list[Node], wide: Wide | None) -> set[int]:
        # the nets whose claims lie where PATH's copper goes
        out: set[int] = set()
        for k, (layer, i) in enumerate(path):
            nodes = [(layer, i)]
            if wide and i not in wide[1]:
                reach = self._reach(wide[0])
                nodes = [(layer, j) for dx, dy in reach if (j := self._offset(i, dx, dy)) is not None]
            if k + 1 < len(path) and path[k + 1][0] != layer:  # a via here
                nodes += [(LAYERS + la, i) for la in range(LAYERS)] + [(la, i) for la in range(LAYERS)]
            for g, j in nodes:
                for claim in self.claims[g].get(j, ()):
                    if self.alias.get(abs(claim), abs(claim)) != net:
                        out.add(abs(claim))
        return out

    def _reach(self, width: float) -> list[tuple[int, int]]:
        # the track-grid nodes a wide track's copper at a node keeps other tracks from
        return _offsets(width / 2 + CLEARANCE + TRACK / 2)

    def _via_reach(self, reach: list[tuple[int, int]]) -> list[tuple[int, int]]:
        r = max(math.hypot(dx, dy) for dx, dy in reach) * PITCH
        return _offsets(r + (VIA - TRACK) / 2 + PITCH / 2)

    def _wide_free(self, layer: int, i: int, net: int, reach: list[tuple[int, int]]) -> bool:
        grid = self.track[layer]
        for dx, dy in reach:
            j = self._offset(i, dx, dy)
            if j is None:
                return False
            v = grid[j]
            if v != 0 and v != net:
                return False
        return True

    def fanout_pad(self, pad: Pad, reach: float | None = None) -> bool:
        """PAD's way into its plane (see fanout), owned by a number of its own, its via within REACH mm
        of the pad's centre when given; False when there is no room for it yet (route_all tries again
        once the nets are routed)."""
        owner = FANOUT_BASE + len(self.fanouts)
        self.alias[owner] = pad.net
        self.fanouts[owner] = (pad.net, self.pad_nodes(pad))  # each call its own via, none shared
        self.fanout_pads[owner] = "%s.%s" % (pad.ref, pad.number)
        if reach is not None:
            self.fanout_reach[owner] = (pad.x, pad.y, reach)
        return self._fanout_again(owner)

    def _near(self, owner: int, i: int) -> bool:
        # whether node I is within the reach OWNER's via must keep (always, for most fanouts)
        at = self.fanout_reach.get(owner)
        return at is None or math.dist(self.xy(i), at[:2]) <= at[2]

    def escape_pad(self, pad: Pad, centre: tuple[float, float], length: float = ESCAPE_MM) -> bool:
        """A pin of a fine-pitch part centred at CENTRE led straight out of it, along the pad's long side
        and away from the part, LENGTH mm beyond the pad: a stub held for good by a number of its own
        (never ripped up), from whose end the pin's net is routed (or its plane's via found). Made
        before anything else, the pins leave the part side by side instead of walling each other in,
        and the power pins' vias and wide tracks keep off their way. False when the way is not free."""
        self._freeze()  # the effective grids made from the base now, or they would drop the stub
        if pad.hh >= pad.hw:  # a pin of a row along x: out along y
            step = (0, 1 if pad.y > centre[1] else -1)
        else:
            step = (1 if pad.x > centre[0] else -1, 0)
        layer = pad.layers[0]
        nodes = [i for la, i in self.pad_nodes(pad) if la == layer]
        if not nodes:
            return False
        i = max(nodes, key=lambda k: (k % self.nx) * step[0] + (k // self.nx) * step[1])
        path = [(layer, i)]
        for _ in range(round(length / PITCH)):
            j = self._offset(path[-1][1], *step)
            if j is None or not self._free(self.track[layer], j, pad.net):
                return False
            path.append((layer, j))
        owner = ESCAPE_BASE + len(self.escapes)
        self.alias[owner] = pad.net
        r = Route()
        self._commit(owner, path, r)
        self.escapes[(pad.ref, pad.number)] = [path[-1]]
        self.fanout_routes[owner] = r
        return True

    def join_escapes(self, pad: Pad, other: Pad) -> bool:
        """PAD's escape joined, end to end, to OTHER's (a pin of the same net beside it), the joint held
        for good as the escapes are; False when their ends are not neighbours."""
        a, b = self.escapes.get((pad.ref, pad.number)), self.escapes.get((other.ref, other.number))
        if not a or not b or a[0][0] != b[0][0] or b[0][1] not in set(self._around(a[0][1], 1)):
            return False
        owner = JOINT_BASE + len(self.joints)
        self.joints.append(owner)
        self.alias[owner] = pad.net
        r = Route()
        self._commit(owner, [a[0], b[0]], r)
        self.fanout_routes[owner] = r
        return True

    def _fanout_again(self, owner: int) -> bool:
        net, sources = self.fanouts[owner]
        r = self.fanout(net, sources, owner=owner)
        if r is None:
            self.fanout_routes.pop(owner, None)
            if owner not in self.fanout_failed:
                self.fanout_failed.append(owner)
            return False
        self.fanout_routes[owner] = r
        if owner in self.fanout_failed:
            self.fanout_failed.remove(owner)
        return True

    def fanout(
        self, net: int, sources: list[tuple[int, int]], limit: int = 3000, owner: int = 0
    ) -> Route | None:
        """From a pad (SOURCES) to the nearest place a via fits: the pad's way into an inner plane. Its
        copper is claimed by OWNER (default NET)."""
        self._freeze()
        owner = owner or net
        result = Route()
        best: dict[tuple[int, int], int] = {}
        heap: list[tuple[int, int, int, tuple[int, int] | None]] = []
        came: dict[tuple[int, int], tuple[int, int] | None] = {}
        for s in sources:
            if self._free(self.track[s[0]], s[1], net):
                heapq.heappush(heap, (0, s[0], s[1], None))
        expanded = 0
        while heap and expanded < limit:
            g, layer, i, parent = heapq.heappop(heap)
            key = (layer, i)
            if key in came:
                continue
            came[key] = parent
            expanded += 1
            if self.can_via(i, net) and self._near(owner, i):
                path = [key]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])  # type: ignore[arg-type]
                path.reverse()
                self._commit(owner, path, result)
                self._mark_via(i, owner)
                result.vias.append(self.xy(i))
                return result
            for j in self._around(i, 1):
                if (layer, j) not in came and self._free(self.track[layer], j, net) and self._near(owner, j):
                    ng = g + 1
                    if best.get((layer, j), 1 << 30) > ng:
                        best[(layer, j)] = ng
                        heapq.heappush(heap, (ng, layer, j, key))
        return None

    def _astar(
        self,
        net: int,
        sources: list[Node],
        targets: set[Node],
        target_xy: tuple[float, float],
        limit: int = MAX_EXPANDED,
        soft: int = 0,
        wide: Wide | None = None,
    ) -> list[Node] | None:
        """The cheapest path from SOURCES to TARGETS. With SOFT, nodes another routed net holds (but not
        the base: pads, edges) are passable at SOFT plus their history each; WIDE = (width, neck nodes)
        keeps a wide track's swath free outside the neck."""
        nx = self.nx
        tx, ty = target_xy
        inv = 1 / PITCH
        reach = self._reach(wide[0]) if wide else None
        neck = wide[1] if wide else None

        def h(i: int) -> float:
            return abs((i % nx) - tx * inv) + abs((i // nx) - ty * inv)

        def price(layer: int, j: int) -> float:
            # the cost of stepping onto J (-1: impassable)
            if reach is not None and j not in neck:  # type: ignore[operator]
                if soft:
                    # through others' copper at the price of its dearest node: the swath's nodes are
                    # not charged one by one, or a wide net would pay for its width many times over
                    worst = 0.0
                    for dx, dy in reach:
                        k = self._offset(j, dx, dy)
                        if k is None:
                            return -1
                        c = self._soft_cost(layer, k, net, soft)
                        if c < 0:
                            return -1
                        worst = max(worst, c)
                    return worst
                return 0 if self._wide_free(layer, j, net, reach) else -1
            if soft:
                return self._soft_cost(layer, j, net, soft)
            v = track[layer][j]
            return 0 if (v == 0 or v == net) else -1

        heap = []
        g_best: dict[tuple[int, int], float] = {}
        came: dict[tuple[int, int], tuple[int, int] | None] = {}
        track = self.track
        for layer, i in sources:
            if not soft and not self._free(track[layer], i, net):
                continue
            g_best[(layer, i)] = 0
            heapq.heappush(heap, (h(i), 0.0, layer, i, -1, None))
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
            for d, j in ((0, i + 1), (1, i - 1), (2, i + nx), (3, i - nx)):
                if (d == 0 and ix == nx - 1) or (d == 1 and ix == 0) or j < 0 or j >= self.size:
                    continue
                if (layer, j) in came:
                    continue
                extra = price(layer, j)
                if extra < 0:
                    continue
                ng = g + 1 + extra + (BEND_COST if direction >= 0 and d != direction else 0)
                if (d < 2) == (layer == 1):
                    ng += WRONG_WAY_COST
                if ng < g_best.get((layer, j), 1e18):
                    g_best[(layer, j)] = ng
                    heapq.heappush(heap, (ng + h(j), ng, layer, j, d, key))
            if wide is not None:
                continue  # a wide net stays on its layer: one small via would not carry its current
            other = 1 - layer
            if (other, i) in came:
                continue
            if soft:
                vc = self._soft_via_cost(i, net, soft)
                if vc < 0:
                    continue
            elif self.can_via(i, net):
                vc = 0
            else:
                continue
            ng = g + VIA_COST + vc
            if ng < g_best.get((other, i), 1e18):
                g_best[(other, i)] = ng
                heapq.heappush(heap, (ng + h(i), ng, other, i, -1, key))
        return None

    def _soft_cost(self, layer: int, j: int, net: int, penalty: int) -> float:
        b = self.base_track[layer][j]
        if b != 0 and b != net:
            return -1
        v = self.track[layer][j]
        if v == 0 or v == net:
            return 0
        return self._conflict(layer, j, net, penalty)

    def _conflict(self, g: int, j: int, net: int, penalty: int) -> float:
        # the price of taking node J of grid G from the nets holding it: dearer by far from a net that
        # NET and it have already ripped each other up over (two nets taking turns)
        for claim in self.claims[g].get(j, ()):
            if abs(claim) >= ESCAPE_BASE:
                return -1  # an escape is never ripped up
        cost = penalty + HISTORY_COST * self.history[j]
        tabu = self.tabu.get(net)
        if tabu:
            for claim in self.claims[g].get(j, ()):
                if abs(claim) in tabu:
                    return cost + TABU_COST
        return cost

    def _soft_via_cost(self, i: int, net: int, penalty: int) -> float:
        total = 0.0
        for la in range(LAYERS):
            for grid, base, g in ((self.via, self.base_via, LAYERS + la), (self.track, self.base_track, la)):
                b = base[la][i]
                if b != 0 and b != net:
                    return -1
                v = grid[la][i]
                if v != 0 and v != net:
                    c = self._conflict(g, i, net, penalty)
                    if c < 0:
                        return -1
                    total += c
        return total

    def _commit(self, net: int, path: list[tuple[int, int]], result: Route, wide: Wide | None = None) -> None:
        width = wide[0] if wide else TRACK
        for end in {path[0], path[-1]}:
            if end in self.stubs:
                x, y = self.xy(end[1])
                sx, sy = self.stubs[end]
                result.segments.append((end[0], sx, sy, x, y, TRACK))
        reach = self._reach(width) if wide else None
        for layer, i in path:
            own = self.alias.get(net, net)
            wide_here = reach if (wide and i not in wide[1]) else None
            for dx, dy in wide_here or ((0, 0),):
                k = self._offset(i, dx, dy)
                if k is not None and self.track[layer][k] not in (0, own):
                    self.history[k] += 1  # fought over: dearer next time
            self._mark_track_node(layer, i, net, wide_here)
        start = 0
        for k in range(1, len(path) + 1):
            if k == len(path) or path[k][0] != path[start][0]:
                run = path[start:k]
                result.segments += _runs(
                    run[0][0],
                    [self.xy(i) for _, i in run],
                    [width if (wide and i not in wide[1]) else TRACK for _, i in run],
                )
                if k < len(path):
                    self._mark_via(path[k][1], net)
                    result.vias.append(self.xy(path[k][1]))
                start = k


def _runs(
    layer: int, pts: list[tuple[float, float]], widths: list[float]
) -> list[tuple[int, float, float, float, float, float]]:
    # a run of grid points as the fewest straight segments, each of one width; a step touching the neck
    # is narrow (the wide copper starts on a node whose whole swath was found free)
    if len(pts) < 2:
        return []
    step = [min(widths[k], widths[k + 1]) for k in range(len(pts) - 1)]
    out = []
    start = 0
    for k in range(1, len(step) + 1):
        if k == len(step) or step[k] != step[start]:
            out += [s + (step[start],) for s in _straight(layer, pts[start : k + 1])]
            start = k
    return out


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

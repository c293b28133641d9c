"""A schematic a person can read, drawn from a netlist alone: one sheet per block of the circuit (power,
controller, level shifter, each sensor chip with its cells, each LED segment), every part as its symbol
with its reference and value, and every pin ending in the name of its net, so pins with the same label
are connected (the style of a KiCad schematic that uses net labels)."""

from dataclasses import dataclass

from ludus_host.circuit import designators as ref
from ludus_host.circuit.netlist import Component, Netlist, Node

PIN = 16  # pin pitch
STUB = 18
CHAR = 6.2  # width of a character at the label font size
WIDTH = 1500  # a sheet's drawing width
POWER_NETS = ("GND", "+3V3", "+3V3_S", "+5V_LED", "VBUS", "VBUS_F", "VSYS", "VEXT")
_SHEET_ORDER = ("power", "controller", "level_shifter", "sensor_supply", "mux_enables", "sensors", "leds")


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _label_w(s: str) -> int:
    return int(len(s) * CHAR) + 6


@dataclass
class _Sym:
    comp: Component
    left: list[Node]
    right: list[Node]
    top: list[Node]
    bottom: list[Node]
    two: bool  # drawn as a small two-terminal symbol
    w: int = 0
    h: int = 0
    lw: int = 0  # room left of the body for labels
    rw: int = 0

    @property
    def span(self) -> int:
        return self.lw + self.w + self.rw


def _symbol(nl: Netlist, comp: Component) -> _Sym:
    pins = nl.pins(comp.ref)
    connected = [n for n in pins if n.kind != "no_connect" or nl.pin_net(comp.ref, n.pin)]
    if (
        len(pins) <= 4
        and sum(1 for n in pins if n.kind != "no_connect") == 2
        and all(n.kind in ("passive", "no_connect") for n in pins)
    ):
        two = [n for n in pins if n.kind != "no_connect"]
        if comp.ref.startswith("D"):
            two.reverse()  # anode (pin 2) on the left: current flows left to right
        s = _Sym(comp, [two[0]], [two[1]], [], [], True)
        s.w, s.h = 60, 40
    else:
        if len(pins) > 24:  # a module: its header rows as they are on the board
            half = (len(pins) + 1) // 2
            left, right, top, bottom = pins[:half], pins[half:][::-1], [], []
        else:
            left, right, top, bottom = [], [], [], []
            for n in connected:
                net = nl.pin_net(comp.ref, n.pin) or ""
                if n.kind == "power_in":
                    (bottom if net == "GND" else top).append(n)
                elif n.kind in ("output", "open_collector", "power_out") or n.function == "OUT":
                    right.append(n)
                else:
                    left.append(n)
            if not right and len(left) > 1:
                right = left[len(left) // 2 :]
                left = left[: len(left) // 2]
        s = _Sym(comp, left, right, top, bottom, False)
        inner = max([len(n.function) for n in left] + [0]) + max([len(n.function) for n in right] + [0])
        across = max(
            (len(side) + 1) * max([_label_w(nl.pin_net(comp.ref, n.pin) or "") + 6 for n in side] + [0])
            for side in (top, bottom)
        )
        s.w = max(70, int(inner * CHAR) + 30, across + 16)
        s.h = max(len(left), len(right), 1) * PIN + 16
    s.lw = STUB + max([_label_w(nl.pin_net(comp.ref, n.pin) or "x") for n in s.left] + [0])
    s.rw = STUB + max([_label_w(nl.pin_net(comp.ref, n.pin) or "x") for n in s.right] + [0])
    return s


def _label(out: list, net: str | None, x: float, y: float, anchor: str) -> None:
    if net is None:
        out.append('<path d="M%g %gl4 4m0 -4l-4 4" class="nc"/>' % (x - 2, y - 2))
        return
    cls = "pw" if net in POWER_NETS else "lb"
    out.append(
        '<text x="%g" y="%g" text-anchor="%s" class="%s">%s</text>' % (x, y + 3.5, anchor, cls, _esc(net))
    )


def _draw(nl: Netlist, s: _Sym, x0: float, y0: float, out: list) -> None:
    c = s.comp
    bx, by = x0 + s.lw, y0 + 24 + (STUB + 16 if s.top else 0)
    net = lambda n: nl.pin_net(c.ref, n.pin)  # noqa: E731
    if s.two:
        y = by + s.h / 2 - 8
        a, b = s.left[0], s.right[0]
        out.append('<path d="M%g %gh%d" class="w"/>' % (bx - STUB + 4, y, STUB + 6))
        out.append('<path d="M%g %gh%d" class="w"/>' % (bx + s.w - 10, y, STUB + 6))
        _glyph(out, c, bx + 10, y)
        _label(out, net(a), bx - STUB, y, "end")
        _label(out, net(b), bx + s.w + STUB, y, "start")
        out.append(
            '<text x="%g" y="%g" class="ref" text-anchor="middle">%s</text>'
            % (bx + s.w / 2, y - 12, _esc(c.ref))
        )
        out.append(
            '<text x="%g" y="%g" class="val" text-anchor="middle">%s</text>'
            % (bx + s.w / 2, y + 20, _esc(c.value))
        )
        return
    out.append('<rect x="%g" y="%g" width="%d" height="%d" class="box"/>' % (bx, by, s.w, s.h))
    name = c.ref + ("  at " + c.fields["Place"] if "Place" in c.fields else "")
    out.append(
        '<text x="%g" y="%g" class="ref" text-anchor="start">%s</text>'
        % (bx, by - 4 - (STUB + 16 if s.top else 0), _esc(name))
    )
    out.append(
        '<text x="%g" y="%g" class="val" text-anchor="middle">%s</text>'
        % (bx + s.w / 2, by + s.h + 12 + (STUB + 10 if s.bottom else 0), _esc(c.value))
    )
    for k, n in enumerate(s.left):
        y = by + 12 + k * PIN
        out.append('<path d="M%g %gh%d" class="w"/>' % (bx - STUB, y, STUB))
        out.append(
            '<text x="%g" y="%g" class="pin" text-anchor="start">%s</text>'
            % (bx + 3, y + 3, _esc(n.function))
        )
        out.append('<text x="%g" y="%g" class="num" text-anchor="end">%s</text>' % (bx - 3, y - 2, n.pin))
        _label(out, net(n), bx - STUB - 2, y, "end")
    for k, n in enumerate(s.right):
        y = by + 12 + k * PIN
        out.append('<path d="M%g %gh%d" class="w"/>' % (bx + s.w, y, STUB))
        out.append(
            '<text x="%g" y="%g" class="pin" text-anchor="end">%s</text>'
            % (bx + s.w - 3, y + 3, _esc(n.function))
        )
        out.append(
            '<text x="%g" y="%g" class="num" text-anchor="start">%s</text>' % (bx + s.w + 3, y - 2, n.pin)
        )
        _label(out, net(n), bx + s.w + STUB + 2, y, "start")
    for side, pins, y, dy in (("t", s.top, by, -STUB), ("b", s.bottom, by + s.h, STUB)):
        for k, n in enumerate(pins):
            x = bx + (k + 1) * s.w / (len(pins) + 1)
            out.append('<path d="M%g %gv%d" class="w"/>' % (x, y, dy))
            inside = y + (10 if side == "t" else -4)
            out.append(
                '<text x="%g" y="%g" class="pin" text-anchor="middle">%s</text>'
                % (x, inside, _esc(n.function))
            )
            _label(out, net(n), x, y + dy + (-4 if side == "t" else 10), "middle")


def _glyph(out: list, c: Component, x: float, y: float) -> None:
    # the two-terminal symbol between x and x + 40, pin 1 on the left
    kind = ref.natural_key(c.ref)[0]
    if kind == "R":
        out.append('<rect x="%g" y="%g" width="26" height="9" class="box"/>' % (x + 7, y - 4.5))
    elif kind == "C":
        out.append('<path d="M%g %gv14M%g %gv14" class="w2"/>' % (x + 17, y - 7, x + 23, y - 7))
        if c.part == "C_Polarized":
            out.append('<text x="%g" y="%g" class="num">+</text>' % (x + 12, y - 8))
    elif kind == "D":
        # the netlist's pin 1 is the cathode: drawn on the right, current flowing left to right
        out.append('<path d="M%g %gl12 6l-12 6z" class="box"/>' % (x + 12, y - 6))
        out.append('<path d="M%g %gv12" class="w2"/>' % (x + 24, y - 6))
    elif kind == "F":
        out.append(
            '<rect x="%g" y="%g" width="26" height="9" class="box"/><path d="M%g %gh26" class="w"/>'
            % (x + 7, y - 4.5, x + 7, y)
        )
    elif kind == "L":
        out.append('<path d="M%g %gq4 -8 8 0q4 -8 8 0q4 -8 8 0" class="w"/>' % (x + 8, y))
    elif kind == "SW":
        out.append(
            '<path d="M%g %gl20 -8" class="w2"/><circle cx="%g" cy="%g" r="2" class="box"/>'
            % (x + 10, y, x + 30, y)
        )
    else:
        out.append('<rect x="%g" y="%g" width="26" height="14" rx="3" class="box"/>' % (x + 7, y - 7))
    out.append('<path d="M%g %gh7M%g %gh7" class="w"/>' % (x, y, x + 33, y))


def _sheet_key(name: str) -> tuple:
    base, _, tail = name.strip("/").partition("_")
    if base not in ("leds", "sensors"):
        base, tail = name.strip("/"), ""
    rank = _SHEET_ORDER.index(base) if base in _SHEET_ORDER else len(_SHEET_ORDER)
    return (rank, ref.natural_key(tail) if tail else ("", 0))


def _order(nl: Netlist, comps: list[Component]) -> list[Component]:
    # chips first; then each cell's parts together, led by its sensor or LED (a part joins the cell of
    # the part it decouples, or the cell its Place field names)
    heads = {
        c.fields["Place"]: c.ref for c in comps if "Place" in c.fields and c.ref.startswith(("H", "LED"))
    }

    def key(c: Component) -> tuple[int, tuple[str, int], int, tuple[str, int]]:
        anchor = nl.components.get(c.fields.get("Decouples", ""), c)
        head = heads.get(anchor.fields.get("Place", ""), anchor.ref)
        big = len(nl.pins(c.ref)) > 4 or c.ref.startswith("U")
        return (0 if big else 1, ref.natural_key(head), 0 if c.ref == head else 1, ref.natural_key(c.ref))

    return sorted(comps, key=key)


def svg(nl: Netlist) -> str:
    """The schematic of NL as one SVG, its sheets one below the other."""
    sheets: dict[str, list[Component]] = {}
    for c in nl.components.values():
        sheets.setdefault(c.sheet, []).append(c)
    body: list[str] = []
    y = 70
    for name in sorted(sheets, key=_sheet_key):
        syms = [_symbol(nl, c) for c in _order(nl, sheets[name])]
        top = y
        y += 34
        x, row_h = 20, 0
        for s in syms:
            need_h = s.h + 24 + (STUB + 16 if s.top else 0) + (STUB + 26 if s.bottom else 16)
            if x + s.span > WIDTH - 20 and x > 20:
                x, y = 20, y + row_h + 10
                row_h = 0
            _draw(nl, s, x, y, body)
            x += s.span + 24
            row_h = max(row_h, need_h)
        y += row_h + 20
        title = name.strip("/").replace("_", " ")
        body.insert(
            0, '<rect x="6" y="%d" width="%d" height="%d" class="sheet"/>' % (top, WIDTH - 12, y - top)
        )
        body.insert(1, '<text x="16" y="%d" class="title">%s</text>' % (top + 22, _esc("sheet: " + title)))
        y += 16
    head = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
        % (WIDTH, y, WIDTH, y),
        "<title>%s: schematic</title>" % _esc(nl.title),
        "<style>"
        "text{font-family:sans-serif;font-size:10px}"
        ".title{font-size:15px;font-weight:bold;text-anchor:start}"
        ".head{font-size:18px;font-weight:bold;text-anchor:start}"
        ".note{font-size:11px;text-anchor:start}"
        ".ref{font-weight:bold;font-size:11px}"
        ".val{fill:#444}"
        ".pin{font-size:9px;fill:#333}"
        ".num{font-size:8px;fill:#888}"
        ".lb{fill:#064;font-size:10px}"
        ".pw{fill:#b00;font-size:10px;font-weight:bold}"
        ".box{fill:#ffffe8;stroke:#800;stroke-width:1.2}"
        ".w{stroke:#080;stroke-width:1.2;fill:none}"
        ".w2{stroke:#800;stroke-width:2;fill:none}"
        ".nc{stroke:#00f;stroke-width:1.2}"
        ".sheet{fill:none;stroke:#999;stroke-width:1}"
        "</style>",
        '<rect width="%d" height="%d" fill="white"/>' % (WIDTH, y),
        '<text x="10" y="26" class="head">%s</text>' % _esc(nl.title + ": schematic"),
        '<text x="10" y="46" class="note">Drawn from the netlist by ludus_host.circuit.schematic.'
        " Pins that end in the same label"
        " are connected; red labels are supplies; pins not drawn are not connected.</text>",
    ]
    return "\n".join(head + body + ["</svg>"]) + "\n"

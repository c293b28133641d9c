"""KiCad netlists: written by SKiDL from a Design and made reproducible (no date or path, sheets in
order, every node with its pin's name and type, as KiCad's own netlists have), and read back for the
checks, the schematic drawing and the BOM.

    text = netlist.write(design)
    nl = netlist.parse(text)        # nl.components["U10"], nl.nets["SR_CLK"], nl.pin_net("U10", "2")
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ludus_host.circuit.design import Design

SOURCE = "ludus_host.circuit"

# ---- s-expressions ----------------------------------------------------------------------------------


class Atom(str):
    """A bare (unquoted) token: keywords and numbers."""


_OPEN = object()
_CLOSE = object()


def _tokens(text: str) -> Iterator[object]:
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c in "()":
            yield _OPEN if c == "(" else _CLOSE
            i += 1
        elif c == '"':
            j = i + 1
            out = []
            while text[j] != '"':
                if text[j] == "\\":
                    j += 1
                out.append(text[j])
                j += 1
            yield "".join(out)
            i = j + 1
        else:
            j = i
            while j < n and text[j] not in ' \t\r\n()"':
                j += 1
            yield Atom(text[i:j])
            i = j


def parse_sexp(text: str) -> list:
    """The first s-expression in TEXT as nested lists of Atom and str."""
    stack: list[list] = [[]]
    for tok in _tokens(text):
        if tok is _OPEN:
            stack.append([])
        elif tok is _CLOSE:
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    return stack[0][0]


def _quote(s: str) -> str:
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def dump_sexp(node: list | str, indent: int = 0) -> str:
    """NODE written as KiCad writes netlists: each nested list on its own line, indented by two spaces,
    the items in their order (a value after a list stays on that list's line); keywords bare, every
    other string quoted."""
    if not isinstance(node, list):
        return node if isinstance(node, Atom) else _quote(node)
    out = "(" + dump_sexp(node[0])
    pad = "\n" + "  " * (indent + 1)
    for item in node[1:]:
        out += (pad + dump_sexp(item, indent + 1)) if isinstance(item, list) else " " + dump_sexp(item)
    return out + ")"


def _get(node: list, key: str) -> Any:
    # the first item of NODE that is a list headed by KEY, or None (Any: the readers index it directly)
    for x in node:
        if isinstance(x, list) and x and x[0] == key:
            return x
    return None


def _all(node: list, key: str) -> list[list]:
    return [x for x in node if isinstance(x, list) and x and x[0] == key]


# ---- writing ----------------------------------------------------------------------------------------


def write(design: Design) -> str:
    """The KiCad netlist (format D) of DESIGN, as SKiDL writes it, normalised to be reproducible."""
    raw = design.circuit.generate_netlist(tool="kicad6", track_src=False, do_backup=False)
    tree = parse_sexp(raw)
    kinds = {}
    for part in design.circuit.parts:
        for pin in part.pins:
            kinds[(part.ref, str(pin.num))] = (pin.name, _KICAD_TYPE[pin.func.name])
    sheets = {}
    components = _get(tree, "components")
    for comp in _all(components, "comp"):
        sp = _get(comp, "sheetpath")
        sheets[_get(sp, "names")[1]] = _get(sp, "tstamps")[1]
    design_node = [
        Atom("design"),
        [Atom("source"), SOURCE],
        [Atom("date"), ""],
        [Atom("tool"), _get(_get(tree, "design"), "tool")[1]],
    ]
    for number, name in enumerate(sorted(sheets), 1):
        design_node.append(
            [
                Atom("sheet"),
                [Atom("number"), Atom(str(number))],
                [Atom("name"), name],
                [Atom("tstamps"), sheets[name]],
                [Atom("title_block"), [Atom("title"), design.title], [Atom("source"), SOURCE]],
            ]
        )
    for comp in _all(components, "comp"):
        fields = _get(comp, "fields")
        # SKiDL writes empty fields, the description and footprint again, and its tag (the reference)
        fields[1:] = [f for f in fields[1:] if len(f) > 2 and f[1][1] not in _REPEATED]
    nets = _get(tree, "nets")
    for net in _all(nets, "net"):
        for node in _all(net, "node"):
            key = (node[1][1], node[2][1])
            name, kind = kinds[key]
            node.append([Atom("pinfunction"), name])
            node.append([Atom("pintype"), kind])
    out = [Atom("export"), [Atom("version"), "D"], design_node, components, nets]
    return dump_sexp(out) + "\n"


_REPEATED = ("Description", "Footprint", "SKiDL Tag")
_KICAD_TYPE = {
    "PASSIVE": "passive",
    "INPUT": "input",
    "OUTPUT": "output",
    "BIDIR": "bidirectional",
    "OPENCOLL": "open_collector",
    "PWRIN": "power_in",
    "PWROUT": "power_out",
    "NOCONNECT": "no_connect",
    "TRISTATE": "tri_state",
    "UNSPEC": "unspecified",
}


# ---- reading ----------------------------------------------------------------------------------------


@dataclass
class Component:
    ref: str
    value: str
    footprint: str
    description: str
    part: str
    sheet: str
    fields: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Node:
    ref: str
    pin: str
    function: str
    kind: str


@dataclass
class Netlist:
    """A netlist read back: its components by reference and its nets by name."""

    title: str
    components: dict[str, Component]
    nets: dict[str, list[Node]]
    _pin_net: dict[tuple[str, str], str] = field(default_factory=dict)
    _by_ref: dict[str, list[Node]] = field(default_factory=dict)

    def pin_net(self, ref: str, pin: str) -> str | None:
        """The net on pin number PIN of REF (None: not connected)."""
        if not self._pin_net:
            for name, nodes in self.nets.items():
                for n in nodes:
                    self._pin_net[(n.ref, n.pin)] = name
        return self._pin_net.get((ref, pin))

    def pins(self, ref: str) -> list[Node]:
        """REF's connected pins, in pin-number order."""
        if not self._by_ref:
            for nodes in self.nets.values():
                for n in nodes:
                    self._by_ref.setdefault(n.ref, []).append(n)
            for v in self._by_ref.values():
                v.sort(key=lambda n: (len(n.pin), n.pin))
        return self._by_ref.get(ref, [])


def parse(text: str) -> Netlist:
    """A KiCad netlist (as write() makes it) read back."""
    tree = parse_sexp(text)
    title = ""
    for sheet in _all(_get(tree, "design"), "sheet"):
        tb = _get(sheet, "title_block")
        title = _get(tb, "title")[1] if tb and _get(tb, "title") and len(_get(tb, "title")) > 1 else title
    comps = {}
    for comp in _all(_get(tree, "components"), "comp"):
        fields = {}
        for f in _all(_get(comp, "fields") or [], "field"):
            name = _get(f, "name")[1]
            fields[name] = f[2] if len(f) > 2 else ""
        c = Component(
            ref=_get(comp, "ref")[1],
            value=_get(comp, "value")[1],
            footprint=_get(comp, "footprint")[1],
            description=(_get(comp, "description") or ["", ""])[1]
            if len(_get(comp, "description") or []) > 1
            else "",
            part=_get(_get(comp, "libsource"), "part")[1],
            sheet=_get(_get(comp, "sheetpath"), "names")[1],
            fields=fields,
        )
        comps[c.ref] = c
    nets = {}
    for net in _all(_get(tree, "nets"), "net"):
        nodes = []
        for node in _all(net, "node"):
            fn = _get(node, "pinfunction")
            kind = _get(node, "pintype")
            nodes.append(
                Node(_get(node, "ref")[1], _get(node, "pin")[1], fn[1] if fn else "", kind[1] if kind else "")
            )
        nets[_get(net, "name")[1]] = nodes
    return Netlist(title, comps, nets)

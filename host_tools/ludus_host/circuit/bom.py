"""The bill of materials of a netlist: one row per distinct part (maker, number, value, footprint) with its
quantity and every reference, as CSV for a distributor's BOM tool."""

import csv
import io
from dataclasses import dataclass

from ludus_host.circuit import designators as ref
from ludus_host.circuit.netlist import Netlist

COLUMNS = ("Item", "Quantity", "References", "Value", "Description", "Manufacturer", "MPN", "Footprint")
# the order rows come in: the chips first, then the parts that are many, then the rest
_ORDER = ("U", "H", "LED", "Q", "D", "F", "R", "C", "L", "J", "SW", "BZ")


@dataclass(frozen=True)
class Line:
    refs: tuple[str, ...]
    value: str
    description: str
    manufacturer: str
    mpn: str
    footprint: str


def lines(nl: Netlist) -> list[Line]:
    """NL's parts grouped by (manufacturer, MPN, value, footprint), in a stable order."""
    groups: dict[tuple[str, str, str, str, str], list[str]] = {}
    for c in nl.components.values():
        key = (c.fields.get("Manufacturer", ""), c.fields.get("MPN", ""), c.value, c.footprint, c.description)
        groups.setdefault(key, []).append(c.ref)
    out = []
    for (maker, mpn, value, footprint, description), refs in groups.items():
        refs.sort(key=ref.natural_key)
        out.append(Line(tuple(refs), value, description, maker, mpn, footprint))

    def order(line: Line) -> tuple[int, str, int]:
        prefix, number = ref.natural_key(line.refs[0])
        return (_ORDER.index(prefix) if prefix in _ORDER else len(_ORDER), prefix, number)

    out.sort(key=order)
    return out


def csv_text(nl: Netlist) -> str:
    """The BOM of NL as CSV (one header row, then one row per line of lines())."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for k, line in enumerate(lines(nl), 1):
        w.writerow(
            (
                k,
                len(line.refs),
                " ".join(line.refs),
                line.value,
                line.description,
                line.manufacturer,
                line.mpn,
                line.footprint,
            )
        )
    return buf.getvalue()

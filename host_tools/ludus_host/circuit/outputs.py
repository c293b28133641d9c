"""Every board's circuit documents, generated: hardware/BOARD/circuit.net (KiCad netlist), schematic.svg
(drawn from the netlist) and bom.csv, for the four boards and the analog build. A circuit must pass
SKiDL's ERC and every check of checks.py before anything of it is written.

    outputs.write_all("hardware", progress=print)
"""

import functools
import os
from collections.abc import Callable

from ludus_host.circuit import bom, checks, design, netlist, schematic
from ludus_host.paths import write_atomically

FILES = ("circuit.net", "schematic.svg", "bom.csv")


class CircuitFault(Exception):
    """A circuit that fails its ERC or its checks; the message lists every fault."""


def definition(name: str) -> dict:
    """The parsed board definition board NAME's circuit is built from."""
    return design.board_definition(name)


@functools.cache
def built(name: str) -> design.Design:
    """Board NAME's circuit, built once per process (the hardware documents, the circuit documents and
    the tests all read it)."""
    return design.build(name)


@functools.cache
def _generate(name: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    notes = []
    d = built(name)
    errors, warnings, messages = d.erc
    notes.append("%d parts, ERC %d errors, %d warnings" % (d.part_count(), errors, warnings))
    text = netlist.write(d)
    nl = netlist.parse(text)
    faults = checks.check(nl, d.board, d.definition, d.pins)
    if errors or warnings or faults:
        raise CircuitFault("%s: %s" % (name, "\n".join(messages + faults)))
    notes.append("checks pass: every sensor on its channel, the chains in order, every chip supplied")
    docs = (("circuit.net", text), ("schematic.svg", schematic.svg(nl)), ("bom.csv", bom.csv_text(nl)))
    return docs, tuple(notes)


def documents(name: str, progress: Callable[[str], None] = lambda s: None) -> dict[str, str]:
    """The generated documents of board NAME (file name: text), after its ERC and checks pass."""
    progress("%s: building the circuit" % name)
    docs, notes = _generate(name)
    for note in notes:
        progress("%s: %s" % (name, note))
    return dict(docs)


def write_all(out: str = "hardware", progress: Callable[[str], None] = lambda s: None) -> list[str]:
    """Every board's circuit documents under OUT/BOARD/; the paths written."""
    written = []
    for name in design.VARIANTS:
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        for fname, text in documents(name, progress).items():
            path = os.path.join(folder, fname)
            write_atomically(path, text)
            written.append(path)
        progress("%s: wrote %s" % (name, ", ".join(FILES)))
    return written

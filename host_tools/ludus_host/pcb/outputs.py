"""Every board's PCB, generated: the job made from its committed circuit, the pcbnew side run by Debian's
python3 (KiCad 6's pcbnew is built for it), and its outputs made reproducible (no date, no random id)
and written under hardware/BOARD/pcb/: the KiCad board and project, Gerbers and drill files, the
position file, the assembly BOM, the design-rules report and a picture of each side.

    outputs.write_all("hardware", progress=print)
"""

import csv
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable

from ludus_host.circuit import design, netlist
from ludus_host.circuit import designators as ref
from ludus_host.paths import write_atomically
from ludus_host.pcb import FINISHED, footprints, job

BOARDS = design.VARIANTS
ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine.py")
PYTHON = "/usr/bin/python3"  # Debian's, for which its KiCad 6 builds the pcbnew module
FOLDER = "pcb"
LAYERS = 4
# PCBWay's largest board on its quick-turn service (1-10 layers): 500 x 1100 mm (hardware/README.md)
FAB_LIMIT_MM = (500.0, 1100.0)
GERBER_LAYERS = (
    "F_Cu",
    "In1_Cu",
    "In2_Cu",
    "B_Cu",
    "F_Mask",
    "B_Mask",
    "F_Silkscreen",
    "B_Silkscreen",
    "F_Paste",
    "B_Paste",
    "Edge_Cuts",
)
NOT_FITTED = "the inner 5 V plane feeds the LEDs (hardware/README.md, LED power)"


class PcbFault(Exception):
    """The PCB could not be made, or fails its checks; the message says which and why."""


ZIP = "gerbers.zip"
KICAD_ZIP = "kicad.zip"  # the KiCad board and project, to unzip and open in KiCad 6
# a zip's entries carry a date: the earliest a zip can hold, the same every time
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def fab_files(name: str) -> list[str]:
    """The Gerbers and drill files of board NAME, as named in its gerbers.zip."""
    out = ["%s-%s.gbr" % (name, layer) for layer in GERBER_LAYERS]
    return out + ["%s-PTH.drl" % name, "%s-NPTH.drl" % name]


def files(name: str) -> list[str]:
    """The files written for board NAME, relative to its pcb folder."""
    return [KICAD_ZIP, "positions.csv", "bom.csv", "drc.txt", "top.svg", "bottom.svg", ZIP]


def kicad_files(name: str) -> list[str]:
    """The KiCad board and project of board NAME, as named in its kicad.zip."""
    return ["%s.kicad_pcb" % name, "%s.kicad_pro" % name]


def board_text(folder: str, name: str) -> str:
    """The .kicad_pcb text of board NAME whose pcb folder is FOLDER."""
    return read_zip(os.path.join(folder, KICAD_ZIP))["%s.kicad_pcb" % name]


def project(folder: str, name: str) -> dict:
    """The KiCad project (.kicad_pro, JSON) of board NAME whose pcb folder is FOLDER."""
    return json.loads(read_zip(os.path.join(folder, KICAD_ZIP))["%s.kicad_pro" % name])


def zip_bytes(members: dict[str, str]) -> bytes:
    """MEMBERS (name: text) as a zip whose bytes depend on nothing else: sorted, one fixed date,
    deflated at level 9."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for member in sorted(members):
            info = zipfile.ZipInfo(member, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # unix, whatever made it
            z.writestr(info, members[member].encode("utf-8"), compresslevel=9)
    return buf.getvalue()


def read_zip(path: str) -> dict[str, str]:
    """The members of a zip written by zip_bytes, as text."""
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n).decode("utf-8") for n in z.namelist()}


def pcbnew_available() -> bool:
    """Whether Debian's python3 here imports KiCad's pcbnew."""
    if not os.path.exists(PYTHON):
        return False
    r = subprocess.run([PYTHON, "-c", "import pcbnew"], capture_output=True)
    return r.returncode == 0


# ---- reproducible text ------------------------------------------------------------------------------

_TSTAMP = re.compile(r"\((tstamp|uuid) ([0-9a-fA-F-]{36})\)")


def normalise_board(text: str) -> str:
    """A .kicad_pcb with its random ids replaced by numbered ones in the order they appear."""
    seen: dict[str, str] = {}

    def number(m: re.Match) -> str:
        old = m.group(2)
        if old not in seen:
            seen[old] = "00000000-0000-4000-8000-%012x" % (len(seen) + 1)
        return "(%s %s)" % (m.group(1), seen[old])

    return _TSTAMP.sub(number, text)


def normalise_fab(text: str) -> str:
    """A Gerber or drill file without the date it was written."""
    lines = []
    for line in text.splitlines():
        if "CreationDate" in line:
            continue
        line = re.sub(r" date [0-9].*\*$", "*", line)  # Gerber: G04 Created by KiCad (...) date ...*
        line = re.sub(r"\} date .*$", "}", line)  # Excellon: ; DRILL file {KiCad ...} date ...
        lines.append(line)
    return "\n".join(lines) + "\n"


def normalise_drc(text: str) -> str:
    """The design-rules report without its date and the path it was written from."""
    out = []
    for line in text.splitlines():
        if line.startswith("** Created on") or line.startswith("** Drc report for"):
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def normalise_project(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


# ---- the assembly BOM ---------------------------------------------------------------------------------


def assembly_bom(nl: netlist.Netlist, placements: list[dict]) -> str:
    """The assembly BOM: one line per part number and side, with its designators, and whether it is
    fitted (the LED feed terminals are not: the plane feeds the LEDs)."""
    side = {p["ref"]: p["side"] for p in placements}
    groups: dict[tuple, list[str]] = {}
    for c in nl.components.values():
        fitted = not c.ref.startswith("J") or c.ref == "J1"
        key = (
            c.value,
            c.footprint,
            c.fields.get("Manufacturer", ""),
            c.fields.get("MPN", ""),
            side.get(c.ref, "?"),
            fitted,
            c.description,
        )
        groups.setdefault(key, []).append(c.ref)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        ["Item", "Quantity", "Designators", "Value", "Manufacturer", "MPN", "Footprint", "Side", "Fitted"]
    )
    rows = sorted(
        groups.items(),
        key=lambda kv: (not kv[0][5], kv[0][4], ref.natural_key(min(kv[1], key=ref.natural_key))),
    )
    for item, (key, refs) in enumerate(rows, 1):
        value, fp, maker, mpn, s, fitted, _ = key
        refs.sort(key=ref.natural_key)
        w.writerow(
            [
                item,
                len(refs),
                " ".join(refs),
                value,
                maker,
                mpn,
                fp,
                s,
                "yes" if fitted else "no: " + NOT_FITTED,
            ]
        )
    return out.getvalue()


# ---- generating -------------------------------------------------------------------------------------


def generate(name: str, hardware: str = "hardware", progress: Callable[[str], None] = lambda s: None) -> dict:
    """Board NAME's PCB made from hardware/NAME/circuit.net: {relative path: text} of its files, and
    "report": what the pcbnew side found (failed nets, DRC counts, placements)."""
    if not pcbnew_available():
        raise PcbFault(
            "KiCad 6's pcbnew is not importable by %s (apt-get install kicad kicad-footprints)" % PYTHON
        )
    folder = os.path.join(hardware, name)
    with tempfile.TemporaryDirectory(prefix="ludus-pcb-") as tmp:
        footprints.write_library(tmp)
        spec = job.build_job(name, folder, os.path.join(tmp, footprints.LIBRARY + ".pretty"))
        job_path = os.path.join(tmp, "job.json")
        with open(job_path, "w", encoding="utf-8") as f:
            json.dump(spec, f)
        out = os.path.join(tmp, "out")
        proc = subprocess.Popen(
            [PYTHON, ENGINE, job_path, out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert proc.stdout is not None
        tail = []
        for line in proc.stdout:
            line = line.rstrip("\n")
            tail = (tail + [line])[-20:]
            if line.startswith(name + ": "):
                progress(line)
        if proc.wait() != 0:
            raise PcbFault("%s: pcbnew's side failed:\n%s" % (name, "\n".join(tail)))
        with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
            report = json.load(f)
        with open(os.path.join(folder, "circuit.net"), encoding="utf-8") as f:
            nl = netlist.parse(f.read())
        docs: dict[str, str | bytes] = {}
        fab = {}
        for member in fab_files(name):
            with open(os.path.join(out, "gerbers", member), encoding="utf-8") as f:
                fab[member] = normalise_fab(f.read())
        kicad = {}
        for member in kicad_files(name):
            with open(os.path.join(out, member), encoding="utf-8") as f:
                text = f.read()
            kicad[member] = (
                normalise_board(text) if member.endswith(".kicad_pcb") else normalise_project(text)
            )
        for rel in files(name):
            if rel == ZIP:
                docs[rel] = zip_bytes(fab)
                continue
            if rel == KICAD_ZIP:
                docs[rel] = zip_bytes(kicad)
                continue
            src = {
                "drc.txt": "drc.rpt",
                "top.svg": "%s-top.svg" % name,
                "bottom.svg": "%s-bottom.svg" % name,
            }.get(rel, rel)
            path = os.path.join(out, src)
            if rel == "bom.csv":
                docs[rel] = assembly_bom(nl, report["placements"])
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if rel == "drc.txt":
                text = normalise_drc(text)
            else:
                text = normalise_project(text)
            docs[rel] = text
    return {"files": docs, "report": report}


def write_all(
    out: str = "hardware",
    boards: tuple[str, ...] = FINISHED,
    progress: Callable[[str], None] = lambda s: None,
) -> list[str]:
    """The PCB files of BOARDS (by default the finished ones) under OUT/BOARD/pcb/ (the circuits read
    from OUT too); the paths written.
    A board left with an unrouted connection or a design-rule error is written all the same (its drc.txt
    lists what is left), and PcbFault names them all once every board is written."""
    written = []
    lib = footprints.write_library(os.path.join(out, "footprints"))
    written += lib
    faults = []
    for name in boards:
        result = generate(name, out, progress)
        rep = result["report"]
        if rep["failed"] or rep["drc"].get("errors"):
            faults.append("%s: %s; DRC %s" % (name, "; ".join(rep["failed"]) or "routed", rep["drc"]))
        folder = os.path.join(out, name, FOLDER)
        if os.path.isdir(os.path.join(folder, "gerbers")):  # where an earlier version kept them unzipped
            shutil.rmtree(os.path.join(folder, "gerbers"))
        os.makedirs(folder, exist_ok=True)
        for old in sorted(set(os.listdir(folder)) - set(files(name))):  # what an earlier version wrote
            if os.path.isfile(os.path.join(folder, old)):
                os.remove(os.path.join(folder, old))
        for rel, data in result["files"].items():
            path = os.path.join(folder, rel)
            if isinstance(data, bytes):
                with open(path, "wb") as f:
                    f.write(data)
            else:
                write_atomically(path, data)
            written.append(path)
        progress("%s: wrote %d files in %s" % (name, len(result["files"]), folder))
    if faults:
        raise PcbFault("\n".join(faults))
    return written

"""What the pcbnew side needs to lay out one board, read from its committed circuit (circuit.net) and its
definition: every part with its footprint and pins' nets, where each sensor and LED must sit, the holes
the board top has there, and which parts form the controller and each chip's group."""

import os

from ludus_host.boards import documents as hardware
from ludus_host.circuit import designators as ref
from ludus_host.circuit import netlist, outputs
from ludus_host.pcb import footprints

KICAD_FOOTPRINTS = "/usr/share/kicad/footprints"
# the parts the supply's current goes through: jack, polyfuse, reverse-polarity FET, TVS, bulk capacitor,
# power mux (ludus_host.circuit.design.power); and the LED rail's feed: U3, whose OUT pins reach the
# rail's plane through vias of their own, and the bulk capacitors beside it
POWER_PARTS = ("J1", "F1", "Q1", "D1", "C1", ref.POWER_MUX)
RAIL_FEED = (ref.POWER_MUX, "C5", "C6")
# the wood between a recess or window of the board top and a part that stands above the PCB
TOP_CLEARANCE_MM = 1.0


def build_job(name: str, folder: str, library: str) -> dict:
    """The job for board NAME from FOLDER (hardware/NAME: circuit.net) with the Ludus footprints in
    LIBRARY (a Ludus.pretty folder)."""
    with open(os.path.join(folder, "circuit.net"), encoding="utf-8") as f:
        nl = netlist.parse(f.read())
    d = outputs.definition(name)
    pin_nets = {}
    for net, nodes in nl.nets.items():
        for n in nodes:
            pin_nets["%s.%s" % (n.ref, n.pin)] = net
    comps = [
        {"ref": c.ref, "footprint": c.footprint, "value": c.value}
        for c in sorted(nl.components.values(), key=lambda c: ref.natural_key(c.ref))
    ]
    cells = {c["id"]: c for c in d["cells"]}
    windows = hardware.led_windows(d)
    sensors = []
    for c in d["cells"]:
        ch = c["channel"]
        s = {"ref": ref.sensor(ch), "x": c["x"], "y": c["y"], "capacitor": ref.sensor_capacitor(ch)}
        if ref.pull_up(ch) in nl.components:
            s["pull_up"] = ref.pull_up(ch)
        sensors.append(s)
    leds = []
    spots = {c["led"]: windows[c["id"]] for c in d["cells"]}
    for ind in d.get("indicators", []):
        spots[ind["led"]] = (ind["x"], ind["y"])
    for k in sorted(spots):
        leds.append(
            {"ref": ref.led(k), "x": spots[k][0], "y": spots[k][1], "capacitor": ref.led_capacitor(k)}
        )
    # the board top's holes over the PCB: recesses, LED windows (a part above the PCB keeps clear)
    circles = [(c["x"], c["y"], hardware.RECESS_MM / 2 + TOP_CLEARANCE_MM) for c in d["cells"]]
    circles += [(x, y, hardware.HOLE_LED_MM / 2 + TOP_CLEARANCE_MM) for x, y in spots.values()]
    chips = []
    chip_refs = sorted(
        (r for r in nl.components if r.startswith("U") and int(r[1:]) >= ref.CHIP_BASE), key=ref.natural_key
    )
    size = 16 if d["sensors"]["kind"] == "analog" else 8
    for r in chip_refs:
        k = int(r[1:]) - ref.CHIP_BASE
        mine = [c for c in d["cells"] if c["channel"] // size == k]
        if mine:
            x = sum(c["x"] for c in mine) / len(mine)
            y = sum(c["y"] for c in mine) / len(mine)
        else:
            x, y = d["width"] / 2, d["height"] / 2
        parts = [p for p in (ref.chip_capacitor(k), ref.chip_series(k)) if p in nl.components]
        chips.append({"ref": r, "x": x, "y": y, "parts": parts})
    placed = {s["ref"] for s in sensors} | {s["capacitor"] for s in sensors}
    placed |= {s["pull_up"] for s in sensors if "pull_up" in s}
    placed |= {led["ref"] for led in leds} | {led["capacitor"] for led in leds}
    placed |= {c["ref"] for c in chips} | {p for c in chips for p in c["parts"]}
    controller = [
        c.ref
        for c in sorted(nl.components.values(), key=lambda c: ref.natural_key(c.ref))
        if c.sheet.strip("/") in ("power", "controller", "level_shifter", "sensor_supply", "mux_enables")
        and c.ref not in placed
    ]
    others = []
    for c in sorted(nl.components.values(), key=lambda c: ref.natural_key(c.ref)):
        if c.ref in placed or c.ref in controller:
            continue
        place = c.fields.get("Place")
        if place and place in cells:
            x, y = cells[place]["x"], cells[place]["y"]
        elif c.ref.startswith("J") or c.ref.startswith("C"):
            feed = int(c.fields.get("Feed", "0")) if c.fields.get("Feed") else None
            first = None
            if feed is not None:
                first = spots.get(feed * 32)
            x, y = first if first else (d["width"] / 2, d["height"] / 2)
        else:
            x, y = d["width"] / 2, d["height"] / 2
        others.append({"ref": c.ref, "x": x, "y": y})
    return {
        "name": name,
        "title": nl.title,
        "width": d["width"],
        "height": d["height"],
        "components": comps,
        "pin_nets": pin_nets,
        "sensors": sensors,
        "leds": leds,
        "chips": chips,
        "controller": {"pico": ref.PICO, "jack": "J1", "button": "SW1", "parts": controller},
        "controller_corner": [0.0, d["height"]],
        "others": others,
        "keepout_circles": circles,
        "no_vias_under": [ref.PICO],
        "last_nets": ["+3V3", "+3V3_S"],
        # the LED rail's feed: U3's OUT pins and the bulk capacitors beside them, joined by a wide track
        # with its vias into the rail's plane
        "rail_feed": list(RAIL_FEED),
        "half_pitch": [ref.POWER_MUX],
        # the parts the supply's current goes through: jack, polyfuse, reverse-polarity FET, TVS, bulk
        # capacitor, power mux (hardware/README.md, Power)
        "power_parts": list(POWER_PARTS),
        "libraries": {footprints.LIBRARY: library},
        "kicad_footprints": KICAD_FOOTPRINTS,
    }

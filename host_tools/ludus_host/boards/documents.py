"""The build documents of each board, generated from its definition, its circuit (ludus_host.circuit) and
the firmware's default pins so that they cannot disagree with what the firmware does or with each other
(hardware/README.md says why each part is there):

    write_all("hardware")      # hardware/BOARD/{parts.md, layout.svg, drill.svg, chains.svg} and the
                               # circuit's circuit.net, schematic.svg, bom.csv; wiring.md, wiring.svg

- parts.md: the parts with quantities and designators (from the circuit's netlist), the power arithmetic
  on USB and on the external supply, the LED feeds and their voltage drop, how the pieces are sensed;
- layout.svg: every cell with its id, sensor channel and LED index (for building and debugging);
- drill.svg: a 1:1 template of the locating recesses and LED windows, with a 100 mm scale bar;
- chains.svg: the order the LED chain and the sensor chain run through the cells, chip by chip;
- wiring.md: the Pico's pin map from ludus.config.defaults(), and what each pin is wired to.

A test regenerates them and fails if a committed file differs (tests/host/test_hardware.py)."""

import csv
import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ludus.board.power import DEFAULT_BUDGET_MA
from ludus.config import defaults

from ludus_host.boards import definitions as boards
from ludus_host.boards import magnetics
from ludus_host.boards.magnetics import Magnet, SensingDesign, Stack, Switch
from ludus_host.circuit import designators as ref
from ludus_host.paths import shipped_board, write_atomically

if TYPE_CHECKING:  # (for its type only: the circuit's netlist loads SKiDL, which most documents need not)
    from ludus_host.circuit.bom import Line

BOARDS = ("checkers", "ludo52", "ludo40", "ludo56")
ANALOG = "ludo40-analog"  # the analog build's folder: the circuit documents and parts.md
LED_FULL_MA = 60  # a WS2812B at full white: 3 x 20 mA
LED_IDLE_MA = 1.0  # its controller, dark
PICO_MA = 25
HC165_MA = 0.1  # 74HC165 at 3.3 V, clocked at 1 MHz, per chip (static 0.002 mA; generous)
DRV5032_MA = 0.002  # 20 Hz versions: 1.6 uA at 3 V (SLVSDC7 Features), rounded up
DRV5055_MA = 10  # DRV5055 supply current, maximum (6 mA typical)
EXTERNAL_MA = 4000  # the external supply suggested: 5 V, 4 A
EXTERNAL_DERATE_PCT = 90  # counted at 90 % of its rating
PULL_UP_KOHM = 10
DRV5055A3_MV_PER_MT = 15  # at 3.3 V (25 mV/mT at 5 V: the output is ratiometric)
PIECES = {"ludo": 16, "checkers": 60}
FLAT_TOKEN_MM = 5  # a stacking board's tokens are flat discs: the upper magnet is this much higher
BUZZER_MA = 53  # 5 V / (47 ohm series resistor) x 50 % duty: the most it can take, coil shorted
# the LED feeds: a pair of 0.75 mm2 copper wires from the power board to each segment, up to 1 m, and a
# 0.5 mm2 pair (or PCB copper of at least that section) along the segment's LEDs
COPPER_OHM_MM2_PER_M = 0.0172
FEED_MM2, FEED_M, BUS_MM2 = 0.75, 1.0, 0.5
Q1_OHM, U3_OHM = 0.036, 0.070  # AO4435 RDS(on) max at VGS -5 V; TPS2121 RON max at 25 C (datasheets)
# (Pico physical pin: GPIO) for every GPIO on the header
PICO_PINS = dict(
    [(gp, pin) for gp, pin in zip(range(0, 16), (1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20))]
    + [(16, 21), (17, 22), (18, 24), (19, 25), (20, 26), (21, 27), (22, 29), (26, 31), (27, 32), (28, 34)]
)


def _load(name: str) -> dict[str, Any]:
    with open(shipped_board(name), encoding="utf-8") as f:
        return json.load(f)


# ---- magnets ----------------------------------------------------------------------------------------

axial_field_mt = magnetics.axial_field_mt


def trigger_distance_mm(br_t: float, diameter_mm: float, height_mm: float, threshold_mt: float) -> float:
    """The farthest distance (0.1 mm steps) at which the field on the axis still reaches threshold."""
    z = 0.0
    while axial_field_mt(br_t, diameter_mm, height_mm, z + 0.1) >= threshold_mt and z < 100:
        z += 0.1
    return round(z, 1)


def neighbour_mt(
    br_t: float, diameter_mm: float, height_mm: float, lateral_mm: float, gap_mm: float
) -> float:
    """|Bz| (mT) a disc magnet gives at a sensor lateral_mm to its side and gap_mm below its face (the
    whole disc, magnetics.field_bz_mt)."""
    return abs(magnetics.field_bz_mt(br_t, diameter_mm, height_mm, lateral_mm, gap_mm))


def closest(d: dict) -> float | None:
    """The least distance (mm) between two cell centres of definition D."""
    cells = d["cells"]
    best = None
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            dist = math.hypot(a["x"] - b["x"], a["y"] - b["y"])
            best = dist if best is None or dist < best else best
    return best


# One sensing design for every board (hardware/README.md, "Sensing where people put pieces"): an 8 x 3 mm
# N42 disc in each piece's base, sensed pole down; a unipolar switch, which the neighbouring pieces' fields
# (opposite in sign at its position) can only push away from switching; the layers between magnet and
# hall element with their tolerances; a shallow recess at each cell that centres a piece.
SENSING = SensingDesign(
    magnet=Magnet("N42", 1.28, 1.32, 8.0, 3.0),
    switch=Switch(
        "TI DRV5032DUDBZR",
        3.9,
        True,
        "SLVSDC7 device comparison: DU, unipolar, push-pull, 20 Hz, BOP at most 3.9 mT",
    ),
    stack=Stack(
        (
            ("the piece's floor under its magnet", 1.0, 0.2),
            ("the board top under the recess (6 mm top, 1 mm recess)", 5.0, 0.4),
            ("tape between the board top and the sensor package", 0.35, 0.1),
            ("the hall element's depth in its SOT-23 (SLVSDC7, hall element location)", 0.65, 0.08),
        )
    ),
    piece_base_mm=10.0,
    recess_diameter_mm=11.0,
    recess_depth_mm=1.0,
)
HAND_ALLOWANCE = 0.24  # of the pitch: 6 mm on a 25 mm cell, 7.2 mm on a 30 mm one


def hand_allowance_mm(d: dict) -> float:
    """How far off a cell's centre a hand puts a piece on board D (the capture radius must cover it)."""
    return round(HAND_ALLOWANCE * d["pitch"], 1)


# ---- power ------------------------------------------------------------------------------------------


def power(d: dict, supply_ma: int = 500) -> dict[str, Any]:
    """The power arithmetic of board D on a supply: what everything but the LEDs takes, and the budget_ma
    the LEDs get (their dark draw included, as ludus.light.scene counts it). On USB that is the budget
    the firmware applies with budget_ma null (ludus.board.check: the board file's supply less its
    reserve, capped by ludus.board.power's USB figure); an external supply is counted at 90 %."""

    cells = len(d["cells"])
    leds = d["leds"]["count"]
    chips = (d["sensors"]["channels"] + 7) // 8
    analog = d["sensors"]["kind"] == "analog"
    sensors = cells * (DRV5055_MA * 3.3 / 5 / 0.85 if analog else DRV5032_MA)  # analog: U4's 3.3 V, 85 %
    pieces = PIECES["checkers" if d["game"] == "checkers" else "ludo"]
    pullups = 0 if analog else pieces * 3.3 / PULL_UP_KOHM  # a line pulled low under each piece
    logic = PICO_MA + (0 if analog else chips * HC165_MA) + sensors + pullups
    reserved = max(d["power"]["reserved_ma"], math.ceil(logic))
    if supply_ma == 500:
        budget = min(DEFAULT_BUDGET_MA, d["power"]["supply_ma"] - reserved)
    else:
        budget = supply_ma * EXTERNAL_DERATE_PCT // 100 - reserved
    idle = leds * LED_IDLE_MA
    return {
        "supply_ma": supply_ma,
        "logic_ma": round(logic, 1),
        "sensors_ma": round(sensors, 1),
        "pullups_ma": round(pullups, 1),
        "idle_ma": idle,
        "colour_ma": int(budget - idle),
        "full_white_ma": leds * LED_FULL_MA,
        "budget_ma": int(budget),
        "reserved_ma": reserved,
    }


def _led_spots(d: dict) -> dict[int, tuple[float, float]]:
    windows = led_windows(d)
    spots = {}
    for c in d["cells"]:
        spots[c["led"]] = windows[c["id"]]
    for ind in d.get("indicators", []):
        spots[ind["led"]] = (ind["x"], ind["y"])
    return spots


def led_feeds(d: dict, segment_leds: int = 32) -> list[tuple[int, int, int, float, float]]:
    """Each LED power feed of board D: (first LED, last LED, the most it draws within the external
    budget in mA, the bus length along its LEDs in m, the voltage drop in V to its farthest LED): the feed
    pair's drop at that current plus the bus's, the load spread along it (half the end-fed figure)."""
    budget = power(d, EXTERNAL_MA)["budget_ma"]
    spots = _led_spots(d)
    out = []
    for first in range(0, d["leds"]["count"], segment_leds):
        last = min(d["leds"]["count"], first + segment_leds) - 1
        current = min(budget, (last - first + 1) * LED_FULL_MA) / 1000
        length = sum(math.dist(spots[k], spots[k + 1]) for k in range(first, last)) / 1000
        feed = 2 * FEED_M * COPPER_OHM_MM2_PER_M / FEED_MM2
        bus = 2 * length * COPPER_OHM_MM2_PER_M / BUS_MM2
        out.append(
            (first, last, round(current * 1000), round(length, 2), round(current * (feed + bus / 2), 3))
        )
    return out


# ---- parts ------------------------------------------------------------------------------------------


def parts(name: str, d: dict, bom_lines: Iterable["Line"] | None = None) -> str:
    """parts.md for board NAME (its definition D): the parts with designators and quantities (BOM_LINES:
    ludus_host.circuit.bom.lines of its netlist), the power arithmetic, the LED feeds, the sensing."""
    analog = d["sensors"]["kind"] == "analog"
    game = "checkers" if d["game"] == "checkers" else "ludo"
    pieces = PIECES[game]
    lines = _parts_list(name, d, bom_lines, pieces)
    lines += _power_lines(d, pieces)
    lines += _feed_lines(d)
    lines += _sensing(d, pieces) if not analog else []
    if game == "ludo":
        lines += _analog_lines()
    return "\n".join(lines)


def _parts_list(name: str, d: dict, bom_lines: Iterable["Line"] | None, pieces: int) -> list[str]:
    cells = len(d["cells"])
    channels = d["sensors"]["channels"]
    leds = d["leds"]["count"]
    analog = d["sensors"]["kind"] == "analog"
    size = 16 if analog else 8
    chips = (channels + size - 1) // size
    m = SENSING.magnet
    drawings = "" if not analog else "../ludo40/"
    lines = [
        "# %s: parts and power" % (d["name"] + (", analog sensors" if analog else "")),
        "",
        "Generated from `%s` and its circuit by `ludus boards hardware`: do not edit by hand. Why each part"
        " was chosen and how to bring the board up: [../README.md](../README.md). The circuit beside this"
        " file: `circuit.net` (KiCad netlist), `schematic.svg`, `bom.csv`; the drawings:"
        " `%slayout.svg` (cells, channels, LEDs), `%sdrill.svg` (1:1 template), `%schains.svg` (the order of"
        " both chains)."
        % (
            "boards/%s.json" % name
            if not analog
            else "ludus boards generate --game ludo40 --sensor-kind analog",
            drawings,
            drawings,
            drawings,
        ),
        "",
        "%d cells, %d sensor channels (%d %s of %d; channel = %d x chip + input), %d LEDs (%d beside"
        " cells, %d indicators). Designators follow the firmware's numbers: the sensor of channel c is Hc"
        " (the layout's `c..`), LED index k is LEDk (`L..`), chip k of the chain is U%d+k."
        % (
            cells,
            channels,
            chips,
            "multiplexers" if analog else "shift registers",
            size,
            size,
            leds,
            cells,
            leds - cells,
            ref.CHIP_BASE,
        ),
        "",
        "| ref | part | part number | qty |",
        "|---|---|---|---|",
    ]
    for line in bom_lines or []:
        lines.append(
            "| %s | %s | %s %s | %d |"
            % (ref.ref_range(list(line.refs)), line.description, line.manufacturer, line.mpn, len(line.refs))
        )
    lines += [
        "| M1..M%d | neodymium disc magnet %s, %g x %g mm, axially magnetised, sensed pole down, in each"
        " piece's base | %g x %g mm %s disc | %d |"
        % (pieces, m.grade, m.diameter_mm, m.height_mm, m.diameter_mm, m.height_mm, m.grade, pieces),
        "| PS1 | 5 V 4 A power supply, 5.5 x 2.1 mm plug, centre positive | Mean Well GST25A05-P1J | 1 |",
        "",
        "The chips, sensors and LEDs are surface-mount parts (SOT-23, SO-16, 5050) for printed circuit"
        " boards made from `circuit.net`: the footprints named in `bom.csv` are KiCad's own, except the"
        " two its library lacks (the Pico module and the TPS2121's package), drawn with the boards. Also: a"
        " 6 mm board top (MDF or plywood) with the recesses and windows of `drill.svg`, ribbon cable for the"
        " sensor chain, and a pair of 0.75 mm^2 wires for each LED feed (below).",
        "",
    ]
    return lines


def _power_lines(d: dict, pieces: int) -> list[str]:
    leds = d["leds"]["count"]
    analog = d["sensors"]["kind"] == "analog"
    usb = power(d)
    ext = power(d, EXTERNAL_MA)
    lines = [
        "## Power",
        "",
        "| | on USB alone (500 mA) | on the external %d mA supply |" % EXTERNAL_MA,
        "|---|---|---|",
        "| Pico, %s, sensors, pull-ups under %d pieces | %s mA (sensors %s, pull-ups %s) | the same |"
        % (
            "multiplexers" if analog else "shift registers",
            pieces,
            usb["logic_ma"],
            usb["sensors_ma"],
            usb["pullups_ma"],
        ),
        "| kept back for them, the buzzer (at most %d mA) and a margin (`reserved_ma`) | %d mA | %d mA |"
        % (BUZZER_MA, usb["reserved_ma"], ext["reserved_ma"]),
        "| supply counted | 500 mA | %d mA (%d %% of its rating) |"
        % (EXTERNAL_MA * EXTERNAL_DERATE_PCT // 100, EXTERNAL_DERATE_PCT),
    ]
    if usb["budget_ma"] > 0:
        lines.append(
            "| **the LEDs' budget: `budget_ma`** | **%d mA** (`null`: the board's own) | **%d mA** |"
            % (usb["budget_ma"], ext["budget_ma"])
        )
        lines += [
            "| of which %d LEDs dark (about 1 mA each) | %d mA | %d mA |"
            % (leds, usb["idle_ma"], ext["idle_ma"]),
            "| left for colour | %d mA: %d LEDs at full white | %d mA: %d LEDs at full white |"
            % (
                usb["colour_ma"],
                usb["colour_ma"] // LED_FULL_MA,
                ext["colour_ma"],
                ext["colour_ma"] // LED_FULL_MA,
            ),
        ]
    else:
        lines.append(
            "| **the LEDs' budget: `budget_ma`** | **none: USB alone cannot run this board** | **%d mA** |"
            % ext["budget_ma"]
        )
    lines += [
        "| all LEDs full white would take | %d mA | %d mA |" % (usb["full_white_ma"], ext["full_white_ma"]),
        "",
        "The firmware reads which supply feeds the LEDs (GP21 high: the jack, through U3; wiring.md) and"
        ' keeps every frame within that budget: %s mA on USB alone, %d mA on the supply (`"budget_ma":'
        " %d` in config.json names the supply's figure); a frame over it is dimmed as a whole, never"
        " over-drawn."
        % (usb["budget_ma"] if usb["budget_ma"] > 0 else "no", ext["budget_ma"], ext["budget_ma"]),
        "",
    ]
    return lines


def _feed_lines(d: dict) -> list[str]:
    ext = power(d, EXTERNAL_MA)
    lines = [
        "### LED feeds",
        "",
        "The LED rail is fed at the start of every 32 LEDs (terminals J10.. on the LEDs, J20.. on the power"
        " board, a 100 uF at each), each by a pair of %g mm^2 wires up to %g m long (%.3f ohm there and"
        " back), with %g mm^2 of copper along its LEDs. The worst drop to a segment's farthest LED, at the"
        " most the segment can draw within the %d mA budget:"
        % (FEED_MM2, FEED_M, 2 * FEED_M * COPPER_OHM_MM2_PER_M / FEED_MM2, BUS_MM2, ext["budget_ma"]),
        "",
        "| feed | LEDs | at most | along its LEDs | drop to the farthest |",
        "|---|---|---|---|---|",
    ]
    for s, (first, last, ma, length, drop) in enumerate(led_feeds(d)):
        lines.append(
            "| %s / %s | LED%d..LED%d | %d mA | %.2f m | %.0f mV |"
            % (ref.feed_out(s), ref.feed_in(s), first, last, ma, length, drop * 1000)
        )
    path_drop = ext["budget_ma"] / 1000 * (Q1_OHM + U3_OHM)
    worst = max(f[4] for f in led_feeds(d))
    lines += [
        "",
        "Before the feeds, Q1 and U3 drop at most %.0f mV at %d mA (%g + %g ohm, their datasheet maxima), F1"
        " its own few tens of millivolts: from a 5.0 V supply the farthest LED gets at least %.2f V, above"
        " the WS2812B's 3.5 V minimum, and its data threshold (0.7 x VDD) stays below the 5 V the level"
        " shifter drives." % (path_drop * 1000, ext["budget_ma"], Q1_OHM, U3_OHM, 5.0 - path_drop - worst),
        "",
    ]
    return lines


def _analog_lines() -> list[str]:
    m = SENSING.magnet
    gap = SENSING.stack.gap_mm
    one = axial_field_mt(m.br_min_t, m.diameter_mm, m.height_mm, gap)
    two = one + axial_field_mt(m.br_min_t, m.diameter_mm, m.height_mm, gap + FLAT_TOKEN_MM)
    counts = (two - one) * DRV5055A3_MV_PER_MT / 3300 * 65535
    return [
        "## Analog build",
        "",
        "Counting stacked tokens (../README.md, flat tokens %g mm high): one token gives %.0f mT at the"
        " sensor, two stacked %.0f mT. A DRV5055A3 (about %d mV/mT at 3.3 V) puts %d ADC counts between"
        " one and two, %s the 1024 the calibration asks for; the more sensitive A1 and A2 would saturate"
        " at these fields. Every magnet goes the same pole down, as in the digital build, so that stacked"
        " tokens add their fields."
        % (FLAT_TOKEN_MM, one, two, DRV5055A3_MV_PER_MT, counts, "over" if counts > 1024 else "under"),
        "",
    ]


def _sensing(d: dict, pieces: int) -> list[str]:
    m, sw, st = SENSING.magnet, SENSING.switch, SENSING.stack
    allowance = hand_allowance_mm(d)
    rows = magnetics.role_captures(d, SENSING, pieces)
    out = [
        "## Sensing: where a piece is seen",
        "",
        "Each piece carries an %g x %g mm %s disc (Br %.2f to %.2f T), the same pole down in every piece;"
        " under each cell a %s (unipolar: it switches on one pole only, at most %.1f mT). Between the magnet"
        " and the hall element:"
        % (m.diameter_mm, m.height_mm, m.grade, m.br_min_t, m.br_max_t, sw.part, sw.bop_max_mt),
        "",
    ]
    for what, t, tol in st.layers:
        out.append("- %s: %.2f mm (+/- %.2f)" % (what, t, tol))
    out += [
        "",
        "so the gap is %.2f mm, +/- %.2f mm at worst. Each cell has a recess %g mm across, %g mm deep: a"
        " piece"
        " (base %g mm) in it sits within %.1f mm of the cell's centre."
        % (
            st.gap_mm,
            st.tolerance_mm,
            SENSING.recess_diameter_mm,
            SENSING.recess_depth_mm,
            SENSING.piece_base_mm,
            (SENSING.recess_diameter_mm - SENSING.piece_base_mm) / 2,
        ),
        "",
        "The capture radius is how far off a cell's centre a piece is still seen (the field of the whole"
        " disc, off its axis: ludus_host.boards.magnetics). Alone: nominal gap and magnet. Worst: the"
        " widest gap, the weakest magnet, and the %d cells nearest holding pieces with the strongest"
        " magnets at the narrowest gap, whose fields oppose (they push the sensor away from switching)."
        % (pieces - 1),
        "",
        "| cells | count | nearest other cell | capture radius alone | worst | a hand's placement"
        " | strongest opposing field on an empty cell |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            "| %s | %d | %.1f mm | %.1f mm | **%.1f mm** | +/- %.1f mm | %.2f mT |"
            % (r.role, r.cells, r.nearest_mm, r.nominal_mm, r.worst_mm, allowance, r.opposing_mt)
        )
    along = max(r.along_mt for r in rows)
    out += [
        "",
        "Pieces on other cells put %s on a cell's sensor along its sensed pole, so a piece is never seen on"
        " its neighbour, and an empty cell's sensor always releases."
        % ("%.2f mT" % along if along else "nothing"),
        "A magnet glued the wrong pole down is not seen on any cell: the bring-up finds it (../README.md).",
        "",
    ]
    return out


# ---- drawings ---------------------------------------------------------------------------------------

RECESS_MM = SENSING.recess_diameter_mm  # the locating recess at each cell, over its sensor
HOLE_LED_MM = 5.0  # the LED's window beside each cell
# from underneath, round each window: the WS2812B stands 1.6 mm above the PCB (Worldsemi: 5.0 x 5.0 x
# 1.6 mm), more than the sensors the board top rests on; its diagonal is 7.1 mm
COUNTERBORE_MM = 8.0
COUNTERBORE_DEPTH_MM = 1.0
BUTTON_HOLE_MM = 13.0  # the die button SW1's 12 mm body through the board top
# SW1's footprint (KiCad's SW_PUSH-12mm) has its origin at pin 1; the body's centre is here from it
BUTTON_CENTRE = (6.25, 2.5)
CLEARANCE_MM = 1.0  # board left between a recess and a window


# directions to try for a cell's LED window, first choice first: up and to the right, then the other
# diagonals, then straight
_LED_DIRECTIONS = (45, 135, 315, 225, 90, 0, 180, 270)


def led_windows(d: dict) -> dict[str, tuple[float, float]]:
    """{cell id: (x, y)} of every cell's LED window on board D: beside the cell, inside its pitch, at
    least CLEARANCE_MM of board from every recess, indicator and other window (the first direction of
    _LED_DIRECTIONS that allows it)."""
    pitch = d["pitch"]
    holes = [(c["x"], c["y"], RECESS_MM / 2) for c in d["cells"]]
    holes += [(i["x"], i["y"], HOLE_LED_MM / 2) for i in d.get("indicators", [])]
    out = {}
    for c in d["cells"]:
        off = min(max(c["r"] + 2.5, RECESS_MM / 2 + CLEARANCE_MM + HOLE_LED_MM / 2 + 0.5), pitch * 0.45)
        spot = None
        for angle in _LED_DIRECTIONS:
            x = round(c["x"] + off * math.cos(math.radians(angle)), 2)
            y = round(c["y"] - off * math.sin(math.radians(angle)), 2)
            inside = (
                HOLE_LED_MM / 2 <= x <= d["width"] - HOLE_LED_MM / 2
                and HOLE_LED_MM / 2 <= y <= d["height"] - HOLE_LED_MM / 2
            )
            if inside and all(
                math.hypot(x - hx, y - hy) > hr + HOLE_LED_MM / 2 + CLEARANCE_MM for hx, hy, hr in holes
            ):
                spot = (x, y)
                break
        if spot is None:
            raise ValueError("%s: no room for its LED window beside its recess" % c["id"])
        out[c["id"]] = spot
        holes.append((spot[0], spot[1], HOLE_LED_MM / 2))
    return out


def button_spot(folder: str) -> tuple[float, float] | None:
    """The centre of the die button SW1 on the board whose PCB is in FOLDER/pcb (read from its position
    file), or None when that board has no PCB yet."""
    path = os.path.join(folder, "pcb", "positions.csv")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["Ref"] == "SW1":
                # the position file's y axis points up, the board's down; SW1 is on the top side
                x, y, rot = float(row["PosX"]), -float(row["PosY"]), math.radians(float(row["Rot"]))
                dx, dy = BUTTON_CENTRE
                return (
                    round(x + dx * math.cos(rot) + dy * math.sin(rot), 2),
                    round(y - dx * math.sin(rot) + dy * math.cos(rot), 2),
                )
    return None


def drill_svg(d: dict, button: tuple[float, float] | None = None) -> str:
    """A 1:1 template of the board top: at every cell's centre the locating recess (its centre cross
    marks the sensor beneath), the LED's window beside it with the counterbore round it (dashed, from
    underneath), each with its cell id, the die button's hole at BUTTON when given, and a 100 mm scale
    bar and a 50 mm square to check that it printed at true size."""
    w, h = d["width"], d["height"] + 30
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g">'
        % (w, h, w, h),
        "<title>%s: drilling template, 1:1</title>" % boards._esc(d["name"]),
        '<rect x="0" y="0" width="%g" height="%g" fill="white" stroke="black" stroke-width="0.3"/>'
        % (w, d["height"]),
        '<g font-family="sans-serif" text-anchor="middle" stroke-width="0.2">',
    ]
    windows = led_windows(d)
    for c in d["cells"]:
        x, y = c["x"], c["y"]
        out.append(
            '<circle cx="%g" cy="%g" r="%g" fill="none" stroke="black"/>'
            '<path d="M%g %gh4M%g %gv4" stroke="black"/>' % (x, y, RECESS_MM / 2, x - 2, y, x, y - 2)
        )
        lx, ly = windows[c["id"]]
        out.append(
            '<circle cx="%.2f" cy="%.2f" r="%g" fill="none" stroke="#c00"/>' % (lx, ly, HOLE_LED_MM / 2)
        )
        out.append(_counterbore(lx, ly))
        # the id fits between this cell and its nearest neighbour (a character is about 0.6 em wide)
        nearest = min(math.hypot(x - o["x"], y - o["y"]) for o in d["cells"] if o is not c)
        size = min(2.2, round(nearest / (0.62 * len(c["id"])), 2))
        out.append(
            '<text x="%g" y="%.2f" font-size="%g">%s</text>'
            % (x, y + RECESS_MM / 2 + 2.6, size, boards._esc(c["id"]))
        )
    for ind in d.get("indicators", []):
        out.append(
            '<circle cx="%g" cy="%g" r="%g" fill="none" stroke="#c00"/>'
            '<text x="%g" y="%g" font-size="1.8">%s</text>'
            % (ind["x"], ind["y"], HOLE_LED_MM / 2, ind["x"], ind["y"] + 4.2, boards._esc(ind["id"]))
        )
    pips = d.get("indicators", [])
    if pips:  # the die's pips share one pocket, round all of their counterbores
        r = COUNTERBORE_MM / 2
        x0, y0 = min(i["x"] for i in pips) - r, min(i["y"] for i in pips) - r
        x1, y1 = max(i["x"] for i in pips) + r, max(i["y"] for i in pips) + r
        out.append(
            '<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="none" stroke="#c00"'
            ' stroke-dasharray="1.5 1" class="counterbore"/>' % (x0, y0, x1 - x0, y1 - y0, r)
        )
    if button is not None:
        bx, by = button
        out.append(
            '<circle cx="%g" cy="%g" r="%g" fill="none" stroke="#06c" stroke-width="0.4" class="button"/>'
            '<path d="M%g %gh4M%g %gv4" stroke="#06c"/>'
            '<text x="%g" y="%g" font-size="2.2" fill="#06c">SW1: %g mm, through</text>'
            % (
                bx,
                by,
                BUTTON_HOLE_MM / 2,
                bx - 2,
                by,
                bx,
                by - 2,
                bx,
                by + BUTTON_HOLE_MM / 2 + 3,
                BUTTON_HOLE_MM,
            )
        )
    y0 = d["height"] + 8
    out.append('<path d="M10 %gh100M10 %gv-3M110 %gv-3" stroke="black" stroke-width="0.4"/>' % (y0, y0, y0))
    for k in range(0, 101, 10):
        out.append('<path d="M%d %gv-1.5" stroke="black"/>' % (10 + k, y0))
    out.append('<text x="60" y="%g" font-size="3">100 mm: measure this bar after printing</text>' % (y0 + 5))
    out.append(
        '<rect x="130" y="%g" width="50" height="20" fill="none" stroke="black" stroke-width="0.4"/>'
        % (y0 - 3)
    )
    out.append('<text x="155" y="%g" font-size="3">50 x 20 mm</text>' % (y0 + 9))
    out.append(
        '<text x="%g" y="%g" font-size="3" text-anchor="start">black: locating recess %g mm, %g mm deep'
        " (the cross: its centre, over the sensor); red: LED window %g mm, through</text>"
        % (190, y0 + 2, RECESS_MM, SENSING.recess_depth_mm, HOLE_LED_MM)
    )
    out.append(
        '<text x="%g" y="%g" font-size="3" text-anchor="start">red dashed: counterbore %g mm, %g mm deep,'
        " from underneath (the die's pips: one pocket); blue: the die button's hole %g mm, through</text>"
        % (190, y0 + 7, COUNTERBORE_MM, COUNTERBORE_DEPTH_MM, BUTTON_HOLE_MM)
    )
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def _counterbore(x: float, y: float) -> str:
    return (
        '<circle cx="%.2f" cy="%.2f" r="%g" fill="none" stroke="#c00" stroke-dasharray="1.5 1"'
        ' class="counterbore"/>' % (x, y, COUNTERBORE_MM / 2)
    )


def chains_svg(d: dict) -> str:
    """The order of both chains over the board: the LED chain as a line from LED 0 (green dot) through
    every cell and indicator in chain order, and the sensor chain as one colour per 74HC165 chip with
    each cell's channel, so a maker can follow the wires."""
    w, h = d["width"], d["height"]
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g">'
        % (w, h, w, h),
        "<title>%s: LED chain and sensor chain</title>" % boards._esc(d["name"]),
        '<rect x="0" y="0" width="%g" height="%g" fill="white" stroke="#333" stroke-width="0.5"/>' % (w, h),
        '<g font-family="sans-serif" text-anchor="middle">',
    ]
    palette = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")
    spots = []
    for c in d["cells"]:
        spots.append((c["led"], c["x"], c["y"]))
    for ind in d.get("indicators", []):
        spots.append((ind["led"], ind["x"], ind["y"]))
    spots.sort()
    path = " ".join(("M" if k == 0 else "L") + "%g %g" % (x, y) for k, (_, x, y) in enumerate(spots))
    out.append('<path d="%s" fill="none" stroke="#888" stroke-width="0.6" stroke-dasharray="2 1"/>' % path)
    out.append('<circle cx="%g" cy="%g" r="2.5" fill="#0a0"/>' % (spots[0][1], spots[0][2]))
    for c in d["cells"]:
        chip = c["channel"] // 8
        colour = palette[chip % len(palette)]
        r = c["r"]
        out.append(
            '<circle cx="%g" cy="%g" r="%g" fill="none" stroke="%s" stroke-width="1"/>'
            % (c["x"], c["y"], r, colour)
        )
        out.append(
            '<text x="%g" y="%g" font-size="%.2f" fill="%s">%s</text>'
            % (c["x"], c["y"] - r * 0.15, r * 0.42, colour, ref.chip_input(c["channel"]))
        )
        out.append(
            '<text x="%g" y="%g" font-size="%.2f">%s L%d</text>'
            % (c["x"], c["y"] + r * 0.5, r * 0.34, boards._esc(c["id"]), c["led"])
        )
    out.append(
        '<text x="%g" y="%g" font-size="5">LED chain from the green dot (L0); sensor chip %s is the one whose'
        " QH goes to the Pico</text>" % (w / 2, h - 4, ref.chip(0))
    )
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


# ---- wiring -----------------------------------------------------------------------------------------


def wiring() -> str:
    """wiring.md: the Pico pin map (ludus.config.defaults()), what each pin is wired to (the circuit's
    designators), and how the chains and the power are wired."""
    # the circuit loads SKiDL (2 s): only the documents that need it import it
    from ludus_host.circuit.design import ANALOG_PINS, SUPPLY_SENSE_GPIO

    pins = defaults()["pins"]
    lines = [
        "# Wiring: the Pico's pins and the chains",
        "",
        "![the wiring as a block diagram](wiring.svg)",
        "",
        "Generated by `ludus boards hardware` from the firmware's default configuration"
        " (`ludus.config.defaults()`) and the circuit (ludus_host.circuit; each board's `schematic.svg` and"
        " `circuit.net`): do not edit by hand. The designators are the circuit's, the BOM's and parts.md's."
        " A board wired to other pins says so in the `pins` section of its config.json (docs/config.md);"
        " `ludus calibrate` finds wiring mistakes in the chains themselves (docs/calibration.md).",
        "",
    ]
    lines += _pin_table(pins, SUPPLY_SENSE_GPIO)
    lines += _POWER_LINES
    lines += _chain_lines(pins)
    lines += _analog_build_lines(ANALOG_PINS)
    return "\n".join(lines)


def _pin_table(pins: dict, sense_gpio: int) -> list[str]:
    # wiring.md's table: each GPIO the firmware uses, and the Pico's power pins
    s = pins["sensors"]
    first = ref.chip(0)
    rows = [
        (
            pins["leds"],
            "LED data out",
            "%s (74AHCT125) input 1A (pin 2), R13 10 kohm to ground; 1Y (pin 3) through R19 68 ohm to LED0's"
            " DIN" % ref.LEVEL_SHIFTER,
        ),
        (
            pins["button"],
            "die button",
            "R15 1 kohm from SW1 (R14 10 kohm pull-up to 3.3 V at the switch side), C7 100 nF to ground",
        ),
        (pins["buzzer"], "buzzer", "Q2 (2N7002) gate through R16 100 ohm, R17 100 kohm to ground"),
        (s["load"], "sensor latch (SH/LD)", "R11 47 ohm, then pin 1 of every 74HC165 (%s..)" % first),
        (s["sck"], "sensor clock (SPI0 SCK)", "R10 47 ohm, then pin 2 (CLK) of every 74HC165"),
        (
            s["miso"],
            "sensor data in (SPI0 RX)",
            "R50 47 ohm from QH (pin 9) of %s, the first of the chain; R12 10 kohm pull-up to 3.3 V" % first,
        ),
        (
            sense_gpio,
            "supply sense (config `supply`)",
            "R7 10 kohm from the jack's 5 V (after F1, Q1), R8 15 kohm to ground, D3 clamp to 3.3 V, U3's ST:"
            " high while the jack feeds the board",
        ),
    ]
    lines = [
        "| GPIO | Pico pin | does | wired to |",
        "|---|---|---|---|",
    ]
    for gp, what, to in rows:
        lines.append("| GP%d | %d | %s | %s |" % (gp, PICO_PINS[gp], what, to))
    return lines + [
        "| GP24 | (inside) | USB present | the Pico's own VBUS sense: no wiring |",
        "| VBUS | 40 | 5 V from USB | F2 (0.5 A polyfuse) to U3's IN2: the LED rail when the jack is"
        " absent |",
        "| VSYS | 39 | the Pico's supply | the LED rail (+5V_LED) through D2 (Schottky); the Pico's own diode"
        " from VBUS |",
        "| 3V3(OUT) | 36 | 3.3 V, at most 300 mA | every sensor's VCC, the 74HC165s' VCC (pin 16), the"
        " pull-ups |",
        "| GND | 3, 8, 13, 18, 23, 28, 33, 38 | ground | everything's ground, the jack's sleeve |",
        "",
    ]


_POWER_LINES = [
    "## Power",
    "",
    "- J1 (5.5 x 2.1 mm jack, centre positive) -> F1 (4 A polyfuse) -> Q1 (P-MOSFET, drain at the jack:"
    " a reversed plug turns it off) -> VEXT, with D1 (TVS) across it -> U3 (TPS2121) IN1.",
    "- USB's VBUS (Pico pin 40) -> F2 (0.5 A polyfuse) -> U3 IN2.",
    "- U3 feeds the LED rail +5V_LED from IN1 while the jack gives 4.6 to 5.5 V (R2/R3 on PR1, R4/R5 on"
    " OV1), else from IN2; it blocks current back into either input, so the supply never reaches the"
    " laptop's VBUS. C5 (470 uF) and the feeds' 100 uF sit on its output, charged through its soft"
    " start (C4).",
    "- +5V_LED -> D2 -> VSYS; the Pico makes its 3.3 V from VSYS.",
    "",
]


def _chain_lines(pins: dict) -> list[str]:
    # wiring.md's sections on the sensor chain and the LED chain
    s = pins["sensors"]
    first, last = ref.chip(0), "the last"
    return [
        "## The sensor chain (74HC165)",
        "",
        "- Each cell's DRV5032 output (Hc, c = its channel) goes to one input of a 74HC165 (A = pin 11, B 12,"
        " C 13, D 14, E 3, F 4, G 5, H 6), pulled up to 3.3 V at the chip by its resistor (R100+c). Channel"
        " = 8 x chip + input, A = 0; chip k is U%d+k (chains.svg names each cell's chip and input)."
        % ref.CHIP_BASE,
        "- %s's QH (pin 9) goes through R50 to GP%d; chip k+1's QH through R(50+k+1) to chip k's SER (pin"
        " 10); %s chip's SER to ground, so the byte read past the chain is 0 (and a dead line, pulled up by"
        " R12, reads 1s). CLK INH (pin 15) and GND (pin 8) to ground, VCC (pin 16) to 3.3 V with its own"
        " 100 nF (C50+k)." % (first, s["miso"], last),
        "- Every SH/LD (pin 1) on the line from R11 (GP%d), every CLK (pin 2) on the line from R10 (GP%d):"
        " the resistors at the Pico damp the reflections of the long bussed lines. The firmware reads the"
        " chain by SPI at 1 MHz." % (s["load"], s["sck"]),
        "- Inputs with no cell are tied to 3.3 V (they read empty).",
        "",
        "## The LED chain (WS2812B)",
        "",
        "- GP%d drives %s's gate 1 (powered from the LED rail, so its output swings to 5 V: a WS2812B wants"
        " its data high above 0.7 x VDD = 3.5 V, more than the Pico's 3.3 V). Gates 2-4: output enables to"
        " 5 V (off), inputs to ground; 100 nF (C8) at its VCC (pin 14)." % (pins["leds"], ref.LEVEL_SHIFTER),
        "- Its output goes through R19 (68 ohm, at the driver) to LED0's DIN; each LED's DOUT to the next"
        " one's DIN, in the order `chains.svg` draws; 100 nF (C300+k) at each LED.",
        "- Power: a feed at the start of every 32 LEDs (J20.. on the power board to J10.. at the LEDs, 100 uF"
        " each), 0.75 mm^2 pairs: each board's parts.md gives the drop.",
        "",
    ]


def _analog_build_lines(analog_pins: dict[str, Any]) -> list[str]:
    # wiring.md's section on the analog build
    return [
        "## Analog build (multiplexers)",
        "",
        '`"sensors": {"kind": "mux", "select": %s, "adc": %s}` (ludus.hw.mux), and two enables %s: four'
        " GPIOs drive the select lines of every CD74HC4067 at once, each multiplexer's common pin goes to one"
        " ADC pin, multiplexer k to GP%d + (k mod 3), its enable (pin 15, active low, 10 kohm pull-up) to"
        " the enable of its group of three. The multiplexers and the DRV5055 sensors run at 3.3 V from their"
        " own buck (U4), never at 5 V, so no ADC input sees more than 3.3 V. The firmware reads one group"
        " (48 channels) today; the group enables are for a board that has more (../ludo40-analog/)."
        % (
            analog_pins["select"],
            analog_pins["adc"],
            ["GP%d" % n for n in analog_pins["enable"]],
            analog_pins["adc"][0],
        ),
        "",
    ]


def wiring_svg() -> str:
    """wiring.svg: the block diagram of wiring.md, its pin numbers from ludus.config.defaults()."""
    from ludus_host.circuit.design import SUPPLY_SENSE_GPIO  # (SKiDL: see wiring)

    pins = defaults()["pins"]
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="560" viewBox="0 0 900 560">',
        "<title>Ludus board wiring</title>",
        '<rect width="900" height="560" fill="white"/>',
        '<g font-family="sans-serif" font-size="13" fill="none" stroke="black">',
    ]
    for (x, y, w, h), title, lines in _wiring_boxes(pins, SUPPLY_SENSE_GPIO):
        out += _svg_box(x, y, w, h, title, lines)
    for points, label, colour in _wiring_wires(pins):
        out += _svg_wire(points, label, colour)
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def _svg_box(x: int, y: int, w: int, h: int, title: str, lines: Iterable[str]) -> list[str]:
    # a block of wiring.svg: a rounded box, its title in bold and its lines under it
    out = ['<rect x="%d" y="%d" width="%d" height="%d" rx="6"/>' % (x, y, w, h)]
    out.append(
        '<text x="%d" y="%d" fill="black" stroke="none" font-weight="bold">%s</text>' % (x + 8, y + 18, title)
    )
    for k, line in enumerate(lines):
        out.append(
            '<text x="%d" y="%d" fill="black" stroke="none">%s</text>' % (x + 8, y + 36 + 16 * k, line)
        )
    return out


def _svg_wire(points: Sequence[tuple[int, int]], label: str | None, colour: str) -> list[str]:
    # a wire of wiring.svg, its label (if any) above its first point
    out = [
        '<polyline points="%s" stroke="%s" stroke-width="2"/>'
        % (" ".join("%d,%d" % p for p in points), colour)
    ]
    if label:
        (x, y) = points[0]
        out.append(
            '<text x="%d" y="%d" fill="%s" stroke="none" font-size="11">%s</text>'
            % (x + 4, y - 4, colour, label)
        )
    return out


def _wiring_boxes(pins: dict, sense_gpio: int) -> list[tuple[tuple[int, int, int, int], str, list[str]]]:
    # wiring.svg's blocks: ((x, y, width, height), title, lines)
    s = pins["sensors"]
    pico = [
        "GP%d  LED data" % pins["leds"],
        "GP%d  die button" % pins["button"],
        "GP%d  buzzer" % pins["buzzer"],
        "GP%d  SH/LD" % s["load"],
        "GP%d  SPI0 SCK" % s["sck"],
        "GP%d  SPI0 RX" % s["miso"],
        "GP%d  supply sense" % sense_gpio,
        "3V3(OUT) pin 36",
        "VBUS 40 / VSYS 39",
    ]
    chain = [
        "8 sensors per chip (A = channel 0)",
        "%s's QH to the Pico; %s's to %s's SER" % (ref.chip(0), ref.chip(1), ref.chip(0)),
        "47 ohm at each driver; last SER grounded",
    ]
    power = [
        "J1 jack -> F1 -> Q1 (reverse) -> VEXT",
        "  D1 TVS; VEXT to U3 IN1",
        "USB VBUS -> F2 -> U3 IN2",
        "U3 TPS2121: jack first, else USB,",
        "  never one into the other",
        "U3 OUT: the LED rail (C5 470 uF)",
        "LED rail -> D2 -> VSYS",
        "R7/R8 + U3 ST -> GP%d" % sense_gpio,
        "3V3(OUT): sensors, 74HC165s",
        "all grounds joined",
    ]
    return [
        ((330, 170, 200, 216), "U1 Raspberry Pi Pico", pico),
        ((20, 20, 290, 110), "74HC165 chain %s, %s, ..." % (ref.chip(0), ref.chip(1)), chain),
        (
            (20, 170, 250, 90),
            "DRV5032DU under each cell",
            ["Hc (c = channel), 3.3 V, 100 nF each", "low: a magnet's sensed pole on it"],
        ),
        (
            (600, 20, 270, 110),
            "%s 74AHCT125 (at 5 V)" % ref.LEVEL_SHIFTER,
            ["3.3 V data in, 5 V data out", "then R19 68 ohm to LED0's DIN", "gates 2-4 off, inputs tied"],
        ),
        (
            (600, 170, 270, 110),
            "WS2812B chain LED0, LED1, ...",
            ["LED0 DIN ... DOUT to the next LED", "fed every 32 LEDs (J10.., 100 uF)", "100 nF at each LED"],
        ),
        (
            (600, 330, 270, 80),
            "button and buzzer",
            [
                "SW1: 10k pull-up, 1k + 100 nF to GP%d" % pins["button"],
                "BZ1 through Q2 from GP%d" % pins["buzzer"],
            ],
        ),
        ((20, 320, 280, 220), "power", power),
    ]


def _wiring_wires(pins: dict) -> list[tuple[list[tuple[int, int]], str | None, str]]:
    # wiring.svg's wires: (points, label or None, colour)
    s = pins["sensors"]
    return [
        (
            [(310, 80), (318, 80), (318, 250), (330, 250)],
            "GP%d, GP%d, GP%d" % (s["load"], s["sck"], s["miso"]),
            "#06c",
        ),
        ([(145, 130), (145, 170)], None, "#06c"),
        ([(530, 190), (565, 190), (565, 75), (600, 75)], "GP%d" % pins["leds"], "#c00"),
        ([(735, 130), (735, 170)], None, "#c00"),
        ([(530, 350), (600, 370)], "GP%d, GP%d" % (pins["button"], pins["buzzer"]), "black"),
        ([(300, 420), (330, 370)], "5 V, 3.3 V, GND", "#080"),
    ]


def write_all(
    out: str = "hardware", progress: Callable[[str], None] = lambda s: None, pcbs: str | None = None
) -> list[str]:
    """Every generated document under OUT, the circuits' included; the paths written. The die button's
    hole on each drilling template is read from the board's PCB under PCBS (default OUT)."""
    from ludus_host.circuit import bom, netlist, outputs  # (SKiDL: see wiring)

    written = []
    for name in BOARDS + (ANALOG,):
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        docs = dict(outputs.documents(name, progress))
        nl = netlist.parse(docs["circuit.net"])
        d = outputs.definition(name)
        docs["parts.md"] = parts(name, d, bom.lines(nl))
        if name != ANALOG:
            docs["layout.svg"] = boards.draw_svg(d)
            docs["drill.svg"] = drill_svg(d, button_spot(os.path.join(pcbs or out, name)))
            docs["chains.svg"] = chains_svg(d)
        for fname, text in docs.items():
            path = os.path.join(folder, fname)
            write_atomically(path, text)
            written.append(path)
        progress("%s: wrote %s" % (name, ", ".join(sorted(docs))))
    for fname, text in (("wiring.md", wiring()), ("wiring.svg", wiring_svg())):
        path = os.path.join(out, fname)
        write_atomically(path, text)
        written.append(path)
    return written

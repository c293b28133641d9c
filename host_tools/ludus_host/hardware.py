"""The build documents of each board, generated from its definition and the firmware's default pins so
that they cannot disagree with what the firmware does (hardware/README.md says why each part is there):

    write_all("hardware")      # hardware/BOARD/{parts.md, layout.svg, drill.svg, chains.svg}, wiring.md

- parts.md: the parts list with quantities for this board, and its power arithmetic;
- layout.svg: every cell with its id, sensor channel and LED index (for building and debugging);
- drill.svg: a 1:1 drilling template, with a 100 mm scale bar and a 50 mm square to check the print;
- chains.svg: the order the LED chain and the sensor chain run through the cells, chip by chip;
- wiring.md: the Pico's pin map from ludus.config.defaults(), and how each chain is wired.

A test regenerates them and fails if a committed file differs (tests/host/test_hardware.py)."""

import json
import math
import os

from ludus_host import boards
from ludus_host.paths import board_file, write_atomically

BOARDS = ("checkers", "ludo52", "ludo40", "ludo56")
LED_FULL_MA = 60  # a WS2812B at full white: 3 x 20 mA
LED_IDLE_MA = 1.0  # its controller, dark
PICO_MA = 25
HC165_MA = 0.1  # 74HC165 at 3.3 V, clocked at 1 MHz, per chip (static 0.002 mA; generous)
DRV5032_MA = 0.002  # 20 Hz versions: 1.6 uA at 3 V (datasheet), rounded up
DRV5055_MA = 10  # DRV5055 supply current, maximum (6 mA typical)
EXTERNAL_MA = 4000  # the external supply suggested: 5 V, 4 A
EXTERNAL_DERATE_PCT = 90  # counted at 90 % of its rating
PULL_UP_KOHM = 10
DRV5055A3_MV_PER_MT = 15  # at 3.3 V (25 mV/mT at 5 V: the output is ratiometric)
PIECES = {"ludo": 16, "checkers": 60}
# (Pico physical pin: GPIO) for every GPIO on the header
PICO_PINS = dict(
    [(gp, pin) for gp, pin in zip(range(0, 16), (1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20))]
    + [(16, 21), (17, 22), (18, 24), (19, 25), (20, 26), (21, 27), (22, 29), (26, 31), (27, 32), (28, 34)]
)


def _load(name):
    with open(board_file(name), encoding="utf-8") as f:
        return json.load(f)


# ---- magnets ----------------------------------------------------------------------------------------


def axial_field_mt(br_t, diameter_mm, height_mm, z_mm):
    """Flux density (mT) on the axis of a disc magnet, z mm from its face: the standard formula for an
    axially magnetised cylinder, B = Br/2 * ((z + h) / sqrt(R^2 + (z + h)^2) - z / sqrt(R^2 + z^2))."""
    r = diameter_mm / 2
    zh = z_mm + height_mm
    return 1000 * br_t / 2 * (zh / math.sqrt(r * r + zh * zh) - z_mm / math.sqrt(r * r + z_mm * z_mm))


def trigger_distance_mm(br_t, diameter_mm, height_mm, threshold_mt):
    """The farthest distance (0.1 mm steps) at which the field on the axis still reaches threshold."""
    z = 0.0
    while axial_field_mt(br_t, diameter_mm, height_mm, z + 0.1) >= threshold_mt and z < 100:
        z += 0.1
    return round(z, 1)


def neighbour_mt(br_t, diameter_mm, height_mm, lateral_mm, gap_mm):
    """|Bz| (mT) a disc magnet gives at a sensor lateral_mm to its side and gap_mm below its face: the
    magnet as a point dipole at its centre, B_z = Br V / (4 pi r^3) (3 cos^2 theta - 1)."""
    volume = math.pi * (diameter_mm / 2) ** 2 * height_mm
    depth = gap_mm + height_mm / 2
    r = math.hypot(lateral_mm, depth)
    cos = depth / r
    return abs(1000 * br_t * volume / (4 * math.pi * r**3) * (3 * cos * cos - 1))


def closest(d):
    """The least distance (mm) between two cell centres of definition D."""
    cells = d["cells"]
    best = None
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            dist = math.hypot(a["x"] - b["x"], a["y"] - b["y"])
            best = dist if best is None or dist < best else best
    return best


MAGNETS = {
    # piece: (grade, remanence Br in T (low end of the grade), diameter, height, where it goes)
    "ludo": ("N42", 1.28, 6, 3, "glued into a recess in each token's base"),
    "checkers": ("N42", 1.28, 5, 2, "glued into the foot of each peg (glass marbles cannot carry one)"),
}
SENSOR_GAP_MM = {"ludo": 5, "checkers": 5}  # sensor face to the magnet: 3 mm board + 2 mm of the piece


# ---- parts ------------------------------------------------------------------------------------------


def power(d, supply_ma=500):
    """The power arithmetic of board D on a supply: what everything but the LEDs takes, and the budget_ma
    the LEDs get (their dark draw included, as ludus.light.scene counts it). On USB that is the budget
    the firmware applies with budget_ma null (ludus.board.check: the board file's supply less its
    reserve, capped by ludus.board.power's USB figure); an external supply is counted at 90 %."""
    from ludus.board.power import DEFAULT_BUDGET_MA

    cells = len(d["cells"])
    leds = d["leds"]["count"]
    chips = (d["sensors"]["channels"] + 7) // 8
    analog = d["sensors"]["kind"] == "analog"
    sensors = cells * (DRV5055_MA if analog else DRV5032_MA)
    pieces = PIECES["checkers" if d["game"] == "checkers" else "ludo"]
    pullups = 0 if analog else pieces * 3.3 / PULL_UP_KOHM  # a line pulled low under each piece
    logic = PICO_MA + chips * HC165_MA + sensors + pullups
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


def parts(name, d):
    """parts.md for board NAME (its definition D): the parts with quantities, the power arithmetic."""
    cells = len(d["cells"])
    channels = d["sensors"]["channels"]
    leds = d["leds"]["count"]
    chips = (channels + 7) // 8
    game = "checkers" if d["game"] == "checkers" else "ludo"
    grade, br, dia, height, where = MAGNETS[game]
    pieces = PIECES[game]
    gap = SENSOR_GAP_MM[game]
    rows = [
        ("U1", "Raspberry Pi Pico (RP2040)", "Raspberry Pi SC0915", 1),
        (
            "H1..H%d" % cells,
            "digital hall switch, omnipolar, open-drain, 20 Hz, SOT-23",
            "TI DRV5032AJDBZR",
            cells,
        ),
        ("U2..U%d" % (chips + 1), "8-bit parallel-in shift register, SO-16", "Nexperia 74HC165D,653", chips),
        (
            "RN1..RN%d" % chips,
            "8 x 10 kohm bussed resistor network, SIP-9 (sensor pull-ups)",
            "Bourns 4609X-101-103LF",
            chips,
        ),
        ("D1..D%d" % leds, "RGB LED with controller, 5050", "Worldsemi WS2812B", leds),
        ("U%d" % (chips + 2), "quad buffer, TTL inputs, 5 V (LED data level shifter)", "TI SN74AHCT125N", 1),
        ("R1", "330 ohm, 1/8 W (LED data line series resistor)", "Yageo RC0805FR-07330RL", 1),
        ("C1", "1000 uF 10 V electrolytic (LED supply bulk capacitor)", "Panasonic EEU-FR1A102", 1),
        (
            "C2..C%d" % (cells + chips + leds + 2),
            "100 nF X7R 0805 (one per sensor, chip and LED)",
            "KEMET C0805C104K5RACTU",
            cells + chips + leds + 1,
        ),
        ("SW1", "12 mm tactile switch (the die button)", "Omron B3F-4055", 1),
        ("BZ1", "piezo transducer, passive, 12 mm", "TDK PS1240P02BT", 1),
        (
            "D%d" % (leds + 1),
            "Schottky diode 1 A (VSYS, so USB and the external supply can both be plugged)",
            "onsemi 1N5819",
            1,
        ),
        ("J1", "DC barrel jack 2.1 mm (external 5 V)", "CUI PJ-002A", 1),
        ("PS1", "5 V 4 A power supply, 2.1 mm plug (for full brightness)", "Mean Well GST25A05-P1J", 1),
        (
            "M1..M%d" % pieces,
            "neodymium disc magnet %s, %d x %d mm, %s" % (grade, dia, height, where),
            "%dx%d mm %s disc" % (dia, height, grade),
            pieces,
        ),
    ]
    usb = power(d)
    ext = power(d, EXTERNAL_MA)
    near = closest(d)
    lines = [
        "# %s: parts and power" % d["name"],
        "",
        "Generated from `boards/%s.json` by `ludus boards hardware`: do not edit by hand. Why each part"
        " was chosen: [../README.md](../README.md). The drawings beside this file: `layout.svg` (cells,"
        " channels, LEDs), `drill.svg` (1:1 drilling template), `chains.svg` (the order of both chains)."
        % name,
        "",
        "%d cells, %d sensor channels (%d chips of 8; channel = 8 x chip + input, A = 0), %d LEDs (%d beside"
        " cells, %d indicators)." % (cells, channels, chips, leds, cells, leds - cells),
        "",
        "| ref | part | part number | qty |",
        "|---|---|---|---|",
    ]
    for ref, what, number, qty in rows:
        lines.append("| %s | %s | %s | %d |" % (ref, what, number, qty))
    lines += [
        "",
        "Also: stripboard or a PCB per cell group, 0.5 mm^2 wire for the 5 V and ground of the LEDs, ribbon"
        " cable for the sensor chain, a 3 mm board top (MDF, plywood or acrylic) drilled from `drill.svg`.",
        "",
        "## Power",
        "",
        "| | on USB (500 mA) | on the external %d mA supply |" % EXTERNAL_MA,
        "|---|---|---|",
        "| Pico, shift registers, sensors, pull-ups under %d pieces | %s mA (sensors %s, pull-ups %s) | the"
        " same |" % (pieces, usb["logic_ma"], usb["sensors_ma"], usb["pullups_ma"]),
        "| kept back for them and a margin (the board file's `reserved_ma`) | %d mA | %d mA |"
        % (usb["reserved_ma"], ext["reserved_ma"]),
        "| supply counted | 500 mA | %d mA (%d %% of its rating) |"
        % (EXTERNAL_MA * EXTERNAL_DERATE_PCT // 100, EXTERNAL_DERATE_PCT),
        "| **the LEDs' budget: `budget_ma`** | **%d mA** (`null`: the board's own) | **%d mA** |"
        % (usb["budget_ma"], ext["budget_ma"]),
        "| of which %d LEDs dark (about 1 mA each) | %d mA | %d mA |"
        % (leds, usb["idle_ma"], ext["idle_ma"]),
        "| left for colour | %d mA: %d LEDs at full white | %d mA: %d LEDs at full white |"
        % (
            usb["colour_ma"],
            usb["colour_ma"] // LED_FULL_MA,
            ext["colour_ma"],
            ext["colour_ma"] // LED_FULL_MA,
        ),
        "| all LEDs full white would take | %d mA | %d mA |" % (usb["full_white_ma"], ext["full_white_ma"]),
        "",
        "On USB leave `budget_ma` at `null` in config.json: the firmware then keeps the LEDs within %d mA"
        " (docs/lights.md scales every frame down to its budget, dark draw included). With the external"
        ' supply set `"budget_ma": %d`. Either way the LEDs never draw more than the budget, whatever the'
        " game lights; a frame over it is dimmed as a whole." % (usb["budget_ma"], ext["budget_ma"]),
        "",
        "## Magnets",
        "",
        "%d x %d mm %s discs (Br at least %.2f T). On the axis of the magnet the field falls with distance as"
        " below (the standard formula for a disc magnet; ludus_host.hardware.axial_field_mt):"
        % (dia, height, grade, br),
        "",
        "| distance from the magnet | 2 mm | 5 mm | 8 mm | 12 mm |",
        "|---|---|---|---|---|",
        "| field | %s |" % " | ".join("%.0f mT" % axial_field_mt(br, dia, height, z) for z in (2, 5, 8, 12)),
        "",
        "The sensor sits %d mm below the magnet (%d mm of board top, %d mm of the piece's base): %.0f mT,"
        " well"
        " above the switch's operate point (at most 9.5 mT even for the DRV5032's medium-sensitivity"
        " versions, 3.9 or 4.8 mT for the more sensitive ones); a 9.5 mT version still switches %.1f mm"
        " away. Either pole may face down: the switch is omnipolar."
        % (gap, 3, gap - 3, axial_field_mt(br, dia, height, gap), trigger_distance_mm(br, dia, height, 9.5)),
        "",
        "The closest two cells of this board are %.1f mm apart: a magnet on one gives %.1f mT (its vertical"
        " component, which the sensor measures; a dipole estimate) at the other's sensor, below the 3.9 mT"
        " of even the most sensitive version, so a piece is never sensed on its neighbour."
        % (near, neighbour_mt(br, dia, height, near, gap)),
        "",
    ]
    if game == "ludo":
        one = axial_field_mt(br, dia, height, gap)
        two = one + axial_field_mt(br, dia, height, gap + 5)
        counts = (two - one) * DRV5055A3_MV_PER_MT / 3300 * 65535
        lines += [
            "Analog build (counting stacked tokens, see ../README.md): one token gives %.0f mT at the sensor,"
            " two stacked (the upper magnet 5 mm higher) %.0f mT. A DRV5055A3 (about %d mV/mT at 3.3 V)"
            " puts %d ADC counts between one and two, well over the 1024 the calibration asks for; the more"
            " sensitive A1 and A2 would saturate at these fields. For it, put every magnet south pole down"
            " (mark it), so that stacked tokens add their fields." % (one, two, DRV5055A3_MV_PER_MT, counts),
            "",
        ]
    return "\n".join(lines)


# ---- drawings ---------------------------------------------------------------------------------------

HOLE_SENSOR_MM = 3.5  # the sensor's hole: a SOT-23 on a small board beneath, or its leads
HOLE_LED_MM = 5.0  # the LED's window beside each cell


def _led_spot(c, pitch):
    # the LED sits beside the cell, up and to the right of it, inside the cell's pitch
    off = min(c["r"] + 2.5, pitch * 0.45)
    return c["x"] + off * 0.7071, c["y"] - off * 0.7071


def drill_svg(d):
    """A 1:1 drilling template: a cross and circle at every cell's centre (the sensor's hole), the LED's
    window beside it, each with its cell id, and a 100 mm scale bar and a 50 mm square to check that it
    printed at true size."""
    w, h = d["width"], d["height"] + 30
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g">'
        % (w, h, w, h),
        "<title>%s: drilling template, 1:1</title>" % boards._esc(d["name"]),
        '<rect x="0" y="0" width="%g" height="%g" fill="white" stroke="black" stroke-width="0.3"/>'
        % (w, d["height"]),
        '<g font-family="sans-serif" text-anchor="middle" stroke-width="0.2">',
    ]
    pitch = d["pitch"]
    for c in d["cells"]:
        x, y = c["x"], c["y"]
        out.append(
            '<circle cx="%g" cy="%g" r="%g" fill="none" stroke="black"/>'
            '<path d="M%g %gh4M%g %gv4" stroke="black"/>' % (x, y, HOLE_SENSOR_MM / 2, x - 2, y, x, y - 2)
        )
        lx, ly = _led_spot(c, pitch)
        out.append(
            '<circle cx="%.2f" cy="%.2f" r="%g" fill="none" stroke="#c00"/>' % (lx, ly, HOLE_LED_MM / 2)
        )
        out.append('<text x="%g" y="%.2f" font-size="2.2">%s</text>' % (x, y + 4.5, boards._esc(c["id"])))
    for ind in d.get("indicators", []):
        out.append(
            '<circle cx="%g" cy="%g" r="%g" fill="none" stroke="#c00"/>'
            '<text x="%g" y="%g" font-size="1.8">%s</text>'
            % (ind["x"], ind["y"], HOLE_LED_MM / 2, ind["x"], ind["y"] + 4.2, boards._esc(ind["id"]))
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
        '<text x="%g" y="%g" font-size="3" text-anchor="start">'
        "black: sensor %.1f mm, red: LED window %.1f mm</text>" % (190, y0 + 2, HOLE_SENSOR_MM, HOLE_LED_MM)
    )
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def chains_svg(d):
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
            '<text x="%g" y="%g" font-size="%.2f" fill="%s">U%d.%s</text>'
            % (c["x"], c["y"] - r * 0.15, r * 0.42, colour, chip, "ABCDEFGH"[c["channel"] % 8])
        )
        out.append(
            '<text x="%g" y="%g" font-size="%.2f">%s L%d</text>'
            % (c["x"], c["y"] + r * 0.5, r * 0.34, boards._esc(c["id"]), c["led"])
        )
    out.append(
        '<text x="%g" y="%g" font-size="5">LED chain from the green dot (L0); sensor chip U0 is the one whose'
        " QH goes to the Pico</text>" % (w / 2, h - 4)
    )
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


# ---- wiring -----------------------------------------------------------------------------------------


def wiring():
    """wiring.md: the Pico pin map (ludus.config.defaults()), and how the chains and parts are wired."""
    from ludus.config import defaults

    pins = defaults()["pins"]
    s = pins["sensors"]
    rows = [
        (
            pins["leds"],
            "LED data out",
            "74AHCT125 input 1A (pin 2); its 1Y (pin 3) through R1 330 ohm to LED 0's DIN;"
            " 1OE (pin 1) to ground",
        ),
        (pins["button"], "die button", "SW1 to ground (the firmware turns on the pin's pull-up)"),
        (pins["buzzer"], "piezo", "BZ1 to ground (PWM)"),
        (s["load"], "sensor latch (SH/LD)", "pin 1 of every 74HC165"),
        (s["sck"], "sensor clock (SPI0 SCK)", "pin 2 (CLK) of every 74HC165"),
        (s["miso"], "sensor data in (SPI0 RX)", "QH (pin 9) of chip U0, the first of the chain"),
    ]
    lines = [
        "# Wiring: the Pico's pins and the chains",
        "",
        "![the wiring as a block diagram](wiring.svg)",
        "",
        "Generated by `ludus boards hardware` from the firmware's default configuration"
        " (`ludus.config.defaults()`): do not edit by hand. A board wired to other pins says so in the"
        " `pins` section of its config.json (docs/config.md); `ludus calibrate` finds wiring mistakes in"
        " the chains themselves (docs/calibration.md).",
        "",
        "| GPIO | Pico pin | does | wired to |",
        "|---|---|---|---|",
    ]
    for gp, what, to in rows:
        lines.append("| GP%d | %d | %s | %s |" % (gp, PICO_PINS[gp], what, to))
    lines += [
        "| VBUS | 40 | 5 V from USB | the LEDs' 5 V when on USB only (at most 500 mA in all) |",
        "| VSYS | 39 | the Pico's supply | the external 5 V through D (1N5819), anode at the supply |",
        "| 3V3(OUT) | 36 | 3.3 V, at most 300 mA | every sensor's VCC, the 74HC165s' VCC (pin 16), the"
        " pull-up networks' common pin |",
        "| GND | 3, 8, 13, 18, 23, 28, 33, 38 | ground | everything's ground, the supply's negative |",
        "",
        "## The sensor chain (74HC165)",
        "",
        "- Each cell's DRV5032 output goes to one input of a 74HC165 (A = pin 11, B 12, C 13, D 14, E 3, F 4,"
        " G 5, H 6), pulled up to 3.3 V by its resistor network. Channel = 8 x chip + input, A = 0.",
        "- Chip U0's QH (pin 9) goes to GP%d; chip U1's QH to U0's SER (pin 10), and so on; the last chip's"
        " SER to ground. CLK INH (pin 15) and GND (pin 8) to ground, VCC (pin 16) to 3.3 V with 100 nF."
        % s["miso"],
        "- Every SH/LD (pin 1) to GP%d, every CLK (pin 2) to GP%d. The firmware reads the chain by SPI at"
        " 1 MHz." % (s["load"], s["sck"]),
        "",
        "## The LED chain (WS2812B)",
        "",
        "- GP%d drives the 74AHCT125 (powered from 5 V, so its output swings to 5 V: a WS2812B at 5 V wants"
        " its data high above 0.7 x VDD = 3.5 V, more than the Pico's 3.3 V)." % pins["leds"],
        "- Its output goes through R1 (330 ohm, close to the first LED) to LED 0's DIN; each LED's DOUT to"
        " the next one's DIN, in the order `chains.svg` draws.",
        "- 5 V and ground run beside the chain in 0.5 mm^2 wire, fed at both ends of the chain on boards with"
        " more than 100 LEDs; C1 (1000 uF) across 5 V and ground at the first LED.",
        "",
        "## Analog build (multiplexers)",
        "",
        '`"sensors": {"kind": "mux", "select": [S0, S1, S2, S3], "adc": [26, 27, 28]}`: four GPIOs drive the'
        " select lines of every CD74HC4067 at once; each multiplexer's common pin goes to one ADC pin"
        " (GP26, GP27, GP28), so the firmware reads at most 3 x 16 = 48 analog channels. No full board"
        " of the four has so few cells (see ../README.md).",
        "",
    ]
    return "\n".join(lines)


def wiring_svg():
    """wiring.svg: the block diagram of wiring.md, its pin numbers from ludus.config.defaults()."""
    from ludus.config import defaults

    pins = defaults()["pins"]
    s = pins["sensors"]
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="520" viewBox="0 0 900 520">',
        "<title>Ludus board wiring</title>",
        '<rect width="900" height="520" fill="white"/>',
        '<g font-family="sans-serif" font-size="13" fill="none" stroke="black">',
    ]

    def box(x, y, w, h, title, lines=()):
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6"/>' % (x, y, w, h))
        out.append(
            '<text x="%d" y="%d" fill="black" stroke="none" font-weight="bold">%s</text>'
            % (x + 8, y + 18, title)
        )
        for k, line in enumerate(lines):
            out.append(
                '<text x="%d" y="%d" fill="black" stroke="none">%s</text>' % (x + 8, y + 36 + 16 * k, line)
            )

    def wire(points, label=None, colour="black"):
        out.append(
            '<polyline points="%s" stroke="%s" stroke-width="2"/>'
            % (" ".join("%d,%d" % p for p in points), colour)
        )
        if label:
            (x, y) = points[0]
            out.append(
                '<text x="%d" y="%d" fill="%s" stroke="none" font-size="11">%s</text>'
                % (x + 4, y - 4, colour, label)
            )

    box(
        330,
        170,
        200,
        200,
        "Raspberry Pi Pico",
        [
            "GP%d  LED data" % pins["leds"],
            "GP%d  die button" % pins["button"],
            "GP%d  piezo" % pins["buzzer"],
            "GP%d  SH/LD" % s["load"],
            "GP%d  SPI0 SCK" % s["sck"],
            "GP%d  SPI0 RX" % s["miso"],
            "3V3(OUT) pin 36",
            "VBUS 40 / VSYS 39",
        ],
    )
    box(
        20,
        20,
        290,
        110,
        "74HC165 chain U0, U1, ...",
        [
            "8 sensors per chip (A = channel 0)",
            "U0's QH to the Pico, U1's QH to U0's SER",
            "10 kohm pull-up per input",
        ],
    )
    box(
        20,
        170,
        250,
        90,
        "DRV5032 under each cell",
        ["open-drain, 3.3 V, 100 nF each", "low when a magnet is on it"],
    )
    box(
        600,
        20,
        270,
        110,
        "74AHCT125 (at 5 V)",
        ["3.3 V data in, 5 V data out", "then 330 ohm to LED 0's DIN"],
    )
    box(
        600,
        170,
        270,
        110,
        "WS2812B chain",
        ["LED 0 DIN ... DOUT to the next LED", "5 V and ground alongside", "1000 uF at LED 0"],
    )
    box(
        600,
        330,
        270,
        80,
        "button and piezo",
        ["button: GP%d to ground" % pins["button"], "piezo: GP%d to ground" % pins["buzzer"]],
    )
    box(
        20,
        330,
        250,
        160,
        "power",
        [
            "USB 5 V: VBUS, LEDs' 5 V (500 mA)",
            "or an external 5 V supply:",
            "  to the LEDs' 5 V rail, and",
            "  through a 1N5819 into VSYS",
            "3V3(OUT): sensors, 74HC165s",
            "all grounds joined",
        ],
    )
    wire(
        [(310, 80), (318, 80), (318, 250), (330, 250)],
        "GP%d, GP%d, GP%d" % (s["load"], s["sck"], s["miso"]),
        "#06c",
    )
    wire([(145, 130), (145, 170)], None, "#06c")
    wire([(530, 190), (565, 190), (565, 75), (600, 75)], "GP%d" % pins["leds"], "#c00")
    wire([(735, 130), (735, 170)], None, "#c00")
    wire([(530, 350), (600, 370)], "GP%d, GP%d" % (pins["button"], pins["buzzer"]))
    wire([(270, 410), (330, 360)], "5 V, 3.3 V, GND", "#080")
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def write_all(out="hardware"):
    """Every generated document under OUT; the paths written."""
    written = []
    for name in BOARDS:
        d = _load(name)
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        for fname, text in (
            ("parts.md", parts(name, d)),
            ("layout.svg", boards.draw_svg(d)),
            ("drill.svg", drill_svg(d)),
            ("chains.svg", chains_svg(d)),
        ):
            path = os.path.join(folder, fname)
            write_atomically(path, text)
            written.append(path)
    for fname, text in (("wiring.md", wiring()), ("wiring.svg", wiring_svg())):
        path = os.path.join(out, fname)
        write_atomically(path, text)
        written.append(path)
    return written

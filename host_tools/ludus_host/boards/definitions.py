"""The board definition generator: builds hardware/boards/*.json from a few parameters (pitch, direction,
LED chain order, sensor channel order), checks each with ludus.board.definition, and draws boards as
text or SVG.

    d = generate("ludo52", pitch=25.0, direction="clockwise")
    text = dumps(d)                    # the exact text of hardware/boards/ludo52.json
"""

import json
import math
import os
from collections.abc import Iterable
from typing import Any

import ludus.board.places as boarddef
from ludus.board.definition import BoardDefinition
from ludus.board.places import COLOURS, FORMAT, LUDO_SHAPES
from ludus.checkers.geometry import COL, POINT_OF, ROW
from ludus.errors import BoardDefinitionError, ConfigError
from ludus.referee.build import default_scene

from ludus_host.paths import check_json, read_text, write_atomically

GAMES = boarddef.GAMES
ORDERS = ("serpentine", "rows", "cells")
DEFAULT_PITCH = {"checkers": 25.0, "ludo52": 25.0, "ludo40": 30.0, "ludo56": 25.0}
DEFAULTS = {
    "direction": "clockwise",
    "led_order": "serpentine",
    "channel_order": "rows",
    "bank_size": 16,
    "sensor_kind": "digital",
    "ma_per_channel": 20,
    "idle_ma": 1.0,
    "supply_ma": 500,
    "reserved_ma": 100,
    "waiting_leds": 3,
}
TITLES = {
    "checkers": "Chinese Checkers, 121 holes",
    "ludo52": "Ludo 52, 15x15 cross",
    "ludo40": "Ludo 40, 11x11 cross",
    "ludo56": "Ludo 56, 17x17 cross",
}

# Ludo layouts in grid units (one square = one pitch; column, row from the top left, cell centres at
# integers). Only green's quarter is given; the other seats are green's rotated by 90 degrees clockwise
# per seat about the grid centre. A counterclockwise board is the clockwise one mirrored left to right.
#   size: grid squares per side; quarter: green's track squares t0.. up to yellow's start;
#   column: green.c0..; base: the four base slots; home: the four home slots (or none);
#   turn: green's turn LED; centre: the die display; pip, wait: pip spacing, waiting LED offset.
LUDO_LAYOUTS: dict[str, dict[str, Any]] = {
    "ludo52": {
        "size": 15,
        "quarter": [(1, 6), (2, 6), (3, 6), (4, 6), (5, 6)]
        + [(6, r) for r in range(5, -1, -1)]
        + [(7, 0), (8, 0)],
        "column": [(c, 7) for c in range(1, 6)],
        "base": [(1.5, 1.5), (3.5, 1.5), (1.5, 3.5), (3.5, 3.5)],
        "home": [(5.75, 7 + dy) for dy in (-0.825, -0.275, 0.275, 0.825)],
        "turn": (2.5, 2.5),
        "centre": (7, 7),
        "pip": 0.3,
        "wait": 0.65,
        "entry": 2,
    },
    "ludo40": {
        "size": 11,
        "quarter": [(c, 4) for c in range(5)] + [(4, r) for r in range(3, -1, -1)] + [(5, 0)],
        "column": [(c, 5) for c in range(1, 5)],
        "base": [(1, 1), (2, 1), (1, 2), (2, 2)],
        "home": [],
        "turn": (1.5, 1.5),
        "centre": (5, 5),
        "pip": 0.22,
        "wait": 0.5,
        "entry": 1,
    },
    "ludo56": {
        "size": 17,
        "quarter": [(c, 7) for c in range(6)] + [(6, 6)] + [(7, r) for r in range(5, -1, -1)] + [(8, 0)],
        "column": [(c, 8) for c in range(1, 7)],
        "base": [(2, 2), (4, 2), (2, 4), (4, 4)],
        "home": [(6.75, 8 + dy) for dy in (-0.825, -0.275, 0.275, 0.825)],
        "turn": (3, 3),
        "centre": (8, 8),
        "pip": 0.3,
        "wait": 0.65,
        "entry": 1,
    },
}

# Radii as fractions of the pitch.
CELL_R = 0.4
HOME_R = 0.22
TURN_R = 0.15
PIP_R = {"ludo52": 0.1, "ludo40": 0.08, "ludo56": 0.1}
WAIT_R = 0.1


Item = dict[str, Any]  # a cell or an indicator as the generator builds it


def _round(v: float) -> float:
    return round(v + 0.0, 2)


def _checkers_geometry() -> list[tuple[int, int, int | None]]:
    """Per-hole (row, col, point or None), from the rules core's own tables (the tests hold them against
    _checkers_geometry_from_contract, computed from docs/architecture.md)."""
    return [(ROW[h], COL[h], POINT_OF[h] if POINT_OF[h] < 6 else None) for h in range(len(ROW))]


def _checkers_geometry_from_contract() -> list[tuple[int, int, int | None]]:
    lengths = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
    holes = []
    for row, n in enumerate(lengths):
        for i in range(n):
            col = 12 - (n - 1) + 2 * i
            point: int | None
            if row <= 3:
                point = 0
            elif row >= 13:
                point = 3
            elif 4 <= row <= 7 and i < 8 - row:
                point = 5
            elif 4 <= row <= 7 and i >= n - (8 - row):
                point = 1
            elif 9 <= row <= 12 and i < row - 8:
                point = 4
            elif 9 <= row <= 12 and i >= n - (row - 8):
                point = 2
            else:
                point = None
            holes.append((row, col, point))
    return holes


def _checkers_items(pitch: float) -> tuple[list[Item], list[Item], tuple[float, float], float]:
    """Cells and turn indicators of the star in grid units (x = col / 2, y = row * sqrt(3) / 2)."""
    rh = math.sqrt(3) / 2
    cells = []
    for h, (row, col, point) in enumerate(_checkers_geometry()):
        cell: dict[str, Any] = {"id": "h%d" % h, "role": "hole", "colour": None, "place": "h%d" % h}
        cell["_gx"], cell["_gy"], cell["_row"], cell["_r"] = col / 2, row * rh, row, CELL_R
        cell["point"] = point
        cells.append(cell)
    centre = (6.0, 8 * rh)
    tips = []
    for p in range(6):
        members = [c for c in cells if c["point"] == p]
        tips.append(max(members, key=lambda c: (c["_gx"] - centre[0]) ** 2 + (c["_gy"] - centre[1]) ** 2))
    indicators = []
    for p, tip in enumerate(tips):
        dx, dy = tip["_gx"] - centre[0], tip["_gy"] - centre[1]
        d = math.hypot(dx, dy)
        indicators.append(
            {
                "id": "turn.p%d" % p,
                "role": "turn",
                "index": p,
                "_gx": tip["_gx"] + 0.8 * dx / d,
                "_gy": tip["_gy"] + 0.8 * dy / d,
                "_r": TURN_R,
            }
        )
    return cells, indicators, (12.0, 16 * rh), 1.0


def _ludo_items(
    game: str, direction: str, waiting: int
) -> tuple[list[Item], list[Item], tuple[float, float], float, list[dict[str, str]]]:
    layout = LUDO_LAYOUTS[game]
    n = layout["size"]
    track, column_len, has_home = LUDO_SHAPES[game]
    quarter = layout["quarter"]
    assert len(quarter) * 4 == track and len(layout["column"]) == column_len, game

    def turn(point: tuple[int, int], seat: int) -> tuple[int, int]:
        x, y = point
        for _ in range(seat):
            x, y = n - 1 - y, x
        if direction == "counterclockwise":
            x = n - 1 - x
        return x, y

    def item(
        ident: str,
        role: str,
        colour: str | None,
        place: str | None,
        point: tuple[int, int],
        seat: int,
        r: float,
    ) -> Item:
        x, y = turn(point, seat)
        return {"id": ident, "role": role, "colour": colour, "place": place, "_gx": x, "_gy": y, "_r": r}

    cells = []
    for seat in range(4):
        for k, point in enumerate(quarter):
            t = seat * len(quarter) + k
            colour = COLOURS[seat] if k == 0 else None
            cells.append(item("t%d" % t, "track", colour, "t%d" % t, point, seat, CELL_R))
    for seat, colour in enumerate(COLOURS):
        for k, point in enumerate(layout["column"]):
            place = "%s.c%d" % (colour, k)
            cells.append(item(place, "column", colour, place, point, seat, CELL_R))
    for zone, r in (("base", CELL_R), ("home", HOME_R)):
        for seat, colour in enumerate(COLOURS):
            for k, point in enumerate(layout[zone]):
                place = "%s.%s" % (colour, zone)
                cells.append(item("%s.%d" % (place, k), zone, colour, place, point, seat, r))
    assert bool(layout["home"]) == has_home

    indicators = []
    for seat, colour in enumerate(COLOURS):
        ind = item("turn." + colour, "turn", colour, None, layout["turn"], seat, TURN_R)
        del ind["place"]
        ind["index"] = seat
        indicators.append(ind)
    cx, cy = layout["centre"]
    s = layout["pip"]
    pips = [(-s, -s), (s, -s), (-s, 0), (0, 0), (s, 0), (-s, s), (s, s)]
    for p, (dx, dy) in enumerate(pips):
        indicators.append(
            {
                "id": "die.pip%d" % p,
                "role": "die-pip",
                "index": p,
                "_gx": cx + dx,
                "_gy": cy + dy,
                "_r": PIP_R[game],
            }
        )
    w = layout["wait"]
    corners = [(-w, -w), (w, -w), (w, w), (-w, w)]
    if not 0 <= waiting <= len(corners):
        raise ConfigError("waiting_leds must be 0..%d, found %r" % (len(corners), waiting))
    for k in range(waiting):
        dx, dy = corners[k]
        indicators.append(
            {
                "id": "die.wait%d" % k,
                "role": "die-waiting",
                "index": k,
                "_gx": cx + dx,
                "_gy": cy + dy,
                "_r": WAIT_R,
            }
        )
    seats = []
    for seat, colour in enumerate(COLOURS):
        start = seat * len(quarter)
        seats.append(
            {"colour": colour, "start": "t%d" % start, "entry": "t%d" % ((start - layout["entry"]) % track)}
        )
    # grid cell centres are at integers; the board spans -0.5 .. n - 0.5
    return cells, indicators, (n - 1.0, n - 1.0), 0.5, seats


def _order(items: Iterable[Item], order: str) -> list[Item]:
    """Items in chain order: 'cells' as listed, 'rows' top to bottom then left to right, 'serpentine'
    like rows but every other row right to left."""
    if order == "cells":
        return list(items)
    rows = {}
    for it in items:
        key = it.get("_row", math.floor(it["_gy"] + 0.5))
        rows.setdefault(key, []).append(it)
    out = []
    for i, key in enumerate(sorted(rows)):
        row = sorted(rows[key], key=lambda it: it["_gx"])
        if order == "serpentine" and i % 2 == 1:
            row.reverse()
        out.extend(row)
    return out


def _check_params(game: str, params: dict[str, Any]) -> dict[str, Any]:
    if game not in GAMES:
        raise ConfigError("unknown game %r: expected one of %s" % (game, ", ".join(GAMES)))
    for key in params:
        if key not in DEFAULTS and key != "pitch":
            raise ConfigError("unknown generator parameter %r" % key)
    p: dict[str, Any] = dict(DEFAULTS)
    p.update({k: v for k, v in params.items() if v is not None})
    p["pitch"] = float(params.get("pitch") or DEFAULT_PITCH[game])
    if not p["pitch"] > 0:
        raise ConfigError("pitch must be a positive number of millimetres, found %r" % p["pitch"])
    if p["direction"] not in boarddef.DIRECTIONS:
        raise ConfigError("direction must be clockwise or counterclockwise, found %r" % p["direction"])
    for key in ("led_order", "channel_order"):
        if p[key] not in ORDERS:
            raise ConfigError("%s must be one of %s, found %r" % (key, ", ".join(ORDERS), p[key]))
    if p["sensor_kind"] not in boarddef.SENSOR_KINDS:
        raise ConfigError("sensor_kind must be digital or analog, found %r" % p["sensor_kind"])
    if not isinstance(p["bank_size"], int) or p["bank_size"] < 1:
        raise ConfigError("bank_size must be a positive integer, found %r" % p["bank_size"])
    if game == "checkers":
        p["direction"] = None
        p["waiting_leds"] = 0
    return p


def generate(game: str, **params: Any) -> dict[str, Any]:
    """A checked board definition (a dict ready for dumps) for `game` from generator parameters; any
    parameter left out takes its value from DEFAULTS (pitch from DEFAULT_PITCH)."""
    p = _check_params(game, params)
    pitch = p["pitch"]
    if game == "checkers":
        cells, indicators, (gw, gh), margin = _checkers_items(pitch)
        seats = None
        x0 = y0 = margin
    else:
        cells, indicators, (gw, gh), margin, seats = _ludo_items(game, p["direction"], p["waiting_leds"])
        x0 = y0 = margin
    for it in cells + indicators:
        it["x"] = _round((it["_gx"] + x0) * pitch)
        it["y"] = _round((it["_gy"] + y0) * pitch)
        it["r"] = _round(it["_r"] * pitch)
    for i, it in enumerate(_order(cells, p["channel_order"])):
        it["channel"] = i
    chain = _order(cells, p["led_order"])
    chain.extend(indicators)
    for i, it in enumerate(chain):
        it["led"] = i
    bank = p["bank_size"]
    channels = -(-len(cells) // bank) * bank

    keys = ("id", "role", "colour", "place", "x", "y", "r", "channel", "led")
    out_cells = []
    for c in cells:
        cell = {k: c[k] for k in keys}
        if "point" in c:
            cell["point"] = c["point"]
        out_cells.append(cell)
    out_ind = []
    for ind in indicators:
        entry = {k: ind[k] for k in ("id", "role", "index", "led", "x", "y", "r")}
        if "colour" in ind:
            entry["colour"] = ind["colour"]
        out_ind.append(entry)
    zones = {}
    for c in out_cells:
        if c["role"] in ("base", "home"):
            zones.setdefault(c["place"], []).append(c["id"])
    title = TITLES[game]
    if game != "checkers":
        title += ", " + p["direction"]
    d = {
        "format": FORMAT,
        "name": "%s, %g mm pitch" % (title, pitch),
        "game": game,
        "direction": p["direction"],
        "units": "mm",
        "width": _round((gw + 2 * x0) * pitch),
        "height": _round((gh + 2 * y0) * pitch),
        "pitch": pitch,
        "generator": {k: p[k] for k in ["pitch", *DEFAULTS] if k in p},
        "sensors": {"kind": p["sensor_kind"], "channels": channels, "bank_size": bank},
        "leds": {
            "count": len(chain),
            "type": "WS2812B",
            "order": "GRB",
            "ma_per_channel": p["ma_per_channel"],
            "idle_ma": p["idle_ma"],
        },
        "power": {"supply_ma": p["supply_ma"], "reserved_ma": p["reserved_ma"]},
    }
    if seats is not None:
        d["seats"] = seats
    d["cells"] = out_cells
    d["zones"] = [{"place": place, "cells": ids} for place, ids in zones.items()]
    d["indicators"] = out_ind
    referee_checks(BoardDefinition.from_dict(d, "generated %s board" % game), "generated %s board" % game)
    return d


def referee_checks(board: BoardDefinition, source: str) -> None:
    """Refuse, in the referee's own words, a board the referee would refuse though its file is sound:
    LEDs its light scene cannot drive within the current budget. (The scene is made exactly as the
    referee makes it.)"""

    try:
        default_scene(board)
    except ConfigError as exc:
        raise BoardDefinitionError("%s: the referee would refuse it: %s" % (source, exc)) from None


def dumps(d: dict[str, Any]) -> str:
    """The definition as JSON text: one line per cell, zone and indicator, so diffs stay readable."""
    lines = ["{"]
    keys = list(d)
    for i, key in enumerate(keys):
        value = d[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append("  %s: [" % json.dumps(key))
            for j, entry in enumerate(value):
                tail = "," if j < len(value) - 1 else ""
                lines.append("    %s%s" % (json.dumps(entry, ensure_ascii=False), tail))
            lines.append("  ]%s" % comma)
        else:
            lines.append("  %s: %s%s" % (json.dumps(key), json.dumps(value, ensure_ascii=False), comma))
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_all(out_dir: str, games: Iterable[str] = GAMES, **params: Any) -> list[str]:
    """Generate and write out_dir/GAME.json for each game; returns the paths written. Every file is
    generated and checked before the first is written, and each is written whole (renamed into place)."""
    texts = [(os.path.join(out_dir, game + ".json"), dumps(generate(game, **params))) for game in games]
    try:
        os.makedirs(out_dir, exist_ok=True)
        for path, text in texts:
            write_atomically(path, text)
    except OSError as exc:
        raise ConfigError(
            "cannot write board definitions to %s: %s" % (out_dir, exc.strerror or exc)
        ) from None
    return [path for path, _ in texts]


def load(path: str) -> dict[str, Any]:
    """The parsed JSON of a definition file, after checking it (BoardDefinitionError lists the faults)."""
    text = read_text(path, "board definition", 1024 * 1024)
    check_json(text, "board definition", path)
    BoardDefinition.from_json(text, path)
    return json.loads(text)


# --- drawings ---------------------------------------------------------------------------------------

FILL = {"green": "#2e9d47", "yellow": "#e8c21c", "red": "#d0342c", "blue": "#2a64c8", None: "#e4e4e4"}
LIGHT = {"green": "#bfe5c8", "yellow": "#f7ebb0", "red": "#f2c0bc", "blue": "#c0d2f2", None: "#f4f4f4"}


def _short(cell: Item) -> str:
    role, ident = cell["role"], cell["id"]
    if role in ("track", "hole"):
        return ident
    colour = cell["colour"][0]
    if role == "column":
        return colour + ident.rsplit(".c", 1)[1]
    return colour.upper() + ("B" if role == "base" else "H")


def draw_text(d: dict[str, Any]) -> str:
    """A plain-text map of the board: every cell's short name at its position on a character grid."""
    pitch = d.get("pitch") or min(c["r"] for c in d["cells"]) / CELL_R
    cells = d["cells"]
    if d["game"] == "checkers":
        xs = pitch / 2
        ys = pitch * math.sqrt(3) / 2
        width = 4
    else:
        xs = ys = pitch
        width = 4
    x_min = min(c["x"] for c in cells)
    y_min = min(c["y"] for c in cells)
    grid = {}
    for c in cells:
        gx = math.floor((c["x"] - x_min) / xs + 0.5)
        gy = math.floor((c["y"] - y_min) / ys + 0.5)
        grid.setdefault((gx, gy), _short(c))
    cols = max(k[0] for k in grid) + 1
    rows = max(k[1] for k in grid) + 1
    lines = []
    for gy in range(rows):
        line = "".join(grid.get((gx, gy), ".").center(width) for gx in range(cols))
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def _esc(text: object) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw_svg(d: dict[str, Any]) -> str:
    """An SVG drawing (1 unit = 1 mm) of every cell with its id, sensor channel and LED index, and of
    the indicator LEDs; for makers wiring a board."""
    w, h = d["width"], d["height"]
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g">'
        % (w, h, w, h),
        "<title>%s</title>" % _esc(d["name"]),
        '<rect x="0" y="0" width="%g" height="%g" fill="#ffffff" stroke="#333333" stroke-width="0.5"/>'
        % (w, h),
        '<g font-family="sans-serif" text-anchor="middle">',
    ]
    for c in d["cells"]:
        colour = c.get("colour")
        fill = FILL[colour] if c["role"] == "track" and colour else LIGHT[colour]
        r = c["r"]
        out.append(
            '<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="%s" stroke-width="0.4"/>'
            % (c["x"], c["y"], r, fill, FILL[colour] if colour else "#777777")
        )
        out.append(
            '<text x="%g" y="%g" font-size="%.2f">%s</text>'
            % (c["x"], c["y"] - r * 0.1, r * 0.5, _esc(c["id"]))
        )
        out.append(
            '<text x="%g" y="%g" font-size="%.2f" fill="#444444">c%d L%d</text>'
            % (c["x"], c["y"] + r * 0.45, r * 0.36, c["channel"], c["led"])
        )
    for ind in d.get("indicators", []):
        colour = ind.get("colour")
        out.append(
            '<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="#000000" stroke-width="0.2"/>'
            % (ind["x"], ind["y"], ind["r"], FILL[colour] if colour else "#fff3a0")
        )
        out.append(
            '<text x="%g" y="%g" font-size="%.2f">L%d</text>'
            % (ind["x"], ind["y"] + ind["r"] * 0.35, max(ind["r"] * 0.9, 1.2), ind["led"])
        )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"

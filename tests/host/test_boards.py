"""The board definition generator and `ludus boards`: the committed files are exactly what the generator
makes (so they never drift), every parameter combination gives a sound board, the geometry follows
docs/architecture.md and the rules core, the CLI validates and draws, and docs/boards.md stays true."""

import json
import math
import os
import re
import xml.etree.ElementTree as ET

import pytest
from ludus.board.definition import BoardDefinition, validate
from ludus.board.places import LUDO_SHAPES, place_names_for
from ludus.errors import BoardDefinitionError, ConfigError
from ludus_host.boards import definitions as boards
from ludus_host.cli import main
from tools import ROOT

pytestmark = pytest.mark.cpython_only

BOARDS_DIR = os.path.join(ROOT, "hardware", "boards")
DOCS = os.path.join(ROOT, "docs", "boards.md")


def committed(game):
    with open(os.path.join(BOARDS_DIR, game + ".json"), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("game", boards.GAMES)
def test_committed_file_is_exactly_what_the_generator_makes(game):
    assert boards.dumps(boards.generate(game)) == committed(game), (
        "hardware/boards/%s.json drifted from the generator: run `ludus boards generate`" % game
    )


def test_generate_command_rewrites_identical_files(tmp_path, capsys):
    assert main(["boards", "generate", "--out", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    assert sorted(os.path.basename(p) for p in written) == sorted(g + ".json" for g in boards.GAMES)
    for game in boards.GAMES:
        assert (tmp_path / (game + ".json")).read_text(encoding="utf-8") == committed(game)


@pytest.mark.parametrize("game", boards.GAMES)
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"direction": "counterclockwise"},
        {"pitch": 19.5, "led_order": "rows", "channel_order": "serpentine"},
        {"led_order": "cells", "channel_order": "cells", "bank_size": 8, "sensor_kind": "analog"},
        {"waiting_leds": 0, "ma_per_channel": 12, "supply_ma": 1000, "reserved_ma": 250},
    ],
)
def test_every_parameter_combination_gives_a_sound_board(game, params):
    d = boards.generate(game, **params)
    assert validate(d) == []
    board = BoardDefinition.from_json(boards.dumps(d))
    assert board.place_names == place_names_for(game)
    assert board.channel_count % board.bank_size == 0
    assert board.channel_count - board.bank_size < board.cell_count <= board.channel_count
    assert board.led_count == board.cell_count + len(d["indicators"])
    for key, value in params.items():
        assert d["generator"][key] == (value if game != "checkers" or key != "direction" else None)


def test_counterclockwise_is_the_mirror_image():
    cw = boards.generate("ludo52")
    ccw = boards.generate("ludo52", direction="counterclockwise")
    width = cw["width"]
    by_id = {c["id"]: c for c in ccw["cells"]}
    for c in cw["cells"]:
        m = by_id[c["id"]]
        assert m["x"] == pytest.approx(width - c["x"]) and m["y"] == c["y"]
    assert shoelace(cw) > 0 > shoelace(ccw)  # y grows downwards: clockwise is positive


def shoelace(d):
    track = [c for c in d["cells"] if c["role"] == "track"]
    track.sort(key=lambda c: int(c["id"][1:]))
    total = 0.0
    for a, b in zip(track, track[1:] + track[:1]):
        total += a["x"] * b["y"] - b["x"] * a["y"]
    return total


@pytest.mark.parametrize("game", ["ludo52", "ludo40", "ludo56"])
def test_colours_sit_in_travel_order_with_starts_next_to_their_base(game):
    d = boards.generate(game)
    track_len = LUDO_SHAPES[game][0]
    cells = {c["id"]: c for c in d["cells"]}
    for seat, colour in enumerate(("green", "yellow", "red", "blue")):
        start = cells["t%d" % (seat * track_len // 4)]
        assert start["colour"] == colour
        base = [c for c in d["cells"] if c["place"] == colour + ".base"]
        others = [c for c in d["cells"] if c["role"] == "base" and c["colour"] != colour]
        near = min(math.dist((start["x"], start["y"]), (b["x"], b["y"])) for b in base)
        far = min(math.dist((start["x"], start["y"]), (b["x"], b["y"])) for b in others)
        assert near < far, (game, colour)


@pytest.mark.parametrize("game", ["ludo52", "ludo40", "ludo56"])
def test_entry_squares_agree_with_the_rules_core(game):
    """The column must leave the track where the rules core's tokens leave it."""
    ludo_board = pytest.importorskip("ludus.ludo.geometry")
    track_len = LUDO_SHAPES[game][0]

    class Rules:
        track = track_len
        safe = stars = arrows = ()

    geo = ludo_board.Geometry(Rules())
    d = boards.generate(game)
    for seat in d["seats"]:
        start = int(seat["start"][1:])
        last_visited = (start + geo.turn_in - 1) % track_len
        assert seat["entry"] == "t%d" % last_visited, (game, seat)


def test_checkers_geometry_matches_the_rules_core():
    checkers_board = pytest.importorskip("ludus.checkers.geometry")
    holes = boards._checkers_geometry_from_contract()
    assert len(holes) == checkers_board.HOLE_COUNT == 121
    for h, (row, col, point) in enumerate(holes):
        assert (row, col) == (checkers_board.ROW[h], checkers_board.COL[h])
        assert (point if point is not None else 6) == checkers_board.POINT_OF[h]
    d = boards.generate("checkers")
    for p, members in enumerate(checkers_board.POINT_HOLES):
        assert sorted(int(c["id"][1:]) for c in d["cells"] if c["point"] == p) == sorted(members)


def test_checkers_positions_follow_the_contract():
    d = boards.generate("checkers", pitch=20)
    holes = boards._checkers_geometry_from_contract()
    for c, (row, col, _) in zip(d["cells"], holes):
        assert c["x"] == pytest.approx(20 + col * 10, abs=0.01)
        assert c["y"] == pytest.approx(20 + row * 20 * math.sqrt(3) / 2, abs=0.01)


def test_serpentine_chain_alternates_direction_by_row():
    d = boards.generate("checkers")
    by_led = sorted(d["cells"], key=lambda c: c["led"])
    rows = []
    for c in by_led:
        if not rows or rows[-1][0] != c["y"]:
            rows.append((c["y"], []))
        rows[-1][1].append(c["x"])
    assert [y for y, _ in rows] == sorted(y for y, _ in rows)  # top to bottom, each row once
    for i, (_, xs) in enumerate(rows):
        if len(xs) > 1:
            assert xs == sorted(xs, reverse=(i % 2 == 1))


def test_channels_fill_multiplexer_banks_row_by_row():
    d = boards.generate("ludo52", bank_size=16)
    by_channel = sorted(d["cells"], key=lambda c: c["channel"])
    assert [c["channel"] for c in by_channel] == list(range(len(by_channel)))
    ys = [math.floor(c["y"] / d["pitch"]) for c in by_channel]
    assert ys == sorted(ys)


def test_bad_generator_parameters_are_refused():
    with pytest.raises(ConfigError, match="unknown game 'ludo99'"):
        boards.generate("ludo99")
    with pytest.raises(ConfigError, match=r"waiting_leds must be 0\.\.4, found 9"):
        boards.generate("ludo52", waiting_leds=9)
    with pytest.raises(ConfigError, match="led_order must be one of"):
        boards.generate("ludo52", led_order="spiral")
    with pytest.raises(ConfigError, match="unknown generator parameter 'colour'"):
        boards.generate("ludo52", colour="red")


def test_generator_refuses_parameters_that_make_cells_overlap():
    # a waiting-roll LED as large as a square: the generator's own check names the overlap
    old = boards.WAIT_R
    boards.WAIT_R = 0.5
    try:
        with pytest.raises(BoardDefinitionError, match=r"(die\.wait0 and \S+|\S+ and die\.wait0) overlap"):
            boards.generate("ludo40")
    finally:
        boards.WAIT_R = old


# --- the CLI --------------------------------------------------------------------------------------


def test_validate_command_accepts_the_committed_files(capsys):
    paths = [os.path.join(BOARDS_DIR, g + ".json") for g in boards.GAMES]
    assert main(["boards", "validate", *paths]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok (") == 4
    assert "ludo52, 104 cells, 80 places, 112 sensor channels, 118 LEDs" in out


def test_validate_command_names_each_fault_of_each_file(tmp_path, capsys):
    d = json.loads(committed("ludo40"))
    d["cells"][1]["channel"] = d["cells"][0]["channel"]
    d["cells"][2]["led"] = 999
    del d["cells"][3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "ludus-board/1",', encoding="utf-8")
    good = os.path.join(BOARDS_DIR, "ludo40.json")
    assert main(["boards", "validate", str(bad), good, str(broken), str(tmp_path / "missing.json")]) == 2
    captured = capsys.readouterr()
    assert captured.out.count(": ok (") == 1
    err = captured.err
    assert "bad.json has 4 faults:" in err
    assert "channel %d used twice: by t0 and t1" % d["cells"][0]["channel"] in err
    assert "t2: led 999 out of range 0..85 (leds.count = 86)" in err
    assert "game ludo40 needs 40 track cells, found 39" in err
    assert "place t3 has no cell" in err
    assert "broken.json is not valid JSON" in err
    assert "cannot read board definition" in err and "missing.json" in err
    assert "Traceback" not in err


def test_draw_command_writes_an_svg_with_every_cell_channel_and_led(tmp_path, capsys):
    out = tmp_path / "ludo52.svg"
    assert main(["boards", "draw", os.path.join(BOARDS_DIR, "ludo52.json"), "--svg", str(out)]) == 0
    root = ET.parse(out).getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    d = json.loads(committed("ludo52"))
    for c in d["cells"]:
        assert c["id"] in texts
        assert "c%d L%d" % (c["channel"], c["led"]) in texts
    for ind in d["indicators"]:
        assert "L%d" % ind["led"] in texts
    assert root.get("viewBox") == "0 0 375 375"


def test_draw_command_prints_a_text_map(capsys):
    assert main(["boards", "draw", os.path.join(BOARDS_DIR, "ludo40.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[4].split() == ["t0", "t1", "t2", "t3", "t4", "y3", "t14", "t15", "t16", "t17", "t18"]


def test_draw_refuses_a_faulty_file(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(
        committed("ludo40").replace('"format": "ludus-board/1"', '"format": "x"'), encoding="utf-8"
    )
    assert main(["boards", "draw", str(bad)]) == 2
    assert "format must be 'ludus-board/1', found 'x'" in capsys.readouterr().err


# --- docs/boards.md stays true --------------------------------------------------------------------


def docs_text():
    with open(DOCS, encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("game", ["ludo52", "ludo40", "ludo56"])
def test_docs_maps_match_the_committed_boards(game):
    match = re.search(r"<!-- map:%s -->\n```\n(.*?)```\n<!-- /map -->" % game, docs_text(), re.S)
    assert match, "docs/boards.md has no map of " + game
    d = json.loads(committed(game))
    assert match.group(1) == boards.draw_text(d)


def test_docs_json_excerpt_lines_are_from_the_committed_file():
    text = docs_text()
    excerpt = re.search(r"```json\n(.*?)```", text, re.S).group(1)
    lines = [line.strip().rstrip(",") for line in excerpt.splitlines() if line.strip().startswith('{"id"')]
    assert len(lines) == 7
    file_text = committed("ludo52")
    for line in lines:
        assert line in file_text, line


def test_docs_python_example_runs(monkeypatch):
    code = re.search(r"```python\n(.*?)```", docs_text(), re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/boards.md", "exec"), {})


def test_docs_table_of_files_matches_the_boards():
    text = docs_text()
    for game in boards.GAMES:
        board = BoardDefinition.load(os.path.join(BOARDS_DIR, game + ".json"))
        row = "| `%s.json` |" % game
        line = next(line for line in text.splitlines() if line.startswith(row))
        cells = [x.strip() for x in line.split("|")[3:7]]
        assert cells == [
            str(board.cell_count),
            str(len(board.place_names)),
            str(board.channel_count),
            str(board.led_count),
        ], game

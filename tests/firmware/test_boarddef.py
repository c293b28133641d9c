"""Board definitions: the committed files in hardware/boards load on both runtimes, cover exactly the
logical places of their game, describe a physically sensible board (a closed track of adjacent squares
in the stated direction), and the validator names every fault of a broken definition."""

import gc
import json

import support
from ludus.board.definition import BoardDefinition, validate
from ludus.board.places import (
    DIE_FACES,
    LUDO_SHAPES,
    NO_CELL,
    ROLE_BASE,
    ROLE_COLUMN,
    ROLE_HOME,
    ROLE_TRACK,
    place_names_for,
)
from ludus.errors import BoardDefinitionError

GAMES = ("checkers", "ludo52", "ludo40", "ludo56")
COLOURS = ("green", "yellow", "red", "blue")


def _path(game):
    name = "hardware/boards/%s.json" % game
    for prefix in ("", "../", "../../"):
        try:
            open(prefix + name).close()
            return prefix + name
        except OSError:
            pass
    here = __file__.replace("\\", "/")
    root = here[: here.rfind("/tests/")] if "/tests/" in here else "."
    return root + "/" + name


# A parsed definition is large next to MicroPython's 160K test heap: collect before making another.


def _dict(game):
    gc.collect()
    with open(_path(game)) as f:
        return json.load(f)


def _board(game):
    gc.collect()
    return BoardDefinition.load(_path(game))


def _faults(d):
    gc.collect()
    exc = support.raises(BoardDefinitionError, BoardDefinition.from_dict, d, "test board")
    return support.message_of(exc)


def _cell(d, ident):
    for c in d["cells"]:
        if c["id"] == ident:
            return c
    raise AssertionError("no cell " + ident)


def _dist(board, a, b):
    dx = board.cell_x[a] - board.cell_x[b]
    dy = board.cell_y[a] - board.cell_y[b]
    return (dx * dx + dy * dy) ** 0.5


# --- the committed files -------------------------------------------------------------------------


def test_every_committed_board_loads_and_is_sound():
    for game in GAMES:
        # a whole definition as parsed dicts is too big for the 64-bit unix port's 160K test heap;
        # the device reads files line by line (load below), which the other tests also cover
        if not support.IS_MICROPYTHON:
            d = _dict(game)
            assert validate(d) == [], game
            d = None
        board = None  # let the previous board go before reading the next
        board = _board(game)
        assert board.game == game
        assert board.place_names == place_names_for(game)
        assert board.cell_count == len(board.cell_ids) == len(board.channel_of_cell)
        assert board.led_count >= board.cell_count
        assert board.channel_count % board.bank_size == 0
        assert board.ma_per_channel == 20
        assert board.supply_ma == 500 and 0 < board.reserved_ma < board.supply_ma


def test_checkers_board_has_the_121_holes_on_the_star():
    board = _board("checkers")
    assert board.cell_count == 121
    assert board.place_names == tuple("h%d" % h for h in range(121))
    assert board.direction is None
    assert len(board.turn_leds) == 6 and len(board.die_pip_leds) == 0
    for h in range(121):
        assert board.cell_ids[h] == "h%d" % h
        assert board.cells_of_place(h) == (h,)
    d = _dict("checkers")
    pitch = d["pitch"]
    # rows 1, 2, 3, 4, 13, ...: h0 alone on top, h10..h22 the first long row, h120 alone at the bottom
    y = [c["y"] for c in d["cells"]]
    assert y[0] < y[1] == y[2] < y[3]
    assert y[10] == y[22] and y[9] < y[10] < y[23]
    assert max(y) == y[120] and d["cells"][0]["x"] == d["cells"][120]["x"]
    # neighbours in a row are one pitch apart; rows are pitch * sqrt(3) / 2 apart
    assert abs(d["cells"][11]["x"] - d["cells"][10]["x"] - pitch) < 0.01
    assert abs(y[1] - y[0] - pitch * 3**0.5 / 2) < 0.01
    points = [c["point"] for c in d["cells"]]
    for p in range(6):
        assert points.count(p) == 10
    assert points[:10] == [0] * 10 and points[111:] == [3] * 10
    assert points[22] == 1 and points[10] == 5 and points[98] == 4 and points[110] == 2


def test_ludo_boards_cover_the_places_of_the_game():
    for game in ("ludo52", "ludo40", "ludo56"):
        track, column, has_home = LUDO_SHAPES[game]
        board = None  # let the previous board go before reading the next
        board = _board(game)
        names = board.place_names
        assert len([n for n in names if n[0] == "t"]) == track
        for colour in COLOURS:
            for k in range(column):
                pid = board.place_id("%s.c%d" % (colour, k))
                (cell,) = board.cells_of_place(pid)
                assert board.role_of_cell[cell] == ROLE_COLUMN
                assert board.colour_of_cell[cell] == COLOURS.index(colour)
            assert "%s.c%d" % (colour, column) not in names
            base = board.cells_of_place(board.place_id(colour + ".base"))
            assert len(base) == 4
            for cell in base:
                assert board.role_of_cell[cell] == ROLE_BASE
            if has_home:
                home = board.cells_of_place(board.place_id(colour + ".home"))
                assert len(home) == 4
                for cell in home:
                    assert board.role_of_cell[cell] == ROLE_HOME
            else:
                assert colour + ".home" not in names
        expected_cells = track + 4 * column + 16 + (16 if has_home else 0)
        assert board.cell_count == expected_cells, game
        assert len(board.die_pip_leds) == 7 and len(board.waiting_leds) == 3 and len(board.turn_leds) == 4


def test_ludo_52_has_the_expected_counts():
    board = _board("ludo52")
    assert board.cell_count == 52 + 20 + 16 + 16
    assert len(board.place_names) == 52 + 20 + 4 + 4


def test_ludo_track_is_a_closed_loop_of_adjacent_squares_in_the_stated_direction():
    for game in ("ludo52", "ludo40", "ludo56"):
        board = None  # let the previous board go before reading the next
        board = _board(game)
        pitch = _dict(game)["pitch"]
        track = LUDO_SHAPES[game][0]
        cells = [board.cells_of_place(board.place_id("t%d" % t))[0] for t in range(track)]
        area = 0
        for t in range(track):
            a = cells[t]
            b = cells[(t + 1) % track]
            assert board.role_of_cell[a] == ROLE_TRACK
            step = _dist(board, a, b)
            # a straight step or a diagonal step round an inner corner, never a jump
            assert abs(step - pitch) <= 1 or abs(step - pitch * 2**0.5) <= 1, (game, t, step)
            area += board.cell_x[a] * board.cell_y[b] - board.cell_x[b] * board.cell_y[a]
        # y grows downwards, so a clockwise loop on the board has a positive shoelace sum
        assert area > 0, game
        # start squares: t(s*L/4) carries seat s's colour, the others are plain
        for t in range(track):
            colour = board.colour_of_cell[cells[t]]
            if t % (track // 4) == 0:
                assert colour == t // (track // 4)
            else:
                assert colour == 255


def test_ludo_home_columns_leave_the_track_at_the_entry_square():
    for game in ("ludo52", "ludo40", "ludo56"):
        d = _dict(game)
        pitch = d["pitch"]
        seats = d["seats"]
        d = None
        board = None  # let the previous board go before reading the next
        board = _board(game)
        column = LUDO_SHAPES[game][1]
        for seat in seats:
            colour = seat["colour"]
            entry = board.cells_of_place(board.place_id(seat["entry"]))[0]
            first = board.cells_of_place(board.place_id(colour + ".c0"))[0]
            assert abs(_dist(board, entry, first) - pitch) <= 1, (game, colour)
            for k in range(column - 1):
                a = board.cells_of_place(board.place_id("%s.c%d" % (colour, k)))[0]
                b = board.cells_of_place(board.place_id("%s.c%d" % (colour, k + 1)))[0]
                assert abs(_dist(board, a, b) - pitch) <= 1
        entries = [s["entry"] for s in seats]
        track = LUDO_SHAPES[game][0]
        # the rules core's tokens visit every square but one on the 52 track (the arm's corner before
        # their start), every square on the others: the column leaves from the last square visited
        back = 2 if game == "ludo52" else 1
        assert entries == ["t%d" % ((s * track // 4 - back) % track) for s in range(4)]


def test_tables_are_consistent():
    for game in GAMES:
        board = None  # let the previous board go before reading the next
        board = _board(game)
        seen_leds = {}
        for i in range(board.cell_count):
            assert board.cell_of_channel[board.channel_of_cell[i]] == i
            assert board.led_of_cell[i] < board.led_count
            seen_leds[board.led_of_cell[i]] = True
            assert i in board.cells_of_place(board.place_of_cell[i])
        for led in list(board.turn_leds) + list(board.die_pip_leds) + list(board.waiting_leds):
            assert led not in seen_leds
            seen_leds[led] = True
        assert len(seen_leds) == board.led_count
        unwired = [c for c in range(board.channel_count) if board.cell_of_channel[c] == NO_CELL]
        assert len(unwired) == board.channel_count - board.cell_count


def test_die_faces_light_the_right_number_of_pips():
    for value in range(1, 7):
        mask = DIE_FACES[value]
        assert bin(mask).count("1") == value
        assert mask & 0x08 == (0x08 if value % 2 else 0)  # the centre pip shows on odd values


def test_place_id_names_an_unknown_place():
    board = _board("ludo40")
    assert board.place_id("t39") == 39
    msg = support.message_of(support.raises(BoardDefinitionError, board.place_id, "green.home"))
    assert "green.home" in msg


# --- binding to a game and counting ---------------------------------------------------------------


def test_bind_maps_game_place_ids_to_board_place_ids():
    board = _board("ludo52")
    game_names = tuple(reversed(place_names_for("ludo52")))
    binding = board.bind(game_names)
    assert len(binding.board_place) == len(game_names)
    for g in range(len(game_names)):
        assert board.place_names[binding.board_place[g]] == game_names[g]


def test_the_place_map_gives_each_game_place_its_cells_led_and_centre():
    board = _board("ludo52")
    game_names = tuple(reversed(place_names_for("ludo52")))
    places = board.bind(game_names)
    t7 = game_names.index("t7")
    (cell,) = places.cells(t7)
    assert places.cell_count[t7] == 1
    assert places.led[t7] == board.led_of_cell[cell]
    assert (places.x[t7], places.y[t7]) == (board.cell_x[cell], board.cell_y[cell])
    base = game_names.index("red.base")
    slots = places.cells(base)
    assert len(slots) == places.cell_count[base] == 4
    assert places.led[base] == 0xFFFF  # a zone has no one LED
    assert places.x[base] == sum(board.cell_x[c] for c in slots) // 4
    assert places.y[base] == sum(board.cell_y[c] for c in slots) // 4
    for c in range(board.cell_count):
        assert c in places.cells(places.place_of_cell[c])


def test_bind_names_every_place_the_board_lacks_or_the_game_lacks():
    board = _board("ludo40")
    msg = support.message_of(support.raises(BoardDefinitionError, board.bind, place_names_for("ludo52")))
    assert "lacks game place t40" in msg and "lacks game place t51" in msg
    assert "lacks game place green.home" in msg and "lacks game place blue.c4" in msg
    msg = support.message_of(
        support.raises(BoardDefinitionError, _board("ludo52").bind, place_names_for("ludo40"))
    )
    assert "has place t40, which the game lacks" in msg
    # a board for another game entirely: one line saying so, not a fault per place
    msg = support.message_of(
        support.raises(BoardDefinitionError, _board("checkers").bind, place_names_for("ludo40"))
    )
    assert msg.count("\n") == 0 and "is a checkers board: none of the game's" in msg, msg
    names = list(place_names_for("ludo40"))
    names.append("t0")
    msg = support.message_of(support.raises(BoardDefinitionError, board.bind, names))
    assert "game place t0 appears twice" in msg


def test_count_places_sums_zone_slots():
    board = _board("ludo52")
    counts = bytearray(board.cell_count)
    out = bytearray(len(board.place_names))
    base = board.cells_of_place(board.place_id("red.base"))
    counts[base[0]] = 1
    counts[base[3]] = 1
    t7 = board.cells_of_place(board.place_id("t7"))[0]
    counts[t7] = 2  # a stack of two tokens, counted by an analog sensor
    board.count_places(counts, out)
    assert out[board.place_id("red.base")] == 2
    assert out[board.place_id("t7")] == 2
    assert sum(out) == 4


def test_count_places_in_the_games_order():
    board = _board("ludo56")
    game_names = tuple(reversed(place_names_for("ludo56")))
    cell_to_game = board.bind(game_names).place_of_cell
    counts = bytearray(board.cell_count)
    for cell in board.cells_of_place(board.place_id("blue.home")):
        counts[cell] = 1
    out = bytearray(len(game_names))
    board.count_places(counts, out, cell_to_game)
    assert out[game_names.index("blue.home")] == 4
    assert sum(out) == 4


def test_count_places_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return  # heap_lock exists only on MicroPython
    import micropython

    board = _board("checkers")
    counts = bytearray(board.cell_count)
    out = bytearray(len(board.place_names))
    counts[5] = 1
    count_places = board.count_places
    micropython.heap_lock()
    try:
        count_places(counts, out)
        count_places(counts, out)
    finally:
        micropython.heap_unlock()
    assert out[5] == 1


# --- faults ---------------------------------------------------------------------------------------


def test_bad_json_is_refused():
    msg = support.message_of(support.raises(BoardDefinitionError, BoardDefinition.from_json, '{"format": '))
    assert "not valid JSON" in msg
    msg = support.message_of(support.raises(BoardDefinitionError, BoardDefinition.from_json, "[1, 2]"))
    assert "must be a JSON object" in msg


def test_missing_file_is_named():
    msg = support.message_of(support.raises(BoardDefinitionError, BoardDefinition.load, "no/such/board.json"))
    assert "no/such/board.json" in msg


def test_duplicate_channel_is_named():
    d = _dict("ludo52")
    _cell(d, "t5")["channel"] = _cell(d, "t4")["channel"]
    msg = _faults(d)
    assert "channel %d used twice: by t4 and t5" % _cell(d, "t4")["channel"] in msg


def test_duplicate_led_is_named_also_between_a_cell_and_an_indicator():
    d = _dict("ludo40")
    _cell(d, "green.c2")["led"] = _cell(d, "t9")["led"]
    d["indicators"][0]["led"] = _cell(d, "t0")["led"]
    msg = _faults(d)
    assert "led %d used twice" % _cell(d, "t9")["led"] in msg
    assert "led %d used twice: by t0 and turn.green" % _cell(d, "t0")["led"] in msg
    assert "has 2 faults" in msg


def _edited_file(game, edit):
    """A copy of a committed file with edit(line) applied to each line (None drops the line), loaded
    the way the device loads it: streamed line by line. Returns the fault message."""
    # a file of this process's own: test runs side by side (CPython and MicroPython) must not share one
    try:
        import tempfile

        fd, path = tempfile.mkstemp(suffix=".json")
        import os

        os.close(fd)
    except ImportError:
        import time

        path = "/tmp/ludus_test_board_%d.json" % time.ticks_us()
    with open(_path(game)) as src, open(path, "w") as out:
        for line in src:
            line = edit(line)
            if line is not None:
                out.write(line)
    gc.collect()
    try:
        return support.message_of(support.raises(BoardDefinitionError, BoardDefinition.load, path))
    finally:
        import os

        os.remove(path)


def _replace(line, ident, key, value):
    if ('"id": "%s",' % ident) not in line:
        return line
    start = line.index('"%s": ' % key) + len(key) + 4
    end = line.index(",", start) if "," in line[start:] else line.index("}", start)
    return line[:start] + value + line[end:]


def test_channel_and_led_out_of_range_are_named():
    def edit(line):
        return _replace(_replace(line, "h7", "channel", "128"), "h8", "led", "-1")

    msg = _edited_file("checkers", edit)
    assert msg.startswith("hardware/boards/checkers.json has 2 faults:") or "checkers" not in msg[:5]
    assert "h7: channel 128 out of range 0..127 (sensors.channels = 128)" in msg
    assert "h8: led -1 out of range 0..126 (leds.count = 127)" in msg


def test_wrong_cell_count_is_named():
    msg = _edited_file("checkers", lambda line: None if '"id": "h60",' in line else line)
    assert "game checkers needs 121 hole cells, found 120" in msg
    assert "place h60 has no cell" in msg
    d = _dict("ludo52")
    d["cells"] = [c for c in d["cells"] if c["id"] != "t51"]
    msg = _faults(d)
    assert "game ludo52 needs 52 track cells, found 51" in msg and "place t51 has no cell" in msg


def test_overlapping_cells_are_named():
    d = _dict("ludo52")
    _cell(d, "t2")["x"] = _cell(d, "t1")["x"] + 3
    msg = _faults(d)
    assert "t1 and t2 overlap: centres 3.0 mm apart, radii 10.0 + 10.0 mm" in msg
    assert "t3" not in msg  # 22 mm from t2 and 25 mm from t1: clear
    d = msg = None
    d = _dict("ludo52")
    d["indicators"][-1]["x"] = _cell(d, "t20")["x"]  # an indicator LED on top of a square
    d["indicators"][-1]["y"] = _cell(d, "t20")["y"]
    msg = _faults(d)
    assert "t20 and die.wait2 overlap" in msg or "die.wait2 and t20 overlap" in msg


def test_missing_and_unknown_places_are_named():
    d = _dict("ludo52")
    _cell(d, "t12")["place"] = "t52"
    _cell(d, "green.c1")["place"] = "green.c9"
    msg = _faults(d)
    assert "place t12 has no cell" in msg and "place green.c1 has no cell" in msg
    assert "t12: unknown place 't52' for game ludo52" in msg
    assert "green.c1: unknown place 'green.c9'" in msg


def test_zone_with_the_wrong_slot_count_is_named():
    d = _dict("ludo52")
    _cell(d, "red.home.3")["place"] = "red.base"
    _cell(d, "red.home.3")["role"] = "base"
    msg = _faults(d)
    assert "zone red.base has 5 slots" in msg and "expected 4" in msg
    assert "zone red.home has 3 slots" in msg
    assert "zone red.home lists 'red.home.3', which is not a cell of place red.home" in msg
    assert "zone red.base omits its cell red.home.3" in msg


def test_zone_list_must_match_the_cells():
    d = _dict("ludo56")
    d["zones"] = [z for z in d["zones"] if z["place"] != "yellow.home"]
    d["zones"].append({"place": "t3", "cells": ["t3"]})
    msg = _faults(d)
    assert "zone yellow.home is not listed under zones" in msg
    assert "'t3' is not a zone place" in msg


def test_role_and_colour_must_fit_the_place():
    d = _dict("ludo52")
    _cell(d, "t3")["role"] = "column"
    _cell(d, "t4")["colour"] = "red"
    _cell(d, "yellow.c0")["colour"] = "blue"
    msg = _faults(d)
    assert "t3: role column does not fit place t3 (a track)" in msg
    assert "t4: only red's start square t26 may be red" in msg
    assert "yellow.c0: colour 'blue' does not fit place yellow.c0 (yellow)" in msg


def test_bad_types_are_named_field_by_field():
    d = _dict("ludo40")
    c = _cell(d, "t1")
    c["x"] = "12"
    c["channel"] = 1.5
    c["r"] = 0
    _cell(d, "t2")["role"] = "square"
    _cell(d, "t3")["colour"] = "purple"
    _cell(d, "t4")["led"] = True
    d["cells"].append("t99")
    msg = _faults(d)
    for text in (
        "t1: x must be a number",
        "t1: channel must be an integer, found 1.5",
        "t1: r must be a positive number",
        "t2: role must be one of",
        "t3: colour must be null or one of",
        "t4: led must be an integer, found True",
        "cells[72] must be an object",
    ):
        assert text in msg, text


def test_header_faults_are_named():
    d = _dict("ludo52")
    d["format"] = "ludus-board/2"
    d["direction"] = "sideways"
    d["sensors"]["kind"] = "optical"
    d["leds"]["count"] = 0
    msg = _faults(d)
    assert "format must be 'ludus-board/1'" in msg
    assert "direction must be one of clockwise, counterclockwise, found 'sideways'" in msg
    assert "sensors.kind must be one of digital, analog, found 'optical'" in msg
    assert "leds.count must be a whole number 1..4096, found 0" in msg
    d = msg = None
    d = _dict("ludo52")
    d["game"] = "ludo99"
    assert "game must be one of checkers, ludo52, ludo40, ludo56, found 'ludo99'" in _faults(d)


def test_indicator_faults_are_named():
    d = _dict("ludo52")
    d["indicators"] = [i for i in d["indicators"] if i["id"] not in ("die.pip3", "turn.blue")]
    msg = _faults(d)
    assert "die pip 3 is missing" in msg
    assert "turn indicator for seat 3 is missing" in msg
    d = _dict("ludo40")
    d["indicators"] = [i for i in d["indicators"] if i["role"] != "die-pip"]
    assert "the die display needs 7 die-pip indicators, found none" in _faults(d)


def test_every_fault_is_on_its_own_line():
    d = _dict("ludo52")
    _cell(d, "t5")["channel"] = _cell(d, "t4")["channel"]
    _cell(d, "t6")["led"] = 5000
    _cell(d, "blue.base.0")["place"] = "blue.home"
    lines = _faults(d).split("\n")
    assert lines[0].startswith("test board has ")
    count = int(lines[0].split()[3])
    assert count == len(lines) - 1 and count >= 3


def test_seat_faults_are_named():
    d = _dict("ludo52")
    d["seats"][1]["start"] = "t12"
    d["seats"][2]["entry"] = "green.c0"
    msg = _faults(d)
    assert "seats[1].start must be t13, found 't12'" in msg
    assert "seats[2].entry must be a track place t0..t51, found 'green.c0'" in msg


def test_numbers_that_are_not_finite_or_not_plausible_are_faults():
    # NaN, infinities and 1e308 are refused where a board file gives millimetres, and counts are
    # bounded before any table is made that size (issue 10)
    d = _dict("ludo52")
    d["cells"][0]["x"] = float("nan")
    d["cells"][1]["y"] = float("inf")
    d["cells"][2]["x"] = 1e308
    d["leds"]["ma_per_channel"] = float("nan")
    msg = _faults(d)
    assert "t0: x must be a number (millimetres)" in msg
    assert "t1: y must be a number (millimetres)" in msg
    assert "t2: x must be a number (millimetres)" in msg
    assert "leds.ma_per_channel must be a number >= 0" in msg
    d = _dict("ludo52")
    d["leds"]["count"] = 10**9
    d["sensors"]["channels"] = 10**9
    msg = _faults(d)
    assert "leds.count must be a whole number 1..4096, found 1000000000" in msg
    assert "sensors.channels must be a whole number 1..4096, found 1000000000" in msg


def test_json_nested_too_deep_is_a_fault_not_a_crash():
    # (CPython's parser recurses and gives up; MicroPython's runs out of heap for the lists)
    exc = support.raises(BoardDefinitionError, BoardDefinition.from_json, "[" * 5000 + "]" * 5000, "deep")
    assert support.message_of(exc).startswith("deep")

"""`ludus moves`, `ludus perft` and `ludus demo` for Chinese Checkers: moves one per line that parse
back, perft's leaf count as the last line (named starts and notation strings alike), bad input as a
one-line error with exit code 2, and a demo that plays to the end and prints the placements."""

import os
import subprocess
import sys

import pytest
from ludus import checkers
from ludus_host.cli import main
from ludus_host.virtual.terminal import render
from tools import ROOT

pytestmark = pytest.mark.cpython_only

START_2 = "checkers 2 - 0 a/aa/aaa/aaaa/13/12/11/10/9/10/11/12/13/dddd/ddd/dd/d - 0"


def run_cli(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refused the arguments (one line, exit 2)
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_prints_every_legal_move_once_per_line(capsys):
    code, out, err = run_cli(capsys, "moves", "checkers/2")
    assert code == 0 and err == ""
    lines = out.split()
    assert len(lines) == 14 and len(set(lines)) == 14
    game = checkers.start_position("2")
    assert sorted(lines) == sorted(str(m) for m in game.legal_moves())
    for line in lines:
        game.parse_move(line)


def test_moves_takes_a_notation_string_quoted_or_as_words(capsys):
    game = checkers.start_position("6")
    game.push(game.legal_moves()[3])
    quoted = run_cli(capsys, "moves", game.notation())
    words = run_cli(capsys, "moves", *game.notation().split())
    assert quoted == words and quoted[0] == 0
    assert quoted[1].split() == [str(m) for m in game.legal_moves()]


def test_perft_prints_the_leaf_count_last(capsys):
    for position, depth, leaves in (
        ("checkers/2", "3", 4760),
        ("checkers/3x2", "2", 790),
        (START_2, "2", 196),
    ):
        code, out, _ = run_cli(capsys, "perft", *position.split(), depth)
        assert code == 0 and out.splitlines()[-1] == str(leaves)
    code, out, _ = run_cli(capsys, "perft", "--divide", "checkers/2", "2")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "196" and len(lines) == 15
    assert sum(int(line.split()[1]) for line in lines[:-1]) == 196
    assert run_cli(capsys, "perft", "checkers/2", "0")[1].splitlines()[-1] == "1"


def test_perft_4_of_two_players_through_the_console_script():
    proc = subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", "perft", "checkers/2", "4"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "115600"


@pytest.mark.parametrize(
    "argv, words",
    (
        (["moves", "checkers/9"], ["unknown checkers setup", "'9'"]),
        (["moves", "chess/2"], ["unknown game", "chess"]),
        (["moves", "checkers", "2", "-", "0"], ["fields"]),
        (["moves", START_2.replace("aaaa/", "aaa/")], ["row 3"]),
        (["perft", "checkers/2"], ["DEPTH"]),
        (["perft", "checkers/2", "x"], ["DEPTH", "'x'", "0..20"]),
        (["perft", "checkers/2", "\u0663"], ["DEPTH", "digits 0-9"]),
        (["perft", "checkers/2", "9" * 30], ["DEPTH", "9" * 30]),
        (["perft", "checkers/2", "999"], ["DEPTH", "0..20"]),
        (["perft", "ludo/classic/4", "3"], ["a roll is owed"]),
        (["demo", "--setup", "7"], ["'7'"]),
        (["demo", "--options", "fast"], ["fast"]),
    ),
)
def test_bad_input_is_one_line_and_exit_code_2(capsys, argv, words):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("ludus %s: " % argv[0]) and err.count("\n") == 1
    for word in words:
        assert word in err


def test_demo_plays_to_the_end_and_prints_the_placements(capsys):
    code, out, _ = run_cli(capsys, "demo", "--seed", "3")
    assert code == 0
    last = out.splitlines()[-1]
    assert "finished; placements: seat" in last
    # a board after every move: count the move headers and the final notation's move count
    notation = out.splitlines()[-2]
    game = checkers.from_notation(notation)
    assert game.is_over() and out.count("\nmove ") == game.plies
    assert "\033[" not in out  # no colour when stdout is not a terminal


def test_demo_is_deterministic_and_honours_its_options(capsys):
    first = run_cli(capsys, "demo", "--seed", "5", "--setup", "3", "--quiet")
    second = run_cli(capsys, "demo", "--seed", "5", "--setup", "3", "--quiet")
    assert first == second and first[0] == 0
    assert "placements: seat" in first[1].splitlines()[-1]
    code, out, _ = run_cli(capsys, "demo", "--max-moves", "4", "--setup", "6", "--colour", "always")
    assert code == 0 and "stopped after 4 moves" in out and "\033[" in out
    code, out, _ = run_cli(capsys, "demo", "--options", "cap=6", "--quiet")
    assert code == 0 and "draw (move cap)" in out


def test_demo_console_script_finishes_quickly():
    proc = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "ludus"), "demo"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "placements: seat" in proc.stdout.splitlines()[-1]


def test_render_draws_the_star_with_set_letters():
    game = checkers.start_position("6")
    text = render(game)
    lines = text.splitlines()
    assert len(lines) == 17
    assert lines[0].strip() == "a" and lines[16].strip() == "d"
    assert lines[4].split() == list("ffff.....bbbb")
    assert lines[8].split() == ["."] * 9
    move = game.parse_move("h7-h16")
    game.push(move)
    after = render(game, last_move=move).splitlines()
    assert after[3].split() == list("aoaa") and "A" in after[4]


def test_docs_examples_run():
    """The >>> examples and the `$ ludus ...` commands of docs/checkers.md give the output shown."""
    import doctest

    path = os.path.join(ROOT, "docs", "checkers.md")
    result = doctest.testfile(path, module_relative=False)
    assert result.failed == 0 and result.attempted >= 5
    with open(path) as f:
        lines = f.read().splitlines()
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    checked = 0
    for i, line in enumerate(lines):
        if not line.startswith("$ ludus "):
            continue
        expected = []
        for following in lines[i + 1 :]:
            if following.startswith("$ ") or following.startswith("```"):
                break
            expected.append(following)
        proc = subprocess.run(
            line[2:], shell=True, capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
        )
        assert proc.returncode == 0, (line, proc.stderr)
        if expected:
            assert proc.stdout.splitlines()[: len(expected)] == expected, line
        checked += 1
    assert checked >= 4


# ---------------------------------------------------------------------------------------------
# Any text at all: a named error or the very position it prints, never a crash


def _mutations():
    from hypothesis import strategies as st

    alphabet = st.sampled_from(list("ad0123456789/ -xb,=h") + ["\u0663", "\u00b2", "\u2013", "\u00e9", "\t"])
    edit = st.tuples(st.integers(0, len(START_2)), st.integers(0, 3), st.text(alphabet, max_size=4))

    def apply(edits):
        text = START_2
        for at, cut, insert in edits:
            text = text[:at] + insert + text[at + cut :]
        return text

    return st.one_of(st.lists(edit, min_size=1, max_size=4).map(apply), st.text(max_size=60))


def test_any_text_is_a_named_error_or_exactly_the_position_it_prints():
    from hypothesis import given, settings
    from ludus.errors import LudusError
    from ludus.games import position

    @settings(max_examples=600, deadline=None, derandomize=True)
    @given(_mutations())
    def check(text):
        try:
            game = position(text)
        except LudusError as exc:
            assert str(exc)
            return
        if text.split()[0] == "checkers":
            assert game.notation() == " ".join(text.split())
        for move in game.legal_moves():
            assert game.parse_move(str(move)) == move

    check()


@pytest.mark.parametrize(
    "text",
    (
        START_2.replace(" - 0", " - \u0663"),
        START_2.replace(" 0 a/", " \u00b2 a/"),
        START_2.replace("/13/", "/\u0661\u0663/", 1),
        START_2.replace(" - ", " cap=01 ", 1),
        START_2[:-1] + "9" * 50,
        "checkers/2 extra",
        "\u2603",
    ),
)
def test_unicode_digits_and_huge_numbers_exit_2_without_a_traceback(capsys, text):
    code, out, err = run_cli(capsys, "moves", text)
    assert code == 2 and out == "" and err.startswith("ludus moves: ") and err.count("\n") == 1, err


# ---------------------------------------------------------------------------------------------
# ludus demo --record FILE: a real game's record, which ludus verify accepts


def test_demo_announces_each_place_as_it_is_taken(capsys):
    code, out, _ = run_cli(capsys, "demo", "--seed", "5", "--setup", "3")
    assert code == 0
    lines = out.splitlines()
    places = [line for line in lines if " takes place " in line]
    order = [int(line.split()[1]) for line in places]
    assert order == [int(s.split()[1]) for s in lines[-1].split("placements: ")[1].split(", ")]
    assert [line.split()[-1] for line in places] == ["1", "2", "3"]
    # each announcement comes right after the move that took the place, before its drawing
    first = lines.index(places[0])
    assert lines[first - 1].startswith("move ")


def test_demo_record_is_verified_by_ludus_verify(capsys, tmp_path):
    import json

    from ludus.dice import commitment, seed_from_hex
    from ludus.record import GameRecord

    path = str(tmp_path / "demo.json")
    code, out, _ = run_cli(capsys, "demo", "--seed", "3", "--setup", "2", "--record", path)
    assert code == 0
    lines = out.splitlines()
    committed = lines[1].split()[-1]
    assert lines[1] == "dice seed committed: sha256 " + committed
    with open(path, encoding="utf-8") as f:
        text = f.read()
    record = GameRecord.from_json(text)
    assert record.start == "checkers/2" and record.options == {}
    assert record.seed_sha256 == committed and commitment(seed_from_hex(record.seed)) == committed
    assert lines[-1] == "dice seed revealed: %s; record written to %s" % (record.seed, path)
    final = checkers.from_notation(lines[-3])
    assert record.counts() == (0, final.plies) and record.replay().notation() == final.notation()
    assert record.result == final.placements()

    code, out, err = run_cli(capsys, "verify", path)
    assert code == 0, out + err
    assert out.splitlines() == [
        "verified: 0 rolls, %d moves, seed matches commitment %s (start checkers/2)"
        % (final.plies, committed),
        "result: " + " ".join(str(s) for s in final.placements()),
    ]

    # tampering with the demo's record is caught
    data = json.loads(text)
    data["actions"][2], data["actions"][3] = data["actions"][3], data["actions"][2]
    bad = tmp_path / "swapped.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run_cli(capsys, "verify", str(bad))
    assert code == 1 and "action #2 " in out and "is illegal" in out


def test_demo_record_keeps_options_and_an_unfinished_game(capsys, tmp_path):
    path = str(tmp_path / "capped.json")
    assert run_cli(capsys, "demo", "--setup", "2/15", "--options", "cap=9,locked", "--record", path)[0] == 0
    code, out, _ = run_cli(capsys, "verify", path)
    assert code == 0 and "9 moves" in out and "start checkers/2/15" in out
    from ludus.record import GameRecord

    with open(path, encoding="utf-8") as f:
        record = GameRecord.from_json(f.read())
    assert record.options == {"cap": 9, "locked": True} and record.result == []

    path = str(tmp_path / "stopped.json")
    assert run_cli(capsys, "demo", "--max-moves", "5", "--quiet", "--record", path)[0] == 0
    with open(path, encoding="utf-8") as f:
        record = GameRecord.from_json(f.read())
    assert record.result is None and record.seed is not None and record.counts() == (0, 5)
    code, out, _ = run_cli(capsys, "verify", path)
    assert code == 0 and out.startswith("verified: 0 rolls, 5 moves")


def test_demo_record_to_an_unwritable_place_is_one_line_exit_2(capsys, tmp_path):
    path = str(tmp_path / "no-such-dir" / "game.json")
    code, out, err = run_cli(capsys, "demo", "--record", path)
    assert code == 2 and out == ""
    assert err.startswith("ludus demo: argument --record: %s" % path) and err.count("\n") == 1
    assert "does not exist" in err


def test_the_demo_names_each_seat_by_the_colour_its_lights_show(capsys):
    # the board lights a seat in the palette colour of the point its first set starts in; the demo's
    # legend says the same colour (setup 2: red at the top, yellow at the bottom)
    from ludus.light.palette import checkers_colour
    from ludus_host.virtual.colours import COLOUR_NAMES

    for setup in ("2", "3", "6"):
        code, out, _ = run_cli(capsys, "demo", "--quiet", "--setup", setup, "--max-moves", "1")
        assert code == 0
        legend = out.splitlines()[0]
        game = checkers.start_position(setup)
        for seat in range(game.config.seats):
            name = COLOUR_NAMES[checkers_colour(game.config.seat_points[seat][0])]
            assert (
                "seat %d " % seat in legend
                and "(%s)" % name in legend.split("seat %d " % seat)[1].split("seat")[0]
            )
    assert "seat 1 d (yellow)" in run_cli(capsys, "demo", "--quiet", "--max-moves", "0")[1]

"""`ludus moves`, `ludus perft` and `ludus demo` for Chinese Checkers: moves one per line that parse
back, perft's leaf count as the last line (named starts and notation strings alike), bad input as a
one-line error with exit code 2, and a demo that plays to the end and prints the placements."""

import os
import subprocess
import sys

import pytest
from ludus import checkers
from ludus_host.cli import main
from ludus_host.render_checkers import render
from tools import ROOT

pytestmark = pytest.mark.cpython_only

START_2 = "checkers 2 - 0 a/aa/aaa/aaaa/13/12/11/10/9/10/11/12/13/dddd/ddd/dd/d - 0"


def run_cli(capsys, *argv):
    code = main(list(argv))
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
        (["perft", "checkers/2", "x"], ["depth", "'x'"]),
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

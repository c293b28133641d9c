"""`ludus play`: scripts of physical actions drive the referee on a simulated board; events and frames
come out as JSON lines; bad scripts get an error naming the line; the documented examples run."""

import json
import os
import re

import pytest
from ludus.errors import NotationError
from ludus_host import cli
from ludus_host.virtual.board import load_board
from ludus_host.virtual.runner import Simulator
from ludus_host.virtual.script import parse_script
from tools import ROOT


def play(tmp_path, capsys, text, board, game, *extra):
    path = tmp_path / "s.play"
    path.write_text(text)
    code = cli.main(["play", str(path), "--board", board, "--game", game, *extra])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    return code, lines, err


def events(lines, name):
    return [item for item in lines if item.get("event") == name]


def test_a_checkers_move_comes_out_as_events_and_frames(tmp_path, capsys):
    code, lines, err = play(tmp_path, capsys, "setup\nlift h7\nplace h16\n", "checkers", "checkers/2")
    assert code == 0, err
    assert events(lines, "new_game")[0]["start"] == "checkers/2"
    assert [e["move"] for e in events(lines, "move")] == ["h7-h16"]
    frames = [item for item in lines if "frame" in item]
    lifted = [f for f in frames if f["frame"].get("situation") == "moving"]
    assert lifted and ["h16", "destination"] in lifted[0]["lights"]
    assert all(len(f["grb"]) == 2 * 3 * 127 for f in frames)
    assert lines[-1]["actions"] == ["h7-h16"]


def test_frames_can_be_left_out(tmp_path, capsys):
    code, lines, _ = play(
        tmp_path, capsys, "setup\nmove h7 h16\n", "checkers", "checkers/2", "--frames", "none"
    )
    assert code == 0
    assert not [item for item in lines if "frame" in item]


def test_a_bad_line_is_named_and_nothing_runs(tmp_path, capsys):
    code, lines, err = play(tmp_path, capsys, "setup\nlift h7\njump h5\n", "checkers", "checkers/2")
    assert code == 2
    assert lines == []
    assert "line 3" in err and "unknown action 'jump'" in err


@pytest.mark.parametrize(
    "text, message",
    [
        ("lift h999\n", "line 1: lift: no cell 'h999'"),
        ("wait soon\n", "line 1: wait: 'soon' is not a number"),
        ("die 7\n", "line 1: die: '7' is not a die value"),
        ("move h1\n", "line 1: move takes 2 argument(s), got 1"),
        ("press @x\n", "line 1: '@x'"),
        ("expect colour red\n", "line 1: expect 'colour'"),
    ],
)
def test_script_errors_name_the_line_and_problem(text, message):
    board = load_board("checkers")
    with pytest.raises(NotationError) as info:
        parse_script(text, board)
    assert message in str(info.value)


def test_an_impossible_action_stops_after_the_output_so_far(tmp_path, capsys):
    code, lines, err = play(tmp_path, capsys, "setup\nmove h7 h16\nlift h60\n", "checkers", "checkers/2")
    assert code == 2
    assert [e["move"] for e in events(lines, "move")] == ["h7-h16"]
    assert "line 3" in err and "no piece on h60" in err


def test_a_failed_expectation_is_an_error(tmp_path, capsys):
    code, _, err = play(tmp_path, capsys, "setup\nexpect turn 1\n", "checkers", "checkers/2")
    assert code == 2 and "line 2: expect turn 1: it is 0" in err


def test_unknown_board_is_refused(tmp_path, capsys):
    code, _, err = play(tmp_path, capsys, "setup\n", "nosuchboard", "checkers/2")
    assert code == 2 and "nosuchboard" in err


def test_slides_and_flicker_do_not_register_the_cells_between(tmp_path, capsys):
    text = "setup\nflicker h30\nslide h7 h11 h16\n"
    code, lines, err = play(tmp_path, capsys, text, "checkers", "checkers/2")
    assert code == 0, err
    assert [e["move"] for e in events(lines, "move")] == ["h7-h16"]
    assert not events(lines, "mismatch")


def test_power_cut_restores_the_game_from_its_record():
    board = load_board("ludo52")
    text = "setup\ndie 6 2\npress\npress\ndie 6 4\npress\npress\nmove green.base t0\npower\nmove t0 t4\n"
    sim = Simulator(board, "ludo/classic/2", seed="00" * 32, frames="none")
    out = list(sim.run(parse_script(text, board)))
    assert [e["event"] for e in out if e.get("event") in ("power_cut", "restored")] == [
        "power_cut",
        "restored",
    ]
    assert out[-1]["actions"][-2:] == ["6 green.0 base-t0", "4 green.0 t0-t4"]


def test_the_documented_examples_run(tmp_path, capsys):
    text = open(os.path.join(ROOT, "docs", "play-scripts.md")).read()
    blocks = re.findall(r"```play (\S+) (\S+)([^\n]*)\n(.*?)```", text, re.S)
    assert len(blocks) >= 8
    for board, game, options, script in blocks:
        code, lines, err = play(tmp_path, capsys, script, board, game, "--frames", "lights", *options.split())
        assert code == 0, (board, err)
        assert events(lines, "move")


def test_start_sets_the_board_to_a_position_and_a_bad_one_names_the_line(tmp_path, capsys):
    text = "start ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base\nmove t5 t9\n"
    code, lines, err = play(tmp_path, capsys, text, "ludo52", "ludo/classic")
    assert code == 0, err
    assert events(lines, "restored") and events(lines, "mismatch") == []
    # the red token still stands under the green one: the capture waits until it is taken off
    assert events(lines, "move") == [] and lines[-1]["end"]["situation"] == "moving"
    code, _, err = play(tmp_path, capsys, "start ludo classic seats=gq\n", "ludo52", "ludo/classic")
    assert code == 2 and "line 1" in err


def test_turn_clock_option_needs_seconds(tmp_path, capsys):
    code, _, err = play(tmp_path, capsys, "setup\n", "ludo52", "ludo/classic/2", "--turn-clock", "soon")
    assert code == 2 and "--turn-clock 'soon'" in err
    code, lines, err = play(
        tmp_path, capsys, "setup\nwait 3000\n", "ludo52", "ludo/classic/2", "--turn-clock", "2"
    )
    assert code == 0, err
    assert [e["seat"] for e in events(lines, "auto")] == [0]  # the roll-off roll, made for green


def _events_only(lines):
    return [item for item in lines if "event" in item or "end" in item]


def test_the_frames_option_never_changes_the_referees_events(tmp_path, capsys):
    # a wrong placement left resting: the referee judges it after its hold, whatever is printed
    text = (
        "start ludo classic seats=gr turn=g rolls=5 g=t2,base,base,base r=base,base,base,base\n"
        "lift t2 @550\nplace t4 @24020\nexpect situation illegal\n"
    )
    runs = {}
    for frames in ("full", "lights", "none"):
        code, lines, err = play(tmp_path, capsys, text, "ludo52", "ludo/classic/2", "--frames", frames)
        assert code == 0, (frames, err)
        runs[frames] = _events_only(lines)
    assert [e["t"] for e in events(runs["none"], "illegal")] == [3170]
    assert runs["none"] == runs["lights"] == runs["full"]
    # and every example script: the same events, at the same moments, with and without frames
    for name in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        path = os.path.join(ROOT, "examples", name)
        head = re.search(r"--board (\S+) --game (\S+)", open(path).read())
        got = []
        for frames in ("full", "none"):
            code = cli.main(["play", path, "--board", head[1], "--game", head[2], "--frames", frames])
            out, err = capsys.readouterr()
            assert code == 0, (name, err)
            got.append(_events_only(json.loads(line) for line in out.splitlines()))
        assert got[0] == got[1], name


def test_words_are_the_sentences_of_the_simulators_page(tmp_path, capsys):
    # a game played on the page's table (a roll-off, a six, tokens out and moved), its saved script run
    # by `ludus play --words`: the same lines as the page's log, word for word and second for second
    from ludus_host.sim.table import LiveTable
    from ludus_host.virtual.words import log_line
    from sim_play import carry_out, press

    t = LiveTable("ludo/classic/2", seed="00" * 32)
    t.act({"do": "setup"})
    t.advance(t.now + 500)
    for _ in range(30):
        game = t.referee.game
        if game.awaiting_roll():
            press(t)
        else:
            carry_out(t, str(game.legal_moves()[0]))
    page = [log_line(ms, text) for ms, text in t.state()["log"]]
    path = tmp_path / "page.play"
    path.write_text(t.script())
    code = cli.main(["play", str(path), "--board", "ludo52", "--game", "ludo/classic/2", "--words"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:-1] == page and len(page) > 20
    assert lines[-1].endswith("Now: " + t.state()["prompt"])
    text = "\n".join(lines)
    assert "0.6 s  Green threw a 2 in the roll-off\n" in text and "in the roll-off: Red starts\n" in text
    assert "Red brought a token out onto t26\n" in text and ": roll again\n" in text
    assert "{" not in text  # sentences, not JSON
    code = cli.main(["play", str(path), "--board", "ludo52", "--game", "ludo/classic/2", "--words", "--pico"])
    assert code == 2 and "leave out --words" in capsys.readouterr().err

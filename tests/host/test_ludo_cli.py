"""`ludus selfplay` and `ludus moves` on Ludo positions: every preset plays from the command line, the JSON
summary is one line and reproducible from its seed, bad presets and option clashes are refused (exit 2).
Also: the rule-option table of docs/ludo.md says exactly what the presets are."""

import json
import pathlib

import pytest
from ludus.ludo.rules import FIELD_NAMES, PRESET_NAMES, rules_from_spec
from ludus.ludo.spec import format_value
from ludus_host.cli import main

pytestmark = pytest.mark.cpython_only

CLI_PRESETS = (
    "classic",
    "master",
    "blitz",
    "arrow",
    "teamup",
    "teamup+arrow",
    "danish",
    "hebrew-40",
    "hebrew-56",
)


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refused the arguments (one line, exit 2)
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def summary(capsys, *argv):
    code, out, err = run(capsys, "selfplay", *argv)
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    data.pop("games_per_s")  # the only timing figure
    return data


@pytest.mark.parametrize(
    "preset",
    CLI_PRESETS
    + (
        "custom",
        "teamup+master",
        "teamup+blitz",
        "teamup+danish",
        "teamup+hebrew-40",
        "teamup+hebrew-56",
        "teamup+custom",
        "custom:base=danish,entry=5.6,exact_home=0",
        "custom:dice=2",
        "custom:dice=2,dice_sum=1,exact_home=0",
    ),
)
def test_every_preset_plays_from_the_command_line(capsys, preset):
    data = summary(capsys, preset, "--games", "3", "--seed", "5")
    assert data["games"] == 3 and data["unfinished"] == 0
    assert sum(data["wins"].values()) == 3
    assert data["mean_turns"] > 0 and data["captures_per_game"] >= 0
    assert data["players"] == 4


def test_summary_is_reproducible_from_the_seed(capsys):
    a = summary(capsys, "danish", "--games", "4", "--seed", "9", "--players", "2")
    b = summary(capsys, "danish", "--games", "4", "--seed", "9", "--players", "2")
    c = summary(capsys, "danish", "--games", "4", "--seed", "10", "--players", "2")
    assert a == b and a != c
    assert set(a["wins"]) == {"green", "red"}  # two players sit opposite
    assert a["rules"] == "danish" and a["seed"] == 9


def test_first_winner_and_team_pairs(capsys):
    data = summary(capsys, "teamup", "--games", "3", "--first-winner")
    assert data["first_winner"] and sum(data["pair_wins"].values()) == 3
    assert "mean_place" not in data
    data = summary(capsys, "ludo/classic/3", "--games", "2")
    assert data["players"] == 3 and sorted(data["mean_place"]) == ["green", "red", "yellow"]


@pytest.mark.parametrize(
    "argv, words",
    [
        (("nosuch",), "unknown Ludo preset 'nosuch'"),
        (("teamup", "--players", "2"), "teamup needs 4 players"),
        (("master:share=0",), "walls need shared squares"),
        (("classic", "--games", "0"), "expected a whole number 1..1000000"),
        (("classic/3", "--players", "2"), "disagrees"),
    ],
)
def test_bad_presets_are_refused(capsys, argv, words):
    code, out, err = run(capsys, "selfplay", *argv)
    assert code == 2 and out == "" and words in err


def test_moves_of_a_ludo_position(capsys):
    code, out, _ = run(
        capsys, "moves", "ludo danish seats=gr turn=g rolls=5 g=t48,t20,base,base r=t1,base,base,base"
    )
    assert code == 0 and out.splitlines() == ["5 green.0 t48-t1 lap x red.0"]
    code, out, _ = run(
        capsys, "moves", "ludo classic seats=gr turn=g rolls=6,4 g=t3,base,base,base r=t5,base,base,base"
    )
    assert out.splitlines() == ["6 green.0 t3-t9", "6 green.1 base-t0", "4 green.0 t3-t7"]
    code, out, _ = run(capsys, "moves", "ludo/classic/4")  # the roll-off comes first: no moves yet
    assert code == 0 and out == ""
    code, out, err = run(
        capsys, "moves", "ludo classic seats=gr turn=g g=base,base,base r=base,base,base,base"
    )
    assert code == 2 and "exactly 4 tokens" in err


@pytest.mark.parametrize("start", ["ludo/classic/4", "ludo/danish/2", "ludo/master/3", "ludo/teamup+arrow/4"])
def test_named_starts_from_the_issue(capsys, start):
    data = summary(capsys, start, "--games", "2", "--seed", "3")
    assert data["games"] == 2 and data["unfinished"] == 0
    assert data["players"] == int(start[-1])
    code, out, _err = run(capsys, "moves", start)
    assert code == 0 and out == ""  # everyone rolls for who starts before any move


DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "ludo.md"


def option_table():
    """{option: {preset: text}} from the rule-option table of docs/ludo.md."""
    lines = DOC.read_text().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("| option | meaning |"))
    columns = [c.strip() for c in lines[head].strip("|").split("|")]
    presets = columns[2:-1]
    table = {}
    for line in lines[head + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[-1], "option %s has no source" % cells[0]
        table[cells[0].strip("`")] = dict(zip(presets, cells[2:-1]))
    return table


def test_docs_option_table_matches_the_presets():
    table = option_table()
    assert sorted(table) == sorted(FIELD_NAMES)  # every option, and nothing else
    names = [p for p in PRESET_NAMES if p != "custom"]
    for name in names:
        rules = rules_from_spec(name)
        for option, row in table.items():
            text = format_value(option, getattr(rules, option))
            assert row[name] == text, (option, name, row[name], text)
    assert sorted(next(iter(table.values()))) == sorted(names)


def test_moves_at_a_named_start_says_a_roll_is_owed(capsys):
    code, out, err = run(capsys, "moves", "ludo/classic/4")
    assert code == 0 and out == ""
    assert "must roll first (seat 0)" in err

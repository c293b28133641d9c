"""`ludus season`: a club's table from its games' records, ties and their play-off, and the records a
season refuses."""

import json
import random
import subprocess
import sys

import pytest
from ludus.games import position
from ludus.ludo.game import start_position
from ludus.ludo.geometry import COLOURS
from ludus.ludo.rules import rules_from_spec
from ludus.record import GameRecord
from ludus.record.actions import apply_action

pytestmark = pytest.mark.cpython_only


def played(k, start="ludo/danish/4"):
    """A whole game with random moves, recorded as the board records one (seed committed, revealed)."""
    record = GameRecord.new(start, seed=bytes([k]) * 32)
    game = position(start)
    game.max_undo = 0
    rng = random.Random(k)
    while not game.is_over():
        if game.awaiting_roll():
            record.roll()
            apply_action(game, record.actions[-1])
        else:
            move = rng.choice(game.legal_moves())
            game.push(move)
            record.record_move(move)
    record.finish(game.placements())
    return record


def season_cmd(*args):
    return subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", "season", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def write(tmp_path, name, record):
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else record.to_json())
    return path


def expected_points(records):
    # the club's rule, counted here by hand: 3, 2, 1, 0 by place
    points = {}
    for r in records:
        for k, seat in enumerate(r.result):
            points[COLOURS[seat]] = points.get(COLOURS[seat], 0) + (3, 2, 1, 0)[k]
    return points


def test_a_season_of_recorded_games_gives_the_table(tmp_path):
    records = [played(k) for k in range(1, 7)]
    paths = [write(tmp_path, "g%d.json" % k, r) for k, r in enumerate(records)]
    out = tmp_path / "table.json"
    r = season_cmd(*paths, "--json", out, "--csv", tmp_path / "table.csv")
    assert r.returncode == 0, r.stderr
    table = json.loads(out.read_text())
    want = expected_points(records)
    assert {row["player"]: row["points"] for row in table["standings"]} == want
    assert [row["points"] for row in table["standings"]] == sorted(want.values(), reverse=True)
    assert all(row["games"] == 6 and sum(row["places"]) == 6 for row in table["standings"])
    assert table["games"] == 6 and table["rules"] == "danish"
    assert r.stdout.startswith("season: danish, 6 games\n")
    csv_lines = (tmp_path / "table.csv").read_text().splitlines()
    assert csv_lines[0] == "rank,player,points,games,1st,2nd,3rd,4th,tied" and len(csv_lines) == 5


def find_tied_season():
    # seasons of four games from consecutive seeds, until one ends with two players tied on points who
    # can meet in a two-player game (two players sit opposite: green and red, or yellow and blue)
    for first in range(1, 200):
        records = [played(k) for k in range(first, first + 4)]
        points = expected_points(records)
        values = sorted(points.values())
        for v in set(values):
            group = sorted(n for n, p in points.items() if p == v)
            if group in (["green", "red"], ["blue", "yellow"]):
                return records, group
    raise AssertionError("no tied season found")


def test_a_tie_is_flagged_until_its_play_off_settles_it(tmp_path):
    records, group = find_tied_season()
    paths = [write(tmp_path, "g%d.json" % k, r) for k, r in enumerate(records)]
    r = season_cmd(*paths)
    assert r.returncode == 0, r.stderr
    assert "tied, no play-off yet: %s" % ", ".join(group) in r.stdout
    # the play-off: a game between exactly the two tied players
    seats = tuple(sorted(COLOURS.index(n) for n in group))
    start = start_position(rules_from_spec("danish"), seats).notation()
    for k in range(50, 80):
        playoff = played(k, start)
        if COLOURS[playoff.result[0]] == group[1]:  # the one the table lists second wins it
            break
    paths.append(write(tmp_path, "playoff.json", playoff))
    out = tmp_path / "t.json"
    r = season_cmd(*paths, "--json", out)
    assert r.returncode == 0, r.stderr
    table = json.loads(out.read_text())
    assert table["playoffs"] == [str(paths[-1])] and table["games"] == 4
    order = [row["player"] for row in table["standings"]]
    assert order.index(group[1]) < order.index(group[0])  # settled by the play-off, not by name
    assert group not in table["ties"] and "1 play-off" in r.stdout
    # the points are the league games' only
    assert {row["player"]: row["points"] for row in table["standings"]} == expected_points(records)
    # counted as a league game instead when told so
    r = season_cmd(*paths, "--no-playoffs", "--json", out)
    assert json.loads(out.read_text())["games"] == 5


def test_bad_records_are_refused_by_name_and_no_table_is_printed(tmp_path):
    good = write(tmp_path, "good.json", played(1))
    classic = write(tmp_path, "classic.json", played(2, "ludo/classic/4"))
    unfinished = GameRecord.new("ludo/danish/4", seed=bytes(32))
    unfinished.roll()
    open_game = write(tmp_path, "open.json", unfinished)
    tampered = json.loads(played(3).to_json())
    k = next(i for i, a in enumerate(tampered["actions"]) if a.startswith("roll "))
    tampered["actions"][k] = "roll %d" % (int(tampered["actions"][k].split()[1]) % 6 + 1)
    cheat = write(tmp_path, "cheat.json", json.dumps(tampered))
    broken = write(tmp_path, "broken.json", "{not json")
    checkers = write(tmp_path, "checkers.json", GameRecord.new("checkers/2", seed=bytes(32)).to_json())
    r = season_cmd(good, classic, open_game, cheat, broken, checkers)
    assert r.returncode == 2
    assert r.stdout == ""
    err = r.stderr
    assert "classic.json: a classic game, not danish: a season keeps to one rule set" in err
    assert "open.json: the game is not finished" in err
    assert "cheat.json: does not verify" in err
    assert "broken.json" in err and "checkers.json: not a Ludo game" in err
    assert "(5 records refused: no table)" in err and "Traceback" not in err
    r = season_cmd(good, "--rules", "nonsense")
    assert r.returncode == 2 and "--rules nonsense" in r.stderr


def test_a_table_is_never_written_over_a_record_it_reads(tmp_path):
    # `ludus season --json R1.json R1.json R2.json` wrote the table over the record R1.json
    r1, r2 = write(tmp_path, "R1.json", played(1)), write(tmp_path, "R2.json", played(2))
    kept = r1.read_text()
    for option in ("--json", "--csv"):
        proc = season_cmd(option, r1, r1, r2)
        assert proc.returncode == 2 and "%s %s is a record" % (option, r1) in proc.stderr, proc.stderr
        assert r1.read_text() == kept and "Traceback" not in proc.stderr
    proc = season_cmd("--csv", tmp_path / "t", "--json", tmp_path / "t", r1, r2)
    assert proc.returncode == 2 and "--csv and --json both name" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["R1.json", "R2.json"]
    proc = season_cmd("--json", tmp_path / "table.json", r1, r2)  # (another name: written)
    assert proc.returncode == 0 and json.loads((tmp_path / "table.json").read_text())["games"] == 2

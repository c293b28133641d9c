"""`ludus verify GAME_RECORD`: a faithful record verifies (exit 0); a tampered roll, a tampered seed, an
unrevealed seed and an illegal move are each listed with their action index (exit 1); a malformed or
missing file is refused with a message naming the problem (exit 2)."""

import json
import os

import ludus.record.game as record_module
import pytest
from ludus.dice import commitment, hex_of
from ludus.record import GameRecord
from ludus_host.cli import main
from test_record import play_race, race_position  # the tiny dice game of tests/firmware
from test_record_checkers import checkers_game_record
from tools import ROOT, ludus

pytestmark = pytest.mark.cpython_only

SEED = bytes(range(32))


@pytest.fixture
def race(monkeypatch):
    """Records of the race game of tests/firmware/test_record.py, verified through the real CLI code."""
    monkeypatch.setattr(record_module, "_default_position", race_position)


def race_record(seed=SEED):
    record = GameRecord.new("race/2", seed=seed)
    play_race(record)
    return record


def write(tmp_path, record, name="game.json"):
    path = tmp_path / name
    path.write_text(record.to_json() if isinstance(record, GameRecord) else record, encoding="utf-8")
    return str(path)


def verify(path, capsys):
    code = main(["verify", path])
    out, err = capsys.readouterr()
    return code, out, err


def test_good_dice_record_verifies(race, tmp_path, capsys):
    record = race_record()
    rolls, moves = record.counts()
    assert rolls > 5 and moves > 3
    code, out, err = verify(write(tmp_path, record), capsys)
    assert code == 0, out + err
    assert out.splitlines()[0] == (
        "verified: %d rolls, %d moves, seed matches commitment %s (start race/2)"
        % (rolls, moves, commitment(SEED))
    )
    assert out.splitlines()[1] == "result: " + " ".join(str(s) for s in record.result)


def test_tampered_roll_is_listed_with_its_index(race, tmp_path, capsys):
    record = race_record()
    i = [k for k, a in enumerate(record.actions) if a.startswith("roll ")][2]
    true_value = int(record.actions[i].split()[1])
    record.actions[i] = "roll %d" % (true_value % 6 + 1)
    path = write(tmp_path, record)
    code, out, _ = verify(path, capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("%s: " % path) and "mismatch" in lines[0], out
    assert (
        "  action #%d (roll #3): recorded 'roll %d' but the seed gives 'roll %d'"
        % (i, true_value % 6 + 1, true_value)
        in lines
    ), out
    # rolls before the tampered one are not flagged
    assert "(roll #1)" not in out and "(roll #2)" not in out


def test_tampered_seed_is_reported(race, tmp_path, capsys):
    record = race_record()
    record.seed = hex_of(bytes(32))
    code, out, _ = verify(write(tmp_path, record), capsys)
    assert code == 1
    assert "seed does not match commitment: sha256(seed) is %s" % commitment(bytes(32)) in out
    # every roll is then checked against the revealed seed, and most disagree
    assert "(roll #1)" in out or "(roll #2)" in out


def test_unrevealed_seed_is_reported(race, tmp_path, capsys):
    record = GameRecord.new("race/2", seed=SEED)
    record.roll()
    code, out, _ = verify(write(tmp_path, record), capsys)
    assert code == 1
    assert "seed not revealed: the rolls cannot be checked (commitment %s)" % commitment(SEED) in out


def test_illegal_move_is_reported(race, tmp_path, capsys):
    record = race_record()
    i = [k for k, a in enumerate(record.actions) if not a.startswith("roll ")][1]
    record.actions[i] = "advance 0"
    code, out, _ = verify(write(tmp_path, record), capsys)
    assert code == 1
    assert "  action #%d 'advance 0' is illegal: " % i in out


def test_malformed_files_are_refused(race, tmp_path, capsys):
    path = write(tmp_path, "{not json")
    code, out, err = verify(path, capsys)
    assert code == 2 and out == ""
    assert err.startswith("ludus verify: %s: record is not valid JSON" % path), err

    fields = json.loads(race_record().to_json())
    del fields["seed_sha256"]
    path = write(tmp_path, json.dumps(fields))
    code, _, err = verify(path, capsys)
    assert code == 2
    assert "record field 'seed_sha256' is missing" in err

    fields = json.loads(race_record().to_json())
    fields["actions"][0] = "roll 9"
    path = write(tmp_path, json.dumps(fields))
    code, _, err = verify(path, capsys)
    assert code == 2
    assert "record field 'actions'[0]" in err and "'9' is not 1..6" in err

    code, _, err = verify(str(tmp_path / "absent.json"), capsys)
    assert code == 2
    assert err.startswith("ludus verify: cannot read record %s" % (tmp_path / "absent.json")), err


def test_real_checkers_record_through_the_command(tmp_path):
    record, _ = checkers_game_record(30)
    assert record.counts() == (0, 30)
    path = write(tmp_path, record)
    proc = ludus("verify", path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("verified: 0 rolls, 30 moves, seed matches commitment " + commitment(SEED))

    # the same through stdin
    proc = ludus("verify", "-", stdin=record.to_json())
    assert proc.returncode == 0, proc.stdout + proc.stderr

    # a move replaced by one that is not legal there
    record.actions[4] = record.actions[3]
    proc = ludus("verify", write(tmp_path, record, "bad.json"))
    assert proc.returncode == 1
    assert "  action #4 %r is illegal: " % record.actions[4] in proc.stdout, proc.stdout


def ludo_record():
    from ludus.games import position

    record = GameRecord.new("ludo/classic/4", seed=SEED)
    game = position("ludo/classic/4")
    k = 0
    while not game.is_over():
        if game.awaiting_roll():
            game.apply_roll(record.roll())
        else:
            moves = game.legal_moves()
            record.record_move(moves[k % len(moves)])
            game.push(moves[k % len(moves)])
            k += 1
    record.finish(game.placements())
    return record


def test_real_ludo_record_through_the_command(tmp_path):
    record = ludo_record()
    rolls, moves = record.counts()
    assert len(record.result) == 4 and rolls > 100 and moves > 100
    proc = ludus("verify", write(tmp_path, record))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "verified: %d rolls, %d moves, seed matches commitment %s (start ludo/classic/4)"
        % (rolls, moves, commitment(SEED)),
        "result: " + " ".join(str(s) for s in record.result),
    ]

    # the last roll changed: reported with its action index and roll number
    i = max(k for k, a in enumerate(record.actions) if a.startswith("roll "))
    n = sum(1 for a in record.actions[: i + 1] if a.startswith("roll "))
    true_value = int(record.actions[i].split()[1])
    record.actions[i] = "roll %d" % (true_value % 6 + 1)
    path = write(tmp_path, record, "tampered.json")
    proc = ludus("verify", path)
    assert proc.returncode == 1
    assert (
        "  action #%d (roll #%d): recorded 'roll %d' but the seed gives 'roll %d'"
        % (
            i,
            n,
            true_value % 6 + 1,
            true_value,
        )
        in proc.stdout.splitlines()
    ), proc.stdout

    # the seed withheld
    fields = json.loads(record.to_json())
    del fields["seed"]
    proc = ludus("verify", write(tmp_path, json.dumps(fields), "unrevealed.json"))
    assert proc.returncode == 1
    assert "seed not revealed: the rolls cannot be checked (commitment %s)" % commitment(SEED) in proc.stdout


def test_docs_python_examples_run():
    """The >>> examples of docs/dice-and-records.md give the output shown (pinned rolls, commitment)."""
    import doctest

    result = doctest.testfile(os.path.join(ROOT, "docs", "dice-and-records.md"), module_relative=False)
    assert result.failed == 0 and result.attempted >= 4


def test_deeply_nested_json_is_refused_not_a_traceback(tmp_path, capsys):
    path = write(tmp_path, "[" * 200000 + "]" * 200000, "deep.json")
    code, out, err = verify(path, capsys)
    assert code == 2 and out == ""
    assert err == "ludus verify: record %s is nested too deeply to be a record\n" % path


def test_a_record_of_thousands_of_wrong_rolls_lists_the_first_ten_and_counts_the_rest(tmp_path):
    # (a 13.5 MB record of 1.5 million "roll 1" printed 1,249,320 lines, 99 MB, before)
    seed = "11" * 32
    data = json.loads(GameRecord("ludo/classic/2", {}, seed=seed).to_json())
    data["seed"] = seed
    data["actions"] = ["roll 1"] * 20000  # (no six: no move, every roll another seat's)
    proc = ludus("verify", write(tmp_path, json.dumps(data)))
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1 and len(lines) == 12, lines[:15]
    wrong = int(lines[0].split(": ")[1].split()[0])
    assert wrong > 15000 and lines[1].startswith("  action #0 ")
    assert lines[-1] == "  ... and %d more (the first 10 are listed)" % (wrong - 10)

"""Issue 39, items 10 and 11, on a whole Ludo device (ludus.device on the fake platform, as in
test_club_board.py): a game whose board went to the REPL goes on with fresh dice, re-committed in its
record; `names`, `bots` and `new_game` in a game are noted in its record and in the board's season;
`ludus verify` accepts such a record and shows its notes. CPython only: a Ludo device does not fit the
unix port's 160K beside the runner (the firmware code itself runs on both: tests/firmware)."""

import json

import pytest
from ludus.dice import commitment, seed_from_hex
from ludus.record import GameRecord
from ludus_host.cli import main
from test_club_board import DANISH_END, _board, _finish

pytestmark = pytest.mark.cpython_only

NAMES = {"names": {"green": "Anna", "red": "Søren"}, "season": "danish"}
TWO_OUT = "ludo danish seats=gr turn=g rolls=1 g=home,home,green.c2,green.c4 r=t3,base,base,base"


def _keep_all(b):
    b.keep = lambda line: b.out.append(line) if '"grb"' not in line else None


def _records(b):
    return [GameRecord.from_json(r["record"]) for r in b.events(None, "reply") if "record" in r]


def test_a_game_stopped_into_the_repl_goes_on_with_fresh_dice_that_verify(tmp_path, capsys):
    from ludus.device import Stop

    b = _board(NAMES)
    _keep_all(b)
    b.at(300, lambda: b.send({"cmd": "stop", "id": 1}))
    with pytest.raises(Stop):
        b.run(500)
    (first,) = b.events("reseed")  # (the journal's game, begun by the test, restored at boot)
    seed_before_repl = first["seed_sha256"]
    flash, files = b.flash, b.platform.files
    at_the_repl = bytes(flash.data)  # what anyone at the REPL could read
    # machine.reset() at the REPL: the game comes back, its dice re-committed before any roll
    again = _board(NAMES, flash, files)
    _keep_all(again)
    again.at(200, lambda: again.send({"cmd": "journal", "id": 2}))
    _finish(again)
    again.at(1500, lambda: again.send({"cmd": "games", "id": 3}))
    again.run(1700)
    (reseed,) = again.events("reseed")
    assert reseed["why"] == "stopped" and reseed["actions"] == 0
    assert commitment(seed_from_hex(reseed["seed"])) == seed_before_repl  # the old seed revealed...
    assert reseed["seed_sha256"] != seed_before_repl  # ...and a new one committed
    journal = next(r for r in again.events(None, "reply") if r.get("id") == 2)["state"]
    assert journal["seed"] is None  # (the link never gives the new seed out)
    (over,) = again.events("game_over")
    assert commitment(seed_from_hex(over["seed"])) == reseed["seed_sha256"]
    assert reseed["seed"].encode() in at_the_repl and over["seed"].encode() not in at_the_repl
    (record,) = _records(again)
    assert [n.get("reseed") or n.get("stopped") for n in record.notes] == [
        "restart",
        "the stop command",
        "stopped",
    ]
    assert record.verify() == []
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("verified: ")
    assert out[3] == (
        "note: after 0 actions: the board was stopped into the REPL (the stop command): the dice seed"
        " on its flash could be read there"
    )
    assert out[4].startswith(
        "note: after 0 actions: dice re-committed (the board had been stopped into the REPL): seed %s..."
        % reseed["seed"][:16]
    )


def test_names_and_bots_changed_in_a_game_are_in_its_record_and_the_season(tmp_path, capsys):
    b = _board(NAMES)
    _keep_all(b)
    b.at(200, lambda: b.send({"cmd": "names", "id": 1, "names": {"green": "Bo", "red": "Søren"}}))
    b.at(250, lambda: b.send({"cmd": "bots", "id": 2, "bots": {"red": "strong"}}))
    b.at(300, lambda: b.send({"cmd": "bots", "id": 3, "bots": {"red": "strong"}}))  # (no change: no note)
    _finish(b)
    b.at(1500, lambda: b.send({"cmd": "games", "id": 4}))
    b.at(1550, lambda: b.send({"cmd": "season", "id": 5}))
    b.run(1700)
    (record,) = _records(b)
    assert record.players == {0: "Bo", 2: "Søren"}
    assert record.notes[1:] == [
        {"at": 0, "names": {"0": "Bo", "2": "Søren"}, "was": {"0": "Anna", "2": "Søren"}},
        {"at": 0, "bots": {"2": "strong"}, "was": {}},
    ]
    assert record.verify() == []
    (season,) = [r for r in b.events(None, "reply") if r.get("id") == 5]
    key = record.seed_sha256[:16]
    assert season["season"]["notes"] == [
        {"game": key, "at": 0, "names": {"0": "Bo", "2": "Søren"}, "was": {"0": "Anna", "2": "Søren"}},
        {"game": key, "at": 0, "bots": {"2": "strong"}, "was": {}},
    ]
    # the season as `ludus games` and `ludus season` print it
    from ludus_host.commands.games import season_table
    from ludus_host.records.season import text_of

    text = text_of(season_table(season), "danish").splitlines()
    assert text[-2:] == [
        "note: game %s: after 0 actions: renamed: seat 0 'Anna' -> 'Bo'" % key,
        "note: game %s: after 0 actions: who plays: seat 2 a person -> the strong bot" % key,
    ]
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["season", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == "note: game %s: after 0 actions: renamed: seat 0 'Anna' -> 'Bo'" % path
    assert "Bo" in out[2] and "Anna" not in "".join(out[:-2])  # (the win is Bo's, the note says who)


def test_a_game_abandoned_by_new_game_is_noted_in_its_record_and_the_season():
    b = _board(NAMES, start=TWO_OUT)
    _keep_all(b)
    b.at(600, lambda: b.platform.put(b.cell("green.c2"), 0))
    b.at(700, lambda: b.platform.put(b.cell("green.c3"), 1))
    b.at(1200, lambda: b.send({"cmd": "new_game", "id": 1, "game": "ludo/danish"}))
    b.at(1500, lambda: b.send({"cmd": "games", "id": 2}))
    b.at(1550, lambda: b.send({"cmd": "season", "id": 3}))
    b.run(1700)
    assert [e["move"] for e in b.events("move")] == ["1 green.2 c2-c3"]
    (record,) = _records(b)
    assert record.result is None and record.notes[-1] == {"at": 1, "ended": "abandoned"}
    assert record.verify() == []
    (season,) = [r for r in b.events(None, "reply") if r.get("id") == 3]
    assert season["season"]["games"] == 0
    assert season["season"]["notes"] == [
        {"game": record.seed_sha256[:16], "at": 1, "ended": "abandoned", "players": ["Anna", "Søren"]}
    ]
    (counted,) = b.events("season")
    assert counted["counted"] == "abandoned"
    assert json.loads(b.platform.files["season.json"])["seen"] == [record.seed_sha256[:16]]


def test_the_monitor_says_a_re_commit_and_an_abandoned_game_in_words():
    from ludus_host.link.words import describe

    seed, new = "ab" * 32, "cd" * 32
    line = describe({"event": "reseed", "why": "stopped", "actions": 12, "seed": seed, "seed_sha256": new})
    assert (
        line
        == "dice re-committed after 12 actions (stopped): seed %s... revealed, new commitment %s..."
        % (
            seed[:16],
            new[:16],
        )
    )
    season = {"event": "season", "rules": "danish", "counted": "abandoned", "games": 0, "leader": None}
    assert "a game abandoned noted (it counts for nothing), 0 games" in describe(season)
    assert "the game counted" in describe(dict(season, counted=["x"]))  # (a board's words are data)


def test_a_board_s_season_with_bad_notes_is_named_not_a_traceback():
    from ludus_host.commands.games import GamesError, season_table
    from ludus_host.records.notes import notes_lines

    table = {"standings": [], "ties": [], "games": 0, "playoffs": [], "champion": None}
    for notes in (5, [5], [{"x": 1}, "y"]):
        with pytest.raises(GamesError, match="notes are not a list of objects"):
            season_table({"rules": "danish", "season": dict(table, notes=notes)})
    assert season_table({"rules": "danish", "season": table}) is not None  # (a board from before notes)
    odd = [{"names": 5, "at": 1}, {"bots": {"1": None}, "was": []}, {"slept": 1}]
    assert notes_lines(odd) == [
        "note: a note that cannot be read: at, names",
        "note: a note that cannot be read: bots, was",
        "note: a note of an unknown kind: slept",
    ]


def test_bots_changed_by_set_config_in_a_game_are_noted_before_its_reset():
    # set_config resets the board and the game goes on, restored, with the new config's bots: the
    # record has no other way to say that the board now plays red
    b = _board(NAMES)
    _keep_all(b)
    config = {"board": "ludo52", "game": "ludo/danish", "bots": {"red": "strong"}}
    config.update(NAMES)
    b.at(150, lambda: b.send({"cmd": "set_config", "id": 1, "config": config}))
    b.at(1000, lambda: b.send({"cmd": "set_config", "id": 2, "config": config}))  # (the same: no note)
    b.at(2000, b.fill)
    b.at(2100, lambda: seen.append(b.device.app.referee.bot_levels()))
    b.at(2200, lambda: b.platform.put(b.cell("green.c4"), 0))
    b.at(2300, lambda: b.platform.put(b.binding.cells(b.names.index("green.home"))[3], 1))
    seen = []
    b.at(3500, lambda: b.send({"cmd": "games", "id": 3}))
    b.run(3700)
    assert [r["ok"] for r in b.events(None, "reply") if r.get("id") in (1, 2)] == [True, True]
    assert len(b.events("boot")) == 3 and seen == [{2: "strong"}]
    (record,) = _records(b)
    assert [n for n in record.notes if "bots" in n] == [{"at": 0, "bots": {"2": "strong"}, "was": {}}]
    assert record.verify() == []


def test_names_changed_in_config_json_while_the_board_was_off_are_noted_at_the_restore():
    from device_bench import SEED
    from ludus.dice import Dice
    from ludus.hw.fake import FakeFlash
    from ludus.record.journal import Journal

    flash = FakeFlash(4, 1024)  # the game as the board began it: with its players' names
    dice = Dice(SEED)
    start = {"start": DANISH_END, "options": {}, "players": {"0": "Anna", "2": "Søren"}}
    start.update(seed_sha256=dice.commitment(), seed=dice.seed_hex(), dice_used=0)
    Journal(flash).begin(start)
    # at the REPL, config.json rewritten with another name for green: the restore takes it, and says so
    renamed = {"names": {"green": "Eve", "red": "Søren"}, "season": "danish"}
    again = _board(renamed, flash, {})
    _finish(again)
    again.at(1500, lambda: again.send({"cmd": "games", "id": 2}))
    again.run(1700)
    (record,) = _records(again)
    assert record.players == {0: "Eve", 2: "Søren"}
    assert {"at": 0, "names": {"0": "Eve", "2": "Søren"}, "was": {"0": "Anna", "2": "Søren"}} in record.notes

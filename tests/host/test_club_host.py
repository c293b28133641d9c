"""The club on the laptop (docs/club.md): `ludus season` by the names records carry, `ludus games PORT`
against the firmware on the unix port with finished games in its journal, and the simulator's names,
season and `name` script lines."""

import json
import os

import pytest
from ludus.errors import NotationError
from test_season import played, season_cmd, write
from tools import ROOT, ludus, tool

pytestmark = pytest.mark.cpython_only

NAMES = {0: "Anna", 1: "Bo", 2: "Cy", 3: "Søren"}
DANISH_END = "ludo danish seats=gr turn=g rolls=1 g=home,home,home,green.c4 r=t3,base,base,base"


def named(k, names=NAMES, start="ludo/danish/4"):
    record = played(k, start)
    record.players = {seat: names[seat] for seat in names}
    return record


def test_a_season_counts_the_names_records_carry_and_refuses_one_game_twice(tmp_path):
    records = [named(k) for k in range(1, 5)]
    paths = [write(tmp_path, "g%d.json" % k, r) for k, r in enumerate(records)]
    out = tmp_path / "t.json"
    r = season_cmd(*paths, "--json", out)
    assert r.returncode == 0, r.stderr
    table = json.loads(out.read_text())
    want = {}
    for rec in records:
        for place, seat in enumerate(rec.result):
            want[NAMES[seat]] = want.get(NAMES[seat], 0) + (3, 2, 1, 0)[place]
    assert {row["player"]: row["points"] for row in table["standings"]} == want
    assert "Søren" in r.stdout and "green" not in r.stdout
    # the same game under two file names is one game, not two
    again = write(tmp_path, "copy.json", records[0])
    r = season_cmd(*paths, again)
    assert r.returncode == 2 and "copy.json: this game is counted already" in r.stderr


def _journal_image(path, games):
    # the journal's flash as a board leaves it after these finished games (8 blocks of 4 KiB)
    from ludus.hw.fake import FakeFlash
    from ludus.record.journal import Journal

    flash = FakeFlash(8, 4096)
    journal = Journal(flash)
    for record in games:
        players = {str(s): n for s, n in record.players.items()}
        journal.begin(
            {
                "start": record.start,
                "options": {},
                "players": players,
                "seed_sha256": record.seed_sha256,
                "seed": record.seed,
                "dice_used": 0,
            }
        )
        for action in record.actions:
            journal.add(action)
        journal.end(json.dumps({"result": record.result, "players": players}))
    path.write_bytes(bytes(flash.data))


@pytest.fixture(scope="module")
def ludo_tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("games")
    config = root / "config.json"
    config.write_text(json.dumps({"board": "ludo52", "game": "ludo/danish", "season": "danish"}))
    proc = ludus("flash", "--stage", str(root / "tree"), "--march", "x64", "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    return str(root / "tree")


def test_ludus_games_fetches_saves_and_shows_the_season_of_a_board(ludo_tree, tmp_path):
    # two short two-player Danish games finished on a board (its journal), fetched over its link
    two = {0: "Anna", 2: "Søren"}
    from ludus.ludo.game import start_position
    from ludus.ludo.rules import rules_from_spec

    start = start_position(rules_from_spec("danish"), (0, 2)).notation()
    games = [named(k, two, start) for k in (1, 2)]
    image = tmp_path / "flash.bin"
    _journal_image(image, games)
    port = "exec:%s -X heapsize=512K %s %s --flash %s" % (
        tool("micropython"),
        os.path.join(ROOT, "tests", "unix_board.py"),
        ludo_tree,
        image,
    )
    saved = tmp_path / "saved"
    proc = ludus("games", port, "--save", str(saved), "--season", timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "2 finished games kept on the board" in out
    assert out.count("; verified") == 2 and "1. Anna" in out + "1. Søren"
    files = sorted(os.listdir(saved))
    assert files == sorted("game-%s.json" % g.seed_sha256[:16] for g in games)
    for name in files:
        assert ludus("verify", str(saved / name)).returncode == 0
        assert json.loads((saved / name).read_text())["players"] == {"0": "Anna", "2": "Søren"}
    # the board's season: the newest game, counted at boot (the board had no season.json: as after a
    # power cut between the journal's end and the season's file)
    assert "season: danish, 1 games" in out
    # fetched again: nothing saved twice
    proc = ludus("games", port, "--save", str(saved), timeout=120)
    assert "0 new records saved" in proc.stdout and "already saved" in proc.stdout
    # and the saved records make the season on the laptop
    r = season_cmd(*[saved / name for name in files])
    assert r.returncode == 0 and "season: danish, 2 games" in r.stdout


def test_ludus_games_names_a_board_that_does_not_answer():
    proc = ludus("games", "exec:cat", "--wait", "1", timeout=30)
    assert proc.returncode == 2 and "no answer to 'games' from the board in 1 s" in proc.stderr
    proc = ludus("games", "/dev/no-such-port")
    assert proc.returncode == 2 and "cannot open /dev/no-such-port" in proc.stderr
    proc = ludus("games", "exec:cat", "--last", "x")
    assert proc.returncode == 2 and "--last" in proc.stderr and "Traceback" not in proc.stderr


def _bots_game_from_the_start(club):
    # a whole two-player Danish game from its start, the board playing both seats, a person carrying
    # out what it lights: the season the club then has
    from ludus_host.sim.table import LiveTable
    from sim_play import bots_play_out

    t = LiveTable("ludo/danish/4", seed="00" * 32, club=club)
    t.act({"do": "bots", "bots": {"green": "strong", "red": "preferred"}})
    t.act({"do": "setup", "start": "ludo/danish/2"})
    t.advance(t.now + 500)
    bots_play_out(t, 3000)
    assert t.state()["phase"] == "over"
    return t.state()["season"]


def _finish_on(table):
    table.act({"do": "start", "position": DANISH_END})
    table.advance(table.now + 500)
    table.act({"do": "lift", "cell": "green.c4"})
    table.advance(table.now + 300)
    table.act({"do": "place", "cell": "green.home.3"})
    table.advance(table.now + 1000)


def test_the_simulator_names_the_seats_keeps_the_season_and_writes_name_lines(tmp_path):
    from ludus_host.sim.table import Club, LiveTable, replay_script

    club = Club()
    table = LiveTable("ludo/danish/4", seed="00" * 32, club=club)
    table.act({"do": "names", "names": {"green": "Anna", "red": "Søren"}})
    _finish_on(table)
    state = table.state()
    assert state["players"] == {"0": "Anna", "2": "Søren"}
    assert any(
        "Anna (Green) wins. Places: 1. Anna (Green), 2. Søren (Red)" in text for _, text in state["log"]
    )
    # a game from a typed position (one move from its end) is no game of the season: only games from a
    # start are counted
    assert state["season"]["games"] == 0
    assert "season: not counted, the game began from a typed position" in state["log"][-1][1]
    season = _bots_game_from_the_start(club)
    assert season["games"] == 1
    assert sorted((r["player"], r["points"]) for r in season["standings"]) in (
        [("Anna", 3), ("Søren", 2)],
        [("Anna", 2), ("Søren", 3)],
    )
    assert json.loads(table.record())["players"] == {"0": "Anna", "2": "Søren"}
    script = table.script()
    assert "name green Anna" in script and "name red Søren" in script
    # the next table keeps the names and the season, as a board keeps its config and season.json
    second = LiveTable("ludo/danish/4", seed="00" * 32, club=club)  # (the same seed: another game)
    assert second.state()["names"] == {"green": "Anna", "red": "Søren"}
    second.act({"do": "names", "names": {"green": "Søren", "red": "Anna"}})  # (a game of its own)
    assert second.state()["season"]["games"] == 1  # kept from the first table
    _finish_on(second)
    assert second.state()["season"]["games"] == 1  # (a typed position again: not counted)
    second.act({"do": "new_season"})
    assert second.state()["season"]["games"] == 0
    # the saved script replays to the same names in its record
    path = tmp_path / "named.play"
    path.write_text(script)
    proc = ludus("play", str(path), "--board", "ludo52", "--game", "ludo/danish/4", "--seed", "00" * 32)
    assert proc.returncode == 0, proc.stderr
    over = [json.loads(line) for line in proc.stdout.splitlines() if '"game_over"' in line]
    assert over and over[0]["players"] == {"0": "Anna", "2": "Søren"}
    assert replay_script  # (the page's replay reads the same lines: test_sim.py)


def test_bad_names_are_named_and_change_nothing():
    from ludus_host.sim.table import LiveTable

    table = LiveTable("ludo/danish/4", seed="00" * 32)
    for names, words in (
        ({"green": "Anna", "red": "anna"}, "two seats are called"),
        ({"purple": "Anna"}, "'purple' is not a seat"),
        ({"green": "#1"}, "cannot be written in a play script"),
        (["Anna"], "names: give"),
        ({"green": "x" * 17}, "1 to 16 characters"),
    ):
        with pytest.raises(NotationError) as err:
            table.act({"do": "names", "names": names})
        assert words in str(err.value)
    assert table.state()["names"] == {}

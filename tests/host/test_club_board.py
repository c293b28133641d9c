"""The season the board keeps in season.json as games end and through a power cut, and the link's
`names` and `season` commands, on a whole Ludo device (ludus.device on the fake platform, docs/club.md).
Here, on CPython, and not in tests/firmware: a device with the 52-square board and a Ludo referee does
not fit the 64-bit unix port's 160K beside the test runner (it boots, then cannot restore the game for
want of heap). The code they drive runs on both runtimes in tests/firmware/test_club*.py."""

import json

DANISH_END = "ludo danish seats=gr turn=g rolls=1 g=home,home,home,green.c4 r=t3,base,base,base"


# ---- the board ---------------------------------------------------------------------------------------


def _board(config, flash=None, files=None, start=DANISH_END):
    from device_bench import SEED, Bench, _paths
    from ludus.dice import Dice
    from ludus.hw.fake import FakeFlash
    from ludus.record.game import GameRecord
    from ludus.record.journal import Journal

    if flash is None:  # the game's last move still to make, in the journal as after a power cut
        flash = FakeFlash(4, 1024)  # (small: a Ludo device leaves the unix port's 160K little room)
        dice = Dice(SEED)
        state = {"record": GameRecord(start, {}, dice.commitment()).to_json()}
        state["seed"] = dice.seed_hex()
        state["dice_used"] = 0
        Journal(flash).begin(state)
    c = {"board": "ludo52", "game": "ludo/danish"}
    c.update(config)
    if files is None:
        files = {}
    files["config.json"] = json.dumps(c)
    b = Bench(flash=flash, files=files, paths=_paths("ludo52"))
    kept = b.out

    def keep(line):  # only what the tests read: a Ludo device leaves little heap on the unix port
        if '"reply"' in line or '"season"' in line or '"game_over"' in line or '"fault"' in line:
            kept.append(line)

    b.keep = keep

    def fill():
        ref = b.device.app.referee
        game = ref.game
        counts = bytearray(len(game.place_names))
        game.fill_counts(counts)
        for g in range(len(counts)):
            cells = ref.places.cells(g)
            for k in range(counts[g]):
                b.platform.put(cells[k], 1)
        b.binding = ref.places
        b.names = game.place_names

    b.at(50, fill)
    b.fill = fill  # (again after a reset: the bench's sensors start empty)
    return b


def _finish(b):
    b.at(600, lambda: b.platform.put(b.cell("green.c4"), 0))
    b.at(700, lambda: b.platform.put(b.binding.cells(b.names.index("green.home"))[3], 1))


def test_the_board_counts_a_finished_game_in_its_season_by_name():
    b = _board({"names": {"green": "Anna", "red": "Søren"}, "season": "danish"})
    _finish(b)
    b.at(1500, lambda: b.send({"cmd": "season", "id": 1}))
    b.at(1550, lambda: b.send({"cmd": "games", "id": 2}))
    b.run(1700)
    assert not b.events("fault"), b.events("fault")
    (over,) = b.events("game_over")
    assert over["players"] == {"0": "Anna", "2": "Søren"}
    (counted,) = b.events("season")
    assert counted["counted"] == "game" and counted["leader"] == "Anna" and counted["points"] == 3
    kept = json.loads(b.platform.files["season.json"])
    assert kept["totals"] == {"Anna": 3, "Søren": 2} and kept["rules"] == "danish"
    replies = {r["id"]: r for r in b.events(None, "reply") if "record" not in r}
    table = replies[1]["season"]
    assert [(r["player"], r["points"]) for r in table["standings"]] == [("Anna", 3), ("Søren", 2)]
    (game,) = [r for r in b.events(None, "reply") if "record" in r]
    assert json.loads(game["record"])["players"] == {"0": "Anna", "2": "Søren"}


def test_a_power_cut_before_the_season_had_the_game_counts_it_at_boot_and_only_once():
    from ludus.club import SEASON_FILE

    b = _board({"names": {"green": "Anna", "red": "Søren"}, "season": "danish"})
    _finish(b)
    b.run(1000)
    assert b.events("season")
    flash = b.flash
    files = b.platform.files
    del files[SEASON_FILE]  # as if the power went between the journal's end and season.json
    again = _board({"names": {"green": "Anna", "red": "Søren"}, "season": "danish"}, flash, files)
    again.run(300)
    (counted,) = again.events("season")
    assert counted["games"] == 1 and json.loads(files[SEASON_FILE])["totals"]["Anna"] == 3
    third = _board({"season": "danish"}, flash, files)
    third.run(300)
    assert not third.events("season") and json.loads(files[SEASON_FILE])["games"] == 1


def test_names_and_season_over_the_link_are_checked_and_kept_in_the_config():
    b = _board({})
    b.at(100, lambda: b.send({"cmd": "names", "id": 1, "names": {"green": "Anna", "red": "Søren"}}))
    b.at(140, lambda: b.send({"cmd": "names", "id": 2, "names": {"green": "Anna", "red": "anna"}}))
    b.at(180, lambda: b.send({"cmd": "season", "id": 3}))
    b.at(220, lambda: b.send({"cmd": "season", "id": 4, "new": True}))
    b.at(260, lambda: b.send({"cmd": "season", "id": 5, "rules": "nonsense"}))
    b.at(300, lambda: b.send({"cmd": "season", "id": 6, "rules": "danish"}))
    _finish(b)
    b.run(1500)
    r = {x["id"]: x for x in b.events(None, "reply")}
    assert r[1]["ok"] and r[1]["players"] == {"0": "Anna", "2": "Søren"}
    assert not r[2]["ok"] and "two seats are called" in r[2]["error"] and "nothing changed" in r[2]["error"]
    assert r[3]["ok"] and r[3]["season"] is None
    assert not r[4]["ok"] and "no season is kept" in r[4]["error"]
    assert not r[5]["ok"] and "season 'nonsense'" in r[5]["error"]
    assert r[6]["ok"] and r[6]["season"]["games"] == 0
    config = json.loads(b.platform.files["config.json"])
    assert config["names"] == {"green": "Anna", "red": "Søren"} and config["season"] == "danish"
    (over,) = b.events("game_over")  # the names set over the link are the finished game's
    assert over["players"] == {"0": "Anna", "2": "Søren"}
    assert json.loads(b.platform.files["season.json"])["totals"] == {"Anna": 3, "Søren": 2}

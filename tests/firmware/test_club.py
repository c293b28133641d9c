"""The club (docs/club.md): players' names in the config and the game record; the season counted by
name, its play-offs, kept as JSON, and kept aside rather than overwritten. Runs on both runtimes."""

import json

from ludus.errors import ConfigError, NotationError
from support import message_of, raises

GROW_NAMES = True  # whole referees and a device: the unix port's name pool is grown first

DANISH_END = "ludo danish seats=gr turn=g rolls=1 g=home,home,home,green.c4 r=t3,base,base,base"


# ---- names -------------------------------------------------------------------------------------------


def test_a_name_is_short_printable_text_and_no_two_seats_share_one():
    from ludus.record.players import name_fault, players_fault, seat_players

    assert name_fault("Søren") is None and name_fault("Anna B.") is None
    assert "1 to 16 characters" in name_fault("") and "1 to 16 characters" in name_fault("x" * 17)
    assert "no space at either end" in name_fault(" Anna")
    assert "no control characters" in name_fault("An\nna")
    assert "is text" in name_fault(7)
    assert "two seats are called" in players_fault({0: "Anna", 2: "anna"})
    # seats nobody named are called by their colour; a colour a player took gets the seat number
    got = seat_players([0, 1, 2], {1: "red"}, lambda s: ("green", "yellow", "red")[s])
    assert got == {0: "green", 1: "red", 2: "red 3"}


def test_config_names_are_checked_seat_by_seat():
    from ludus.config import names_fault, read_config, seat_names

    config, faults = read_config(json.dumps({"game": "ludo/danish", "names": {"green": "Anna", "2": "Bo"}}))
    assert not faults and seat_names(config) == {0: "Anna", 2: "Bo"}
    assert "'purple' is not a seat" in names_fault({"purple": "Anna"}, "ludo/classic")
    assert "cannot be called 'Red'" in names_fault({"green": "Red"}, "ludo/classic")
    assert "two seats are called" in names_fault({"green": "Anna", "red": "ANNA"}, "ludo/classic")
    assert "names must be an object" in names_fault(["Anna"], "ludo/classic")
    assert names_fault({"5": "Anna"}, "checkers") is None
    config, faults = read_config(json.dumps({"names": {"green": ""}, "season": "nonsense"}))
    assert config["names"] == {} and config["season"] is None
    assert any("1 to 16 characters" in f for f in faults)
    assert any(f.startswith("season 'nonsense'") for f in faults)
    config, faults = read_config(json.dumps({"season": "danish"}))
    assert not faults and config["season"] == "danish"


def test_the_record_keeps_the_names_and_refuses_bad_ones():
    from ludus.record.game import GameRecord

    record = GameRecord.new(DANISH_END, seed=bytes(32))
    record.players = {0: "Anna", 2: "Søren"}
    text = record.to_json()
    assert '"players": {"0": "Anna", "2": "Søren"}' in text
    again = GameRecord.from_json(text)
    assert again.players == {0: "Anna", 2: "Søren"} and again.to_json() == text
    assert GameRecord.from_json(text.replace(', "2": "Søren"', "")).players == {0: "Anna"}
    for bad, words in (
        ('{"0": "Anna", "7": "Bo"}', "'7' is not a seat number"),
        ('{"0": "Anna", "2": "anna"}', "two seats are called"),
        ('{"0": ""}', "1 to 16 characters"),
        ('["Anna"]', "must be an object"),
    ):
        start = text.find('"players": ') + len('"players": ')
        end = text.find("}", start) + 1
        err = raises(NotationError, GameRecord.from_json, text[:start] + bad + text[end:])
        assert "players" in message_of(err) and words in message_of(err), message_of(err)
    # a seat that is not in the game is a problem verify names
    stray = GameRecord.from_json(text.replace('"2": "Søren"', '"1": "Søren"'))
    assert any("players: seat 1 is not in the game" in p for p in stray.verify())


# ---- the season --------------------------------------------------------------------------------------


def _season_with_a_tie():
    from ludus.ludo.season import Season

    season = Season("danish")
    players = ["Anna", "Bo", "Cy", "Di"]
    assert season.add(players, ["Anna", "Bo", "Cy", "Di"], key="k1") == "game"
    assert season.add(players, ["Bo", "Anna", "Di", "Cy"], key="k2") == "game"
    return season, players


def test_a_season_counts_places_by_name_and_a_play_off_settles_a_tie():
    season, players = _season_with_a_tie()
    table = season.result()
    assert [(r["player"], r["points"], r["tied"]) for r in table["standings"]] == [
        ("Anna", 5, True),
        ("Bo", 5, True),
        ("Cy", 1, True),
        ("Di", 1, True),
    ]
    assert table["ties"] == [["Anna", "Bo"], ["Cy", "Di"]] and table["champion"] is None
    assert table["standings"][0]["places"] == [1, 1, 0, 0] and table["standings"][0]["games"] == 2
    # a game of exactly the tied two is their play-off: no league points, the tie settled
    assert season.add(["Bo", "Anna"], ["Bo", "Anna"], label="playoff.json", key="k3") == "playoff"
    table = season.result()
    assert table["champion"] == "Bo" and table["games"] == 2 and table["playoffs"] == ["playoff.json"]
    assert [r["player"] for r in table["standings"]] == ["Bo", "Anna", "Cy", "Di"]
    assert table["ties"] == [["Cy", "Di"]]
    # a league game reopens every tie; the same game twice is refused
    season.add(players, ["Cy", "Di", "Anna", "Bo"], key="k4")
    assert "counted already" in message_of(raises(ConfigError, season.add, players, players, key="k4"))
    assert "did not play" in message_of(raises(ConfigError, season.add, ["Anna"], ["Eve"]))


def test_a_season_kept_as_json_comes_back_the_same():
    from ludus.ludo.season import Season

    season, players = _season_with_a_tie()
    season.add(["Bo", "Anna"], ["Anna", "Bo"], key="k3")
    again = Season.from_json(season.to_json())
    assert again.result() == season.result() and again.seen == ["k1", "k2", "k3"]
    again.add(players, ["Di", "Cy", "Bo", "Anna"], key="k5")  # and it goes on counting
    assert again.result()["games"] == 3
    for bad, words in (
        ("{", "not valid JSON"),
        ('{"format": "other"}', "format is not"),
        ('{"format": "ludus-season/1", "rules": "danish"}', "field"),
    ):
        assert words in message_of(raises(NotationError, Season.from_json, bad))


def test_a_damaged_season_file_or_another_rule_set_is_kept_aside_not_overwritten():
    from ludus.club import load, new_season
    from ludus.hw.fake import FakePlatform

    files = FakePlatform({"season.json": "{ torn"})  # (the board's files: a dict)
    season, note = load(files, "danish")
    assert season.result()["games"] == 0 and "kept as season-1.json" in note
    assert files.files["season-1.json"] == "{ torn"
    files.files["season.json"] = _season_with_a_tie()[0].to_json()
    season, note = load(files, "classic")
    assert season.rules == "classic" and "the danish season was kept as season-2.json" in note
    kept = new_season(files, "danish")
    assert kept == "season-3.json" and json.loads(files.files["season-3.json"])["games"] == 2
    assert json.loads(files.files["season.json"])["games"] == 0


def test_a_game_of_every_player_all_level_on_points_is_a_league_game_not_a_play_off():
    from ludus.ludo.season import Season

    season = Season("danish")
    players = ["Anna", "Bo", "Cy", "Di"]
    for k in range(4):  # each first, second, third and fourth once: all four on 6 points
        season.add(players, players[k:] + players[:k])
    assert season.result()["ties"] == [players]
    assert season.add(players, players) == "game" and season.result()["games"] == 5
    assert [r["points"] for r in season.result()["standings"]] == [9, 8, 7, 6]  # (points, not a play-off)


def test_a_season_shows_names_and_bots_changed_in_a_game_and_a_game_abandoned():
    from ludus.ludo.season import Season

    season = Season("danish")
    notes = [
        {"at": 0, "reseed": "restart", "seed": "00" * 32, "seed_sha256": "11" * 32},  # (not a club's)
        {"at": 4, "names": {"0": "Bo", "2": "Cy"}, "was": {"0": "Anna", "2": "Cy"}},
        {"at": 9, "bots": {"2": "strong"}, "was": {}},
        {"at": 12, "stopped": "Ctrl-C"},
    ]
    assert season.add(["Bo", "Cy"], ["Bo", "Cy"], label="g1.json", key="k1", notes=notes) == "game"
    season.abandon(["Anna", "Cy"], 7, label="k2", key="k2")
    table = season.result()
    assert [n.get("game") for n in table["notes"]] == ["g1.json", "g1.json", "g1.json", "k2"]
    assert table["notes"][0]["names"] == {"0": "Bo", "2": "Cy"} and "reseed" not in str(table["notes"])
    assert table["notes"][3] == {"game": "k2", "at": 7, "ended": "abandoned", "players": ["Anna", "Cy"]}
    assert table["games"] == 1 and [r["games"] for r in table["standings"]] == [1, 1]  # (counts nothing)
    assert "counted already" in message_of(raises(ConfigError, season.abandon, ["Anna"], 1, key="k2"))
    again = Season.from_json(season.to_json())
    assert again.result() == table
    data = json.loads(season.to_json())
    data["notes"] = [5]
    assert "field notes is missing or wrong" in message_of(
        raises(NotationError, Season.from_json, json.dumps(data))
    )
    del data["notes"]  # (a season kept before notes were)
    assert Season.from_json(json.dumps(data)).result()["notes"] == []


def test_a_game_abandoned_on_the_board_is_noted_in_its_season_once():
    from ludus.club import abandoned, count
    from ludus.hw.fake import FakePlatform
    from ludus.record.game import GameRecord

    files = FakePlatform({})

    class Game:
        seats = [0, 2]

    record = GameRecord.new("ludo/danish/2", seed=bytes(32))
    record.players = {0: "Anna", 2: "Bo"}
    for text in ("6", "1 green.0 base-t0", "3"):
        record.actions.append(text)
    kind, season, note = abandoned(files, "danish", record, Game())
    assert kind == "abandoned" and note is None and season.result()["games"] == 0
    (noted,) = json.loads(files.files["season.json"])["notes"]
    assert noted["at"] == 3 and noted["ended"] == "abandoned" and noted["players"] == ["Anna", "Bo"]
    assert abandoned(files, "danish", record, Game())[0] is None  # (once)
    record.finish([0, 2])
    assert count(files, "danish", record, Game())[0] is None  # (and never counted after all)

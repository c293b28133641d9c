"""Ludo interfaces: rule sets and presets (with their clashes), named starts, the position notation,
move text and the rule an illegal move breaks, the sensing contract, and the Danish season table."""

from ludus.errors import ConfigError, IllegalMoveError, NotationError
from ludus.ludo import from_notation, start_position
from ludus.ludo.rules import PRESET_NAMES, rules_from_spec
from ludus.ludo.season import SeasonTable
from support import message_of, raises


def game(text):
    return from_notation("ludo " + text)


# --- rule sets and presets ----------------------------------------------------------------------------


def test_every_preset_has_a_named_start_for_two_to_four_players():
    for name in PRESET_NAMES:
        for n in (2, 3, 4):
            if name == "teamup" and n != 4:
                continue
            g = start_position("%s/%d" % (name, n))
            assert len(g.seats) == n and g.rules.spec() == (name if name != "custom" else "classic")


def test_start_with_chosen_seats():
    g = start_position("classic/2", ("yellow", "blue"))
    assert g.seats == (1, 3) and g.turn == 1 and g.awaiting_roll()  # the roll-off, yellow first
    assert g.notation() == "ludo classic seats=yb turn=y phase=order group=yb rolls=- " + (
        "y=base,base,base,base b=base,base,base,base"
    )
    assert start_position("danish/3", (3, 0, 1)).seats == (0, 1, 3)  # any order
    assert start_position("blitz", "gyb").seats == (0, 1, 3)  # letters; PLAYERS may be left out
    g = start_position(rules_from_spec("blitz"), [2, 0])  # a RuleSet
    assert g.seats == (0, 2) and g.pos[0] == g.pos[8] == 0  # Blitz start tokens out
    assert start_position("classic/4", None).seats == (0, 1, 2, 3)
    for spec, seats, words in (
        ("classic/3", ("green", "red"), "2 seats for 3 players"),
        ("classic/2", ("green", "yellow"), "two players sit opposite"),
        ("danish/2", (1, 2), "two players sit opposite"),
        ("classic/2", ("green", "green"), "green given twice"),
        ("classic/2", ("green", "purple"), "'purple'"),
        ("classic/2", (0, 4), "seat 4"),
        ("teamup", (0, 2), "teamup needs 4 players"),
        ("classic/5", (0, 1, 2, 3), "2 to 4 players, not 5"),
        ("classic", (0,), "2 to 4 players"),
    ):
        assert words in message_of(raises(ConfigError, start_position, spec, seats)), (spec, seats)
    assert "PRESET/PLAYERS" in message_of(raises(NotationError, start_position, "classic"))


def test_preset_values_come_from_their_sources():
    c = rules_from_spec("classic")
    assert (c.track, c.entry, c.safe, c.capture_pairs, c.exact_home, c.capture_again, c.home_again) == (
        52,
        (6,),
        "classic",
        1,
        1,
        1,
        1,
    )
    d = rules_from_spec("danish")
    assert (d.must_capture, d.capture_lap, d.stars, d.safe, d.entry_tries, d.points) == (
        1,
        1,
        1,
        "globes",
        3,
        (3, 2, 1, 0),
    )
    assert rules_from_spec("master").walls and rules_from_spec("arrow").arrows
    b = rules_from_spec("blitz")
    assert (b.start_tokens, b.capture_before_home, b.finish_tokens, b.clock) == (2, 1, 1, 5)
    assert (rules_from_spec("hebrew-40").track, rules_from_spec("hebrew-56").track) == (40, 56)
    assert rules_from_spec("hebrew-40").share == 0


def test_team_up_combines_with_other_presets():
    r = rules_from_spec("teamup+arrow")
    assert r.teams and r.arrows and r.spec() == "teamup+arrow"
    g = start_position("teamup+arrow/4")
    assert g.notation().split()[1] == "teamup+arrow"
    assert "4 players" in message_of(raises(ConfigError, start_position, "teamup/2"))


def test_custom_overrides_on_a_preset():
    r = rules_from_spec("custom:base=danish,entry=5.6,exact_home=0")
    assert r.entry == (5, 6) and not r.exact_home and r.stars
    assert r.spec() == "danish:entry=5.6,exact_home=0"
    assert rules_from_spec(r.spec()) == r
    assert rules_from_spec("custom:entry=5.6").spec() == "classic:entry=5.6"


def test_inconsistent_combinations_name_the_clash():
    for spec, words in (
        ("master:share=0", "walls need shared squares"),
        ("arrow:stars=1", "arrows and stars"),
        ("classic:arrows=1", "safe=starts"),
        ("hebrew-40:stars=1", "52-square track"),
        ("danish:must_capture=0", "capture_lap"),
        ("classic:dice_sum=1", "dice=2"),
        ("classic:entry=7", "not a die value"),
        ("custom:dice=2,dice_sum=1", "exact_home=0"),
        ("blitz:share=0", "one token per square"),
        ("master:stars=1,safe=globes", "walls with star or arrow jumps"),
        ("danish:walls=1", "walls and capture_pairs=0"),
        ("hebrew-56:safe=starts", "safe squares with one token per square"),
        ("danish:points=3.2.1", "four values"),
        ("classic:clock=-5", "clock=-5: expected a whole number in digits 0-9"),
        ("classic:clock=\u0664", "expected a whole number in digits 0-9"),
        ("classic:entry=\u00b2", "expected numbers joined by dots"),
        ("danish:entry=5,entry=6", "option entry is given twice"),
    ):
        err = raises(ConfigError, rules_from_spec, spec)
        assert words in message_of(err), (spec, message_of(err))
    assert "unknown rule option" in message_of(raises(ConfigError, rules_from_spec, "classic:speed=3"))
    assert "unknown Ludo preset" in message_of(raises(ConfigError, rules_from_spec, "ludo"))
    assert "expected 1 or 0" in message_of(raises(ConfigError, rules_from_spec, "classic:walls=maybe"))


# --- notation -----------------------------------------------------------------------------------------


def test_named_start_notation():
    g = start_position("danish/2")
    assert g.notation() == (
        "ludo danish seats=gr turn=g phase=order group=gr rolls=- g=base,base,base,base r=base,base,base,base"
    )
    g = start_position("blitz/2")
    assert g.notation().endswith("g=t0,t0,base,base r=t26,t26,base,base")


def test_notation_round_trips_every_field():
    text = (
        "ludo classic seats=gyrb turn=y rolls=6,3 bonus=1 sixes=1 placed=g "
        "g=home,home,home,home y=t14,c2,base,home r=t30,t30,base,base b=t40,base,base,base"
    )
    g = from_notation(text)
    assert g.notation() == text
    assert from_notation(g.notation()).notation() == text


def test_notation_errors_name_the_problem():
    for text, words in (
        ("ludo classic turn=g g=base,base,base,base", "seats= is missing"),
        ("ludo classic seats=gr turn=g g=base,base,base,base", "r= (the places of red's tokens) is missing"),
        ("ludo classic seats=gr turn=g g=base,base,base r=base,base,base,base", "exactly 4 tokens"),
        (
            "ludo classic seats=gr turn=g g=red.c1,base,base,base r=base,base,base,base",
            "not a place for a green",
        ),
        (
            "ludo classic seats=gr turn=y g=base,base,base,base r=base,base,base,base",
            "turn yellow is not playing",
        ),
        ("ludo classic seats=gr turn=g rolls=7 g=base,base,base,base r=base,base,base,base", "not possible"),
        ("ludo classic seats=gr turn=g color=x g=base,base,base,base r=base,base,base,base", "unknown field"),
        ("ludo hebrew-40 seats=gr turn=g g=t5,t5,base,base r=base,base,base,base", "one per square"),
        ("ludo classic seats=gr turn=g g=home,home,home,home r=base,base,base,base", "not placed"),
        ("checkers 2", "expected 'ludo RULES"),
    ):
        err = raises(NotationError, from_notation, text)
        assert words in message_of(err), (text, message_of(err))


# --- move text and illegal moves ------------------------------------------------------------------------


def test_move_text_round_trips():
    g = game("danish seats=gyr turn=g rolls=3 g=t1,t2,t48,base y=base,base,base,base r=t11,t5,t5,base")
    for m in g.legal_moves():
        assert g.parse_move(str(m)) == m
    assert sorted(str(m) for m in g.legal_moves()) == ["3 green.0 t1-t11 via t4 x red.0"]


def test_move_text_names_token_from_to_and_captures():
    g = game("classic seats=gr turn=g rolls=6 g=t20,base,base,base r=t26,t14,base,base")
    texts = sorted(str(m) for m in g.legal_moves())
    assert texts == ["6 green.0 t20-t26", "6 green.1 base-t0"]
    m = g.parse_move("6 green.0 t20-t26")
    assert (m.kind, m.seat, m.token, m.roll, m.frm, m.to, m.caps) == (1, 0, 0, 6, 20, 26, ())


def test_malformed_moves_raise_notation_errors():
    g = game("classic seats=gr turn=g rolls=6 g=t20,base,base,base r=base,base,base,base")
    for text in ("", "6", "6 green.9 t1-t2", "6 green.0 t20", "six green.0 t20-t26", "6 green.0 t20-t99"):
        raises(NotationError, g.parse_move, text)


def test_illegal_moves_name_the_rule():
    g = game("classic seats=gr turn=g rolls=5 g=t20,base,base,base r=base,base,base,base")
    for text, words in (
        ("6 green.0 t20-t26", "no waiting roll of 6"),
        ("5 red.0 base-t26", "it is green's turn"),
        ("5 green.0 t21-t26", "green.0 is on t20"),
        ("5 green.1 base-t0", "only on 6"),
        ("5 green.0 t20-t24", "goes to t25"),
    ):
        err = raises(IllegalMoveError, g.parse_move, text)
        assert words in message_of(err), (text, message_of(err))
    g = start_position("classic/2")
    assert "start order" in message_of(raises(IllegalMoveError, g.parse_move, "6 green.0 base-t0"))
    g = game("classic seats=gr turn=g rolls=5 g=c3,t9,t9,base r=base,base,base,base")
    assert "exact home" in message_of(raises(IllegalMoveError, g.parse_move, "5 green.0 c3-home"))
    err = raises(IllegalMoveError, g.parse_move, "5 green.1+green.2 t9-t14")
    assert "only under Master" in message_of(err)


def test_optional_move_parts_must_describe_the_move():
    # `via`, `lap` and `x` may be left out; when given they must say what the move does
    g = game(
        "arrow seats=gyrb turn=g rolls=3 g=t5,t2,t23,base y=t21,base,base,base r=t26,base,base,base"
        " b=t28,t28,base,base"
    )
    assert sorted(str(m) for m in g.legal_moves()) == [
        "3 green.0 t5-t21 via t8 x yellow.0",
        "3 green.1 t2-t5",
        "3 green.2 t23-t26",
    ]
    assert str(g.parse_move("3 green.0 t5-t8")) == "3 green.0 t5-t21 via t8 x yellow.0"
    assert str(g.parse_move("3 green.0 t5-t21 x yellow.0")) == "3 green.0 t5-t21 via t8 x yellow.0"
    for text, words in (
        ("3 green.0 t5-t21 via t9", "lands first on t8, not t9"),
        ("3 green.1 t2-t5 via t4", "lands on t5 directly"),
        ("3 green.1 t2-t5 lap", "no lap"),
        ("3 green.0 t5-t21 x red.0", "captures yellow.0"),
        ("3 green.1 t2-t5 x green.0", "own tokens are never captured"),
        ("3 green.2 t23-t26 x red.0", "safe square"),
        ("3 green.1 t2-t5 x blue.0", "blue.0 is on t28, not where this move lands (t5)"),
    ):
        err = raises(IllegalMoveError, g.parse_move, text)
        assert words in message_of(err), (text, message_of(err))
    g = game(
        "teamup seats=gyrb turn=g rolls=3 g=t2,base,base,base y=base,base,base,base r=t5,base,base,base"
        " b=base,base,base,base"
    )
    err = raises(IllegalMoveError, g.parse_move, "3 green.0 t2-t5 x red.0")
    assert "partners never capture each other" in message_of(err)
    for text in (
        "3 green.0 t2-t5 via t99",
        "3 green.0 t2-t5 x red",
        "3 green.0 t2-t5 lap lap x",
        "3 green.0+green.0 t2-t5",
    ):
        raises(NotationError, g.parse_move, text)


# --- sensing contract -----------------------------------------------------------------------------------


def test_place_names_follow_the_architecture():
    g = start_position("classic/4")
    names = g.place_names
    assert names[:2] == ("t0", "t1") and names[51] == "t51"
    assert names[52:59] == (
        "green.c0",
        "green.c1",
        "green.c2",
        "green.c3",
        "green.c4",
        "green.base",
        "green.home",
    )
    assert names[-1] == "blue.home" and len(names) == 52 + 4 * 7
    g = start_position("hebrew-40/2")
    assert len(g.place_names) == 40 + 4 * 5 and "green.home" not in g.place_names
    assert start_position("hebrew-56/2").place_names[56:64] == (
        "green.c0",
        "green.c1",
        "green.c2",
        "green.c3",
        "green.c4",
        "green.c5",
        "green.base",
        "green.home",
    )


def test_fill_counts_and_move_changes():
    g = game("classic seats=gr turn=g rolls=3 g=t2,c1,home,base r=t5,t5,base,base")
    buf = bytearray(len(g.place_names))
    g.fill_counts(buf)
    idx = g.place_names.index
    assert buf[idx("t2")] == 1 and buf[idx("t5")] == 2 and buf[idx("green.c1")] == 1
    assert buf[idx("green.home")] == 1 and buf[idx("green.base")] == 1 and buf[idx("red.base")] == 2
    assert buf[idx("yellow.base")] == 0 and sum(buf) == 8  # seats not playing have no tokens
    m = g.parse_move("3 green.0 t2-t5")
    changes = dict(g.move_changes(m))
    assert changes == {idx("t2"): -1, idx("t5"): 1 - 2, idx("red.base"): 2}
    before = bytearray(buf)
    g.push(m)
    g.fill_counts(buf)
    for i in range(len(buf)):
        assert buf[i] - before[i] == changes.get(i, 0)


def test_move_changes_of_a_wall_and_a_return_to_base():
    g = game("master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t5,t5,base,base")
    idx = g.place_names.index
    (m,) = g.legal_moves()
    # two green tokens arrive on t5 as two red ones leave it: t5's count does not change
    assert dict(g.move_changes(m)) == {idx("t2"): -2, idx("red.base"): 2}
    g = game("danish seats=gr turn=g rolls=3 g=t2,t3,base,base r=t5,t5,base,base")
    m = g.parse_move("3 green.0 t2-base via t5")
    assert dict(g.move_changes(m)) == {idx("t2"): -1, idx("green.base"): 1}


# --- season table -------------------------------------------------------------------------------------


def test_danish_season_points_and_play_off():
    table = SeasonTable(rules_from_spec("danish").points)
    table.add_game(["ann", "bo", "cy", "di"])
    table.add_game(["bo", "ann", "di", "cy"])
    assert table.standings() == [("ann", 5), ("bo", 5), ("cy", 1), ("di", 1)]
    assert table.ties() == [["ann", "bo"], ["cy", "di"]] and table.champion() is None
    table.add_playoff(["bo", "ann"])
    assert table.champion() == "bo" and table.standings()[0] == ("bo", 5)
    assert table.ties() == [["cy", "di"]]
    err = raises(ConfigError, table.add_playoff, ["bo", "cy"])
    assert "tied on points" in message_of(err)


def test_rule_set_defaults_are_the_table_of_options():
    from ludus.ludo.rules import FIELD_NAMES, RuleSet
    from ludus.ludo.spec import format_value, parse_value

    r = RuleSet()
    for name in FIELD_NAMES:
        value = getattr(r, name)
        assert parse_value(name, format_value(name, value)) == value, name
    assert rules_from_spec("classic") == r and r.spec() == "classic"


def test_season_table_from_played_danish_games():
    from ludus.bots.selfplay import random_game
    from ludus.ludo.geometry import COLOURS

    table = SeasonTable(rules_from_spec("danish").points)
    for seed in range(3):
        game, _stats = random_game("danish/4", seed)
        assert game.is_over() and sorted(game.placements()) == [0, 1, 2, 3]  # play on for every place
        table.add_game([COLOURS[s] for s in game.placements()])
    assert table.games == 3 and sum(p for _n, p in table.standings()) == 3 * (3 + 2 + 1 + 0)

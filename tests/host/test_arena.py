"""`ludus arena`: bots against bots, its JSON line, its checks of bad names, and that every core plays the
same games one core does; the opening line of the strong Chinese Checkers bot against the beam search it
came from."""

import json
import subprocess
import sys

import pytest
from ludus_host.bots.arena import Arena, paired_difference, play_games, wilson

pytestmark = pytest.mark.cpython_only


def _arena(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", "arena", *args], capture_output=True, text=True, timeout=600
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_arena_prints_a_table_and_ends_with_one_json_line():
    code, out, err = _arena("ludo/classic", "--seats", "strong,random,random,random", "--games", "200")
    assert code == 0, err
    last = json.loads(out.strip().splitlines()[-1])
    assert last["games"] == 200 and last["game"] == "ludo/classic" and last["unfinished"] == 0
    seats = last["seats"]
    assert [s["bot"] for s in seats] == ["strong", "random", "random", "random"]
    assert sum(s["wins"] for s in seats) == 200
    for s in seats:
        low, high = s["ci95"]
        assert low <= s["win_rate"] <= high and s["mean_decision_ms"] is not None
    # seeded, so this is a fact of these 200 games, not luck: the strong bot won most of them
    assert seats[0]["wins"] > 2 * max(s["wins"] for s in seats[1:])
    assert "200/200 games" in err  # progress on stderr
    assert "seat 0 strong" in out


def test_one_core_and_two_play_the_same_games():
    one = play_games("ludo/danish/2", ["strong", "random"], 40, seed=5, jobs=1)
    two = play_games("ludo/danish/2", ["strong", "random"], 40, seed=5, jobs=2)
    assert [s["wins"] for s in one["seats"]] == [s["wins"] for s in two["seats"]]


def test_solo_checkers_counts_the_moves_to_bring_the_set_home():
    out = play_games("checkers/solo", ["strong"], 2, jobs=1)
    assert out["seats"][0]["wins"] == 2 and out["moves_to_finish"] == {"mean": 27.0, "min": 27, "max": 27}
    alone = play_games("checkers/solo", ["strong"], 1, jobs=1, no_line=True)
    assert alone["no_line"] and 27 < alone["moves_to_finish"]["mean"] <= 60


def test_the_strong_checkers_bot_beats_the_greedy_one():
    out = play_games("checkers/2", ["strong", "greedy"], 6, jobs=2)
    assert out["seats"][0]["wins"] >= 5, out


@pytest.mark.parametrize(
    "args, words",
    [
        (["chess/2", "--seats", "strong"], "expected ludo/PRESET[/PLAYERS]"),
        (["ludo/foo", "--seats", "strong"], "unknown Ludo preset 'foo'"),
        (["ludo/danish/3", "--seats", "strong"], "3 players, but --seats names 1 bots"),
        (["ludo/classic", "--seats", "strong,greedy,random,random"], "no ludo bot 'greedy'"),
        (["checkers/2", "--seats", "strong,preferred"], "no checkers bot 'preferred'"),
        (["checkers/9", "--seats", "strong"], "arena game checkers/9"),
        (["ludo/classic", "--seats", "strong", "--games", "0"], "--games"),
    ],
)
def test_bad_arena_arguments_are_named(args, words):
    code, out, err = _arena(*args)
    assert code == 2 and words in err and "Traceback" not in err, err
    assert out == ""


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(80, 100)
    assert 0.71 < low < 0.72 and 0.86 < high < 0.87  # the textbook figures for 80 of 100
    assert Arena("checkers/solo", ["strong"]).players == 1


@pytest.mark.long
def test_the_opening_line_is_what_the_beam_search_finds():
    from ludus.bots.checkers import SOLO_LINE
    from ludus_host.bots.checkers_book import solo_line

    line = solo_line()
    assert len(line) == 27  # the proven minimum
    assert bytes(h for step in line for h in step) == SOLO_LINE


def test_the_docs_figures_and_plot_come_from_the_kept_arena_runs():
    import os

    from ludus_host.bots import figures as arena_figures

    with open(arena_figures.FIGURES, encoding="utf-8") as f:
        kept = json.load(f)
    assert len(kept) == len(arena_figures.RUNS)
    for (game, seats, games, no_line, versus), got in zip(arena_figures.RUNS, kept):
        assert got["game"] == game and [s["bot"] for s in got["seats"]] == seats.split(",")
        assert got["games"] == games and bool(got.get("no_line")) == no_line
        assert got.get("paired", {}).get("b") == versus
    with open(arena_figures.PLOT, encoding="utf-8") as f:
        assert f.read() == arena_figures.plot(kept)  # the plot drawn from them, as kept
    with open(os.path.join(os.path.dirname(arena_figures.FIGURES), "bots.md"), encoding="utf-8") as f:
        page = f.read()
    for got in kept:
        if got["games"] == 10000:  # every 10,000-game rate the page states is the kept one
            assert "%.1f%%" % (100 * got["seats"][0]["win_rate"]) in page, got["game"]


def test_a_paired_run_of_one_bot_against_itself_differs_by_nothing():
    # the same seeds with the same bot in the seat: every game alike, so the difference is exactly 0
    for level in ("strong", "random"):
        out = play_games(
            "ludo/classic", [level, "random", "random", "random"], 60, seed=3, jobs=1, versus=level
        )
        paired = out["paired"]
        assert paired["a_wins"] == paired["b_wins"] == out["seats"][0]["wins"]
        assert paired["only_a"] == paired["only_b"] == 0
        assert paired["difference"] == 0 and paired["ci95"] == [0, 0]


def test_a_paired_run_resolves_strong_against_random_and_is_the_same_on_two_cores():
    one = play_games(
        "ludo/danish", ["strong", "random", "random", "random"], 120, seed=2, jobs=1, versus="random"
    )
    two = play_games(
        "ludo/danish", ["strong", "random", "random", "random"], 120, seed=2, jobs=2, versus="random"
    )
    for k in ("a_wins", "b_wins", "only_a", "only_b", "difference", "ci95"):
        assert one["paired"][k] == two["paired"][k]
    paired = one["paired"]
    assert paired["difference"] == round((paired["a_wins"] - paired["b_wins"]) / 120, 4)
    assert paired["difference"] == round((paired["only_a"] - paired["only_b"]) / 120, 4)
    assert paired["ci95"][0] > 0  # the strong bot is better, resolved in 120 pairs


def test_paired_difference_interval():
    assert paired_difference([1, 0, 1, 1], [1, 0, 1, 1]) == (0.0, (0.0, 0.0))
    mean, (low, high) = paired_difference([1] * 60 + [0] * 40, [0] * 100)
    assert mean == 0.6 and 0.5 < low < 0.6 < high < 0.7


def test_the_reference_ludo_player_is_deterministic_and_plays_legal_moves():
    from ludus.bots.selfplay import SeededDie
    from ludus.ludo.game import start_position
    from ludus_host.bots.reference import ReferenceBot

    game = start_position("classic/4")
    die = SeededDie(4)
    bot = ReferenceBot(1, rollouts=4, horizon=1)
    chosen = 0
    while chosen < 6 and not game.placed:
        if game.awaiting_roll():
            game.apply_roll(die.roll())
            continue
        moves = game.legal_moves()
        m = bot.choose(game)
        assert m in moves and ReferenceBot(1, rollouts=4, horizon=1).choose(game) == m
        chosen += len(moves) > 1
        game.push(m)


def test_the_checkers_searcher_plays_legal_moves_the_same_way_each_time():
    from ludus.checkers.game import start_position
    from ludus_host.bots.searcher import SearchBot

    for setup in ("2", "4"):
        game = start_position(setup)
        for _ in range(12):
            m = SearchBot(3).choose(game)
            assert m in game.legal_moves() and SearchBot(3).choose(game) == m
            game.push(m)
    out = play_games("checkers/2", ["searcher", "greedy"], 2, jobs=1)
    assert out["unfinished"] == 0 and out["seats"][0]["mean_decision_ms"] is not None


def test_the_learned_ludo_evaluation_is_fitted_the_same_way_each_time():
    pytest.importorskip("numpy")
    from ludus.bots.selfplay import SeededDie
    from ludus.ludo.game import start_position
    from ludus_host.bots import learn

    one = learn.solve(*learn.fit("classic", 8, seed=2, progress=False))
    assert one == learn.solve(*learn.fit("classic", 8, seed=2, progress=False))
    assert [len(t) for t in one] == [learn.SIZE] * 3
    game = start_position("danish/4")
    die = SeededDie(1)
    bot = learn.LearnedBot(1, one)
    for _ in range(60):
        if game.awaiting_roll():
            game.apply_roll(die.roll())
        else:
            m = bot.choose(game)
            assert m in game.legal_moves()
            game.push(m)

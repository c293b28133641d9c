"""Issue 9's reproductions as `ludus play` scripts (ludo52, ludo/classic/2 unless said): each behaves as
a family expects, checked with the script's own `expect` lines, colours included (`expect physical`).
The referee's side of each is also a firmware scenario test (tests/firmware/test_referee_table.py)."""

import pytest
from ludus.errors import NotationError
from ludus_host.virtual.board import load_board
from ludus_host.virtual.runner import Simulator
from ludus_host.virtual.script import parse_script

START = "start ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t5,base,base,base\n"


def run(text, game="ludo/classic/2", board="ludo52"):
    b = load_board(board)
    sim = Simulator(b, game, frames="lights")
    return list(sim.run(parse_script(text, b)))


def frames(items):
    return [item for item in items if "frame" in item]


def test_undo_of_a_capture_leaves_every_colour_on_its_square():
    run(
        START + "die 3\npress\nmove t5 red.base\nmove t2 t5\nexpect physical\nlong\n"
        "expect lit t5 move from\nexpect lit t2 move to\nexpect no-event resume\n"
        "move t5 t2\nexpect lit t5 move to\nexpect lit red.base move from\n"
        "move red.base t5\nexpect situation idle\nexpect physical\n"
    )


def test_an_undo_done_against_the_guide_is_caught_by_expect_physical():
    with pytest.raises(NotationError, match="t2 holds red, the game has green"):
        run(START + "die 3\npress\nmove t5 red.base\nmove t2 t5\nlong\nmove red.base t2\nexpect physical\n")


def test_the_die_shows_the_rolls_still_to_play():
    items = run(
        "start ludo classic seats=gr turn=g rolls=- g=t2,base,base,base r=t30,base,base,base\n"
        "die 6 3\npress\npress\nexpect die 6 3\nmove t2 t5\nwait 2500\nexpect die 6\n"
        "move green.base t0\nexpect die none\n"
    )
    assert [f.get("die") for f in frames(items)][-1] is None


def test_the_die_after_a_power_cut():
    run(START + "die 3\npress\npower\nexpect die 3\nexpect lit waiting.0 waiting roll\n")


def test_start_shows_play_lights_at_once():
    items = run(START + "wait 2000\n")
    last = frames(items)[-1]
    assert last["frame"] == {"phase": "play", "situation": "idle", "turn": 0}
    assert last["lights"] == [["turn.0", "turn", "green"]]


def test_neighbouring_bases_are_refused_with_a_reason():
    text = "".join("place %s.base\n" % c for c in ["green"] * 4 + ["blue"] * 4)
    items = run(text + "expect refused blue.base to red.base\npress\nexpect refused ludo/classic/2\n")
    assert ["red.base.0", "move to"] in frames(items)[-1]["lights"]


def test_a_compulsory_capture_ignored_names_the_rule():
    items = run(
        "start ludo danish seats=gr turn=g rolls=2 g=t14,t30,base,base r=t32,base,base,base\n"
        "move t14 t16\nexpect situation illegal\nexpect lit t32 capture victim\n"
        "move t16 t14\nexpect situation idle\nmove t30 t32\nlift t32 red\nplace red.base\n"
        "expect event move\nexpect physical\n",
        game="ludo/danish/2",
    )
    illegal = [item for item in items if item.get("event") == "illegal"]
    assert "compulsory capture" in illegal[0]["reason"]


def test_presses_that_do_nothing_are_refused():
    run(
        START
        + "die 3\npress\nlift t2\npress\nexpect refused a move is under way\nexpect lit turn.0 illegal\n"
        "wait 700\nexpect lit turn.green turn\nplace t2\nplace t40 green\npress\n"
        "expect refused put the board right\n"
    )


def test_a_victim_lifted_first_leaves_its_square_lit_as_the_destination():
    run(
        START.replace("rolls=-", "rolls=3") + "lift t2\nexpect lit t5 capture victim\nlift t5\n"
        "expect lit t5 destination\nplace red.base\nplace t5\nexpect event move\nexpect physical\n"
    )


def test_a_long_press_by_length_and_a_slide_by_square():
    start = START.replace("rolls=-", "rolls=3").replace("r=t5", "r=t30")
    run(start + "move t2 t5\npress 1200\nexpect event undo\n")
    items = run(start + "slide t2 t3 t4 t5 ~50\n")
    assert [e["move"] for e in items if e.get("event") == "move"] == ["3 green.0 t2-t5"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("place t5 pink\n", "line 1: place: 'pink' is not a piece colour"),
        ("slide t2 t3 ~fast\n", "line 1: slide: '~fast'"),
        ("slide t2 ~500\n", "line 1: slide takes 2 or more cells before ~500"),
        ("press long\n", "line 1: press: 'long' is not a number"),
        ("expect die 7\n", "line 1: expect die: '7' is not a die value"),
        ("expect physical now\n", "line 1: expect physical takes no argument"),
        ("expect die\n", "line 1: expect die needs what to expect"),
    ],
)
def test_bad_new_script_lines_are_named(text, message):
    with pytest.raises(NotationError, match=message):
        parse_script(text, load_board("ludo52"))


def test_expect_failures_say_what_is_shown():
    with pytest.raises(NotationError, match="expect die 6: the die shows 3"):
        run(START + "die 3\npress\nexpect die 6\n")
    with pytest.raises(NotationError, match=r"expect lit turn\.red turn: it shows none"):
        run(START + "expect lit turn.red turn\n")
    with pytest.raises(NotationError, match="expect refused xyz: nothing refused"):
        run(START + "expect refused xyz\n")

"""The level of a seat the board plays, lit on the seat's own area while it is to act (ludus.referee.
botseats): one, two or three pulsing lights in the seat's colour for the three levels of each game,
none on a person's seat, never on a cell another light stands on, and nothing of it loaded in a game
without bots. Plain asserts: pytest and the MicroPython unix port run them."""

import sys

import ludus.light.palette as palette
from ludo_scenes import at
from ludus.checkers.game import start_position as checkers_start

_LUDO = "ludo classic seats=gr turn=r rolls=- g=t5,t20,base,base r=t28,base,base,base"


def _level_leds(rig, colour, area):
    # the LEDs of an area (a list of cell or place names) lit with the turn's pulse in colour
    out = []
    for name in area:
        led = rig.led(name)
        if rig.referee.scene.meaning_at(led) == palette.TURN and rig.referee.scene.colour_at(led) == colour:
            out.append(led)
    return out


def _base(colour):
    return [colour + ".base.%d" % k for k in range(4)]


def _ludo_rig(level):
    rig = at(_LUDO)
    rig.referee.bot_pause_ms = 500
    rig.referee.set_bots({2: level})
    rig.take()
    rig.run(100)
    return rig


def test_a_ludo_bot_shows_its_level_on_its_base_while_it_is_to_act():
    import ludus.bots.ludo as ludo_bots
    from ludus.referee.botseats import lights_for

    red = palette.ludo_colour(2)
    for k, level in enumerate(ludo_bots.LEVELS):
        assert lights_for("ludo", level) == k + 1
        rig = _ludo_rig(level)
        assert rig.situation() == "idle"
        lit = _level_leds(rig, red, _base("red"))
        assert len(lit) == k + 1, (level, lit)
        assert rig.lit("turn.2", "turn")  # the seat's own turn light as ever
        assert _level_leds(rig, palette.ludo_colour(0), _base("green")) == []  # a person's seat: none
        rig.die(3)
        rig.run(1500)  # rolled, its move lit: the level stays beside it
        assert rig.situation() == "confirm" and rig.lit("t28", "move from")
        assert len(_level_leds(rig, red, _base("red"))) == k + 1
        rig.move("t28", "t31")  # carried out: green, a person, is to act
        assert rig.referee.game.turn == 0
        rig.run(100)
        assert _level_leds(rig, red, _base("red")) == []
        assert _level_leds(rig, palette.ludo_colour(0), _base("green")) == []
        rig = None


def test_a_ludo_game_without_bots_shows_no_level_and_loads_none_of_it():
    sys.modules.pop("ludus.referee.botseats", None)
    rig = at(_LUDO)
    rig.run(100)
    assert rig.referee.bots is None
    assert _level_leds(rig, palette.ludo_colour(2), _base("red")) == []
    assert "ludus.referee.botseats" not in sys.modules
    from ludus.referee.lights import compose

    assert rig.referee._compose is compose


def test_bots_set_and_cleared_in_play_light_and_darken_the_level_at_once():
    rig = at(_LUDO)
    rig.run(100)
    rig.referee.set_bots({2: "preferred"})
    rig.run(40)
    assert len(_level_leds(rig, palette.ludo_colour(2), _base("red"))) == 2
    rig.referee.set_bots({})
    rig.run(40)
    assert _level_leds(rig, palette.ludo_colour(2), _base("red")) == []


def test_the_level_gives_way_to_every_other_light_on_its_base():
    # red brings a token out: its move lights the whole base "move from", so no count is shown there
    # rather than a wrong one; the lights of the move itself are untouched
    rig = at("ludo classic seats=gr turn=r rolls=- g=t5,t20,base,base r=base,base,base,base")
    rig.referee.bot_pause_ms = 500
    rig.referee.set_bots({2: "strong"})
    rig.take()
    rig.run(100)
    assert len(_level_leds(rig, palette.ludo_colour(2), _base("red"))) == 3
    rig.die(6)
    rig.run(1500)
    assert [e["move"] for e in rig.take("bot") if "move" in e] == ["6 red.0 base-t26"]
    assert _level_leds(rig, palette.ludo_colour(2), _base("red")) == []
    for name in _base("red"):
        assert rig.lit(name, "move from"), name
    assert rig.lit("t26", "move to")


def test_the_level_never_stands_on_a_lit_cell():
    # composed over a scene whose tip cell already holds a destination: the level takes the next dark
    # cells, and the destination stays
    from ludus.referee.botseats import _seat_lights, _show_level

    rig = _ludo_rig("strong")
    r = rig.referee
    kept = _seat_lights(r, r.bots, 2, "strong")
    first = kept[0][0]
    r.scene.set(first, palette.DESTINATION)
    lit_before = [led for led in kept[0] if r.scene.meaning_at(led) == palette.TURN]
    for led in lit_before:
        r.scene._led_ink[led] = 0
    _show_level(r, kept, 2)
    assert r.scene.meaning_at(first) == palette.DESTINATION
    assert len(_level_leds(rig, palette.ludo_colour(2), _base("red"))) == 3


# ---- Chinese Checkers -------------------------------------------------------------------------------


def _point_names(point):
    from ludus.checkers.geometry import POINT_HOLES

    return ["h%d" % h for h in POINT_HOLES[point]]


def test_a_checkers_bot_shows_its_level_at_its_point_and_never_on_a_destination():
    import ludus.bots.checkers as cc_bots
    from referee_rig import Rig

    for k, level in enumerate(cc_bots.LEVELS):
        rig = Rig("checkers", "checkers")
        rig.referee.bot_pause_ms = 200
        rig.referee.set_bots({1: level})
        rig.settle()
        rig.fill(checkers_start("2"))
        rig.settle()
        rig.take()
        game = rig.referee.game
        bot_colour = palette.checkers_colour(3)  # seat 1 of two starts at point 3
        assert _level_leds(rig, bot_colour, _point_names(3)) == []  # the person, seat 0, is to act
        assert _level_leds(rig, palette.checkers_colour(0), _point_names(0)) == []
        human = game.legal_moves()[0]
        rig.move(game.place_names[human.frm], game.place_names[human.to])
        lit = _level_leds(rig, bot_colour, _point_names(3))
        assert len(lit) == k + 1, (level, lit)
        assert rig.led("h120") in lit  # the tip first
        rig.run(400)
        move = rig.referee.bot_move()
        assert move is not None and rig.lit(game.place_names[move.to], "move to")
        assert len(_level_leds(rig, bot_colour, _point_names(3))) == k + 1
        rig.lift(game.place_names[move.frm])  # a person carries the bot's move out: its destination lit
        to = game.place_names[move.to]
        assert rig.lit(to, "destination")
        assert rig.led(to) not in _level_leds(rig, bot_colour, _point_names(3))
        assert len(_level_leds(rig, bot_colour, _point_names(3))) == k + 1
        rig.place(to)
        assert rig.referee.game.turn == 0
        assert _level_leds(rig, bot_colour, _point_names(3)) == []
        rig = game = None


def test_lighting_the_level_allocates_nothing():
    # the hot path's rule (docs/architecture.md), on MicroPython: with the heap locked, then counting
    # the bytes taken (a frame too large for the C stack is borrowed from the heap when it is not locked)
    import ludus.referee.botseats as botseats

    rig = _ludo_rig("strong")
    r = rig.referee
    red = palette.ludo_colour(2)
    assert len(_level_leds(rig, red, _base("red"))) == 3
    if sys.implementation.name != "micropython":
        return
    import micropython

    for count in (False, True):
        for led in _level_leds(rig, red, _base("red")):
            r.scene._led_ink[led] = 0
        if count:
            if not hasattr(micropython, "mem_total"):
                return
            before = micropython.mem_total()
            botseats._level(r)
            used = micropython.mem_total() - before
            assert used == 0, "%d bytes allocated" % used
        else:
            micropython.heap_lock()
            try:
                botseats._level(r)
            finally:
                micropython.heap_unlock()
        assert len(_level_leds(rig, red, _base("red"))) == 3

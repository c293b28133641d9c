"""The referee names every seat and takes names during a game (docs/club.md). A file of its own: a
Ludo referee needs a whole heap on the unix port. Runs on both runtimes."""

from ludus.errors import ConfigError
from support import message_of, raises

GROW_NAMES = True  # whole referees and a device: the unix port's name pool is grown first

DANISH_END = "ludo danish seats=gr turn=g rolls=1 g=home,home,home,green.c4 r=t3,base,base,base"


def test_the_referee_names_every_seat_and_takes_names_in_the_game():
    from referee_rig import Rig

    rig = Rig("ludo/danish", "ludo52")
    rig.settle()
    rig.referee.set_players({2: "Søren"})
    rig.start_at(DANISH_END)
    ref = rig.referee
    assert ref.record.players == {0: "green", 2: "Søren"}
    ref.set_players({0: "Anna", 2: "Søren"})  # set during the game: its record takes them
    assert ref.record.players == {0: "Anna", 2: "Søren"}
    assert "'anna'" in message_of(raises(ConfigError, ref.set_players, {0: "Anna", 2: "anna"}))
    assert "seat 9" in message_of(raises(ConfigError, ref.set_players, {9: "Bo"}))
    assert ref.record.players == {0: "Anna", 2: "Søren"}  # (nothing changed)
    rig.move("green.c4", "green.home")
    (over,) = rig.take("game_over")
    assert over["placements"] == [0, 2] and over["players"] == {"0": "Anna", "2": "Søren"}
    # a power cut: the restored game keeps its record's names when none are set anew
    state = ref.state()
    ref.players = None
    ref.restore(state)
    assert ref.record.players == {0: "Anna", 2: "Søren"}

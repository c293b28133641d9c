"""The tick that ends a game: the last move's tick, then the end's (apart from test_referee_ludo_end.py,
whose restores on the unix port's capped heap leave no room for more code beside them)."""


def test_the_last_move_and_the_game_s_end_come_a_tick_apart():
    # The tick that commits the last move sends that move's frame; the next one ends the game (the
    # placements, the seed revealed) and the one after it shows the winner's lights. On a Pico each
    # then fits its 20 ms tick (docs/referee.md). A press in the commit's tick is not taken: the game
    # is over.
    from ludus.referee.states import SHORT_PRESS
    from referee_rig import Rig

    rig = Rig("ludo/classic", "ludo52", real=False)  # a change settles in the tick it is made
    rig.settle()
    rig.start_at("ludo classic seats=gr turn=g rolls=1 g=home,home,home,green.c4 r=t3,base,base,base")
    rig.lift("green.c4")
    rig.take()
    rig.place("green.home", False)
    rig.tick(SHORT_PRESS)
    assert [e["event"] for e in rig.take()] == ["move"]
    ref = rig.referee
    assert ref.phase == 1 and ref.record.result is None and ref.record.seed is None
    import ludus.light.palette as palette

    frames = rig.frames
    rig.tick()
    over = rig.take()
    assert [e["event"] for e in over] == ["game_over"] and over[0]["placements"] == [0, 2]
    assert ref.phase == 2 and ref.record.result == [0, 2] and ref.record.seed is not None
    assert rig.frames == frames  # (the end's lights: a tick later)
    assert ref.scene.meaning_at(rig.board.turn_leds[0]) != palette.WINNER
    rig.tick()
    assert rig.frames == frames + 1 and not rig.take()
    assert ref.scene.meaning_at(rig.board.turn_leds[0]) == palette.WINNER

"""Records of real games: Chinese Checkers (no dice) and Ludo (one and two dice) recorded, saved,
loaded, replayed through ludus.games and verified, and a changed roll found. Kept apart from
test_record.py so each file fits the MicroPython runner's heap next to the rules core it imports."""

import gc

import support
from ludus.dice import Dice
from ludus.errors import IllegalMoveError
from ludus.record import GameRecord, roll_text

SEED = bytes(range(32))


def checkers_game_record(plies):
    """A checkers/2 game of `plies` moves (deterministic picks), recorded; returns (record, game)."""
    from ludus.games import position

    record = GameRecord.new("checkers/2", {"cap": plies}, seed=SEED)
    game = position("checkers/2")
    game.set_options({"cap": plies})
    k = 0
    while not game.is_over():
        moves = game.legal_moves()
        move = moves[(k * 7919) % len(moves)]
        k += 1
        record.record_move(move)
        game.push(move)
    record.finish(game.placements())
    return record, game


def test_checkers_record_replays_and_verifies():
    record, game = checkers_game_record(24)
    assert record.counts() == (0, 24)
    loaded = GameRecord.from_json(record.to_json())
    assert loaded.options == {"cap": 24}
    assert loaded.verify() == []
    rebuilt = loaded.replay()
    assert rebuilt.notation() == game.notation()
    assert rebuilt.is_over()  # the cap option reached the rebuilt game


def test_checkers_record_with_a_roll_or_a_bad_move_is_flagged():
    record, _ = checkers_game_record(10)
    record.actions.insert(3, roll_text(Dice(SEED).roll()))  # the roll the seed does give
    problems = record.verify()
    assert problems == ["action #3 'roll 5' is illegal: this game takes no dice (replay stopped)"], problems
    record, _ = checkers_game_record(10)
    record.actions[5] = record.actions[4]  # the other side's piece is not there any more
    problems = record.verify()
    assert len(problems) == 1 and problems[0].startswith("action #5 %r is illegal: " % record.actions[5])
    exc = support.raises(IllegalMoveError, record.replay)
    assert support.message_of(exc).startswith("action #5 ")


def test_whole_checkers_game_record_replays_to_the_same_placements():
    # A bot game played to the end (no cap): the record's result is the full finishing order and the
    # replay reaches the same position and placements.
    from ludus.bots.checkers import Lcg, play
    from ludus.checkers import start_position

    record = GameRecord.new("checkers/3", seed=SEED)
    game = start_position("3")

    def on_move(game, move):
        record.record_move(move)
        if support.IS_MICROPYTHON:
            gc.collect()  # as the firmware's main loop does: keeps the growing action list placeable

    play(game, Lcg(2), 2000, on_move)
    assert game.is_over() and game.outcome().reason == "finished"
    record.finish(game.placements())
    loaded = GameRecord.from_json(record.to_json())
    assert loaded.result == game.placements() and sorted(loaded.result) == [0, 1, 2]
    assert loaded.verify() == []
    rebuilt = loaded.replay(history=False)
    assert rebuilt.notation() == game.notation() and rebuilt.placements() == game.placements()
    # a result that the moves do not reach is reported
    loaded.result = [loaded.result[1], loaded.result[0], loaded.result[2]]
    expected = "result: recorded %r but the replay gives %r" % (loaded.result, game.placements())
    assert loaded.verify() == [expected]

"""Records of real games: Chinese Checkers (no dice) and Ludo (one and two dice) recorded, saved,
loaded, replayed through ludus.games and verified, and a changed roll found. Kept apart from
test_record.py so each file fits the MicroPython runner's heap next to the rules core it imports."""

import gc

import support
from ludus.record import GameRecord, roll_text, roll_values

SEED = bytes(range(32))


def ludo_game_record(start, seed, limit=2000):
    """A whole Ludo game (deterministic move picks, rolls from the committed seed), recorded."""
    from ludus.games import position

    record = GameRecord.new(start, seed=seed)
    game = position(start)
    game.max_undo = 4  # the record is the history here; keep MicroPython's heap for the replay
    k = 0
    while not game.is_over() and len(record.actions) < limit:
        if support.IS_MICROPYTHON:
            gc.collect()  # as the firmware's main loop does: keeps long-lived objects packed
        if game.awaiting_roll():
            game.apply_roll(record.roll())
        else:
            moves = game.legal_moves()
            move = moves[k % len(moves)]
            k += 1
            record.record_move(move)
            game.push(move)
    record.finish(game.placements())
    return record, game


def check_ludo_record(start):
    record, game = ludo_game_record(start, SEED)
    rolls, moves = record.counts()
    assert game.is_over() and rolls > 20 and moves > 10, (start, rolls, moves)
    notation = game.notation()
    game = None
    loaded = GameRecord.from_json(record.to_json())
    assert loaded.verify() == [], start
    rebuilt = loaded.replay(history=False)  # a Ludo game's take-back history is large for the Pico
    assert rebuilt.notation() == notation
    assert rebuilt.placements() == record.result
    assert rebuilt.max_undo == 0


def test_ludo_record_replays_and_verifies():
    check_ludo_record("ludo/blitz/2")
    if not support.IS_MICROPYTHON:
        # A whole Classic game's record (thousands of actions) as one JSON string does not fit the
        # 64-bit unix port's 160K heap beside the rules; on the board records go to flash piecewise.
        check_ludo_record("ludo/classic/2")


def test_ludo_two_dice_record_replays_and_verifies():
    check_ludo_record("ludo/blitz:dice=2/2")
    if not support.IS_MICROPYTHON:
        check_ludo_record("ludo/custom:dice=2/2")


def test_ludo_tampered_roll_is_found():
    record, _ = ludo_game_record("ludo/classic/2", SEED)
    rolls = [i for i, a in enumerate(record.actions) if a.startswith("roll ")]
    i = rolls[10]
    true_value = roll_values(record.actions[i])[0]
    record.actions[i] = roll_text(true_value % 6 + 1)
    problems = record.verify()
    assert problems[0] == "action #%d (roll #11): recorded %r but the seed gives %r" % (
        i,
        record.actions[i],
        roll_text(true_value),
    ), problems

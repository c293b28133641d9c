"""Property test: seeded random legal play, in every preset, never reaches an impossible position.
After every roll and move: four tokens per playing colour, each in a place of its own colour (or on the
track), square counts in step with the tokens, notation round-trips, place counts change exactly as
move_changes() said, and an undo restores the position. Runs on CPython and MicroPython alike."""

from ludus.bots.selfplay import SeededDie
from ludus.ludo import from_notation, start_position
from ludus.ludo.geometry import COLOURS
from support import IS_MICROPYTHON

SPECS = (
    "classic/4",
    "classic/2",
    "master/4",
    "master/3",
    "blitz/3",
    "blitz/2",
    "arrow/4",
    "teamup/4",
    "teamup+master/4",
    "teamup+blitz/4",
    "teamup+arrow/4",
    "teamup+danish/4",
    "teamup+hebrew-40/4",
    "teamup+hebrew-56/4",
    "danish/4",
    "danish/2",
    "hebrew-40/4",
    "hebrew-56/3",
    "custom/3",
    "classic:exact_home=0,entry=5.6/4",
    "custom:dice=2,dice_sum=1,exact_home=0/3",
    "custom:dice=2/4",
    "custom:base=danish,blocked_landing=forbid,roll_first=1,third_six_void=1/4",
    "hebrew-40:exact_home=0,entry_tries=3/2",
    "master:capture_before_home=1,start_tokens=2/2",
)


def check_position(game, buf):
    game.check()  # square counts, one token per square where required, placements, turn state
    game.fill_counts(buf)
    assert sum(buf) == 4 * len(game.seats)
    for gi in range(16):
        s = gi >> 2
        if s not in game.seats:
            continue
        name = game.token_place(gi)
        assert name[0] == "t" or name.startswith(COLOURS[s] + "."), (name, gi)
        assert buf[game.place_names.index(name)] > 0
    assert game.sixes < 3
    if game.is_over():
        assert not game.awaiting_roll() and game.legal_moves() == []
        assert sorted(game.placements()) == sorted(game.seats) or not game.rules.play_on
    else:
        assert game.awaiting_roll() or game.legal_moves()  # never stuck


def play_checked(spec, seed, every):
    game = start_position(spec)
    game.max_undo = 4
    die = SeededDie(seed)
    buf = bytearray(len(game.place_names))
    after = bytearray(len(game.place_names))
    actions = 0
    while not game.is_over() and actions < 5000:
        actions += 1
        if game.awaiting_roll():
            game.apply_roll(die.roll())
        else:
            moves = game.legal_moves()
            m = moves[die.below(len(moves))]
            game.fill_counts(buf)
            changes = game.move_changes(m)
            text = game.notation()
            game.push(m)
            if actions % every == 0:
                game.pop()
                assert game.notation() == text
                game.push(game.parse_move(str(m)))
            game.fill_counts(after)
            deltas = {}
            for place, delta in changes:
                deltas[place] = delta
            for i in range(len(buf)):
                assert after[i] - buf[i] == deltas.get(i, 0), (spec, str(m), game.place_names[i])
        check_position(game, buf)
        if actions % every == 0:
            assert from_notation(game.notation()).notation() == game.notation()
    assert game.is_over(), (spec, seed)
    return actions


def test_random_play_never_reaches_an_impossible_position():
    games = 1 if IS_MICROPYTHON else 3
    every = 25 if IS_MICROPYTHON else 3
    for spec in SPECS:
        for seed in range(games):
            play_checked(spec, seed, every)

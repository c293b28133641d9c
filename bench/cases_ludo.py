"""Ludo benchmark cases (see bench/README.md and docs/ludo.md): random 4-player Danish games to the first
winner, the legal moves for one roll in a crowded position, and a full Classic game for the heap peak."""

from ludus.bots.selfplay import SeededDie, play_random
from ludus.ludo.game import from_notation, start_position

# Danish rules, four players, all 16 tokens on the board. Green has a 5 to play with four tokens out:
# t2 -> t7 is plain; t20 -> t25 lands on a red pair (not capturable: green would go home); t45 -> t50
# is green's own entry star (straight home); t48 would turn into its column (c2) but may instead pass
# its entry to capture yellow on t1 (an extra lap), and capturing is compulsory, so that is the only
# legal move. Every rule the Danish generator has (stars, globes, pairs, compulsory capture, the extra
# lap) is consulted.
CROWDED = (
    "ludo danish seats=gyrb turn=g rolls=5"
    " g=t2,t20,t45,t48 y=t1,t13,t30,t33 r=t25,t25,t27,t40 b=t39,t8,t11,t16"
)


def danish_game():
    die = SeededDie(1)

    def work():
        game = start_position("danish/4")
        game.max_undo = 0
        stats = play_random(game, die, first_winner=True)
        return stats.placements[0]

    return work


def movegen_crowded():
    game = from_notation(CROWDED)

    def work():
        game._cache = None  # generate afresh each call (legal_moves() caches per position)
        return len(game.legal_moves())

    return work


def full_game():
    def work():
        game = start_position("classic/4")
        game.max_undo = 16  # a referee keeps a few actions for take-backs
        stats = play_random(game, SeededDie(7))
        return "%d turns, placements %s" % (stats.turns, "".join(str(s) for s in stats.placements))

    return work


CASES = [
    ("ludo.danish_game", danish_game, 20),
    ("ludo.movegen_crowded", movegen_crowded, 200),
    ("ludo.full_game", full_game, 1),
]

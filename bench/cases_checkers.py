"""Chinese Checkers benchmark cases (see bench/README.md and docs/checkers.md): perft(4) of the
two-player start, legal-move generation in a crowded six-player midgame, and a full bot-vs-bot game."""

from ludus.bots.checkers import Lcg, play
from ludus.checkers.game import from_notation, start_position

# Six players, 60 plies into a bot game (Lcg(1)): all 60 pieces on the board, most of them in the
# central hexagon; seat 0 to move has 85 legal moves, 59 of them jump chains of up to 5 jumps.
MIDGAME = (
    "checkers 6 - 0 1/da/a2/d3/5af1a1b2/1ffca1a1ce1b/3debacb2/1af3cacb/1fffcb1cb/e4e1d2/2effe1bd1c"
    "/e1bf1b6/2e1dedec2c1/d2a/3/dd/1 - 60"
)


def perft4():
    game = start_position("2")

    def work():
        return game.perft(4)

    return work


def movegen_midgame():
    game = from_notation(MIDGAME)

    def work():
        # Every legal (from, to) pair with its shortest jump chain recorded (ludus.checkers.moves.PARENTS):
        # the full generation; Move objects for them are built by legal_moves() on top of this.
        return len(game.legal_move_codes())

    return work


def bot_game():
    def work():
        game = start_position("2")
        plies = play(game, Lcg(1), 2000)
        return "%d plies, placements %s" % (plies, "".join([str(s) for s in game.placements()]))

    return work


CASES = [
    ("checkers.perft4", perft4, 1),
    ("checkers.movegen_midgame", movegen_midgame, 200),
    ("checkers.bot_game", bot_game, 1),
]

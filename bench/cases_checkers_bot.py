"""Chinese Checkers bot decision cases (see bench/README.md and docs/bots.md): one decision of the strong
bot's search, in a two-player game off its opening line and in the crowded six-player midgame."""

from ludus.bots.checkers import StrongBot
from ludus.checkers.game import from_notation

# Chinese Checkers, two players after twelve moves each (strong against greedy): 61 legal moves, off the
# opening line, so the search decides.
CC_TWO = "checkers 2 - 0 1/2/1da/1daa/7a5/5ad5/4a6/3a6/2a6/10/4a3d2/6d1d3/4d1d6/2a1/3/dd/1 - 24"
# The crowded six-player midgame of cases_checkers.py: 85 legal moves for the seat to move.
CC_SIX = (
    "checkers 6 - 0 1/da/a2/d3/5af1a1b2/1ffca1a1ce1b/3debacb2/1af3cacb/1fffcb1cb/e4e1d2/2effe1bd1c"
    "/e1bf1b6/2e1dedec2c1/d2a/3/dd/1 - 60"
)


def _checkers(position):
    def setup():
        game = from_notation(position)
        bot = StrongBot(1)

        def work():
            return str(bot.choose(game))

        return work

    return setup


CASES = [
    ("checkers_bot.two", _checkers(CC_TWO), 2),
    ("checkers_bot.six", _checkers(CC_SIX), 1),
]

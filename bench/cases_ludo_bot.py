"""Ludo bot decision cases (see bench/README.md and docs/bots.md): one decision of the strong bot in
positions with several choices: the time and heap a bot's seat costs the board's loop when it decides."""

from ludus.bots.ludo import bot_for
from ludus.ludo.game import from_notation

# Classic, four players, green to play a 5 with four tokens out and opponents behind and ahead of them.
CLASSIC = (
    "ludo classic seats=gyrb turn=g rolls=5"
    " g=t3,t12,t30,c1 y=t16,t20,base,base r=t37,t5,base,base b=t44,t9,t50,base"
)
# Danish, the same tokens: stars and globes make the strong bot ask the engine what each opponent's
# six rolls could capture (three opponents x six rolls per candidate move).
DANISH = (
    "ludo danish seats=gyrb turn=g rolls=5"
    " g=t3,t12,t30,c1 y=t16,t20,base,base r=t37,t5,base,base b=t44,t9,t50,base"
)
# Classic, two sixes and a four waiting (roll first): the ways of using all three are played out, as
# many as the plan's budget of 40 scored ends allows.
SIX_SIX_FOUR = (
    "ludo classic seats=gyrb turn=g rolls=6,6,4"
    " g=t3,t12,t30,base y=t16,t20,base,base r=t37,t5,base,base b=t44,t9,t50,base"
)


def _ludo(position):
    def setup():
        game = from_notation(position)
        bot = bot_for("strong", 1)

        def work():
            game._cache = None  # the moves generated afresh, as after a roll
            return str(bot.choose(game))

        return work

    return setup


CASES = [
    ("ludo_bot.classic", _ludo(CLASSIC), 20),
    ("ludo_bot.danish", _ludo(DANISH), 5),
    ("ludo_bot.six_six_four", _ludo(SIX_SIX_FOUR), 5),
]

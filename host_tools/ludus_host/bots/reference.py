"""The reference Ludo player: a one-move player with no time limit, to measure how far a better
evaluation of the position a move leaves could take the board's strong bot (ludus.bots.ludo). Laptop
only: a decision costs about a hundred times the strong bot's (5 to 12 ms on a laptop), far past the
Pico's 100 ms. `ludus arena` plays it as the level `reference`.

Each legal move is valued by `rollouts` (ROLLOUTS) games played on from the position it leaves: the
opponents pick uniformly among their legal moves (as the random bot does), the mover's own later moves
are the strong bot's, and a game ends at its first placement (1 if the mover's side won, else 0) or,
with a `horizon` of h rounds (HORIZON: one), when the mover's turn has come round h times (then the
strong bot's evaluation of the position, scaled to a win chance, counts). Every candidate move is
played on with the same dice (common random numbers, seeded by the game's own position), so the
comparison between moves is far less noisy than each value, and the same position always gets the
same choice."""

from ludus.bots.ludo import StrongBot, evaluate
from ludus.bots.selfplay import SeededDie
from ludus.ludo.game import LudoGame
from ludus.ludo.moves import LudoMove

ROLLOUTS = 32  # continuations played from each candidate move
HORIZON = 1  # rounds played on before the evaluation counts; 0: to the end of the game


class ReferenceBot:
    """Each legal move valued by rollouts (module docstring); the best, ties to the first."""

    level = "reference"

    def __init__(self, seed: int = 1, rollouts: int = ROLLOUTS, horizon: int = HORIZON):
        self.seed = seed
        self.rollouts = rollouts
        self.horizon = horizon
        self.strong = StrongBot(seed)

    def choose(self, game: LudoGame) -> LudoMove | None:
        moves = game.legal_moves()
        if not moves:
            return None
        if len(moves) == 1 or moves[0].t[0] >= 3:  # one choice, or the Danish start choice
            return self.strong.choose(game)
        seat = game.mover()
        key = _key(game)
        best = moves[0]
        best_v = -1.0
        for m in moves:
            v = 0.0
            for j in range(self.rollouts):
                v += self._play_on(game, m, seat, (key * 131 + j * 7919 + self.seed) & 0x3FFFFFFF)
            if v > best_v:
                best, best_v = m, v
        return best

    def _play_on(self, game: LudoGame, move: LudoMove, seat: int, seed: int) -> float:
        g = game.copy()
        g.max_undo = 0
        g.push(move)
        die = SeededDie(seed)
        strong = self.strong
        teams = game._teams
        partner = (seat + 2) % 4 if teams else seat
        rounds = 0
        was_mine = True
        for _ in range(20000):
            if g.phase == 3 or g.placed:
                break
            mine = g.turn == seat or g.turn == partner
            if mine and not was_mine:
                rounds += 1
                if self.horizon and rounds >= self.horizon:
                    return _chance(g, seat, strong)
            was_mine = mine
            if g.awaiting_roll():
                g.apply_roll(die.roll())
                continue
            if mine:
                m = strong.choose(g)
                g.push(m)
            else:
                moves = g._cache
                if moves is None:
                    moves = g._cache = g._legal()
                g._apply(moves[die.below(len(moves))])
        if not g.placed:
            return 0.0
        w = g.placed[0]
        return 1.0 if w == seat or w == partner else 0.0


def _key(game: LudoGame) -> int:
    # a number from the position and the waiting rolls: the seed of a decision's dice
    k = game.turn + 7 * game.turn_count
    for p in game.pos:
        k = (k * 31 + p + 2) & 0xFFFFFFF
    for r in game.rolls:
        k = (k * 37 + r) & 0xFFFFFFF
    return k


def _chance(g: LudoGame, seat: int, strong: StrongBot) -> float:
    # the strong evaluation of a position as a number between 0 and 1 (its order is what counts)
    v = evaluate(g, g.pos, seat, strong._safety(g, g.pos, seat))
    return 1.0 / (1.0 + 2.718281828 ** (-v / 4000.0))

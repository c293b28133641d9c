"""A learned evaluation for the strong Ludo bot, tried on the laptop: per rule set, three tables of
weights by a token's progress (steps from its start; base first), fitted by least squares onto the
results of games the strong bot played, and the bot that scores moves with them.

A position is worth, for the mover, the sum over its tokens of own[p], less risk[p] times the token's
chance of capture before its next turn (the strong bot's count: ludus.bots.ludo), plus the sum over the
opponents' tokens of opp[p] (negative: their progress counts against the mover). The features are the
same sums with unit weights; the target is 1 where the mover went on to win.

    python -m ludus_host.bots.learn classic --games 10000 --pairs 1000

plays the games (progress on stderr), fits the tables, prints them as a JSON line, and with --pairs
plays that many paired games (ludus arena --versus) of the learned bot against the strong one, each
against three random players, and prints the paired difference. The games are seeded (--seed), so the
tables are the same every time.

The board does not use these tables: against the hand-set evaluation they lost (docs/bots.md). The fit
values a capture and a token's safety far below what the hand-set weights do (regression onto a game's
result dilutes them), and without SMOOTH the noise of a square's weight exceeds a step's worth."""

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from ludus.bots.ludo import StrongBot, _risk, _tail, bot_for
from ludus.bots.rng import Lcg
from ludus.bots.selfplay import SeededDie
from ludus.ludo.game import LudoGame, start_position
from ludus.ludo.moves import LudoMove

from ludus_host.bots.arena import play_games

SIZE = 59  # progress codes -1 (base) .. 57 (finished) on the 52-square tracks of Classic and Danish
RULES = ("classic", "danish")
SCALE = 1000  # the tables are integers: the fitted weights times this
SMOOTH = 1e5  # the penalty on a table's second differences (solve())


def _token_risks(
    game: LudoGame, pos: Sequence[int], seat: int, alive: Sequence[int] | None, out: list[int]
) -> None:
    # out[gi]: the chance in 64ths that own token gi (on the track) is captured before the mover's next
    # turn, as ludus.bots.ludo.evaluate counts it
    L = game.geo.track_len
    abs_of = game.geo.abs_of
    for i in range(4):
        gi = seat * 4 + i
        p = pos[gi]
        out[gi] = 0
        if p < 0 or p >= L:
            continue
        if alive is None:
            out[gi] = _risk(
                game, pos, seat, abs_of[seat][p], game.seats, False, L, game.turn_in, game.geo.starts
            )
        else:
            risk = 64 - alive[gi]
            if game._six_again and risk < 64:
                risk += (
                    _tail(game, pos, seat, abs_of[seat][p], game.seats, False, L, game.turn_in) * (64 - risk)
                ) >> 6
            out[gi] = risk


def features(
    game: LudoGame,
    pos: Sequence[int],
    seat: int,
    alive: Sequence[int] | None,
    row: list[float],
    risks: list[int],
) -> None:
    """Fill `row` (3 * SIZE numbers, zeroed by the caller) with the features of `pos` for `seat`."""
    _token_risks(game, pos, seat, alive, risks)
    for s in game.seats:
        for i in range(4):
            gi = s * 4 + i
            k = pos[gi] + 1
            if s == seat:
                row[k] += 1.0
                row[SIZE + k] += risks[gi] / 64.0
            else:
                row[2 * SIZE + k] += 1.0


def value(
    game: LudoGame,
    pos: Sequence[int],
    seat: int,
    alive: Sequence[int] | None,
    table: Sequence[Sequence[int]],
    risks: list[int],
) -> int:
    """The learned worth of `pos` for `seat` (table: own, risk, opp, each SIZE integers)."""
    own, risk, opp = table
    _token_risks(game, pos, seat, alive, risks)
    v = 0
    for s in game.seats:
        for i in range(4):
            gi = s * 4 + i
            k = pos[gi] + 1
            if s == seat:
                v += own[k] - ((risk[k] * risks[gi]) >> 6)
            else:
                v += opp[k]
    return v


class LearnedBot(StrongBot):
    """The strong bot with the learned evaluation in place of its hand-set one."""

    level = "learned"

    def __init__(self, seed: int = 1, table: Sequence[Sequence[int]] | None = None):
        StrongBot.__init__(self, seed)
        self.table = table
        self.risks = [0] * 16

    def _worth(self, game: LudoGame, pos: Sequence[int], seat: int) -> int:
        assert self.table is not None  # (a learned bot is made with its table)
        return value(game, pos, seat, self._safety(game, pos, seat), self.table, self.risks)

    def score(self, game: LudoGame, move: LudoMove) -> int:
        t = move.t
        if t[0] >= 3:
            return 1 if t[0] == 3 else 0
        pos = self.pos
        src = game.pos
        for i in range(16):
            pos[i] = src[i]
        pos[t[1]] = t[4]
        if t[9] >= 0:
            pos[t[9]] = t[4]
        for c in t[5]:
            pos[c] = -1
        return self._worth(game, pos, t[1] >> 2)

    def _rest(self, g: LudoGame, seat: int) -> int:
        if g.turn == seat and g.phase == 0 and not g.owe and g.rolls:
            moves = g.legal_moves()
            if moves:
                best_s = -(1 << 29)
                for m in moves:
                    s = self.score(g, m)
                    if s > best_s:
                        best_s = s
                self.budget -= len(moves)
                return best_s
        self.budget -= 1
        return self._worth(g, g.pos, seat)


def fit(
    rules: str,
    games: int,
    seed: int = 1,
    explore: float = 0.05,
    bot: StrongBot | None = None,
    progress: bool = True,
) -> tuple[Any, Any]:
    """Play `games` 4-player games of `rules` (half against three random players, half against three
        preferred ones, the learner's seat rotating), the learner (`bot`, the strong bot unless given)
        choosing a random move with chance `explore`; the sums (X'X, X'y) of the least-squares fit of the
    features of the positions its moves left onto who won, for solve()."""
    # numpy comes with the dev extras only: loaded where a fit is made
    import numpy as np

    n = 3 * SIZE
    xtx = np.zeros((n, n))
    xty = np.zeros(n)
    rows = []
    ys = []
    risks = [0] * 16
    rng = Lcg(seed)
    t0 = time.perf_counter()
    last = t0
    for k in range(games):
        game = start_position(rules + "/4")
        game.max_undo = 0
        die = SeededDie((seed * 1000003 + k) & 0x3FFFFFFF)
        seat = game.seats[k % 4]
        other = "random" if k % 2 == 0 else "preferred"
        learner = bot if bot is not None else StrongBot(seed)
        bots = {s: (learner if s == seat else bot_for(other, seed + s)) for s in game.seats}
        mine = []
        for _ in range(20000):
            if game.phase == 3 or game.placed:
                break
            if game.awaiting_roll():
                game.apply_roll(die.roll())
                continue
            s = game.turn
            if s == seat:
                moves = game.legal_moves()
                if len(moves) > 1 and rng.randrange(1000) < explore * 1000:
                    m = moves[rng.randrange(len(moves))]
                else:
                    m = learner.choose(game)
                game.push(m)
                if m.t[0] < 3 and len(moves) > 1:
                    row = [0.0] * n
                    features(game, game.pos, seat, learner._safety(game, game.pos, seat), row, risks)
                    mine.append(row)
            else:
                game.push(bots[s].choose(game))
        won = 1.0 if game.placed and game.placed[0] == seat else 0.0
        rows.extend(mine)
        ys.extend([won] * len(mine))
        if len(rows) >= 20000 or k == games - 1:
            x = np.array(rows)
            y = np.array(ys)
            xtx += x.T @ x
            xty += x.T @ y
            rows, ys = [], []
        now = time.perf_counter()
        if progress and (now - last >= 2.0 or k == games - 1):
            last = now
            print(
                "learn %s: %d/%d games, %.0f s" % (rules, k + 1, games, now - t0), file=sys.stderr, flush=True
            )
    return xtx, xty


def solve(xtx: Any, xty: Any, smooth: float = SMOOTH) -> tuple[list[int], list[int], list[int]]:
    """The tables from the sums of a fit: least squares with a penalty of `smooth` on each table's
    second differences (neighbouring squares are worth nearly the same: without it, the noise of a
    square's weight is larger than a step's worth)."""
    import numpy as np  # (the dev extras': see fit)

    n = 3 * SIZE
    d = np.zeros((3 * (SIZE - 2), n))
    for b in range(3):
        for i in range(SIZE - 2):
            r = b * (SIZE - 2) + i
            d[r, b * SIZE + i] = 1.0
            d[r, b * SIZE + i + 1] = -2.0
            d[r, b * SIZE + i + 2] = 1.0
    w = np.linalg.solve(xtx + smooth * (d.T @ d) + 1.0 * np.eye(n), xty)
    ints = [round(SCALE * float(x)) for x in w]
    return (ints[:SIZE], [-x for x in ints[SIZE : 2 * SIZE]], ints[2 * SIZE :])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", choices=RULES)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--explore", type=float, default=0.05, help="the chance of a random move")
    parser.add_argument("--smooth", type=float, default=SMOOTH, help="the penalty on second differences")
    parser.add_argument("--pairs", type=int, default=0, help="paired games against the strong bot")
    args = parser.parse_args(argv)
    xtx, xty = fit(args.rules, args.games, args.seed, args.explore)
    table = solve(xtx, xty, smooth=args.smooth)
    own, risk, opp = table
    print(json.dumps({"rules": args.rules, "own": own, "risk": risk, "opp": opp}), flush=True)
    if args.pairs:
        out = play_games(
            "ludo/" + args.rules,
            ["learned", "random", "random", "random"],
            args.pairs,
            seed=7,
            versus="strong",
            makers={"learned": lambda seed: LearnedBot(seed, table)},
        )
        print(json.dumps(out["paired"], sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Bot against bot: games of Ludo or Chinese Checkers played by the firmware's bots (ludus.bots) with the
time each decision took, and many seeded games on every core with win rates (`ludus arena`). A game is
named like a referee preset: `ludo/danish/4`, `ludo/classic` (4 players), `checkers/2`, `checkers/2x3`,
or `checkers/solo` (one set alone on the board, counted in moves to bring it home).

Paired runs (`versus`): each game is played twice on the same seed, once with the bots as named and once
with the first entry's bot replaced, the rest alike; the paired difference of the first entry's wins
says which of the two is better on the same dice, in far fewer games than two separate runs need. In a
paired Ludo run every seat rolls its own seeded die, so a seat's k-th roll is the same in both games of
a pair however the moves differ."""

import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from ludus.bots.checkers import Lcg, StrongBot, choose_move
from ludus.bots.ludo import bot_for
from ludus.bots.selfplay import SeededDie
from ludus.checkers.game import CheckersGame
from ludus.checkers.game import start_position as checkers_start
from ludus.errors import ConfigError
from ludus.ludo.game import start_position as ludo_start

from ludus_host.bots.reference import ReferenceBot
from ludus_host.bots.searcher import SearchBot

LUDO_LEVELS = ("random", "preferred", "strong")
CHECKERS_LEVELS = ("random", "greedy", "strong")
# the laptop's own players, for measuring the board's bots (too slow for a Pico): ludus_host.bots.reference
# and ludus_host.bots.searcher
HOST_LUDO_LEVELS = ("reference",)
HOST_CHECKERS_LEVELS = ("searcher",)
LUDO_ACTIONS = 20000  # a game still going after this many rolls and moves counts as unfinished
CHECKERS_PLIES = 1000  # likewise for Chinese Checkers moves (passes included)

# a game's outcome (Arena.play): winner entry or -1, its moves, decision seconds and counts per entry
Result = tuple[int, int, list[float], list[int]]
# more Ludo levels: level -> a function of the seed making the bot
Makers = dict[str, Callable[[int], Any]]


class Arena:
    """A game name and the bots of its seats (levels in seat order), checked."""

    def __init__(
        self,
        game: str,
        seats: Sequence[str],
        no_line: bool = False,
        seat_dice: bool = False,
        makers: Makers | None = None,
    ):
        self.name = game
        self.makers = makers or {}  # more Ludo levels: level -> a function of the seed making the bot
        self.no_line = no_line
        self.seat_dice = seat_dice
        parts = game.split("/")
        self.solo = False
        if parts[0] == "ludo" and len(parts) in (2, 3):
            self.kind = "ludo"
            self.spec = parts[1] + "/" + (parts[2] if len(parts) == 3 else "4")
            levels = LUDO_LEVELS + HOST_LUDO_LEVELS + tuple(self.makers)
            self.start = ludo_start
        elif parts[0] == "checkers" and len(parts) == 2:
            self.kind = "checkers"
            self.solo = parts[1] == "solo"
            self.spec = "2" if self.solo else parts[1]
            levels = CHECKERS_LEVELS + HOST_CHECKERS_LEVELS
            self.start = checkers_start
        else:
            raise ConfigError(
                "arena game %r: expected ludo/PRESET[/PLAYERS] (ludo/danish/4) or checkers/SETUP "
                "(checkers/2, checkers/solo)" % (game,)
            )
        try:
            probe = self.start(self.spec)
        except ConfigError as exc:
            raise ConfigError("arena game %s: %s" % (game, exc)) from None
        self.players = 1 if self.solo else (len(probe.seats) if self.kind == "ludo" else probe.seats)
        if not seats:
            raise ConfigError("arena: --seats names no bot")
        for level in seats:
            if level not in levels:
                raise ConfigError(
                    "arena: no %s bot %r: the levels are %s" % (self.kind, level, ", ".join(levels))
                )
        if len(seats) != self.players:
            raise ConfigError(
                "arena %s: %d players, but --seats names %d bots" % (game, self.players, len(seats))
            )
        self.seats = tuple(seats)

    def play(self, index: int, seed: int) -> Result:
        """Game number `index` of a run seeded `seed`. The bots' seats rotate with the index (so each bot
        plays from every seat, and in two-player games moves first every other game). Returns (winner:
        an index into self.seats or -1 for no winner, moves: moves the winner needed, or for solo play
        the moves to bring the set home, decision seconds and counts per entry of self.seats)."""
        n = self.players
        rot = index % n
        game_seed = (seed * 1000003 + index) & 0x3FFFFFFF
        if self.kind == "ludo":
            return self._ludo(rot, game_seed)
        return self._checkers(rot, game_seed)

    def _ludo(self, rot: int, game_seed: int) -> Result:
        game = self.start(self.spec)
        game.max_undo = 0
        die = SeededDie(game_seed)
        dice = [SeededDie((game_seed * 8 + k) * 2654435761 & 0x3FFFFFFF) for k in range(4)]
        n = self.players
        # seat k of the game (in game.seats order) is played by entry (k - rot) % n of self.seats
        entry_of = {}
        bots = {}
        for k, s in enumerate(game.seats):
            e = (k - rot) % n
            entry_of[s] = e
            level = self.seats[e]
            maker = self.makers.get(level)
            seed = game_seed + 7 * k + 1
            bots[s] = maker(seed) if maker is not None else _ludo_bot(level, seed)
        spent = [0.0] * n
        counts = [0] * n
        moves = [0] * n
        clock = time.perf_counter
        for _ in range(LUDO_ACTIONS):
            if game.phase == 3 or game.placed:
                break
            if game.awaiting_roll():
                game.apply_roll(dice[game.turn].roll() if self.seat_dice else die.roll())
                continue
            s = game.turn
            e = entry_of[s]
            t0 = clock()
            m = bots[s].choose(game)
            spent[e] += clock() - t0
            counts[e] += 1
            moves[e] += 1
            game.push(m)
        if not game.placed:
            return -1, 0, spent, counts
        e = entry_of[game.placed[0]]
        return e, moves[e], spent, counts

    def _checkers(self, rot: int, game_seed: int) -> Result:
        game = self.start(self.spec)
        n = self.players
        if self.solo:
            game = _alone(game)
        rngs = [Lcg(game_seed + k) for k in range(max(n, 1))]
        strong = [StrongBot(game_seed + 11 * k + 1, line=not self.no_line) for k in range(max(n, 1))]
        searchers = {e: SearchBot(game_seed + 13 * e + 1) for e in range(n) if self.seats[e] == "searcher"}
        spent = [0.0] * n
        counts = [0] * n
        moves = [0] * n
        clock = time.perf_counter
        while game.plies < CHECKERS_PLIES:
            if self.solo:
                if game.is_finished(0):
                    break
            elif game.is_over():
                break
            seat = game.turn
            e = (seat - rot) % n
            level = self.seats[e]
            t0 = clock()
            if level == "strong":
                m = strong[e].choose(game)
            elif level == "greedy":
                m = choose_move(game, rngs[e])
            elif level == "searcher":
                m = searchers[e].choose(game)
            else:
                legal = game.legal_moves()
                m = legal[rngs[e].randrange(len(legal))]
            spent[e] += clock() - t0
            counts[e] += 1
            if m.frm >= 0:
                moves[e] += 1
            game.push(m)
            if self.solo:
                _back_to(game, 0)
        if self.solo:
            return (0 if game.is_finished(0) else -1), moves[0], spent, counts
        placed = game.placements()
        if not placed or not game.is_finished(placed[0]):
            return -1, 0, spent, counts
        e = (placed[0] - rot) % n
        return e, moves[e], spent, counts


def _ludo_bot(level: str, seed: int) -> Any:
    if level == "reference":
        return ReferenceBot(seed)
    return bot_for(level, seed)


def _alone(game: CheckersGame) -> CheckersGame:
    # the two-player start with the second set taken off: seat 0 alone on the board

    board = bytearray(game._board)
    cfg = game.config
    for h in range(len(board)):
        if board[h] and cfg.set_seat[board[h]] != 0:
            board[h] = 0
    return CheckersGame(cfg, board)


def _back_to(game: CheckersGame, seat: int) -> None:
    # solo play: after each move the turn comes straight back (the empty seat never moves); the game's
    # remembered move list and blocked flag belong to the turn it had
    game.turn = seat
    game._legal_codes = None
    game._blocked = -1


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate, as (low, high)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * ((p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


_ARENA = None
_VERSUS = None


def _init(
    game: str,
    seats: Sequence[str],
    no_line: bool = False,
    versus: Sequence[str] | None = None,
    makers: Makers | None = None,
) -> None:
    # versus: the second bots of a paired run (all seats), or None
    global _ARENA, _VERSUS
    _ARENA = Arena(game, seats, no_line=no_line, seat_dice=versus is not None, makers=makers)
    _VERSUS = None if versus is None else Arena(game, versus, no_line=no_line, seat_dice=True, makers=makers)


def _one(job: tuple[int, int]) -> Result | tuple[Result, Result]:
    index, seed = job
    assert _ARENA is not None
    if _VERSUS is None:
        return _ARENA.play(index, seed)
    return _ARENA.play(index, seed), _VERSUS.play(index, seed)


def paired_difference(
    a: Sequence[int], b: Sequence[int], z: float = 1.96
) -> tuple[float, tuple[float, float]]:
    """The paired difference of two 0/1 lists (the first entry's wins with bot A and with bot B on the
    same seeds): (mean of a[i] - b[i], (low, high) its normal 95% interval)."""
    n = len(a)
    if n == 0:
        return 0.0, (-1.0, 1.0)
    d = [x - y for x, y in zip(a, b)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 1.0
    half = z * (var / n) ** 0.5
    return mean, (max(-1.0, mean - half), min(1.0, mean + half))


def play_games(
    game: str,
    seats: Sequence[str],
    games: int,
    seed: int = 1,
    jobs: int | None = None,
    no_line: bool = False,
    label: str | None = None,
    versus: str | None = None,
    makers: Makers | None = None,
) -> dict:
    """Play `games` games of `game` (a name Arena takes) with the bots `seats`; progress on stderr. The
    summary dict the JSON line carries. With `versus` (a level), each game is played again on the same
    seed with the first entry's bot replaced by that level, and the summary gains `paired`: the
    first entry's wins with each bot, the games only one of them won, and the paired difference of win
    rates (A minus B) with its 95% interval. `makers` adds Ludo levels: {level: a function of the seed
    that makes the bot} (the workers are forked, so it need not pickle)."""
    other = None
    if versus is not None:
        other = [versus] + list(seats[1:])
        Arena(game, other, no_line=no_line, makers=makers)  # checked here too
    arena = Arena(game, seats, no_line=no_line, seat_dice=other is not None, makers=makers)
    jobs = jobs or os.cpu_count() or 1
    work = [(i, seed) for i in range(games)]
    n = len(arena.seats)
    wins = [0] * n
    spent = [0.0] * n
    counts = [0] * n
    finish = []
    unfinished = 0
    first_a = [0] * games
    first_b = [0] * games
    b_spent = [0.0, 0]
    start = time.perf_counter()
    last = 0.0
    label = label or game

    def add(k: int, result: Any) -> None:
        nonlocal unfinished
        if other is not None:
            result, rb = result
            first_a[k] = 1 if result[0] == 0 else 0
            first_b[k] = 1 if rb[0] == 0 else 0
            b_spent[0] += rb[2][0]
            b_spent[1] += rb[3][0]
        winner, moves, s, c = result
        if winner < 0:
            unfinished += 1
        else:
            wins[winner] += 1
            if arena.solo:
                finish.append(moves)
        for i in range(n):
            spent[i] += s[i]
            counts[i] += c[i]

    def progress(done: int, final: bool = False) -> None:
        nonlocal last
        now = time.perf_counter()
        if final or now - last >= 1.0:
            last = now
            print(
                "arena %s: %d/%d games%s, %.0f s"
                % (label, done, games, " (each twice)" if other else "", now - start),
                file=sys.stderr,
                flush=True,
            )

    if jobs == 1 or games < 4:
        _init(game, seats, no_line, other, makers)
        for k, job in enumerate(work):
            add(k, _one(job))
            progress(k + 1)
    else:
        ctx = multiprocessing.get_context("fork")
        chunk = max(1, min(50, games // (jobs * 8)))
        init = (game, seats, no_line, other, makers)
        with ctx.Pool(jobs, initializer=_init, initargs=init) as pool:
            for k, result in enumerate(pool.imap(_one, work, chunksize=chunk)):
                add(k, result)
                progress(k + 1)
    progress(games, final=True)
    out: dict[str, Any] = {"game": game, "games": games, "seed": seed, "unfinished": unfinished, "seats": []}
    if no_line:
        out["no_line"] = True
    for i, level in enumerate(arena.seats):
        low, high = wilson(wins[i], games)
        out["seats"].append(
            {
                "bot": level,
                "wins": wins[i],
                "win_rate": round(wins[i] / games, 4),
                "ci95": [round(low, 4), round(high, 4)],
                "mean_decision_ms": round(1000 * spent[i] / counts[i], 3) if counts[i] else None,
            }
        )
    if other is not None:
        diff, (low, high) = paired_difference(first_a, first_b)
        bw = sum(first_b)
        blow, bhigh = wilson(bw, games)
        out["paired"] = {
            "a": seats[0],
            "b": versus,
            "a_wins": sum(first_a),
            "b_wins": bw,
            "b_win_rate": round(bw / games, 4),
            "b_ci95": [round(blow, 4), round(bhigh, 4)],
            "b_mean_decision_ms": round(1000 * b_spent[0] / b_spent[1], 3) if b_spent[1] else None,
            "only_a": sum(1 for x, y in zip(first_a, first_b) if x > y),
            "only_b": sum(1 for x, y in zip(first_a, first_b) if y > x),
            "difference": round(diff, 4),
            "ci95": [round(low, 4), round(high, 4)],
        }
    if arena.solo:
        out["moves_to_finish"] = (
            {"mean": round(sum(finish) / len(finish), 2), "min": min(finish), "max": max(finish)}
            if finish
            else None
        )
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out

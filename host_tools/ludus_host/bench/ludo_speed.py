"""Ludo speed on CPython beside LUDOpy: random 4-player Danish games to the first winner in our engine and
in LUDOpy (PyPI `ludopy`), timed in the same process. `ludus bench` reports the two rates and their ratio."""

import time

from ludus.bots.selfplay import SeededDie, play_random
from ludus.ludo import start_position


def ludus_danish_rate(games: int, seed: int = 1) -> float:
    """Games per second of our engine: random 4-player Danish games to the first winner."""
    die = SeededDie(seed)
    start = time.perf_counter()
    for _ in range(games):
        game = start_position("danish/4")
        game.max_undo = 0
        play_random(game, die, first_winner=True)
    return games / (time.perf_counter() - start)


def ludopy_rate(games: int, seed: int = 1) -> float:
    """Games per second of LUDOpy playing random 4-player games to its first winner, driven the way its
    README shows (get_observation, then answer_observation with a random movable piece)."""
    # LUDOpy and numpy come with the dev extras only: loaded when the comparison runs
    import ludopy  # type: ignore[import-untyped]
    import numpy as np

    np.random.seed(seed)  # LUDOpy rolls with numpy's global generator
    start = time.perf_counter()
    for _ in range(games):
        game = ludopy.Game()
        there_is_a_winner = False
        while not there_is_a_winner:
            (_dice, move_pieces, _pp, _ep, _win, there_is_a_winner), _player = game.get_observation()
            piece = move_pieces[np.random.randint(0, len(move_pieces))] if len(move_pieces) else -1
            _, _, _, _, _, there_is_a_winner = game.answer_observation(piece)
    return games / (time.perf_counter() - start)


def compare(games: int = 200, seed: int = 1, rounds: int = 5) -> tuple[float, float]:
    """Time about `games` Danish games in each engine, in this process; returns (ours, ludopy) in
    games/s. The games are split into rounds that alternate between the engines, and each engine's
    best round counts: on a shared machine both then see the same load, and a burst of other work
    slows one round instead of one engine. (`ludus bench` prints both and their ratio.)"""
    rounds = max(1, min(rounds, games))
    ours = theirs = 0.0
    for k in range(rounds):
        ours = max(ours, ludus_danish_rate(max(games, 50) // rounds, seed + k))
        theirs = max(theirs, ludopy_rate(games // rounds, seed + k))
    return ours, theirs


def report(games: int = 200, seed: int = 1) -> dict[str, float]:
    """compare() as a dict, with the ratio."""
    ours, theirs = compare(games, seed)
    return {
        "ludus_games_per_s": round(ours, 1),
        "ludopy_games_per_s": round(theirs, 1),
        "ratio": round(ours / theirs, 1),
        "games": games,
    }


if __name__ == "__main__":
    print(report())

"""Play random Ludo games (every roll from a seeded die, every move chosen at random among the legal ones)
and print one JSON line: wins by seat, mean turns per game, captures per game, and more. PRESET is a
rule set (classic, danish, teamup+arrow, danish:entry=5.6, custom:base=danish,exact_home=0, ...) or a
named start (danish/2)."""

import argparse
import json
import time

from ludus.bots.selfplay import SeededDie, play_random
from ludus.errors import ConfigError
from ludus.ludo import start_position
from ludus.ludo.geometry import COLOURS

from ludus_host.args import whole


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("preset", metavar="PRESET", help="a Ludo rule set such as danish or teamup+arrow")
    parser.add_argument("--games", type=whole(1, 10**6), default=100, help="games to play (default 100)")
    parser.add_argument(
        "--seed", type=whole(0, 2**31 - 1), default=1, help="seed of the die and the choices (default 1)"
    )
    parser.add_argument("--players", type=whole(2, 4), default=None, help="2 to 4 players (default 4)")
    parser.add_argument(
        "--first-winner", action="store_true", help="stop each game at its first winner (no later places)"
    )


def _spec(preset: str, players: int | None) -> str:
    if preset.startswith("ludo/"):
        preset = preset[5:]
    if "/" in preset:
        _rules, _, n = preset.rpartition("/")
        if players is not None and str(players) != n:
            raise ConfigError("selfplay %s: --players %d disagrees with /%s" % (preset, players, n))
        return preset
    return "%s/%d" % (preset, 4 if players is None else players)


def summary(spec: str, games: int, seed: int, first_winner: bool = False) -> dict:
    """Play the games and return the summary that `ludus selfplay` prints (without timing)."""
    if games < 1:
        raise ConfigError("selfplay --games %d: play at least one game" % games)
    die = SeededDie(seed)
    first = start_position(spec)
    seats = first.seats
    wins = {COLOURS[s]: 0 for s in seats}
    place_sum = {COLOURS[s]: 0 for s in seats}
    pair_wins: dict[str, int] = {}
    turns = captures = actions = unfinished = 0
    longest = 0
    for _ in range(games):
        game = start_position(spec)
        game.max_undo = 0
        stats = play_random(game, die, first_winner=first_winner)
        turns += stats.turns
        captures += stats.captures
        actions += stats.actions
        longest = max(longest, stats.turns)
        if not (stats.placements if first_winner else game.is_over()):
            unfinished += 1  # stopped by play_random's action limit: no result to count
            continue
        winner = stats.placements[0]
        wins[COLOURS[winner]] += 1
        if game.rules.teams:
            pair = "%s+%s" % (COLOURS[min(winner, (winner + 2) % 4)], COLOURS[max(winner, (winner + 2) % 4)])
            pair_wins[pair] = pair_wins.get(pair, 0) + 1
        for place, s in enumerate(stats.placements):
            place_sum[COLOURS[s]] += place + 1
    out = {
        "rules": first.rules.spec(),
        "players": len(seats),
        "games": games,
        "seed": seed,
        "first_winner": first_winner,
        "wins": wins,
        "mean_turns": round(turns / games, 2),
        "captures_per_game": round(captures / games, 2),
        "mean_actions": round(actions / games, 2),
        "longest_game_turns": longest,
        "unfinished": unfinished,
    }
    if pair_wins:
        out["pair_wins"] = pair_wins
    if not first_winner and first.rules.play_on:
        finished = games - unfinished
        out["mean_place"] = {c: round(v / finished, 3) if finished else None for c, v in place_sum.items()}
    return out


def run(args: argparse.Namespace) -> int:
    spec = _spec(args.preset, args.players)
    start = time.perf_counter()
    out = summary(spec, args.games, args.seed, args.first_winner)
    out["games_per_s"] = round(args.games / (time.perf_counter() - start), 1)
    print(json.dumps(out, sort_keys=True))
    return 0

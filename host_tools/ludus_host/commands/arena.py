"""Bot against bot: play many seeded games with the board's own bots in the seats and print how each did.

    ludus arena ludo/danish/4 --seats strong,random,random,random --games 1000 --seed 1
    ludus arena ludo/classic --seats strong,preferred,preferred,preferred --games 10000
    ludus arena checkers/2 --seats strong,greedy --games 400
    ludus arena checkers/solo --seats strong --games 20

Ludo levels: random, preferred (home, else capture, else the furthest token), strong. Chinese Checkers
levels: random, greedy (the one-move bot), strong. The seats rotate from game to game, so every bot
plays from every seat (and in two-player games moves first every other game). A win is the first place.
Progress goes to stderr; the output ends with one JSON line: games, and per entry of --seats its bot,
wins, win_rate, ci95 (Wilson, 95%), mean_decision_ms; for checkers/solo also moves_to_finish.
The games run on every core (--jobs).

    ludus arena ludo/classic --seats strong,random,random,random --versus reference --games 1000

--versus LEVEL plays every game twice on the same seed, the second time with LEVEL in place of the first
bot, and adds `paired` to the JSON line: each bot's wins, the games only one of them won, and the paired
difference of their win rates with its 95% interval. The laptop's own levels, for measuring the board's
bots: `reference` (Ludo: each move valued by games played on from it) and `searcher` (Chinese Checkers:
a search of every seat's replies)."""

import argparse
import json

from ludus_host.args import whole
from ludus_host.bots.arena import play_games


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", metavar="GAME", help="ludo/PRESET[/PLAYERS] or checkers/SETUP or checkers/solo"
    )
    parser.add_argument("--seats", required=True, help="the bots, one level per seat, joined by commas")
    parser.add_argument("--games", type=whole(1, 10**6), default=100, help="games to play (default 100)")
    parser.add_argument(
        "--seed", type=whole(0, 2**31 - 1), default=1, help="seed of the dice and bots (default 1)"
    )
    parser.add_argument(
        "--jobs", type=whole(1, 256), default=None, help="worker processes (default: one per core)"
    )
    parser.add_argument(
        "--versus",
        metavar="LEVEL",
        help="play each game again with LEVEL in place of the first bot and report the paired difference",
    )
    parser.add_argument(
        "--no-line",
        action="store_true",
        help="Chinese Checkers: the strong bot without its opening line (its search alone)",
    )


def run(args: argparse.Namespace) -> int:
    seats = [s.strip() for s in args.seats.split(",")]
    out = play_games(args.game, seats, args.games, args.seed, args.jobs, args.no_line, versus=args.versus)
    for i, seat in enumerate(out["seats"]):
        print(
            "seat %d %-9s wins %6d  %5.1f%%  (95%%: %.1f-%.1f%%)  %.2f ms a decision"
            % (
                i,
                seat["bot"],
                seat["wins"],
                100 * seat["win_rate"],
                100 * seat["ci95"][0],
                100 * seat["ci95"][1],
                seat["mean_decision_ms"] or 0.0,
            )
        )
    paired = out.get("paired")
    if paired:
        print(
            "seat 0 %-9s wins %6d  %5.1f%%  (95%%: %.1f-%.1f%%)  %.2f ms a decision, on the same seeds"
            % (
                paired["b"],
                paired["b_wins"],
                100 * paired["b_win_rate"],
                100 * paired["b_ci95"][0],
                100 * paired["b_ci95"][1],
                paired["b_mean_decision_ms"] or 0.0,
            )
        )
        print(
            "paired: %s minus %s %+.2f points (95%%: %+.2f to %+.2f); won by one only: %d and %d games"
            % (
                paired["a"],
                paired["b"],
                100 * paired["difference"],
                100 * paired["ci95"][0],
                100 * paired["ci95"][1],
                paired["only_a"],
                paired["only_b"],
            )
        )
    finish = out.get("moves_to_finish")
    if finish:
        print(
            "moves to finish: mean %.2f, best %d, worst %d" % (finish["mean"], finish["min"], finish["max"])
        )
    print(json.dumps(out, sort_keys=True))
    return 0

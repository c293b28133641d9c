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
The games run on every core (--jobs)."""

import argparse
import json
import multiprocessing
import os
import sys
import time

from ludus_host.arena import Arena, wilson
from ludus_host.args import whole


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
        "--no-line",
        action="store_true",
        help="Chinese Checkers: the strong bot without its opening line (its search alone)",
    )


_ARENA = None


def _init(game, seats, no_line=False):
    global _ARENA
    _ARENA = Arena(game, seats, no_line=no_line)


def _one(job):
    index, seed = job
    assert _ARENA is not None
    return _ARENA.play(index, seed)


def play_games(game, seats, games, seed=1, jobs=None, no_line=False, label=None):
    """Play `games` games of `game` (a name Arena takes) with the bots `seats`; progress on stderr. The
    summary dict the JSON line carries."""
    arena = Arena(game, seats, no_line=no_line)  # checked here, so a bad name fails before any worker
    jobs = jobs or os.cpu_count() or 1
    work = [(i, seed) for i in range(games)]
    n = len(arena.seats)
    wins = [0] * n
    spent = [0.0] * n
    counts = [0] * n
    finish = []
    unfinished = 0
    start = time.perf_counter()
    last = 0.0
    label = label or game

    def add(result):
        nonlocal unfinished
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

    def progress(done, final=False):
        nonlocal last
        now = time.perf_counter()
        if final or now - last >= 1.0:
            last = now
            print(
                "arena %s: %d/%d games, %.0f s" % (label, done, games, now - start),
                file=sys.stderr,
                flush=True,
            )

    if jobs == 1 or games < 4:
        for k, job in enumerate(work, 1):
            add(arena.play(*job))
            progress(k)
    else:
        ctx = multiprocessing.get_context("fork")
        chunk = max(1, min(50, games // (jobs * 8)))
        with ctx.Pool(jobs, initializer=_init, initargs=(game, seats, no_line)) as pool:
            for k, result in enumerate(pool.imap_unordered(_one, work, chunksize=chunk), 1):
                add(result)
                progress(k)
    progress(games, final=True)
    out = {"game": game, "games": games, "seed": seed, "unfinished": unfinished, "seats": []}
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
    if arena.solo:
        out["moves_to_finish"] = (
            {"mean": round(sum(finish) / len(finish), 2), "min": min(finish), "max": max(finish)}
            if finish
            else None
        )
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out


def run(args: argparse.Namespace) -> int:
    seats = [s.strip() for s in args.seats.split(",")]
    out = play_games(args.game, seats, args.games, args.seed, args.jobs, args.no_line)
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
    finish = out.get("moves_to_finish")
    if finish:
        print(
            "moves to finish: mean %.2f, best %d, worst %d" % (finish["mean"], finish["min"], finish["max"])
        )
    print(json.dumps(out, sort_keys=True))
    return 0

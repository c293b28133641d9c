"""The bots' figures in docs/bots.md, played again: every `ludus arena` run the page reports, its JSON
lines kept in docs/bots-figures.json, and the plot of win rate by level (docs/bots-win-rates.svg) drawn
from them.

    python -m ludus_host.bots.figures                 # the docs' figures: 10,000 Ludo games a run
                                                      # (an hour on one core: the laptop's reference
                                                      # players' runs are most of it)
    python -m ludus_host.bots.figures --scale 0.1     # a tenth of the games, for a quick look
    python -m ludus_host.bots.figures --plot-only     # the plot again from docs/bots-figures.json
    python -m ludus_host.bots.figures --only checkers # the Chinese Checkers runs again, the rest kept
"""

import argparse
import json
import os
from typing import Any

from ludus_host.bots.arena import play_games
from ludus_host.paths import ROOT, write_atomically

FIGURES = os.path.join(ROOT, "docs", "bots-figures.json")
PLOT = os.path.join(ROOT, "docs", "bots-win-rates.svg")

# (game, seats, games, no_line, versus): the runs of docs/bots.md (versus: a paired run's second bot)
RUNS = (
    ("ludo/classic", "random,random,random,random", 10000, False, None),
    ("ludo/classic", "preferred,random,random,random", 10000, False, None),
    ("ludo/classic", "strong,random,random,random", 10000, False, None),
    ("ludo/classic", "strong,preferred,preferred,preferred", 10000, False, None),
    ("ludo/danish", "random,random,random,random", 10000, False, None),
    ("ludo/danish", "preferred,random,random,random", 10000, False, None),
    ("ludo/danish", "strong,random,random,random", 10000, False, None),
    ("ludo/danish", "strong,preferred,preferred,preferred", 10000, False, None),
    ("ludo/master", "strong,random,random,random", 2000, False, None),
    ("ludo/blitz", "strong,random,random,random", 2000, False, None),
    ("ludo/arrow", "strong,random,random,random", 2000, False, None),
    ("ludo/teamup", "strong,random,random,random", 2000, False, None),
    ("ludo/hebrew-40", "strong,random,random,random", 2000, False, None),
    ("ludo/hebrew-56", "strong,random,random,random", 2000, False, None),
    ("ludo/danish/2", "strong,random", 2000, False, None),
    ("ludo/danish/3", "strong,random,random", 2000, False, None),
    ("checkers/solo", "strong", 1, False, None),
    ("checkers/solo", "strong", 20, True, None),
    ("checkers/2", "greedy,random", 100, False, None),
    ("checkers/2", "strong,greedy", 400, False, None),
    ("checkers/2", "strong,greedy", 100, True, None),
    ("checkers/3", "strong,greedy,greedy", 60, False, None),
    ("checkers/4", "strong,greedy,greedy,greedy", 40, False, None),
    ("checkers/5", "strong,greedy,greedy,greedy,greedy", 40, False, None),
    ("checkers/6", "strong,greedy,greedy,greedy,greedy,greedy", 40, False, None),
    ("checkers/2x2", "strong,greedy", 20, False, None),
    ("checkers/2x3", "strong,greedy", 10, False, None),
    ("ludo/classic", "reference,random,random,random", 1000, False, "strong"),
    ("ludo/danish", "reference,random,random,random", 1000, False, "strong"),
    ("ludo/classic", "reference,preferred,preferred,preferred", 600, False, "strong"),
    ("checkers/2", "strong,searcher", 200, False, None),
    ("checkers/3", "strong,searcher,searcher", 60, False, None),
    ("checkers/4", "strong,searcher,searcher,searcher", 60, False, None),
    ("checkers/6", "strong,searcher,searcher,searcher,searcher,searcher", 42, False, None),
)


def play_all(
    scale: float = 1.0, seed: int = 1, only: str | None = None, kept: list[dict] | None = None
) -> list[dict]:
    """Every run of RUNS (only those whose game contains `only`, the others taken from `kept`)."""
    out = []
    for k, (game, seats, games, no_line, versus) in enumerate(RUNS):
        if only and only not in game and kept:
            out.append(kept[k])
            continue
        n = max(1, int(games * scale))
        out.append(play_games(game, seats.split(","), n, seed, no_line=no_line, versus=versus))
    return out


TARGETS = {("classic", "strong"): 0.80, ("danish", "strong"): 0.62}  # issue 41's, marked on the plot
LEVELS = ("random", "preferred", "strong", "reference")


def plot(results: list[dict]) -> str:
    """An SVG bar chart: the first seat's win rate (with its 95% interval) per Ludo level, against three
    random players, in Classic and Danish (the laptop's reference player last); the even share (25%)
    and the targets marked (on the strong bot's bar, the label inside it)."""
    bars = []
    for rules in ("classic", "danish"):
        for level in LEVELS:
            for r in results:
                if (
                    r["game"] == "ludo/" + rules
                    and [s["bot"] for s in r["seats"]] == [level] + ["random"] * 3
                ):
                    bars.append((rules, level, r["seats"][0]))
    w, h, left, bottom, top = 680, 300, 60, 250, 30
    scale = (bottom - top) / 1.0
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d"'
        ' font-family="sans-serif" font-size="12">' % (w, h, w, h),
        "<title>Ludo: win rate of one bot against three random players, by level</title>",
        '<rect width="%d" height="%d" fill="white"/>' % (w, h),
    ]
    for k in range(0, 11, 2):
        y = bottom - k / 10 * scale
        parts.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, w - 10, y, y))
        parts.append('<text x="%d" y="%.1f" text-anchor="end">%d%%</text>' % (left - 6, y + 4, k * 10))
    y25 = bottom - 0.25 * scale
    parts.append(
        '<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#888" stroke-dasharray="4 3"/>'
        % (left, w - 10, y25, y25)
    )
    parts.append('<text x="%d" y="%.1f" fill="#555">even share</text>' % (w - 72, y25 - 4))
    colours = {"random": "#9aa5b1", "preferred": "#4f86c6", "strong": "#1d3f72", "reference": "#7d5ba6"}
    x = left + 20
    for i, (rules, level, seat) in enumerate(bars):
        if i == len(LEVELS):
            x += 40
        rate = seat["win_rate"]
        lo, hi = seat["ci95"]
        y = bottom - rate * scale
        parts.append(
            '<rect x="%d" y="%.1f" width="44" height="%.1f" fill="%s"><title>%s %s: %.1f%%</title></rect>'
            % (x, y, rate * scale, colours[level], rules, level, 100 * rate)
        )
        parts.append(
            '<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="black"/>'
            % (x + 22, x + 22, bottom - lo * scale, bottom - hi * scale)
        )
        target = TARGETS.get((rules, level))
        top = min(y, bottom - target * scale) if target else y  # the rate's label above the target's line
        parts.append(
            '<text x="%d" y="%.1f" text-anchor="middle">%.1f%%</text>' % (x + 22, top - 6, 100 * rate)
        )
        parts.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % (x + 22, bottom + 16, level))
        if target:
            ty = bottom - target * scale
            parts.append(
                '<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#c0392b" stroke-width="2"/>'
                '<text x="%d" y="%.1f" text-anchor="middle" fill="white">target %d%%</text>'
                % (x - 4, x + 48, ty, ty, x + 22, ty + 16, round(100 * target))
            )
        x += 60
    group = 60 * len(LEVELS)
    parts.append(
        '<text x="%d" y="%d" text-anchor="middle">Classic</text>' % (left + 20 + group // 2 - 8, bottom + 34)
    )
    parts.append(
        '<text x="%d" y="%d" text-anchor="middle">Danish</text>'
        % (left + 20 + group + 40 + group // 2 - 8, bottom + 34)
    )
    parts.append(
        '<text x="%d" y="18" font-weight="bold">One bot against three random players (4 players, seats'
        " rotated)</text>" % left
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="a share of each run's games (default 1)")
    parser.add_argument("--plot-only", action="store_true", help="draw the plot from the kept figures")
    parser.add_argument("--only", metavar="TEXT", help="play again only the runs whose game contains TEXT")
    args = parser.parse_args(argv)
    kept: Any = None  # (the kept figures: JSON)
    if args.plot_only or args.only:
        with open(FIGURES, encoding="utf-8") as f:
            kept = json.load(f)
    if args.plot_only:
        results = kept
    else:
        results = play_all(args.scale, only=args.only, kept=kept)
        write_atomically(FIGURES, json.dumps(results, indent=1, sort_keys=True) + "\n")
    write_atomically(PLOT, plot(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

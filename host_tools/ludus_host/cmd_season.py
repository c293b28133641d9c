"""A club's season table from its games' records: league points by place (the Danish club's 3, 2, 1
and 0 by default), best first, with the groups still tied; a game between exactly the players of a
tied group is their play-off and settles it.

    ludus season games/*.json                 # the table, in the order the records are given
    ludus season games/*.json --csv table.csv # for a spreadsheet (--json too)

Every record must be a finished Ludo game of the season's rule set (--rules, default danish) that
`ludus verify` accepts; any other is named with what is wrong, and no table is printed. Players are
known by their seat's colour (green, yellow, red, blue) until records carry names."""

import argparse
import csv
import io
import json
import sys

from ludus.errors import LudusError, NotationError
from ludus.ludo.geometry import COLOURS

from ludus_host.args import output_file
from ludus_host.paths import write_atomically

PLACE_NAMES = ("1st", "2nd", "3rd", "4th")


class SeasonError(LudusError):
    """Records that cannot make a season: each named with its fault."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("records", nargs="+", metavar="RECORD", help="game record files, in playing order")
    parser.add_argument("--rules", default="danish", help="the season's rule set (default danish)")
    parser.add_argument(
        "--no-playoffs", action="store_true", help="count every game as a league game, none as a play-off"
    )
    parser.add_argument("--csv", metavar="FILE", type=output_file, help="also write the table as CSV")
    parser.add_argument("--json", metavar="FILE", type=output_file, help="also write the table as JSON")


def rules_of(start):
    """The rule set a record's start names: "ludo/danish/4" and "ludo danish seats=..." give "danish";
    None for a game that is not Ludo."""
    words = start.split()
    if not words:
        return None
    first = words[0]
    if first.startswith("ludo/"):
        from ludus.referee.presets import split_preset

        return split_preset(first)[1]
    if first == "ludo" and len(words) > 1:
        return words[1]
    return None


class Game:
    """One finished game of the season: its players (seat colours) and their finishing order."""

    def __init__(self, path, players, placements):
        self.path = path
        self.players = players
        self.placements = placements


def read_game(path, rules):
    """The game in a record file, or SeasonError naming the file and its fault."""
    from ludus_host.cmd_verify import load

    try:
        record = load(path)
    except LudusError as exc:
        raise SeasonError(str(exc)) from None
    found = rules_of(record.start)
    if found is None:
        raise SeasonError("%s: not a Ludo game (%s)" % (path, record.start))
    if found != rules:
        raise SeasonError("%s: a %s game, not %s: a season keeps to one rule set" % (path, found, rules))
    if record.result is None:
        raise SeasonError("%s: the game is not finished (no result)" % path)
    problems = record.verify()
    if problems:
        raise SeasonError("%s: does not verify: %s" % (path, problems[0]))
    game = record.replay(history=False)
    players = [COLOURS[s] for s in game.seats]
    return Game(path, players, [COLOURS[s] for s in record.result])


def season(games, points, playoffs=True):
    """The table of a list of Games: a dict with "standings" (rank, player, points, games, places,
    tied), "ties", "champion", "games" and "playoffs"."""
    from ludus.ludo.season import SeasonTable

    table = SeasonTable(points)
    played = {}
    places = {}
    playoff_games = []
    for g in games:
        tied = [set(group) for group in table.ties()]
        if playoffs and set(g.players) in tied and len(g.placements) == len(g.players):
            table.add_playoff(g.placements)
            playoff_games.append(g.path)
            continue
        try:
            table.add_game(g.placements)
        except LudusError as exc:
            raise SeasonError("%s: %s" % (g.path, exc)) from None
        for name in g.players:
            played[name] = played.get(name, 0) + 1
            table.totals.setdefault(name, 0)  # a player with no place still plays
        for k, name in enumerate(g.placements):
            row = places.setdefault(name, [0] * len(PLACE_NAMES))
            if k < len(row):
                row[k] += 1
    ties = table.ties()
    tied_names = {n for group in ties for n in group}
    rows = []
    for rank, (name, pts) in enumerate(table.standings(), 1):
        rows.append(
            {
                "rank": rank,
                "player": name,
                "points": pts,
                "games": played.get(name, 0),
                "places": places.get(name, [0] * len(PLACE_NAMES)),
                "tied": name in tied_names,
            }
        )
    return {
        "standings": rows,
        "ties": ties,
        "champion": table.champion(),
        "games": table.games,
        "playoffs": playoff_games,
    }


def text_of(result, rules):
    out = [
        "season: %s, %d games%s"
        % (
            rules,
            result["games"],
            " and %d play-off%s" % (len(result["playoffs"]), "" if len(result["playoffs"]) == 1 else "s")
            if result["playoffs"]
            else "",
        ),
        " #  player   points  games   " + "  ".join(PLACE_NAMES),
    ]
    for row in result["standings"]:
        out.append(
            "%2d  %-8s %6d  %5d   %s%s"
            % (
                row["rank"],
                row["player"],
                row["points"],
                row["games"],
                "  ".join("%3d" % n for n in row["places"]),
                "  (tied)" if row["tied"] else "",
            )
        )
    for group in result["ties"]:
        out.append("tied, no play-off yet: %s" % ", ".join(group))
    champion = result["champion"]
    out.append("champion: %s" % champion if champion else "champion: not settled (a play-off is due)")
    return "\n".join(out)


def csv_of(result):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "player", "points", "games", *PLACE_NAMES, "tied"])
    for row in result["standings"]:
        w.writerow(
            [row["rank"], row["player"], row["points"], row["games"], *row["places"], int(row["tied"])]
        )
    return buf.getvalue()


def run(args: argparse.Namespace) -> int:
    from ludus.ludo.rules import rules_from_spec

    try:
        points = rules_from_spec(args.rules).points
    except LudusError as exc:
        raise NotationError("--rules %s: %s" % (args.rules, exc)) from None
    games = []
    faults = []
    for path in args.records:
        try:
            games.append(read_game(path, args.rules))
        except SeasonError as exc:
            faults.append(str(exc))
    if faults:
        for fault in faults[:-1]:
            print("ludus season: %s" % fault, file=sys.stderr)
        raise SeasonError(
            faults[-1] + (" (%d records refused: no table)" % len(faults) if len(faults) > 1 else "")
        )
    result = season(games, points, playoffs=not args.no_playoffs)
    result["rules"] = args.rules
    print(text_of(result, args.rules))
    if args.csv:
        write_atomically(args.csv, csv_of(result))
    if args.json:
        write_atomically(args.json, json.dumps(result, indent=1) + "\n")
    return 0

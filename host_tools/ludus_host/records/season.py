"""A club's season table from its games' records: league points by place (the Danish club's 3, 2, 1
and 0 by default), best first, with the groups still tied; a game between exactly the players of a
tied group is their play-off and settles it.

    ludus season games/*.json                 # the table, in the order the records are given
    ludus season games/*.json --csv table.csv # for a spreadsheet (--json too)

Every record must be a finished Ludo game of the season's rule set (--rules, default danish) that
`ludus verify` accepts; any other is named with what is wrong, and no table is printed. Players are
known by the names their records carry (a record without names: by the seats' colours), and the same
game given twice is refused. What the records note besides the play (a seat renamed or handed to a bot,
the board stopped into the REPL) is listed under the table. The board counts the same table as games
end (docs/club.md)."""

import argparse
import csv
import io
import json
import sys

from ludus.errors import LudusError, NotationError
from ludus.ludo.geometry import COLOURS
from ludus.ludo.season import Season, points_of, rules_of

from ludus_host.args import output_file, refuse_overwriting
from ludus_host.paths import write_atomically
from ludus_host.record_words import notes_lines

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


def record_players(record, game=None):
    """(players, placements) of a finished record by name: its players' names (a record without names:
    the seats' colours). game: the record replayed (replayed here if not given)."""
    if game is None:
        game = record.replay(history=False)
    named = record.players or {}
    by_seat = {s: named.get(s) or COLOURS[s] for s in game.seats}
    return list(by_seat.values()), [by_seat[s] for s in record.result]


class Game:
    """One finished game of the season: its players' names and their finishing order, and its key (the
    dice commitment: one game given twice is refused), and its record's notes (ludus.record.notes)."""

    def __init__(self, path, players, placements, key=None, notes=None):
        self.path = path
        self.players = players
        self.placements = placements
        self.key = key
        self.notes = notes


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
    players, placements = record_players(record)
    return Game(path, players, placements, record.seed_sha256, record.notes)


def season(games, rules, points=None, playoffs=True):
    """The table of a list of Games (ludus.ludo.season.Season.result(), the play-offs named by file)."""
    table = Season(rules, points)
    for g in games:
        try:
            table.add(g.players, g.placements, label=str(g.path), key=g.key, playoffs=playoffs, notes=g.notes)
        except LudusError as exc:
            raise SeasonError("%s: %s" % (g.path, exc)) from None
    return table.result()


def text_of(result, rules):
    """The table as the terminal shows it (the player column as wide as the longest name)."""
    width = max([8] + [len(row["player"]) for row in result["standings"]])
    out = [
        "season: %s, %d games%s"
        % (
            rules,
            result["games"],
            " and %d play-off%s" % (len(result["playoffs"]), "" if len(result["playoffs"]) == 1 else "s")
            if result["playoffs"]
            else "",
        ),
        " #  %s points  games   " % "player".ljust(width) + "  ".join(PLACE_NAMES),
    ]
    for row in result["standings"]:
        out.append(
            "%2d  %s %6d  %5d   %s%s"
            % (
                row["rank"],
                row["player"].ljust(width),
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
    out += notes_lines(result.get("notes"), game=True)  # (names and bots changed in a game, the REPL)
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
    refuse_overwriting(
        [("--csv", args.csv), ("--json", args.json)], [("a record", path) for path in args.records]
    )
    try:
        points = points_of(args.rules)
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
    result = season(games, args.rules, points, playoffs=not args.no_playoffs)
    print(text_of(result, args.rules))
    if args.csv:
        write_atomically(args.csv, csv_of(result))
    if args.json:
        write_atomically(args.json, json.dumps(result, indent=1) + "\n")
    return 0

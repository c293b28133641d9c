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
import json
import sys

from ludus.errors import LudusError, NotationError
from ludus.ludo.season import points_of

from ludus_host.args import output_file, refuse_overwriting
from ludus_host.paths import write_atomically
from ludus_host.records.season import SeasonError, csv_of, read_game, season, text_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("records", nargs="+", metavar="RECORD", help="game record files, in playing order")
    parser.add_argument("--rules", default="danish", help="the season's rule set (default danish)")
    parser.add_argument(
        "--no-playoffs", action="store_true", help="count every game as a league game, none as a play-off"
    )
    parser.add_argument("--csv", metavar="FILE", type=output_file, help="also write the table as CSV")
    parser.add_argument("--json", metavar="FILE", type=output_file, help="also write the table as JSON")


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

"""A club's season table from its games' records (docs/club.md): league points by place, best first, the
groups still tied, and a game between exactly the players of a tied group counted as their play-off;
as text and as CSV. The board counts the same table with ludus.ludo.season."""

import csv
import io
from typing import Any

from ludus.errors import LudusError
from ludus.ludo.geometry import COLOURS
from ludus.ludo.season import Season, rules_of
from ludus.record import GameRecord

from ludus_host.records.files import load
from ludus_host.records.notes import notes_lines

PLACE_NAMES = ("1st", "2nd", "3rd", "4th")


class SeasonError(LudusError):
    """Records that cannot make a season: each named with its fault."""


def record_players(record: GameRecord, game: Any = None) -> tuple[list[str], list[str]]:
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

    def __init__(
        self,
        path: str,
        players: list[str],
        placements: list[str],
        key: str | None = None,
        notes: list | None = None,
    ) -> None:
        self.path = path
        self.players = players
        self.placements = placements
        self.key = key
        self.notes = notes


def read_game(path: str, rules: str) -> Game:
    """The game in a record file, or SeasonError naming the file and its fault."""
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


def season(games: list[Game], rules: str, points: Any = None, playoffs: bool = True) -> dict:
    """The table of a list of Games (ludus.ludo.season.Season.result(), the play-offs named by file)."""
    table = Season(rules, points)
    for g in games:
        try:
            table.add(g.players, g.placements, label=str(g.path), key=g.key, playoffs=playoffs, notes=g.notes)
        except LudusError as exc:
            raise SeasonError("%s: %s" % (g.path, exc)) from None
    return table.result()


def text_of(result: dict, rules: str) -> str:
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


def csv_of(result: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "player", "points", "games", *PLACE_NAMES, "tied"])
    for row in result["standings"]:
        w.writerow(
            [row["rank"], row["player"], row["points"], row["games"], *row["places"], int(row["tied"])]
        )
    return buf.getvalue()

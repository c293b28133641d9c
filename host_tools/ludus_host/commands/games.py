"""The finished games kept on a board, and the season it keeps (docs/club.md).

    ludus games /dev/ttyACM0                   # one line per game: rules, places by name, moves, verified
    ludus games /dev/ttyACM0 --save games/     # each saved as a record `ludus verify` and `ludus season` take
    ludus games /dev/ttyACM0 --season          # and the season table the board keeps
    ludus games /dev/ttyACM0 --new-season      # the table printed, then a new season begun on the board

Records are saved as game-<commitment>.json: fetching again finds the same names, so a game is saved
once however often it is fetched. PORT is a serial port or exec:COMMAND, as for `ludus monitor`."""

import argparse
import os
from collections.abc import Callable

from ludus.errors import LudusError
from ludus.record import GameRecord

from ludus_host.args import decimal, output_folder, whole
from ludus_host.link.client import Link, LinkReset, answers
from ludus_host.paths import write_atomically
from ludus_host.records.season import text_of


class GamesError(LudusError):
    """A board that does not answer, or answers with an error."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("port", help="the serial port (/dev/ttyACM0, COM3) or exec:COMMAND")
    parser.add_argument("--save", metavar="DIR", type=output_folder, help="save each game's record in DIR")
    parser.add_argument(
        "--last", type=whole(0, 100), default=None, metavar="N", help="only the newest N games"
    )
    parser.add_argument("--season", action="store_true", help="also print the season the board keeps")
    parser.add_argument(
        "--new-season", action="store_true", help="print the season, then begin a new one on the board"
    )
    parser.add_argument(
        "--wait",
        type=decimal(0, 600, low_open=True),
        default=15.0,
        metavar="SECONDS",
        help="how long to wait for the board",
    )


def _ask(
    link: Link, cmd: dict, until: Callable[[dict], object], wait: float, again: bool = True
) -> list[dict]:
    """Send cmd and collect its reply lines (several for `games`) until the last; GamesError for an
    error reply or none in `wait` seconds. If the board resets meanwhile (its port goes away and comes
    back), the question is asked again (again=False: a command that changes the board is not: it is
    said instead)."""
    replies = []
    generation = getattr(link, "generation", 0)
    try:
        for item in answers(link, cmd, wait, again=again):
            if getattr(link, "generation", 0) != generation:  # (asked again: the answer begins again)
                generation = link.generation
                replies = []
            if item.get("ok") is False:
                raise GamesError("the board refused %r: %s" % (cmd["cmd"], item.get("error")))
            replies.append(item)
            if until(item):
                return replies
    except LinkReset:
        raise GamesError(
            "the board started again while it was asked %r: look whether it was done" % cmd["cmd"]
        ) from None
    raise GamesError(
        "no answer to %r from the board in %g s: is the Ludus firmware running (ludus monitor PORT)?"
        % (cmd["cmd"], wait)
    )


def summary(text: object) -> tuple[str, GameRecord | None]:
    """(line, record or None): one line of words for a record the board gave, and the record."""
    if not isinstance(text, str):
        return "a record that is not text (%s)" % type(text).__name__, None
    try:
        record = GameRecord.from_json(text)
    except LudusError as exc:
        return "a record that cannot be read: %s" % exc, None
    problems = record.verify()
    players = record.players or {}
    places = ", ".join(
        "%d. %s" % (k + 1, players.get(seat, "seat %d" % seat)) for k, seat in enumerate(record.result or ())
    )
    rolls, moves = record.counts()
    return (
        "%s: %s; %d moves, %d rolls; %s"
        % (
            record.start if len(record.start) <= 40 else record.start[:37] + "...",
            places or "no result",
            moves,
            rolls,
            "verified" if not problems else "DOES NOT VERIFY: %s" % problems[0],
        ),
        record,
    )


def save(directory: str, text: str, record: GameRecord) -> tuple[str, bool]:
    """The record saved as DIR/game-<commitment>.json, unless that file already holds it: (path, new)."""
    path = os.path.join(directory, "game-%s.json" % record.seed_sha256[:16])
    text = text if text.endswith("\n") else text + "\n"
    if os.path.isfile(path):  # (only a regular file is read: a named pipe there would never answer)
        with open(path, "rb") as f:
            if f.read(len(text.encode()) + 1) == text.encode():
                return path, False
    write_atomically(path, text)
    return path, True


def season_table(reply: dict) -> dict | None:
    """The season table of a `season` reply, checked field by field (the board's words are data from
    outside); None when the board keeps none; GamesError naming what is wrong."""
    table = reply.get("season")
    if table is None:
        return None

    def whole(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def bad(what: str) -> GamesError:
        return GamesError("the board's season cannot be read: %s" % what)

    if not isinstance(table, dict) or not isinstance(reply.get("rules"), str):
        raise bad("not a table with its rules")
    rows = table.get("standings")
    if not isinstance(rows, list):
        raise bad("no standings")
    for row in rows:
        if not (
            isinstance(row, dict)
            and isinstance(row.get("player"), str)
            and all(whole(row.get(k)) for k in ("rank", "points", "games"))
            and isinstance(row.get("places"), list)
            and all(whole(n) for n in row["places"])
            and isinstance(row.get("tied"), bool)
        ):
            raise bad("a row of the standings is not rank, player, points, games, places, tied")
    ties = table.get("ties")
    if not isinstance(ties, list) or not all(
        isinstance(g, list) and all(isinstance(n, str) for n in g) for g in ties
    ):
        raise bad("ties are not groups of names")
    if not whole(table.get("games")) or not isinstance(table.get("playoffs"), list):
        raise bad("no count of games and play-offs")
    if table.get("champion") is not None and not isinstance(table["champion"], str):
        raise bad("the champion is not a name")
    notes = table.get("notes", [])  # (a board from before notes: none)
    if not isinstance(notes, list) or not all(
        isinstance(n, dict) and all(isinstance(k, str) for k in n) for n in notes
    ):
        raise bad("its notes are not a list of objects")
    return table


def run(args: argparse.Namespace) -> int:
    if args.save:
        try:
            os.makedirs(args.save, exist_ok=True)
        except OSError as exc:
            raise GamesError("--save %s: %s" % (args.save, exc.strerror or exc)) from None
    link = Link(args.port, note=lambda text: print("(%s)" % text, flush=True))
    try:
        cmd = {"cmd": "games", "id": "ludus-games"}
        if args.last is not None:
            cmd["last"] = args.last
        replies = _ask(link, cmd, lambda item: bool(item.get("done")), args.wait)
        records = [r["record"] for r in replies if "record" in r]
        print("%d finished game%s kept on the board" % (len(records), "" if len(records) == 1 else "s"))
        saved = 0
        for k, text in enumerate(records):
            line, record = summary(text)
            print("%2d  %s" % (k + 1, line))
            if args.save and record is not None:
                path, new = save(args.save, text, record)
                saved += new
                print("    %s %s" % ("saved" if new else "already saved:", path))
        if args.save:
            print("%d new record%s saved in %s" % (saved, "" if saved == 1 else "s", args.save))
        if args.season or args.new_season:
            (reply,) = _ask(link, {"cmd": "season", "id": "ludus-season"}, lambda item: True, args.wait)
            table = season_table(reply)
            if table is None:
                print("the board keeps no season (ludus config --set season=danish, or the season command)")
            else:
                print(text_of(table, reply["rules"]))
            if args.new_season:
                if table is None:
                    raise GamesError("--new-season: the board keeps no season to begin anew")
                (begun,) = _ask(
                    link,
                    {"cmd": "season", "id": "ludus-new", "new": True},
                    lambda item: True,
                    args.wait,
                    again=False,
                )
                print(
                    "a new %s season begins on the board; the old one is kept there as %s"
                    % (begun.get("rules"), begun.get("kept_as"))
                )
    finally:
        link.close()
    return 0

"""Check a game record: the revealed seed against its commitment, every roll against the seed, and every
move against the rules. Exit 0 when all agree, 1 with the mismatches (the first ten, and a count of the rest),
2 for an unreadable record. The record's notes follow (a seat renamed or handed to a bot, the board stopped
into the REPL, the dice re-committed, the game abandoned)."""

import argparse

from ludus.record import GameRecord

from ludus_host.records.files import load
from ludus_host.records.notes import notes_lines

SHOWN = 10  # mismatches listed; the rest are counted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="GAME_RECORD", help="a game record JSON file, or - for stdin")


def run(args: argparse.Namespace) -> int:
    record = load(args.record)
    problems = record.verify()
    rolls, moves = record.counts()
    if problems:
        print("%s: %d mismatch%s" % (args.record, len(problems), "" if len(problems) == 1 else "es"))
        for problem in problems[:SHOWN]:
            print("  " + problem)
        if len(problems) > SHOWN:
            print("  ... and %d more (the first %d are listed)" % (len(problems) - SHOWN, SHOWN))
        _notes(record)
        return 1
    reseeds = len([n for n in record.notes or () if "reseed" in n])
    matched = "seed matches commitment %s" % record.seed_sha256
    if reseeds:  # (each re-commit's seed checked against the commitment before it: ludus.record.notes)
        matched = "seeds match commitment %s and %d re-commit%s" % (
            record.seed_sha256,
            reseeds,
            "" if reseeds == 1 else "s",
        )
    print("verified: %d rolls, %d moves, %s (start %s)" % (rolls, moves, matched, record.start))
    if record.result is not None:
        print("result: " + (" ".join(str(seat) for seat in record.result) or "no placements"))
    _notes(record)
    return 0


def _notes(record: GameRecord) -> None:
    # what happened besides the play (names, bots, the REPL, re-commits: ludus.record.notes)
    for line in notes_lines(record.notes):
        print(line)

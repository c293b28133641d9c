"""Watch a board over its USB link (docs/usb-protocol.md): every event in words, commands sent, finished
games saved as records that `ludus verify` checks.

    ludus monitor /dev/ttyACM0                        # events in words until Ctrl-C
    ludus monitor /dev/ttyACM0 --send hello --send '{"cmd": "stats"}' --for 2
    ludus monitor /dev/ttyACM0 --games --save games/  # fetch the finished games kept on the board
    ludus monitor /dev/ttyACM0 --save games/          # and save each game as it ends

PORT is a serial port, or exec:COMMAND: a program whose standard input and output are the link (the
firmware under the MicroPython unix port, an emulated Pico). A serial port that goes away (the board
resets and its USB comes back) is opened again as soon as it is back."""

import argparse
import json
import os
import queue
import time

from ludus_host.args import decimal
from ludus_host.link.client import Link, MonitorError, board_line, command_line
from ludus_host.link.words import describe, shown
from ludus_host.paths import write_atomically


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("port", help="the serial port (/dev/ttyACM0, COM3) or exec:COMMAND")
    parser.add_argument(
        "--send",
        action="append",
        default=[],
        metavar="CMD",
        help="a command: a name (hello) or a JSON object",
    )
    parser.add_argument("--games", action="store_true", help="fetch the finished games kept on the board")
    parser.add_argument("--save", default=None, metavar="DIR", help="save finished games' records in DIR")
    parser.add_argument(
        "--for",
        dest="seconds",
        type=decimal(0, 10**7, low_open=True),
        default=None,
        help="stop after SECONDS",
    )
    parser.add_argument("--raw", action="store_true", help="print the JSON lines as they come")


# commands that only ask: sent again, unanswered, after the board has reset (a `season` with `new` or
# `rules`, and every command that changes the board, are not: `set_config` again would reset it again)
QUESTIONS = ("hello", "help", "state", "stats", "config", "journal", "levels", "frame", "games", "season")


def _question(line: str) -> bool:
    cmd = json.loads(line)
    return cmd["cmd"] in QUESTIONS and not (cmd["cmd"] == "season" and ("new" in cmd or "rules" in cmd))


def _ask_on(link: Link, line: str) -> None:
    # a question the monitor asks by itself: a board gone (a program that ended) leaves the lines
    # it sent still to show, so this is said, not fatal
    try:
        link.send(line)
    except MonitorError as exc:
        print("(not asked: %s)" % exc, flush=True)


def run(args: argparse.Namespace) -> int:
    sends = [command_line(text, k + 1) for k, text in enumerate(args.send)]
    if args.games:
        sends.append(json.dumps({"cmd": "games", "id": "games"}))
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    link = Link(args.port, note=lambda text: print("(%s)" % text, flush=True))
    saved = 0
    try:
        end = time.monotonic() + args.seconds if args.seconds is not None else None
        generation = link.generation  # (before the sends: a reset right after them is seen)
        for line in sends:
            link.send(line)
        # the questions not answered yet, by id: asked again if the board resets first
        unanswered = {json.loads(line)["id"]: line for line in sends if _question(line)}
        while end is None or time.monotonic() < end:
            if link.generation != generation:
                generation = link.generation
                for line in unanswered.values():
                    _ask_on(link, line)
            try:
                line = link.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            if line is None:
                break
            item = board_line(line)
            if item is None:
                print("device: %s" % line)  # REPL output, a traceback: shown as it is
                continue
            if "reply" in item:
                try:
                    unanswered.pop(item.get("id"), None)
                except TypeError:  # (an id that cannot be a key: not one of ours)
                    pass
            print(line if args.raw else describe(item), flush=True)
            if item.get("event") == "game_over" and args.save:
                _ask_on(link, json.dumps({"cmd": "games", "last": 1, "id": "games"}))
            if item.get("reply") == "games" and "record" in item and args.save:
                record = item["record"]
                if not isinstance(record, str):
                    print("not saved: the board sent a record that is not text (%s)" % shown(record, 80))
                    continue
                saved += 1
                path = os.path.join(args.save, "game-%s-%d.json" % (time.strftime("%Y%m%d-%H%M%S"), saved))
                write_atomically(path, record if record.endswith("\n") else record + "\n")
                print("saved %s (ludus verify %s)" % (path, path), flush=True)
            if item.get("reply") == "games" and item.get("done") and args.games and args.seconds is None:
                break
    except KeyboardInterrupt:
        pass
    finally:
        link.close()
    return 0

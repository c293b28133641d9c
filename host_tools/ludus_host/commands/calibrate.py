"""Learn how a board is really wired, and an analog board's levels, with a magnet in your hand
(docs/calibration.md):

    ludus calibrate /dev/ttyACM0                 # the walk; the files written beside you and onto the board
    ludus calibrate /dev/ttyACM0 --out cal/      # kept in cal/ (wiring-BOARD.json, calibration-..., plot)
    ludus calibrate /dev/ttyACM0 --restart       # forget a run that was interrupted and begin again
    ludus calibrate /dev/ttyACM0 --no-install    # write the files here only

The board lights one LED at a time: put a magnet on the cell beside it. On an analog board it asks
for a second magnet on top, then for both off. Type s Enter when nothing is lit, l Enter when the lit
LED is a die pip or a turn light, n Enter when the magnet is on the cell and nothing happens, q Enter to
stop (the next run resumes where you stopped). PORT is a serial port, a pty (ludus emulate) or
exec:COMMAND, as for `ludus monitor`."""

import argparse
import json
import os
import re
import select
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from ludus.calibrate import CalibrationError, Wizard
from ludus.errors import LudusError

from ludus_host.args import output_folder, refuse_overwriting
from ludus_host.link.client import AGAIN_S, Link, LinkReset, answers
from ludus_host.paths import read_text, write_atomically
from ludus_host.virtual.board import load_board

OUTPUTS = ("wiring-%s.json", "calibration-%s.json", "levels-%s.svg", "calibration-progress-%s.json")
PART = 700  # characters of a file per `file` command (a link line holds 1,024 bytes)
WORDS = {"s": "skip", "l": "light", "n": "nothing"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("port", help="the serial port (/dev/ttyACM0, COM3), a pty, or exec:COMMAND")
    parser.add_argument("--out", type=output_folder, default=".", metavar="DIR", help="where the files go")
    parser.add_argument(
        "--board",
        default=None,
        metavar="FILE",
        help="the board definition (default: the one the board names)",
    )
    parser.add_argument("--restart", action="store_true", help="forget an interrupted run and begin again")
    parser.add_argument("--no-install", action="store_true", help="do not send the files to the board")


class SerialPort:
    """The wizard's port on a real link (ludus_host.link.client.Link): a command and its reply. A board
    that resets (its USB port goes away and comes back) is asked again once it is back."""

    def __init__(self, link: Link, wait_s: float = 5.0):
        self.link = link
        self.wait_s = wait_s
        self.ident = 0

    def ask(self, cmd: str, again: bool = True, every_s: float | None = None, **fields: Any) -> dict:
        """The reply to cmd; CalibrationError if refused or unanswered in wait_s (again, every_s: as
        for ludus_host.link.client.answers; LinkReset when the board reset and again is False)."""
        self.ident += 1
        req = {"cmd": cmd, "id": "cal-%d" % self.ident}
        req.update(fields)
        for item in answers(self.link, req, self.wait_s, again=again, every_s=every_s):
            if item.get("ok") is False:
                raise CalibrationError("the board refused %s: %s" % (cmd, item.get("error")))
            return item
        raise CalibrationError(
            "no answer to %r in %g s: is the Ludus firmware running (ludus monitor PORT)?"
            % (cmd, self.wait_s)
        )

    def wait(self, ms: float) -> None:
        time.sleep(ms / 1000)


class Stopped(Exception):
    """The person typed q: the progress is kept."""


class TerminalPerson:
    """The person at the board, at a terminal: instructions printed, magnets seen by the board, words
    typed (s, l, n, q and Enter)."""

    def __init__(self, total: int, stream: TextIO | None = None):
        self.total = total
        self.stream = stream if stream is not None else sys.stdin

    def say(self, text: str) -> None:
        print("  " + text, flush=True)

    def _typed(self) -> str | None:
        # a line typed since the last look (None: nothing typed)
        try:
            ready, _, _ = select.select([self.stream], [], [], 0)
        except (OSError, ValueError):
            return None
        if not ready:
            return None
        line = self.stream.readline()
        if not line:
            raise Stopped()
        return line.strip().lower()

    def act(self, step: dict, check: Callable[[], str | None]) -> str:
        do = step["do"]
        if do == "clear":
            print("Take every piece off the board, then press Enter.", flush=True)
            if not self.stream.readline():
                raise Stopped()
            return "ready"
        if do == "magnet":
            print(
                "[%d/%d] LED %d is lit: put a magnet on the cell beside it "
                "(s: nothing is lit, l: it lights no cell, n: nothing happens, q: stop)"
                % (step["led"] + 1, self.total, step["led"]),
                flush=True,
            )
        elif do == "cell":
            print(
                "Put a magnet on %s (its LED gave no light: find it on the drawing)." % step["cell"],
                flush=True,
            )
        elif do == "stack":
            print("  ...and a second magnet on top of it (s: this cell never holds two).", flush=True)
        elif do == "lift":
            print("  ...now take the magnet off.", flush=True)
        while True:
            got = check()
            if got is not None:
                return got
            word = self._typed()
            if word is None:
                continue
            if word == "q":
                raise Stopped()
            if word in WORDS and do in ("magnet", "cell", "stack"):
                return WORDS[word]

    def choose(self, question: str, choices: list[str], default: str) -> str:
        print(
            "%s %s [Enter: %s]"
            % (question, " / ".join(choices[:4]) + (" ..." if len(choices) > 4 else ""), default)
        )
        line = self.stream.readline()
        if not line:
            raise Stopped()
        return line.strip() or default


def _load(path: str) -> Any:
    try:
        return json.loads(read_text(path, "calibration progress", 1024 * 1024))
    except (LudusError, ValueError, RecursionError) as exc:
        raise LudusError("%s cannot be read (%s): run with --restart to begin again" % (path, exc)) from None


def send_file(port: SerialPort, name: str, text: str) -> dict | None:
    """A file sent to the board in parts; the board checks it whole, writes it and boots again. A
    reset in the middle (the parts it had are gone) sends it again from its first part."""
    parts = [text[i : i + PART] for i in range(0, len(text), PART)] or [""]
    for _ in range(3):
        try:
            reply = None
            for k, part in enumerate(parts):
                reply = port.ask("file", again=False, name=name, text=part, part=k, more=k < len(parts) - 1)
            return reply
        except LinkReset:
            port.ask("hello", every_s=AGAIN_S)  # (back and listening)
    raise CalibrationError("%s could not be sent: the board kept starting again" % name)


def install(port: SerialPort, wiring: dict, calibration: str | None) -> None:
    """The wiring map (a dict) and the calibration (text or None) sent to the board, each checked,
    written and booted with, in turn: the board's USB goes away at each boot and the link opens it
    again (a hello asked until the board answers)."""
    send_file(port, "wiring.json", json.dumps(wiring))
    port.wait_s = 30.0  # (the board boots again after each file)
    if calibration is not None:
        port.ask("hello", every_s=AGAIN_S)
        send_file(port, "calibration.json", calibration)
    port.ask("hello", every_s=AGAIN_S)


def plot_text(rows: list, width: int = 50) -> str:
    """Each cell's analog levels as a line of text: e (empty), 1 and 2 (magnets) along 0..65535; an
    outlier or a noisy cell marked at the end of its line."""
    out = []
    for cell, channel, empty, one, two, flags in rows:
        line = [" "] * (width + 1)
        for mark, v in (("e", empty), ("1", one), ("2", two)):
            if v is not None:
                line[v * width // 65535] = mark
        out.append("%-14s ch%-4d |%s| %s" % (cell, channel, "".join(line), flags.upper() if flags else ""))
    return "\n".join(out)


def plot_svg(rows: list, title: str) -> str:
    """The levels as an SVG chart: one row per cell, the empty, one- and two-magnet levels as dots on a
    0..65535 axis; outliers and noisy cells in red, so they stand out at a glance."""
    h = 14 * len(rows) + 60
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="760" height="%d" viewBox="0 0 760 %d">' % (h, h),
        '<rect width="760" height="%d" fill="white"/>' % h,
        '<text x="10" y="20" font-family="sans-serif" font-size="14">%s</text>' % title,
        '<text x="420" y="20" font-family="sans-serif" font-size="11">grey: empty, blue: one magnet,'
        " green: two; red: an outlier or a noisy cell</text>",
        '<g font-family="sans-serif" font-size="10">',
    ]
    x0, span = 130, 600
    for k in range(0, 65536, 16384):
        x = x0 + k * span // 65535
        out.append('<line x1="%d" y1="30" x2="%d" y2="%d" stroke="#ddd"/>' % (x, x, h - 20))
        out.append('<text x="%d" y="%d" text-anchor="middle">%d</text>' % (x, h - 6, k))
    for j, (cell, channel, empty, one, two, flags) in enumerate(rows):
        y = 42 + 14 * j
        bad = bool(flags)
        out.append(
            '<text x="10" y="%d" fill="%s">%s ch%d%s</text>'
            % (y + 4, "#c00" if bad else "#000", cell, channel, " " + flags if flags else "")
        )
        for colour, v in (("#888", empty), ("#06c", one), ("#093", two)):
            if v is not None:
                out.append(
                    '<circle cx="%d" cy="%d" r="4" fill="%s" stroke="%s"/>'
                    % (x0 + v * span // 65535, y, colour, "#c00" if bad else "none")
                )
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    link = Link(args.port, note=lambda text: print("(%s)" % text, flush=True))
    port = SerialPort(link)
    try:
        config = port.ask("config").get("config")
        name = config.get("board") if isinstance(config, dict) else None
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", name):
            # (it names the files written: a board's word is data from outside)
            raise LudusError("the board's config names no board this tool can use: %r" % (name,))
        refuse_overwriting(
            [("--out", os.path.join(args.out, kind % name)) for kind in OUTPUTS],
            [("the board definition", args.board)],
        )
        board = load_board(args.board or name)
        progress_path = os.path.join(args.out, "calibration-progress-%s.json" % name)
        progress = None
        if os.path.exists(progress_path) and not args.restart:
            progress = _load(progress_path)

        def save(p: object) -> None:
            write_atomically(progress_path, json.dumps(p))

        print(
            "Calibrating %s: %d cells, %d sensor channels (%s), %d LEDs."
            % (board.name, board.cell_count, board.channel_count, board.sensor_kind, board.led_count)
        )
        person = TerminalPerson(board.led_count)
        try:
            result = Wizard(board, port, person, progress=progress, save=save).run()
        except (Stopped, KeyboardInterrupt):
            print("\nstopped: what was learnt is kept in %s; run the same command to go on" % progress_path)
            return 1
        written = []
        wiring_path = os.path.join(args.out, "wiring-%s.json" % name)
        write_atomically(wiring_path, json.dumps(result["wiring"], indent=1) + "\n")
        written.append(wiring_path)
        if result["calibration"] is not None:
            cal_path = os.path.join(args.out, "calibration-%s.json" % name)
            write_atomically(cal_path, result["calibration"] + "\n")
            plot_path = os.path.join(args.out, "levels-%s.svg" % name)
            write_atomically(plot_path, plot_svg(result["levels"], "%s: levels per cell" % board.name))
            written += [cal_path, plot_path]
            print(plot_text(result["levels"]))
        print("wrote " + ", ".join(written))
        for note in result["notes"]:
            print("note: " + note)
        for fault in result["faults"]:
            print("FAULT: " + fault)
        if not result["faults"]:
            print("no faults found")
        if not args.no_install:
            install(port, result["wiring"], result["calibration"])
            print("the board has them now, and has started again with them")
        os.remove(progress_path) if os.path.exists(progress_path) else None
        return 0
    except CalibrationError as exc:
        raise LudusError(str(exc)) from None
    finally:
        link.close()

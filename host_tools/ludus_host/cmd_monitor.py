"""Watch a board over its USB link (docs/usb-protocol.md): every event in words, commands sent, finished
games saved as records that `ludus verify` checks.

    ludus monitor /dev/ttyACM0                        # events in words until Ctrl-C
    ludus monitor /dev/ttyACM0 --send hello --send '{"cmd": "stats"}' --for 2
    ludus monitor /dev/ttyACM0 --games --save games/  # fetch the finished games kept on the board
    ludus monitor /dev/ttyACM0 --save games/          # and save each game as it ends

PORT is a serial port, or exec:COMMAND: a program whose standard input and output are the link (the
firmware under the MicroPython unix port, an emulated Pico)."""

import json
import os
import queue
import shlex
import subprocess
import threading
import time

from ludus.errors import LudusError

from ludus_host.paths import write_atomically


class MonitorError(LudusError):
    """A port that cannot be opened, or a command that cannot be sent."""


def add_arguments(parser):
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
    parser.add_argument("--for", dest="seconds", type=float, default=None, help="stop after SECONDS")
    parser.add_argument("--raw", action="store_true", help="print the JSON lines as they come")


def command_line(text, ident):
    """The JSON line of a --send value: a bare name becomes {"cmd": name}; an object gets an id."""
    text = text.strip()
    if text.startswith("{"):
        try:
            cmd = json.loads(text)
        except ValueError as exc:
            raise MonitorError("--send %r is not JSON: %s" % (text, exc)) from None
        if not isinstance(cmd, dict) or not isinstance(cmd.get("cmd"), str):
            raise MonitorError('--send %r: a command is {"cmd": NAME, ...}' % text)
    elif text.isidentifier():
        cmd = {"cmd": text}
    else:
        raise MonitorError("--send %r: give a command name (hello) or a JSON object" % text)
    cmd.setdefault("id", ident)
    return json.dumps(cmd)


_WORDS = {
    "boot": lambda e: (
        "board started: firmware %s on MicroPython %s, protocol %s, %s bytes free"
        % (e.get("firmware"), e.get("micropython"), e.get("protocol"), e.get("free"))
    ),
    "self_test": lambda e: (
        "self-test %s: %s LEDs, %s sensors%s"
        % (
            "passed" if e.get("ok") else "FAILED",
            e.get("leds"),
            e.get("channels"),
            "".join("; %s: %s" % (k, ", ".join(e[k])) for k in ("stuck", "noisy", "rail") if e.get(k))
            + ("; %s" % e["error"] if e.get("error") else ""),
        )
    ),
    "journal": lambda e: "game restored from flash: %s actions" % e.get("restored"),
    "fault": lambda e: "FAULT (%s): %s" % (e.get("where"), e.get("error")),
    "safe_mode": lambda e: "SAFE MODE: %s" % e.get("error"),
    "stopped": lambda e: "firmware stopped (%s): %s" % (e.get("why"), e.get("message")),
    "new_game": lambda e: (
        "new game: %s (dice commitment %s...)%s"
        % (e.get("start"), str(e.get("seed_sha256"))[:16], _players_text(e.get("players")))
    ),
    "restored": lambda e: "game continues: %s, %s actions" % (e.get("start"), e.get("actions")),
    "roll": lambda e: "seat %s rolled %s" % (e.get("seat"), e.get("value")),
    "move": lambda e: "seat %s moved %s" % (e.get("seat"), e.get("move")),
    "illegal": lambda e: "illegal: %s" % (e.get("reason") or e.get("why") or "not a legal move"),
    "refused": lambda e: "refused: %s" % e.get("reason"),
    "undo": lambda e: "undo: %s" % e.get("move"),
    "pass": lambda e: "seat %s passes" % e.get("seat"),
    "bot": lambda e: (
        "seat %s (%s bot) chose %s: carry it out as lit" % (e.get("seat"), e.get("level"), e.get("move"))
        if e.get("move")
        else "seat %s (%s bot): the board rolls for it" % (e.get("seat"), e.get("level"))
    ),
    "game_over": lambda e: (
        "game over: %s, dice seed revealed %s..."
        % (_places_text(e.get("placements"), e.get("players")), str(e.get("seed"))[:16])
    ),
    "season": lambda e: (
        "season (%s): %s counted, %s game%s; %s%s"
        % (
            e.get("rules"),
            "a play-off" if e.get("counted") == "playoff" else "the game",
            e.get("games"),
            "" if e.get("games") == 1 else "s",
            "%s leads with %s points" % (e.get("leader"), e.get("points")),
            "; tied: " + "; ".join(", ".join(g) for g in e["ties"]) if e.get("ties") else "",
        )
    ),
}


def _players_text(players):
    # ": Anna (seat 0), Bo (seat 2)" of an event's players, {"0": "Anna", ...}
    if not isinstance(players, dict) or not players:
        return ""
    return ": " + ", ".join("%s (seat %s)" % (players[k], k) for k in sorted(players))


def _places_text(placements, players):
    # "places 1st Anna, 2nd Bo" by name where the event names the players, else the seat numbers
    if not isinstance(placements, list):
        return "places %s" % (placements,)
    named = players if isinstance(players, dict) else {}
    return "places " + ", ".join(
        "%d. %s" % (k + 1, named.get(str(seat), "seat %s" % seat)) for k, seat in enumerate(placements)
    )


def describe(item):
    """One line of words for a line the board sent (a dict)."""
    if "reply" in item:
        fields = {k: v for k, v in item.items() if k not in ("reply", "id", "ok")}
        if item.get("ok") is False:
            return "reply %s: ERROR %s" % (item["reply"], item.get("error"))
        return "reply %s: %s" % (item["reply"], json.dumps(fields, sort_keys=True)[:600])
    name = item.get("event")
    words = _WORDS.get(name)
    if words is not None:
        return words(item)
    fields = {k: v for k, v in item.items() if k != "event"}
    return "%s: %s" % (name, json.dumps(fields, sort_keys=True)) if fields else str(name)


class Link:
    """The board's side: lines in (a queue filled by a reader thread), lines out."""

    def __init__(self, port):
        self.lines: queue.Queue = queue.Queue()
        self.proc: subprocess.Popen | None = None
        self.serial = None
        if port.startswith("exec:"):
            argv = shlex.split(port[5:])
            try:
                self.proc = subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
                )
            except OSError as exc:
                raise MonitorError("cannot run %s: %s" % (port[5:], exc)) from None
            assert self.proc.stdout is not None and self.proc.stdin is not None
            self._read = self.proc.stdout.readline
            self._stdin = self.proc.stdin
            self._write = self._write_pipe
        else:
            try:
                import serial  # type: ignore[import-untyped]  # pyserial (mpremote's own dependency)

                self.serial = serial.Serial(port, 115200, timeout=0.2)
            except Exception as exc:  # SerialException, a missing device, no permission
                raise MonitorError("cannot open %s: %s" % (port, exc)) from None
            self._read = self.serial.readline
            self._write = self.serial.write
        threading.Thread(target=self._reader, daemon=True).start()

    def _write_pipe(self, data):
        self._stdin.write(data)
        self._stdin.flush()

    def _reader(self):
        pending = b""
        while True:
            try:
                chunk = self._read()
            except Exception:
                chunk = b""
            if not chunk:
                if self.proc is not None:  # the program ended
                    self.lines.put(None)
                    return
                continue
            pending += chunk
            if pending.endswith(b"\n"):
                self.lines.put(pending.decode("utf-8", "replace").rstrip("\r\n"))
                pending = b""

    def send(self, line):
        try:
            self._write((line + "\n").encode())
        except OSError as exc:
            raise MonitorError("cannot send to the board: %s" % exc) from None

    def close(self):
        if self.proc is not None:
            try:
                self._stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.serial is not None:
            self.serial.close()


def run(args):
    sends = [command_line(text, k + 1) for k, text in enumerate(args.send)]
    if args.games:
        sends.append(json.dumps({"cmd": "games", "id": "games"}))
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    link = Link(args.port)
    saved = 0
    try:
        end = time.monotonic() + args.seconds if args.seconds is not None else None
        for line in sends:
            link.send(line)
        while end is None or time.monotonic() < end:
            try:
                line = link.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            if line is None:
                break
            try:
                item = json.loads(line)
            except ValueError:
                item = None
            if not isinstance(item, dict):
                print("device: %s" % line)  # REPL output, a traceback: shown as it is
                continue
            print(line if args.raw else describe(item), flush=True)
            if item.get("event") == "game_over" and args.save:
                link.send(json.dumps({"cmd": "games", "last": 1, "id": "games"}))
            if item.get("reply") == "games" and "record" in item and args.save:
                saved += 1
                path = os.path.join(args.save, "game-%s-%d.json" % (time.strftime("%Y%m%d-%H%M%S"), saved))
                write_atomically(
                    path, item["record"] if item["record"].endswith("\n") else item["record"] + "\n"
                )
                print("saved %s (ludus verify %s)" % (path, path), flush=True)
            if item.get("reply") == "games" and item.get("done") and args.games and args.seconds is None:
                break
    except KeyboardInterrupt:
        pass
    finally:
        link.close()
    return 0

"""Start an emulated Pico, with the board around it, and put its USB serial on a pseudo-terminal, so that
mpremote, `ludus flash`, `ludus monitor` and every other tool use it as they use a real board:

    ludus emulate --board checkers --config config.json --link /tmp/pico
    ludus flash --port /tmp/pico --config config.json         # in another terminal
    ludus monitor /tmp/pico

The Pico runs the real MicroPython 1.28 RPI_PICO build in rp2040js (docs/emulator.md); --romfs starts
the build with a ROMFS partition, for `ludus flash --mode romfs`. Its flash is kept in a file
(--flash-image; by default under build/emulate/), saved when you stop, so the next `ludus emulate`
starts the board as you left it; --erase starts from a bare MicroPython.

While it runs, type on its standard input to handle the pieces:
    put PLACE|CH ...    a magnet on a cell (a place of the configured game, or a sensor channel)
    lift PLACE|CH ...   a magnet taken off
    start               the game's starting position put on the board (every other cell empty)
    clear               every piece taken off
    press | hold        the die button pressed briefly | held for a long press
    cut                 the power cut and back after a second (the flash as it was left)
    quit                stop (or Ctrl-C; or end of input)

As a real Pico's, its USB serial goes away when it resets or loses power, and comes back (a new
pseudo-terminal) once it is up again; --link always names the current one, and the tools open it
again by that name."""

import argparse
import os
import pty
import select
import signal
import sys
import threading
import time
import tty
from collections.abc import Callable
from typing import Any, NoReturn

from ludus.board.definition import BoardDefinition
from ludus.config import read_config
from ludus.errors import LudusError
from ludus.games import position

from ludus_host.args import refuse_overwriting
from ludus_host.emulator import harness as pico
from ludus_host.paths import ROOT, read_text
from ludus_host.virtual.board import load_board

DROP_S = 0.5  # how long the USB port is gone at a reset (a Pico's re-enumeration takes about as long)


class UsbPort:
    """The emulated Pico's USB serial: a pseudo-terminal, named by `link` (a symlink kept naming the
    current one) if given. down() takes it away, as a reset or a power cut takes a Pico's USB away
    (a tool reading it gets an error, a tool opening it finds nothing); up() makes a new one."""

    def __init__(self, link: str | None = None, say: Callable[[str], None] | None = None):
        self.link = link
        self.say = say or (lambda text: None)
        self.lock = threading.Lock()
        self.master: int | None = None
        self.slave: int | None = None
        self.name: str | None = None
        if link and os.path.lexists(link) and not os.path.islink(link):
            raise LudusError("--link %s: it exists and is not a link: name a new path" % link)
        self.up()

    def up(self) -> None:
        with self.lock:
            if self.master is not None:
                return
            master, slave = pty.openpty()
            tty.setraw(slave)  # (the slave kept open here: what the Pico says waits for a tool)
            os.set_blocking(master, False)
            name = os.ttyname(slave)
            self.master, self.slave, self.name = master, slave, name
            if self.link:
                tmp = self.link + ".new"
                try:
                    if os.path.islink(tmp):
                        os.unlink(tmp)
                    os.symlink(name, tmp)
                    os.replace(tmp, self.link)  # (never a moment with half a link)
                except OSError as exc:
                    raise LudusError("--link %s: %s" % (self.link, exc.strerror)) from None

    def down(self) -> None:
        with self.lock:
            master, slave = self.master, self.slave
            if master is None or slave is None:
                return
            if self.link and os.path.islink(self.link):
                os.unlink(self.link)
            os.close(master)
            os.close(slave)
            self.master = self.slave = None

    def back_in(self, seconds: float) -> None:
        """up() after `seconds`, in a thread of its own, saying where the port is."""

        def again() -> None:
            self.up()
            self.say("ludus emulate: its USB serial is back, on %s%s" % (self.name, self.linked()))

        threading.Timer(seconds, again).start()

    def linked(self) -> str:
        return " (%s)" % self.link if self.link else ""

    def write(self, data: bytes) -> None:
        with self.lock:
            if self.master is None:
                return  # the port is gone: what the Pico says meanwhile is lost, as on a real one
            try:
                os.write(self.master, data)
            except OSError:
                pass  # nobody has the port open and its buffer is full: dropped, as a USB host away would

    def read(self, timeout: float) -> bytes:
        """Bytes a tool wrote (b"" if none in `timeout` s, or while the port is gone)."""
        master = self.master
        if master is None:
            time.sleep(timeout)
            return b""
        try:
            ready, _, _ = select.select([master], [], [], timeout)
            with self.lock:
                if not ready or self.master != master:
                    return b""
                return os.read(master, 4096)
        except (OSError, ValueError):
            return b""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", default=None, help="the board (default: the config's, else ludo52)")
    parser.add_argument("--config", default=None, metavar="FILE", help="config.json: its pins wire the board")
    parser.add_argument("--romfs", action="store_true", help="the MicroPython build with a ROMFS partition")
    parser.add_argument("--flash-image", default=None, metavar="FILE", help="where the flash is kept")
    parser.add_argument(
        "--erase", action="store_true", help="start from a bare MicroPython (the image erased)"
    )
    parser.add_argument("--link", default=None, metavar="PATH", help="also name the port PATH (a symlink)")
    parser.add_argument("--fast", action="store_true", help="run ahead of the wall clock when idle")
    parser.add_argument("--no-input", action="store_true", help="do not read commands from standard input")
    parser.add_argument(
        "--wiring",
        metavar="FILE",
        help="a wiring map: the board wired as it says (put t5 reaches the channel it gives t5)",
    )


def _setup(args: argparse.Namespace) -> tuple[dict, BoardDefinition, str]:

    refuse_overwriting(
        [("--flash-image", args.flash_image), ("--link", args.link)],
        [("the config", args.config), ("the wiring map", args.wiring)],
    )
    text = read_text(args.config, "config", 1024 * 1024) if args.config else None
    config, faults = read_config(text)
    faults = [f for f in faults if not f.startswith("no config.json")]
    if faults:
        raise LudusError("%s: %s" % (args.config, "; ".join(faults)))
    name = args.board or config["board"]
    board = load_board(name, args.wiring)
    return config, board, name


def _channels(words: list[str], board: BoardDefinition, config: dict) -> list[int]:
    """Sensor channels of PLACE or channel-number words; LudusError for one that is neither."""

    out = []
    game = position(_preset(config))
    binding = board.bind(game.place_names)
    for word in words:
        if word.isdigit():
            ch = int(word)
            if ch >= board.channel_count:
                raise LudusError("channel %d: the board has %d" % (ch, board.channel_count))
            out.append(ch)
            continue
        if word not in game.place_names:
            raise LudusError("%r is neither a channel nor a place of %s" % (word, _preset(config)))
        cells = binding.cells(game.place_names.index(word))
        out.append(board.channel_of_cell[cells[0]])
    return out


def _preset(config: dict) -> str:
    game = config["game"]
    # a family name (ludo/classic, checkers) set up with its most common seating
    return {"checkers": "checkers/2"}.get(game, game + "/4" if game.count("/") == 1 else game)


def _start_channels(board: BoardDefinition, config: dict) -> list[int]:
    game = position(_preset(config))
    binding = board.bind(game.place_names)
    counts = bytearray(len(game.place_names))
    game.fill_counts(counts)
    out = []
    for place, count in enumerate(counts):
        cells = binding.cells(place)
        out += [board.channel_of_cell[cells[k % len(cells)]] for k in range(count)]
    return out


class Console:
    """An emulated Pico on a pseudo-terminal: its USB serial copied both ways, resets and power cuts
    shown as the port going away, and the controls typed on stdin (put, lift, press, cut, ...) turned
    into pin levels. One request to the harness at a time (the lock)."""

    def __init__(self, emu: pico.EmulatedPico, port: UsbPort, board: BoardDefinition, config: dict):
        self.emu = emu
        self.port = port
        self.board = board
        self.config = config
        self.lock = threading.Lock()
        self.stop = threading.Event()
        emu.on_usb = self.to_port
        emu.on_note = self.noted

    def to_port(self, text: str) -> None:
        self.port.write(text.encode("latin1"))

    def noted(self, msg: dict) -> None:
        # a reset or a power cut: the USB port goes away, and comes back once the Pico is up again
        if "reset" in msg or msg.get("power") == "off":
            self.port.down()
            what = "resets (%s)" % msg["reset"] if "reset" in msg else "is off"
            print("ludus emulate: the Pico %s: its USB serial goes away" % what, flush=True)
        if "reset" in msg or msg.get("power") == "on":
            self.port.back_in(DROP_S)

    def request(self, **req: Any) -> None:
        with self.lock:
            self.emu.request(**req)
            if req["op"] != "usb":
                self.emu.request(op="go")

    def from_port(self) -> None:
        while not self.stop.is_set():
            data = self.port.read(0.2)
            if data:
                self.request(op="usb", data=data.decode("latin1"))

    def controls(self) -> None:
        down: set[int] = set()
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "quit":
                break
            try:
                down = self.control(words[0], words[1:], down)
            except LudusError as exc:
                print("emulate: %s" % exc)
        self.stop.set()
        with self.lock:
            self.emu.request(op="stats")  # ends the free run: the main loop sees the answer and stops

    def control(self, verb: str, rest: list[str], down: set[int]) -> set[int]:
        """One typed control; the channels with a piece on them afterwards."""
        request = self.request
        if verb in ("put", "lift"):
            chans = _channels(rest, self.board, self.config)
            (down.update if verb == "put" else down.difference_update)(chans)
            request(op="lines", set=[[ch, 0 if verb == "put" else 1] for ch in chans])
        elif verb == "start":
            request(op="lines", set=[[ch, 1] for ch in down])
            down = set(_start_channels(self.board, self.config))
            request(op="lines", set=[[ch, 0] for ch in down])
        elif verb == "clear":
            request(op="lines", set=[[ch, 1] for ch in down])
            down = set()
        elif verb in ("press", "hold"):
            request(op="button", down=True)
            time.sleep(0.1 if verb == "press" else 1.0)
            request(op="button", down=False)
        elif verb == "cut":
            request(op="cut", at_op=0)
            time.sleep(1.0)
            request(op="power_on")
        else:
            print("emulate: unknown %r (put, lift, start, clear, press, hold, cut, quit)" % verb)
        return down

    def serve(self, typed: bool = True) -> None:
        """Run until quit, Ctrl-C or SIGTERM: the port copied, the controls read when typed."""
        threading.Thread(target=self.from_port, daemon=True).start()
        if typed:
            threading.Thread(target=self.controls, daemon=True).start()
        with self.lock:
            self.emu.request(op="go")
        try:
            while not self.stop.is_set():
                self.emu.read_until("stats")
        except KeyboardInterrupt:
            self.stop.set()
            with self.lock:
                self.emu.request(op="stats")
            self.emu.read_until("stats")
        finally:
            self.stop.set()

    def keep_flash(self, image: str) -> None:
        try:
            with self.lock:
                self.emu.save_flash(image + ".part")
            os.replace(image + ".part", image)
            print("ludus emulate: stopped; the flash kept in %s" % image)
        except pico.PicoError as exc:
            print("ludus emulate: the flash could not be saved: %s" % exc, file=sys.stderr)


def _stopped(_signum: int, _frame: object) -> NoReturn:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    config, board, name = _setup(args)
    folder = os.path.join(ROOT, "build", "emulate")
    image = args.flash_image or os.path.join(folder, "%s%s.flash" % (name, "-romfs" if args.romfs else ""))
    os.makedirs(os.path.dirname(os.path.abspath(image)), exist_ok=True)
    if args.erase and os.path.exists(image):
        os.unlink(image)
    port = UsbPort(args.link, say=lambda text: print(text, flush=True))
    emu = pico.EmulatedPico(
        board,
        config,
        flash=image if os.path.exists(image) else None,
        realtime=not args.fast,
        romfs=args.romfs,
    )
    console = Console(emu, port, board, config)
    print(
        "ludus emulate: an emulated Pico (%s board%s) on %s%s"
        % (name, ", ROMFS build" if args.romfs else "", port.name, port.linked())
    )
    print("  its flash: %s; type put/lift/press/cut/quit (ludus emulate --help)" % image, flush=True)
    signal.signal(signal.SIGTERM, _stopped)  # kill, or a test's terminate(): stop as on Ctrl-C
    signal.signal(signal.SIGINT, _stopped)  # (a shell's background job starts with SIGINT ignored)
    try:
        console.serve(typed=not args.no_input)
    finally:
        console.keep_flash(image)
        emu.close()
        port.down()
    return 0

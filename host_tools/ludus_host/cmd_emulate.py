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
    quit                stop (or Ctrl-C; or end of input)"""

import os
import pty
import signal
import sys
import threading
import time
import tty

from ludus.errors import LudusError

from ludus_host.paths import ROOT


def add_arguments(parser):
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


def _setup(args):
    from ludus.config import read_config

    from ludus_host.simboard import load_board

    text = None
    if args.config:
        try:
            with open(args.config) as f:
                text = f.read()
        except OSError as exc:
            raise LudusError("cannot read %s: %s" % (args.config, exc.strerror)) from None
    config, faults = read_config(text)
    faults = [f for f in faults if not f.startswith("no config.json")]
    if faults:
        raise LudusError("%s: %s" % (args.config, "; ".join(faults)))
    name = args.board or config["board"]
    board = load_board(name, args.wiring)
    return config, board, name


def _channels(words, board, config):
    """Sensor channels of PLACE or channel-number words; LudusError for one that is neither."""
    from ludus.games import position

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


def _preset(config):
    game = config["game"]
    # a family name (ludo/classic, checkers) set up with its most common seating
    return {"checkers": "checkers/2"}.get(game, game + "/4" if game.count("/") == 1 else game)


def _start_channels(board, config):
    from ludus.games import position

    game = position(_preset(config))
    binding = board.bind(game.place_names)
    counts = bytearray(len(game.place_names))
    game.fill_counts(counts)
    out = []
    for place, count in enumerate(counts):
        cells = binding.cells(place)
        out += [board.channel_of_cell[cells[k % len(cells)]] for k in range(count)]
    return out


def run(args):
    from ludus_host import pico

    config, board, name = _setup(args)
    folder = os.path.join(ROOT, "build", "emulate")
    image = args.flash_image or os.path.join(folder, "%s%s.flash" % (name, "-romfs" if args.romfs else ""))
    os.makedirs(os.path.dirname(os.path.abspath(image)), exist_ok=True)
    if args.erase and os.path.exists(image):
        os.unlink(image)
    master, slave = pty.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    port = os.ttyname(slave)
    if args.link:
        if os.path.islink(args.link):
            os.unlink(args.link)
        try:
            os.symlink(port, args.link)
        except OSError as exc:
            raise LudusError("--link %s: %s" % (args.link, exc.strerror)) from None
    emu = pico.EmulatedPico(
        board,
        config,
        flash=image if os.path.exists(image) else None,
        realtime=not args.fast,
        romfs=args.romfs,
    )
    lock = threading.Lock()
    stop = threading.Event()

    def to_port(text):
        try:
            os.write(master, text.encode("latin1"))
        except BlockingIOError:
            pass  # nobody has the port open and its buffer is full: dropped, as a USB host away would

    emu.on_usb = to_port

    def request(**req):
        with lock:
            emu.request(**req)
            if req["op"] != "usb":
                emu.request(op="go")

    def from_port():
        import select

        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, OSError):
                    continue
                if data:
                    request(op="usb", data=data.decode("latin1"))

    def controls():
        down = set()
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            verb, rest = words[0], words[1:]
            try:
                if verb == "quit":
                    break
                if verb in ("put", "lift"):
                    chans = _channels(rest, board, config)
                    (down.update if verb == "put" else down.difference_update)(chans)
                    request(op="lines", set=[[ch, 0 if verb == "put" else 1] for ch in chans])
                elif verb == "start":
                    request(op="lines", set=[[ch, 1] for ch in down])
                    down = set(_start_channels(board, config))
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
            except LudusError as exc:
                print("emulate: %s" % exc)
        stop.set()
        with lock:
            emu.request(op="stats")  # ends the free run: the main loop sees the answer and stops

    print(
        "ludus emulate: an emulated Pico (%s board%s) on %s%s"
        % (name, ", ROMFS build" if args.romfs else "", port, " (%s)" % args.link if args.link else "")
    )
    print("  its flash: %s; type put/lift/press/cut/quit (ludus emulate --help)" % image, flush=True)

    def stopped(_signum, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stopped)  # kill, or a test's terminate(): stop as on Ctrl-C
    signal.signal(signal.SIGINT, stopped)  # (a shell's background job starts with SIGINT ignored)
    threading.Thread(target=from_port, daemon=True).start()
    if not args.no_input:
        threading.Thread(target=controls, daemon=True).start()
    with lock:
        emu.request(op="go")
    try:
        while not stop.is_set():
            emu._read_until("stats")
    except KeyboardInterrupt:
        stop.set()
        with lock:
            emu.request(op="stats")
        emu._read_until("stats")
    finally:
        stop.set()
        try:
            with lock:
                emu.save_flash(image + ".part")
            os.replace(image + ".part", image)
            print("ludus emulate: stopped; the flash kept in %s" % image)
        except pico.PicoError as exc:
            print("ludus emulate: the flash could not be saved: %s" % exc, file=sys.stderr)
        emu.close()
        if args.link and os.path.islink(args.link):
            os.unlink(args.link)
        os.close(master)
        os.close(slave)
    return 0

"""Play on a virtual board in the browser: the referee, its lights and the die button run here with a
simulated board, and the page shows the board, its LEDs as the firmware lights them, the die, the log
and the moves (docs/simulator.md).

    ludus sim                          # http://127.0.0.1:8765/ (another free port if that one is taken)
    ludus sim --game ludo/classic/4 --no-browser
    ludus sim --host 0.0.0.0 --port 9000   # reachable from other machines: only on a network you trust
    ludus sim --device /dev/ttyACM0    # show a real board live, from its USB link
    ludus sim --pico --game ludo/classic/4   # the page drives the firmware on the emulated Pico

Ctrl-C stops it."""

import argparse
import asyncio
import errno
import ipaddress
import socket
import sys
import webbrowser
from collections.abc import Callable
from typing import NoReturn

from aiohttp import web
from ludus.errors import LudusError
from ludus.referee.presets import split_preset

from ludus_host.args import whole
from ludus_host.sim.server import Settings, make_app
from ludus_host.sim.table import GAMES, SPEEDS

DEFAULT_PORT = 8765


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=whole(0, 65535), default=DEFAULT_PORT, help="port (default 8765)")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: this machine only)"
    )
    parser.add_argument("--no-browser", action="store_true", help="print the address, open no browser")
    parser.add_argument(
        "--game",
        default="checkers/2",
        choices=[p for p, _ in GAMES],
        help="the game on the table at first (the page can change it)",
    )
    parser.add_argument("--settle-ms", type=whole(0, 5000), default=200, help="sensor settle time (ms)")
    parser.add_argument("--analog", action="store_true", help="analog sensors that count stacked pieces")
    parser.add_argument(
        "--seed", default=None, help="dice seed, 64 hex digits (default: a fresh one per game)"
    )
    parser.add_argument(
        "--device",
        default=None,
        metavar="PORT",
        help="mirror a real board: its serial port (or exec:COMMAND), shown live from its USB link",
    )
    parser.add_argument(
        "--wiring",
        metavar="FILE",
        help="with --device: the board's wiring map (ludus calibrate's wiring.json)",
    )
    parser.add_argument(
        "--pico",
        action="store_true",
        help="the emulated Pico as the table: the page's pieces and button on its pins (docs/emulator.md)",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        choices=SPEEDS,
        help="how fast the board's clock runs (1: real time)",
    )


class SimError(LudusError):
    """A server that cannot start: the address is not this machine's, the port is refused."""


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, or on a free port of host when that one is taken."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise SimError("--host %s: %s" % (host, exc.strerror or exc)) from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE or port == 0:
            sock.close()
            raise SimError("cannot listen on %s port %d: %s" % (host, port, exc.strerror or exc)) from None
        sock.bind((address[0], 0))
    sock.listen(64)
    sock.setblocking(False)
    return sock


EVERY_ADDRESS = ("0.0.0.0", "::", "")


def url_of(sock: socket.socket, host: str) -> str:
    """The address to open: the one given, or, listening on every address, the one other machines
    reach this one at (127.0.0.1 when it has none)."""
    port = sock.getsockname()[1]
    shown = (outward_address(sock.family) or "127.0.0.1") if host in EVERY_ADDRESS else host
    return "http://%s:%d/" % ("[%s]" % shown if ":" in shown else shown, port)


def outward_address(family: int = socket.AF_INET) -> str | None:
    """This machine's address on its network: the one a packet to the outside would leave from
    (nothing is sent), or None without a network."""
    probe = socket.socket(family, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9) if family == socket.AF_INET else ("2001:db8::1", 9))
        return probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()


def reachable_from_elsewhere(sock: socket.socket) -> bool:
    """True when the socket listens on an address other machines can reach (not only loopback)."""
    try:
        return not ipaddress.ip_address(sock.getsockname()[0].split("%")[0]).is_loopback
    except ValueError:
        return True


async def serve(
    app: web.Application, sock: socket.socket, ready: Callable[[], None] | None = None
) -> NoReturn:
    """Serve app on sock until cancelled; ready() is called once it accepts connections."""

    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    site = web.SockSite(runner, sock)
    await site.start()
    try:
        if ready is not None:
            ready()
        while True:
            await asyncio.sleep(3600)
    finally:
        await runner.cleanup()


def run(args: argparse.Namespace) -> int:

    if args.seed is not None:
        try:
            ok = len(bytes.fromhex(args.seed)) == 32
        except ValueError:
            ok = False
        if not ok:
            raise SimError("--seed: 64 hex digits (32 bytes)")
    split_preset(args.game)
    if args.device and args.pico:
        raise SimError("--device and --pico: one table at a time")
    sock = listen(args.host, args.port)  # first: a port that cannot be had is said before anything starts
    app = make_app(
        Settings(
            args.game,
            settle_ms=args.settle_ms,
            analog=args.analog,
            seed=args.seed,
            speed=args.speed,
            device=args.device,
            pico=args.pico,
            wiring=args.wiring,
            say=lambda text: print(text, flush=True),
            host=args.host,
        )
    )
    url = url_of(sock, args.host)

    def ready() -> None:
        print("Ludus simulator: %s  (Ctrl-C stops it)" % url, flush=True)
        if reachable_from_elsewhere(sock):
            print(
                "ludus sim: warning: --host %s lets any machine that can reach this one play on the table"
                " and replay files, with no login: use it only on a network you trust" % args.host,
                file=sys.stderr,
                flush=True,
            )
        if args.port and sock.getsockname()[1] != args.port:
            print("(port %d was taken: this one was free)" % args.port, flush=True)
        if not args.no_browser:
            try:
                webbrowser.open(url)
            except Exception:  # no browser here: the address is printed
                pass

    try:
        asyncio.run(serve(app, sock, ready))
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    return 0

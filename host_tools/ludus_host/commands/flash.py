"""Put the firmware on a Pico that runs MicroPython 1.28: compile the package with mpy-cross for the
RP2040 (armv6m), copy it with the board definition, main.py and config.json through mpremote, check the
version the device reports, and reset it. --dry-run prints the mpremote operations and copies nothing;
--stage DIR writes the tree only. Modes: files (.mpy on littlefs, the stock build) and romfs (an image
in the ROMFS partition of a build that has one). docs/firmware.md."""

import argparse
import os
import subprocess
import sys

from ludus_host.args import OverwriteError, inside
from ludus_host.build.flash_tree import FlashError, Operation, operations, stage
from ludus_host.paths import ROOT, read_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", default=None, help="the serial port (default: mpremote finds the Pico)")
    parser.add_argument(
        "--mode",
        choices=("files", "romfs"),
        default="files",
        help="files: .mpy on the file system (stock RPI_PICO); romfs: an image in the ROMFS partition",
    )
    parser.add_argument("--config", default=None, help="the config.json to copy (default: the defaults)")
    parser.add_argument("--dry-run", action="store_true", help="print the mpremote operations, do nothing")
    parser.add_argument("--stage", default=None, metavar="DIR", help="write the tree to DIR and stop")
    parser.add_argument(
        "--march", default="armv6m", choices=("armv6m", "x64"), help="bytecode architecture (x64: unix port)"
    )
    parser.add_argument(
        "--test-hooks",
        action="store_true",
        help="a test build: add the link commands that force dice and set positions (never for play)",
    )
    parser.add_argument(
        "--lines",
        action="store_true",
        help="files mode: keep line numbers in tracebacks (costs 7.5 KB of heap in a Ludo game)",
    )
    parser.add_argument(
        "--clear-journal",
        action="store_true",
        help="also erase the journal's flash: the game kept there and the finished games are lost",
    )
    parser.add_argument(
        "--mpremote",
        default=None,
        help="the mpremote command to run (default: this Python's mpremote module)",
    )


def run(args: argparse.Namespace) -> int:
    if args.stage and args.config and inside(args.config, args.stage):
        raise OverwriteError(
            "--config %s is inside --stage %s, which is emptied first: keep the config elsewhere"
            % (args.config, args.stage)
        )
    config_text = read_text(args.config, "config") if args.config else None
    if args.stage:
        tree = stage(args.stage, config_text, args.mode, args.march, args.test_hooks, args.lines or None)
        print("staged %d files, %d bytes, in %s" % (len(tree.files), tree.size(), args.stage))
        for name in tree.files:
            print("  %s (%d bytes)" % (name, os.path.getsize(os.path.join(tree.root, name))))
        return 0
    # staged where it can be looked at afterwards: the printed operations name real files
    where = os.path.join(ROOT, "build", "device-" + args.mode)
    if True:
        tree = stage(where, config_text, args.mode, args.march, args.test_hooks, args.lines or None)
        ops = operations(tree, args.port, args.clear_journal)
        print(
            "%s: %d files, %d bytes (%s mode, board %s)"
            % (
                "would flash" if args.dry_run else "flashing",
                len(tree.files),
                tree.size(),
                tree.mode,
                tree.board,
            )
        )
        for k, op in enumerate(ops, 1):
            print("[%d/%d] %s" % (k, len(ops), op.what), flush=True)
            if args.dry_run:
                print("      " + op.describe())
                continue
            _run(args, op)
    if not args.dry_run:
        print("done: the board restarts with the new firmware (ludus monitor PORT shows it)")
    return 0


def _run(args: argparse.Namespace, op: Operation) -> None:
    base = args.mpremote.split() if args.mpremote else [sys.executable, "-m", "mpremote"]
    try:
        proc = subprocess.run(base + op.args, capture_output=True, text=True, timeout=300)
    except FileNotFoundError:
        raise FlashError("cannot run %s: is mpremote installed?" % base[0]) from None
    except subprocess.TimeoutExpired:
        raise FlashError("%s: mpremote did not finish in 300 s (is the board connected?)" % op.what) from None
    out = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0:
        raise FlashError("%s failed (mpremote exit %d):\n%s" % (op.what, proc.returncode, out[-2000:]))
    if op.expect is not None and op.expect not in out:
        raise FlashError("%s: the device said %r, expected %r" % (op.what, out[-400:], op.expect))

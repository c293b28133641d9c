"""What a Pico gets, in one list (device_files: every .py file of firmware/ludus but the laptop's own),
and the firmware's two package descriptions made from it:

- firmware/manifest.py, for freezing the firmware into a MicroPython build
  (make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/firmware/manifest.py);
- firmware/package.json, for `mip` (mpremote mip install URL/firmware/package.json, or mip.install on
  the device), which copies the source files into /lib.

Both carry the version of ludus.__version__. They are committed; `python -m ludus_host.build.packaging`
writes them anew, and a test fails when they disagree with the tree.
"""

import json
import os
import sys

from ludus_host.paths import FIRMWARE, write_atomically

PACKAGE = "ludus"
DESCRIPTION = "Ludus: the rules cores and referee of a sensing board for Ludo and Chinese Checkers"
LICENSE = "MIT"
# the laptop's own: random self-play (benchmarks, tests) and the calibration wizard (it drives a board
# over USB); never frozen, installed or flashed
LAPTOP_ONLY = ("ludus/bots/selfplay.py", "ludus/calibrate.py")
# left out of a ROMFS image too: the fake drivers, which only the unix port's runs of a tree use
NOT_IN_ROMFS = ("ludus/hw/fake.py",)


def version() -> str:
    """ludus.__version__, read from the source (the firmware need not be importable here)."""
    with open(os.path.join(FIRMWARE, PACKAGE, "__init__.py"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("__version__"):
                return line.split("=", 1)[1].strip().strip("\"'")
    raise RuntimeError("no __version__ in firmware/ludus/__init__.py")


def firmware_files() -> list[str]:
    """Every file of the package, relative to firmware/ ('ludus/board/places.py'), sorted."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(FIRMWARE, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        out.extend(os.path.relpath(os.path.join(folder, n), FIRMWARE) for n in files if n.endswith(".py"))
    return sorted(p.replace(os.sep, "/") for p in out)


def device_files(mode: str = "files") -> list[str]:
    """What a Pico gets, relative to firmware/: firmware_files() but LAPTOP_ONLY, and in a ROMFS image
    ("romfs") not NOT_IN_ROMFS either. The manifest, package.json and `ludus flash` all follow it."""
    left_out = LAPTOP_ONLY + (NOT_IN_ROMFS if mode == "romfs" else ())
    return [p for p in firmware_files() if p not in left_out]


def manifest_text(files: list[str] | None = None) -> str:
    files = device_files() if files is None else files
    inside = [p[len(PACKAGE) + 1 :] for p in files]
    lines = [
        "# The Ludus firmware, for freezing into a MicroPython build:",
        "#     make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=$PWD/firmware/manifest.py",
        "# Written by `python -m ludus_host.build.packaging` from the file list package.json also has:",
        "# do not edit by hand. opt=3 leaves out asserts and line numbers, as mpy-cross -O3 would.",
        "",
        "# the port's own frozen modules first: without them the build has no _boot.py (which mounts",
        "# the file system, where main.py and config.json live) and no rp2 module",
        'include("$(PORT_DIR)/boards/manifest.py")',
        "",
        "metadata(",
        '    description="%s",' % DESCRIPTION,
        '    version="%s",' % version(),
        '    license="%s",' % LICENSE,
        ")",
        "",
        'package("%s", files=(' % PACKAGE,
    ]
    lines += ['    "%s",' % p for p in inside]
    lines += ["), opt=3)", ""]
    return "\n".join(lines)


def package_json_text(files: list[str] | None = None) -> str:
    files = device_files() if files is None else files
    data = {"urls": [[p, p] for p in files], "deps": [], "version": version()}
    return json.dumps(data, indent=2) + "\n"


def outputs() -> dict[str, str]:
    """{path: text} of the two files as they should be."""
    files = device_files()
    return {
        os.path.join(FIRMWARE, "manifest.py"): manifest_text(files),
        os.path.join(FIRMWARE, "package.json"): package_json_text(files),
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    stale = []
    for path, text in outputs().items():
        try:
            with open(path, encoding="utf-8") as f:
                same = f.read() == text
        except FileNotFoundError:
            same = False
        if same:
            continue
        stale.append(os.path.relpath(path))
        if not check:
            write_atomically(path, text)
    if check and stale:
        print(
            "out of date: %s (run python -m ludus_host.build.packaging)" % ", ".join(stale), file=sys.stderr
        )
        return 1
    for path in stale:
        print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

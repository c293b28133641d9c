"""Runs the firmware on the MicroPython unix port as a Pico runs it from flash: the compiled package in a
ROMFS image (built by ludus_host.firmware_image), mounted at /rom, its bytecode executed in place, and
the heap held back to an exact budget for everything the program creates.

    micropython -X heapsize=<budget + image + slack> SCRIPT --rom IMAGE BUDGET_BYTES ...

Used by bench/run.py and tests/mpy_runner.py. On a real board the firmware mounts its own ROMFS, so
this module is for the unix port only.
"""

import gc
import os
import sys

_held = []  # the image and the padding: alive for the whole run, at the bottom of the heap


def mount(path, budget):
    """Mount the image at /rom (first on sys.path) and allocate padding so that `budget` bytes of heap
    stay free. MemoryError, naming both figures, if the heap is too small for the image and budget."""
    import vfs

    size = os.stat(path)[6]
    image = bytearray(size)  # one allocation, made first: it stands in for flash
    with open(path, "rb") as f:
        f.readinto(image)
    vfs.mount(vfs.VfsRom(image), "/rom")
    sys.path.insert(0, "/rom")
    _held.append(image)
    gc.collect()
    spare = gc.mem_free() - budget
    if spare < 0:
        raise MemoryError(
            "heap too small: %d bytes free after the %d-byte image, budget %d" % (gc.mem_free(), size, budget)
        )
    # a bytearray's own header and block rounding take a little: allocate, then look again
    pad = bytearray(max(spare - 32, 0))
    _held.append(pad)
    gc.collect()
    return gc.mem_free()


def take_args(argv):
    """Handle a leading `--rom IMAGE BUDGET` in argv (a list, changed in place); returns the free heap
    after mounting, or None if there was no such option."""
    if len(argv) > 3 and argv[1] == "--rom":
        free = mount(argv[2], int(argv[3]))
        del argv[1:4]
        return free
    return None

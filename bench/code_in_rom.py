"""Runs the firmware on the MicroPython unix port as a Pico runs it from flash: the compiled package in a
ROMFS image (built by ludus_host.build.image), mounted at /rom, its bytecode executed in place, and
the heap held back to an exact budget for everything the program creates.

    micropython -X heapsize=<budget + image + slack> SCRIPT --rom IMAGE BUDGET_BYTES ...

Used by bench/run.py and tests/mpy_runner.py. On a real board the firmware mounts its own ROMFS, so
this module is for the unix port only.
"""

import gc
import os
import sys

POOL_BYTES = 12000  # an allocation this large while interning one name is the 1,280-entry pool
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
    if budget is None:  # (held to later: hold_to)
        return gc.mem_free()
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


def hold_to(budget, chunk=64):
    """Hold back more of the heap, so that only `budget` bytes stay free from now on (a test runner
    calls it after importing a test module: compiled from source on the unix port, its code is on
    the heap, where the firmware's is bytecode in ROM). The padding is taken in small pieces, lowest
    free blocks first, so it fills the holes the import left and the budget stays one contiguous
    run, as mount() leaves it. Nothing more is held if no more than that is free already (a second
    test file in the same process)."""
    gc.collect()
    spare = gc.mem_free() - budget
    if spare <= 4 * chunk:
        return gc.mem_free()
    pieces = [None] * (spare // (chunk + 16) + 1)  # (made first: the list is part of the padding)
    gc.collect()
    i = 0
    while i < len(pieces) and gc.mem_free() - budget > 2 * chunk:
        pieces[i] = bytearray(chunk - 16)  # (one 64-byte allocation: its header is 16 of them)
        i += 1
    rest = gc.mem_free() - budget - 32
    if rest > 0:
        _held.append(bytearray(rest))
    _held.append(pieces)
    gc.collect()
    return gc.mem_free()


def grow_names(limit=1000):
    """Intern placeholder names until the interpreter's table of interned names grows its 1,280-entry
    pool, so that it does so while the heap is still in one piece. Returns how many were made.

    The table grows by doubling and never shrinks; on the 64-bit unix port the pool that holds
    names 1,261 to 2,540 is one block of about 14 KB. A Ludo or checkers game on a 160K heap meets
    its 1,260th name in mid-game, when the heap is broken into small pieces, and whether 14 KB are
    then free in one run decides the test, not the code under test (on the Pico, a 32-bit heap, the
    pool is half as large). Growing it first still charges its memory to the budget, up front. The
    placeholders are three bytes each, none a name any code uses. Stops after `limit` names (a table
    already past that pool) without growing further."""
    gc.collect()
    for i in range(limit):
        before = gc.mem_free()
        getattr(None, "\x01%c%c" % (1 + i // 250, 1 + i % 250), None)  # getattr interns the name
        if before - gc.mem_free() > POOL_BYTES:
            return i + 1
    return limit


def take_args(argv):
    """Handle a leading `--rom IMAGE BUDGET` in argv (a list, changed in place); returns the free heap
    after mounting, or None if there was no such option."""
    if len(argv) > 3 and argv[1] == "--rom":
        free = mount(argv[2], int(argv[3]))
        del argv[1:4]
        return free
    return None

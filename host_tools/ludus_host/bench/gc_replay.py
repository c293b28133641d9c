"""MicroPython's mark phase, replayed over a heap dumped from the emulated Pico: does a collection's
mark stack overflow, and how much does the collector then scan twice (docs/firmware.md, "A
collection's order")?

    text = dump(emu)                          # a booted device's heap, from its REPL
    image = HeapImage(text)
    replay(image)                             # as gc.collect() from the REPL marks it
    replay(image, first="ludus.heap")         # as ludus.heap.collect() does: its globals first
    replay(image, first="ludus.referee.flow", local=address)   # one MicroPython starts in the
                                              # referee's code, under main.py's exec() dict

The dump: the allocation table (micropython.mem_info(1)), every used block's bytes (uctypes), the
root pointers around sys.modules in the interpreter's state, and where each module and its globals
are. The replay follows py/gc.c of MicroPython v1.28: roots in their order, each marked depth first
with a stack of 64 blocks; a block met with the stack full is marked but not scanned, and at the end
every marked block is scanned again while that happened (gc_deal_with_stack_overflow). Blocks are 16
bytes, pointers 4 (the RP2040). The C stack's roots come last and mark little that is new; they are
left out."""

import re
import struct

from ludus_host.emulator.harness import EmulatedPico, PicoError

BLOCK = 16
STACK = 64  # MICROPY_ALLOC_GC_STACK_SIZE
# the root pointers, in bytes from sys.modules (mp_state_vm.mp_loaded_modules_dict) in v1.28's
# mp_state_ctx (py/mpstate.h): the thread's dict_locals and dict_globals, then the VM's last_pool
# (the interned names), its emergency exception and KeyboardInterrupt, sys.modules and __main__'s
# dicts, the port's root pointers, up to qstr_last_chunk
ROOTS_FROM, ROOTS_TO = -68, 112
DICT_LOCALS = -68  # the dict of the code run at module level: main.py's exec() dict in the loop
DICT_GLOBALS = -64  # the globals of the module whose function called gc.collect()
SYS_MODULES_TABLE = 12  # the table of sys.modules (the dict's map's table pointer)

_DUMP = """
import gc, sys, micropython, uctypes, binascii
def _dump():
    gc.collect()
    micropython.mem_info(1)
    print()
    base = id(sys.modules)
    print("SYSMOD %x MAIN %x" % (base, id(globals())))
    for k, m in sys.modules.items():
        print("MODG %s %x %x" % (k, id(m), id(m.__dict__)))
    for a in range(base + ROOTS_FROM, base + ROOTS_TO, 64):
        print("ROOT %x %s" % (a, binascii.hexlify(uctypes.bytearray_at(a, 64)).decode()))
_dump()
"""

_POOL = """
def _pool(start, n):
    import uctypes, binascii
    for a in range(start, start + n, 256):
        print("P %x %s" % (a, binascii.hexlify(uctypes.bytearray_at(a, 256)).decode()))
_pool(START, LENGTH)
"""


def dump(emu: EmulatedPico) -> str:
    """The heap of the Pico's REPL as it is now (a device booted in it, say), as text for HeapImage."""
    code = _DUMP.replace("ROOTS_FROM", str(ROOTS_FROM)).replace("ROOTS_TO", str(ROOTS_TO))
    out, err = emu.exec(code, timeout_ms=600000)
    if err or "GC memory layout" not in out:
        raise PicoError("the heap dump failed: %s" % (err or out)[-2000:])
    start, kinds = _table(out)
    used = max(i for i, k in enumerate(kinds) if k != ".") + 1
    length = (used * BLOCK + 255) // 256 * 256
    pool, err = emu.exec(_POOL.replace("START", str(start)).replace("LENGTH", str(length)), timeout_ms=600000)
    if err:
        raise PicoError("the heap dump failed: %s" % err[-2000:])
    return (out + "\n" + pool).replace("\r\n", "\n")  # (the REPL's line ends)


def _table(text: str) -> tuple[int, list[str]]:
    # the heap's start and each block's kind from mem_info(1): "." free, "=" a tail, else a head
    found = re.search(r"GC memory layout; from ([0-9a-f]+):", text)
    if found is None:
        raise PicoError("no allocation table in the heap dump")
    kinds: dict[int, str] = {}
    for line in text[found.end() :].splitlines()[1:]:
        row = re.match(r"([0-9a-f]{8}): (.*)$", line)
        if row:
            first = int(row.group(1), 16) // BLOCK
            for i, c in enumerate(row.group(2)):
                kinds[first + i] = c
        elif line.strip() and "lines all free" not in line:
            break
    return int(found.group(1), 16), [kinds.get(i, ".") for i in range(max(kinds) + 1)]


class HeapImage:
    """A dumped heap: its blocks' kinds and bytes, the root pointers in order, the modules' places."""

    def __init__(self, text: str) -> None:
        text = text.replace("\r\n", "\n")
        self.start, self.kinds = _table(text)
        self.n = len(self.kinds)
        self.end = self.start + self.n * BLOCK
        self.mem = bytearray()
        for row in re.finditer(r"^P ([0-9a-f]+) ([0-9a-f]+)$", text, re.M):
            if int(row.group(1), 16) != self.start + len(self.mem):
                raise PicoError("the heap dump has a gap at %s" % row.group(1))
            self.mem += bytes.fromhex(row.group(2))
        window = bytearray()
        rows = re.findall(r"^ROOT ([0-9a-f]+) ([0-9a-f]+)$", text, re.M)
        for _, data in rows:
            window += bytes.fromhex(data)
        places = re.search(r"^SYSMOD ([0-9a-f]+) MAIN ([0-9a-f]+)", text, re.M)
        if places is None:
            raise PicoError("the heap dump does not say where sys.modules is")
        sysmod, main = int(places.group(1), 16), int(places.group(2), 16)
        if not rows or int(rows[0][0], 16) != sysmod + ROOTS_FROM:
            raise PicoError("the heap dump has no root pointers")
        count = (ROOTS_TO - ROOTS_FROM) // 4
        if len(window) < 4 * count:
            raise PicoError("the heap dump's root pointers are cut short")
        self.roots = list(struct.unpack_from("<%dI" % count, window))
        self.modules: dict[str, tuple[int, int]] = {}  # name: (the module's address, its globals')
        for row in re.finditer(r"^MODG (\S+) ([0-9a-f]+) ([0-9a-f]+)$", text, re.M):
            self.modules[row.group(1)] = (int(row.group(2), 16), int(row.group(3), 16))
        # v1.28's layout, checked: in the REPL the running globals are __main__'s, which follow
        # sys.modules, whose table is in the heap
        if (
            main != sysmod + 16
            or self.root(DICT_GLOBALS) != main
            or self.head(self.root(SYS_MODULES_TABLE)) is None
        ):
            raise PicoError("the interpreter's state is not laid out as MicroPython v1.28's")

    def root(self, offset: int) -> int:
        return self.roots[(offset - ROOTS_FROM) // 4]

    def head(self, ptr: int) -> int | None:
        # the head block ptr points at, or None (not a block's start in the heap, or not a head)
        if ptr % BLOCK or not self.start <= ptr < self.end:
            return None
        b = (ptr - self.start) // BLOCK
        return b if self.kinds[b] not in ".=" else None

    def length(self, b: int) -> int:
        n = 1
        while b + n < self.n and self.kinds[b + n] == "=":
            n += 1
        return n

    def children(self, b: int) -> list[int]:
        base = b * BLOCK
        words = struct.unpack_from("<%dI" % (self.length(b) * BLOCK // 4), self.mem, base)
        return [c for c in (self.head(w) for w in words) if c is not None]


def replay(
    image: HeapImage, first: str | None = None, local: int | None = None, stack: int = STACK
) -> dict[str, int]:
    """MicroPython's mark phase over IMAGE (a HeapImage). first: the module whose function calls
    gc.collect() (its globals are then the second root; None: the REPL's __main__, outside the heap).
    local: the address of the dict the code at module level runs with, the first root (None: the
    REPL's __main__; main.py runs the loop inside exec() with a dict of its own).
    A dict: overflows (blocks met with the stack full), passes (whole-heap scans they cost), words
    (scanned in all), rescanned (of them, by those passes), blocks (marked), deepest (the most blocks
    stacked at once)."""
    roots = list(image.roots)
    if first is not None:
        roots[(DICT_GLOBALS - ROOTS_FROM) // 4] = image.modules[first][1]
    if local is not None:
        roots[(DICT_LOCALS - ROOTS_FROM) // 4] = local
    marked = bytearray(image.n)
    children: dict[int, list[int]] = {}
    counts = {"overflows": 0, "passes": 0, "words": 0, "rescanned": 0, "deepest": 0}
    overflow = [False]  # gc_stack_overflow

    def subtree(b: int, again: bool) -> None:
        pending = []
        while True:
            words = image.length(b) * BLOCK // 4
            counts["words"] += words
            if again:
                counts["rescanned"] += words
            kids = children.get(b)
            if kids is None:
                kids = children[b] = image.children(b)
            for c in kids:
                if not marked[c]:
                    marked[c] = 1
                    if len(pending) < stack:
                        pending.append(c)
                    else:
                        counts["overflows"] += 1
                        overflow[0] = True
            if len(pending) > counts["deepest"]:
                counts["deepest"] = len(pending)
            if not pending:
                return
            b = pending.pop()

    for ptr in roots:
        b = image.head(ptr)
        if b is not None and not marked[b]:
            marked[b] = 1
            subtree(b, False)
    while overflow[0]:  # every marked block scanned again, its unmarked children marked
        overflow[0] = False
        counts["passes"] += 1
        for b in range(image.n):
            if marked[b]:
                subtree(b, True)
    counts["blocks"] = sum(marked)
    return counts

"""ludus_host.bench.gc_replay on a heap dump made up here: MicroPython's mark stack of 64 blocks overflows on
a block with 70 unmarked children and the collector then scans every marked block again; marked first
through narrower blocks, the same heap needs no second pass. The replay of a real board's heap is in
test_pico_bench.py (its heap census)."""

import struct

import pytest
from ludus_host.bench import gc_replay
from ludus_host.emulator.harness import PicoError

START = 0x20004000
SYSMOD = 0x20001FA0  # (where the interpreter's state keeps sys.modules: any address outside the heap)
BLOCKS = 256


def _dump(heads, words, modules=()):
    """A dump: heads {block: number of blocks}, words {block: [pointers]}, modules (name, globals)."""
    kinds = ["."] * BLOCKS
    for b, n in heads.items():
        kinds[b] = "h"
        for t in range(b + 1, b + n):
            kinds[t] = "="
    mem = bytearray(BLOCKS * 16)
    for b, ptrs in words.items():
        struct.pack_into("<%dI" % len(ptrs), mem, b * 16, *ptrs)
    lines = ["GC memory layout; from %x:" % START]
    for row in range(0, BLOCKS, 64):
        lines.append("%08x: %s" % (row * 16, "".join(kinds[row : row + 64])))
    lines += ["", "SYSMOD %x MAIN %x" % (SYSMOD, SYSMOD + 16)]
    for name, globals_block in modules:
        lines.append("MODG %s %x %x" % (name, START + globals_block * 16 + 8, START + globals_block * 16))
    window = [0] * ((gc_replay.ROOTS_TO - gc_replay.ROOTS_FROM) // 4)
    window[(gc_replay.DICT_GLOBALS - gc_replay.ROOTS_FROM) // 4] = SYSMOD + 16  # the REPL's __main__
    window[(gc_replay.SYS_MODULES_TABLE - gc_replay.ROOTS_FROM) // 4] = START  # sys.modules' table: block 0
    data = struct.pack("<%dI" % len(window), *window)
    for i in range(0, len(data), 64):
        lines.append("ROOT %x %s" % (SYSMOD + gc_replay.ROOTS_FROM + i, data[i : i + 64].hex()))
    for i in range(0, len(mem), 256):
        lines.append("P %x %s" % (START + i, mem[i : i + 256].hex()))
    return "\r\n".join(lines) + "\r\n"  # (as the REPL sends it)


def _ptr(b):
    return START + b * 16


def _wide_heap():
    # block 0 (sys.modules' table, 18 blocks) points at 70 leaves (blocks 18-87). Block 100, a module's
    # globals (its table's second part in blocks 101-103), points at ten blocks of two (110-128), each
    # of which points at seven of the leaves.
    heads = {0: 18, 100: 1, 101: 3}
    heads.update((18 + i, 1) for i in range(70))
    heads.update((110 + 2 * k, 2) for k in range(10))
    words = {0: [_ptr(18 + i) for i in range(70)]}
    words[100] = [_ptr(110), _ptr(112), _ptr(114), _ptr(101)]
    words[101] = [_ptr(110 + 2 * k) for k in range(3, 10)]
    for k in range(10):
        words[110 + 2 * k] = [_ptr(18 + 7 * k + i) for i in range(7)]
    return _dump(heads, words, [("m", 100)])


def test_a_block_with_more_unmarked_children_than_the_stack_holds_costs_a_second_pass():
    image = gc_replay.HeapImage(_wide_heap())
    marked = gc_replay.replay(image)  # from the REPL: sys.modules' table first, its 70 leaves at once
    assert marked["overflows"] == 70 - 64 and marked["passes"] == 1
    assert marked["rescanned"] == 18 * 4 + 70 * 4  # the table and the leaves, each scanned again
    # before it, the table and the 64 leaves it could stack (the other six are marked, not scanned)
    assert marked["words"] - marked["rescanned"] == 18 * 4 + 64 * 4
    roomy = gc_replay.replay(image, stack=70)
    assert roomy["overflows"] == 0 and roomy["passes"] == 0 and roomy["blocks"] == marked["blocks"] == 71


def test_the_same_heap_marked_first_through_narrow_blocks_needs_no_second_pass():
    image = gc_replay.HeapImage(_wide_heap())
    led = gc_replay.replay(image, first="m")  # the module's globals first: at most ten leaves at a time
    assert led["overflows"] == 0 and led["passes"] == 0 and led["rescanned"] == 0
    assert led["blocks"] == 71 + 2 + 10  # the table and its leaves, the globals' two heads, the ten
    # the table is still scanned, its leaves already marked
    assert led["words"] == (18 + 70 + 1 + 3 + 10 * 2) * 4


def test_the_dict_code_runs_with_at_module_level_is_marked_before_the_callers_globals():
    image = gc_replay.HeapImage(_wide_heap())
    # (as main.py's exec() dict would be: here the module's globals stand for it)
    led = gc_replay.replay(image, local=_ptr(100))
    assert led["overflows"] == 0 and led["blocks"] == 83


def test_a_dump_that_is_not_micropython_1_28s_layout_is_refused_by_name():
    text = _wide_heap()
    with pytest.raises(PicoError, match="laid out"):
        gc_replay.HeapImage(text.replace("MAIN %x" % (SYSMOD + 16), "MAIN %x" % (SYSMOD + 32)))
    with pytest.raises(PicoError, match="no allocation table"):
        gc_replay.HeapImage("nothing here")
    cut = "\r\n".join(line for line in text.split("\r\n") if not line.startswith("P %x " % (START + 256)))
    with pytest.raises(PicoError, match="gap"):
        gc_replay.HeapImage(cut)

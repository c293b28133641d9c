"""Runs firmware test files under the MicroPython unix port: every top-level test_* function, in name
order. Prints one line per failure and a closing 'N passed, N failed, N skipped' line; exits 1 on failure.

    micropython -X heapsize=160K tests/mpy_runner.py [--mpy DIR] tests/firmware/test_dice.py [...]
    micropython -X heapsize=... tests/mpy_runner.py --rom IMAGE BUDGET tests/firmware/test_dice.py [...]
    ... tests/mpy_runner.py [--rom IMAGE BUDGET] --list FILE       (a line "TEST name" per test)
    ... tests/mpy_runner.py [--rom IMAGE BUDGET] --only NAME FILE  (that test alone)

With --mpy DIR the firmware is imported from DIR, holding the package compiled by mpy-cross (compiling
source on the device costs far more heap than running bytecode). With --rom the compiled package runs
from a ROMFS image, as from a Pico's flash, and exactly BUDGET bytes of heap stay free for what the
tests do (bench/code_in_rom.py): the budget is set after each test file is imported, because a test
file is compiled from source here, its code on the heap, while the firmware's is bytecode in ROM.
A test file that sets GROW_NAMES = True (one that plays whole games through the firmware's loop)
has the interpreter's table of names grown first, inside the budget (code_in_rom.grow_names).
tests/test_micropython.py runs each test in a process of its own (--list, then --only): a test's heap
is then that of a board just booted, not one fragmented by the tests before it.
"""

import gc
import sys


def _dirname(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


def _module_name(path):
    name = path[path.rfind("/") + 1 :]
    return name[:-3] if name.endswith(".py") else name


def main(argv):
    here = _dirname(argv[0])
    root = _dirname(here) if here != "." else ".."
    for extra in (root + "/firmware", here + "/firmware"):
        if extra not in sys.path:
            sys.path.insert(0, extra)
    args = argv[1:]
    if args and args[0] == "--rom":
        sys.path.append(root + "/bench")
        import code_in_rom

        sys.path.pop()
        budget = int(args[2])
        code_in_rom.mount(args[1], None)  # (the budget is held to once a test file is imported)
        print("firmware from %s; %d bytes of heap free for the tests" % (args[1], budget))
        args = args[3:]
    else:
        budget = None
    if args and args[0] == "--mpy":
        sys.path.insert(0, args[1])
        args = args[2:]
    listing = only = None
    if args and args[0] == "--list":
        listing = True
        args = args[1:]
    elif args and args[0] == "--only":
        if len(args) < 3:
            print("--only needs a test's name and its file: --only NAME FILE")
            return 2
        only = args[1]
        args = args[2:]
    import support

    passed = failed = skipped = 0
    for path in args:
        name = _module_name(path)
        if _dirname(path) not in sys.path:
            sys.path.insert(0, _dirname(path))
        try:
            module = __import__(name)
        except Exception as exc:
            failed += 1
            print("ERROR importing", path)
            sys.print_exception(exc)
            continue
        if budget is not None:
            code_in_rom.hold_to(budget)
            if getattr(module, "GROW_NAMES", False):
                code_in_rom.grow_names()
        names = sorted(n for n in dir(module) if n.startswith("test_"))
        for test_name in names:
            fn = getattr(module, test_name)
            if not callable(fn) or (only is not None and test_name != only):
                continue
            if listing:
                print("TEST", test_name)
                continue
            if fn in support.CPYTHON_ONLY:
                skipped += 1
                print("SKIP %s::%s (cpython_only)" % (name, test_name))
                continue
            gc.collect()
            try:
                fn()
            except Exception as exc:
                failed += 1
                print("FAIL %s::%s" % (name, test_name))
                sys.print_exception(exc)
            else:
                passed += 1
    if listing:
        return 1 if failed else 0
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


sys.exit(main(sys.argv))

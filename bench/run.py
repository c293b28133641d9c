"""Runs one benchmark case and prints one JSON line. Works on CPython, the MicroPython unix port and
a real Pico, so figures estimated on a laptop can be checked on the board.

    python bench/run.py CASE [REPS]
    micropython -X heapsize=160K bench/run.py CASE [REPS]
    micropython -X heapsize=... bench/run.py --rom IMAGE BUDGET CASE [REPS]   (firmware from a ROMFS image)
    On a Pico: copy firmware/ludus and bench/*.py to the board, set ARGS below, `mpremote run bench/run.py`.

REPS 0 runs the setup only: `ludus bench` subtracts that baseline from a callgrind count of REPS calls.
"""

import gc
import sys
import time

# On a Pico there is no command line: name the case and repetitions here, e.g. ["referee.idle_tick", "100"].
ARGS = None

CASE_MODULES = (
    "cases_checkers",
    "cases_ludo",
    "cases_sensing",
    "cases_referee",
    "cases_journal",
    "cases_device",
    "cases_ludo_bot",
    "cases_checkers_bot",
    "cases_season",
    "cases_wiring",
    "cases_pixels",
)
AREA_MODULE = {"scene": "sensing"}  # areas whose cases live in another area's module

if hasattr(time, "ticks_us"):
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
else:

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


try:
    import micropython

    mem_total = micropython.mem_total
    mem_peak = micropython.mem_peak
except (ImportError, AttributeError):
    mem_total = mem_peak = None


def _add_paths():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    for path in (here, here + "/../firmware"):
        if path not in sys.path:
            sys.path.append(path)


def find_case(name):
    """The (name, setup, default_reps) entry of a case. Its area's module (cases_<area> for a case named
    <area>.<what>) is imported alone, so one game's modules never crowd another's out of a small heap."""
    area = "cases_" + AREA_MODULE.get(name.split(".")[0], name.split(".")[0])
    order = ((area,) if area in CASE_MODULES else ()) + tuple(m for m in CASE_MODULES if m != area)
    for module_name in order:
        try:
            module = __import__(module_name)
        except ImportError as exc:
            if module_name in str(exc):
                continue  # that area has no cases on this device
            raise
        for entry in module.CASES:
            if entry[0] == name:
                return entry
    raise ValueError("unknown benchmark case %r" % name)


def list_cases():
    names = []
    for module_name in CASE_MODULES:
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        names.extend(entry[0] for entry in module.CASES)
    return names


def run(name, reps):
    entry = find_case(name)
    if reps is None:
        reps = entry[2]
    work = entry[1]()
    result = None
    gc.collect()
    total_before = mem_total() if mem_total else 0
    start = ticks_us()
    for _ in range(reps):
        result = work()
    elapsed = ticks_diff(ticks_us(), start)
    total_after = mem_total() if mem_total else 0
    line = {
        "case": name,
        "runtime": sys.implementation.name,
        "reps": reps,
        "us_total": elapsed,
        "us_per_call": (elapsed / reps) if reps else None,
        "alloc_bytes_per_call": ((total_after - total_before) / reps) if (reps and mem_total) else None,
        "heap_peak": mem_peak() if mem_peak else None,
        "result": result if isinstance(result, (int, str, float, type(None))) else str(result),
    }
    return line


def main(argv):
    import json

    if len(argv) > 1 and argv[1] == "--rom":
        # the firmware from a ROMFS image, as from a Pico's flash, and exactly BUDGET bytes of heap
        # left (bench/code_in_rom.py; only for the unix port)
        sys.path.insert(0, __file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
        import code_in_rom

        code_in_rom.take_args(argv)
    _add_paths()
    if len(argv) < 2 or argv[1] in ("-h", "--help", "list"):
        print("usage: run.py CASE [REPS]; cases:", " ".join(list_cases()))
        return 0 if len(argv) >= 2 else 2
    reps = int(argv[2]) if len(argv) > 2 else None
    print(json.dumps(run(argv[1], reps)))
    return 0


if ARGS is not None:
    main(["run.py"] + list(ARGS))
elif __name__ == "__main__":
    sys.exit(main(sys.argv))

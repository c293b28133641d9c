"""Static checks run with the tests: ruff over the repository, mypy over host_tools against CPython's
typeshed, and mypy over firmware/ against the MicroPython Pico stubs used as the standard library."""

import importlib.metadata
import os
import shutil
import subprocess
import sys

import pytest
from tools import ROOT, tool

pytestmark = pytest.mark.cpython_only

LINTED = ["firmware", "host_tools", "tests", "bench"]
BOARD_STUBS = "micropython-rp2-rpi-pico-stubs"
STDLIB_STUBS = "micropython-stdlib-stubs"
CACHE = os.path.join(ROOT, ".mypy_cache")
LAYOUT = "r2"  # bump when micropython_typeshed() builds a different tree


def micropython_typeshed():
    """A typeshed directory whose stdlib is MicroPython's, for mypy --custom-typeshed-dir.

    micropython-stdlib-stubs installs a reduced typeshed (stdlib/, stubs/, and the helper package
    _mpy_shed) at the top of site-packages, and the Pico stubs install one .pyi per MicroPython module
    (hashlib, time, machine, rp2, ...) beside it. mypy takes the standard library only from a typeshed
    directory, so both are copied into typeshed layout under .mypy_cache, once per pair of versions
    (copy2 keeps modification times, so mypy's cache stays valid between runs). One adjustment: see
    _loosen_const."""
    board = importlib.metadata.distribution(BOARD_STUBS)
    stdlib = importlib.metadata.distribution(STDLIB_STUBS)
    target = os.path.join(CACHE, "micropython-typeshed-%s-%s-%s" % (board.version, stdlib.version, LAYOUT))
    if os.path.exists(os.path.join(target, "stdlib", "VERSIONS")):
        return target
    building = "%s.%d" % (target, os.getpid())
    shutil.rmtree(building, ignore_errors=True)
    for dist in (stdlib, board):  # the board's modules are copied last and win
        for entry in dist.files or ():
            rel = str(entry)
            if ".dist-info" in rel or "__pycache__" in rel:
                continue
            if rel.startswith(("stdlib/", "stubs/")):
                dest = os.path.join(building, rel)
            else:
                dest = os.path.join(building, "stdlib", rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(str(dist.locate_file(entry)), dest)
    assert os.path.exists(os.path.join(building, "stdlib", "builtins.pyi")), "no builtins in " + STDLIB_STUBS
    assert os.path.exists(os.path.join(building, "stdlib", "machine.pyi")), "no machine in " + BOARD_STUBS
    _loosen_const(os.path.join(building, "stdlib", "micropython.pyi"))
    try:
        os.rename(building, target)
    except OSError:  # another run got there first
        shutil.rmtree(building, ignore_errors=True)
    return target


def _loosen_const(path):
    # Every firmware module uses `try: from micropython import const / except ImportError: def const(x)`.
    # The stub types const with a constrained TypeVar, so mypy would flag the CPython fallback in every
    # file ("conditional function variants must have identical signatures"); typed as Any -> Any the two
    # agree. Nothing else in the stubs is changed.
    with open(path) as f:
        text = f.read()
    typed = "def const(expr: Const_T, /) -> Const_T:"
    assert typed in text, "micropython.pyi changed: revisit _loosen_const in " + __file__
    with open(path, "w") as f:
        f.write(text.replace(typed, "def const(expr: Any, /) -> Any:"))


def mypy_host(*targets):
    return _mypy(["--cache-dir", os.path.join(CACHE, "host")], targets)


def mypy_firmware(*targets):
    typeshed = micropython_typeshed()
    options = [
        "--custom-typeshed-dir",
        typeshed,
        "--no-site-packages",  # nothing from the CPython environment leaks into the firmware check
        "--cache-dir",  # one cache per typeshed: mypy can crash on a cache built with another one
        os.path.join(CACHE, "firmware-" + os.path.basename(typeshed)),
    ]
    return _mypy(options, targets)


def _mypy(options, targets):
    # pyproject.toml [tool.mypy] applies to both runs (cwd is the repository root)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--show-error-codes", *options, *targets],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode in (0, 1), "mypy crashed:\n" + proc.stdout + proc.stderr
    return proc.returncode, [line for line in proc.stdout.splitlines() if ": error:" in line]


def report(title, errors):
    by_file = {}
    for line in errors:
        by_file.setdefault(line.split(":", 1)[0], []).append(line)
    parts = ["%s: %d errors in %d files" % (title, len(errors), len(by_file))]
    for path in sorted(by_file):
        parts.append("  %s (%d)" % (path, len(by_file[path])))
    return "\n".join(parts) + "\n\n" + "\n".join(errors)


def test_ruff_check():
    proc = subprocess.run([tool("ruff"), "check", *LINTED], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format():
    proc = subprocess.run(
        [tool("ruff"), "format", "--check", *LINTED], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_host_tools_against_cpython_typeshed():
    code, errors = mypy_host(os.path.join("host_tools", "ludus_host"))
    assert code == 0 and not errors, report("mypy host_tools", errors)


def test_mypy_firmware_against_micropython_stubs():
    code, errors = mypy_firmware("firmware")
    assert code == 0 and not errors, report("mypy firmware (MicroPython Pico stubs)", errors)


SNIPPET = """
import json
import math
import time

from micropython import const

_N = const(4)
time.sleep_ms(_N)
start = time.ticks_ms()
print(time.ticks_diff(time.ticks_ms(), start))
print(time.perf_counter())
print(math.comb(5, 2))
print(json.dumps([1], indent=2))
import dataclasses
"""
# what the MicroPython stubs must reject (each fails on the unix port too) and the CPython typeshed accepts
CPYTHON_ONLY = ["perf_counter", "comb", "indent", "import dataclasses"]
MICROPYTHON_ONLY = ["sleep_ms", "start = time.ticks_ms()", "ticks_diff"]


def test_firmware_check_really_uses_the_micropython_stubs(tmp_path):
    """The same snippet, checked both ways: MicroPython's stubs know time.sleep_ms and ticks_ms but
    not time.perf_counter, math.comb, json.dumps(indent=) or dataclasses; CPython's typeshed is the
    other way round. (str.removeprefix and the like are not caught: the stubs' builtins are typeshed's,
    gated on the Python version, and mypy checks as 3.10 at the oldest.)"""
    path = tmp_path / "snippet.py"
    path.write_text(SNIPPET)
    lines = path.read_text().splitlines()

    def lines_of(texts):
        return sorted(next(i + 1 for i, line in enumerate(lines) if text in line) for text in texts)

    code, errors = mypy_firmware(str(path))
    assert code == 1
    assert sorted({int(e.split(":")[1]) for e in errors}) == lines_of(CPYTHON_ONLY), errors

    code, errors = mypy_host(str(path))
    assert code == 1
    assert sorted({int(e.split(":")[1]) for e in errors}) == lines_of(MICROPYTHON_ONLY), errors


def test_mypy_catches_a_wrong_argument_to_a_typed_host_function(tmp_path):
    path = tmp_path / "wrong.py"
    path.write_text(
        "from ludus_host.virtual.board import load_board\n"
        "from ludus_host.paths import write_atomically\n"
        "load_board(52)\n"
        'write_atomically("out.txt", b"bytes")\n'
        "from ludus_host.boards.magnetics import capture_radius_mm\n"
        'capture_radius_mm([1.0, 2.0], "3 mT")\n'
    )
    code, errors = mypy_host(str(path))
    assert code == 1 and sorted({int(e.split(":")[1]) for e in errors}) == [3, 4, 6], errors
    assert all("[arg-type]" in e for e in errors), errors

"""Runs every firmware test file under the real MicroPython unix port with the heap capped, so one
pytest run proves the firmware on both runtimes."""

import glob
import os
import re
import subprocess

import pytest
from tools import HEAP, ROOT, tool

FILES = sorted(glob.glob(os.path.join(ROOT, "tests", "firmware", "test_*.py")))


@pytest.fixture(scope="session")
def firmware_rom():
    """The ludus package compiled by mpy-cross for the unix port and packed into a ROMFS image, run from
    there as from a Pico's flash (ludus_host.build.image): the 160K heap is then the budget for what
    the firmware and the tests create, not for the bytecode.

    Heap use near the cap depends on every string the interpreter holds, file names included, so the
    bytecode names its sources relatively (-s) and everything runs from the checkout's root: the run is
    the same wherever the repository is cloned."""
    from ludus_host.build.image import build

    return os.path.relpath(build(os.path.join(ROOT, "build", "mpy-test")), ROOT)


@pytest.mark.cpython_only
@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p) for p in FILES])
def test_under_micropython(path, firmware_rom):
    # Each test of the file in a MicroPython process of its own, as a board boots afresh: the heap a
    # test starts with is the budget in one piece, not what the file's earlier tests left of it (at
    # 160K the outcome then turned on where their leftovers happened to lie).
    from ludus_host.build.image import heap_for

    # Relative paths and cwd=ROOT: see firmware_rom.
    test_file = os.path.relpath(path, ROOT)
    budget = int(HEAP.rstrip("K")) * 1024
    heap = heap_for(budget // 1024, os.path.join(ROOT, firmware_rom))
    command = [tool("micropython"), "-X", "heapsize=" + heap, os.path.join("tests", "mpy_runner.py")]
    command += ["--rom", firmware_rom, str(budget)]

    def run(*args):
        proc = subprocess.run(command + list(args), capture_output=True, text=True, timeout=1200, cwd=ROOT)
        return proc, proc.stdout + proc.stderr

    proc, out = run("--list", test_file)
    names = re.findall(r"^TEST (\w+)$", out, re.M)
    assert proc.returncode == 0 and names, "no tests listed by the MicroPython runner:\n" + out[-4000:]
    passed = 0
    failures = []
    for name in names:
        proc, out = run("--only", name, test_file)
        summary = re.search(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", out, re.M)
        if summary is None or proc.returncode != 0 or summary.group(2) != "0":
            failures.append(out[-4000:])
        else:
            passed += int(summary.group(1))
    assert not failures, "\n".join(failures)[-8000:]
    assert passed > 0, "no test ran under MicroPython (all skipped)"

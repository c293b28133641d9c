"""Runs every firmware test file under the real MicroPython unix port with the heap capped, so one
pytest run proves the firmware on both runtimes."""

import glob
import os
import re
import shutil
import subprocess

import pytest
from tools import HEAP, ROOT, tool

FILES = sorted(glob.glob(os.path.join(ROOT, "tests", "firmware", "test_*.py")))


@pytest.fixture(scope="session")
def compiled_firmware():
    """The ludus package compiled by mpy-cross for the unix port, as it would be deployed on a Pico.

    Heap use near the 160K cap depends on every string the interpreter holds, file names included, so
    the bytecode names its sources relatively (-s) and lives at a fixed path under the checkout: the
    run is the same wherever the repository is cloned."""
    out = os.path.join("build", "mpy-test")
    shutil.rmtree(os.path.join(ROOT, out), ignore_errors=True)
    for path in sorted(glob.glob(os.path.join(ROOT, "firmware", "ludus", "**", "*.py"), recursive=True)):
        rel = os.path.relpath(path, os.path.join(ROOT, "firmware"))
        target = os.path.join(ROOT, out, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        cmd = [tool("mpy-cross"), "-march=x64", "-s", rel, "-o", target, path]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    return out


@pytest.mark.cpython_only
@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p) for p in FILES])
def test_under_micropython(path, compiled_firmware):
    # Relative paths and cwd=ROOT: see compiled_firmware.
    runner = os.path.join("tests", "mpy_runner.py")
    test_file = os.path.relpath(path, ROOT)
    proc = subprocess.run(
        [tool("micropython"), "-X", "heapsize=" + HEAP, runner, "--mpy", compiled_firmware, test_file],
        capture_output=True,
        text=True,
        timeout=1200,
        cwd=ROOT,
    )
    out = proc.stdout + proc.stderr
    summary = re.search(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", out, re.M)
    assert summary, "no summary line from the MicroPython runner:\n" + out[-4000:]
    assert proc.returncode == 0 and summary.group(2) == "0", out[-8000:]
    assert int(summary.group(1)) > 0, "no test ran under MicroPython:\n" + out[-2000:]

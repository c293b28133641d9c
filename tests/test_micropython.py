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
def compiled_firmware(tmp_path_factory):
    """The ludus package compiled by mpy-cross for the unix port, as it would be deployed on a Pico."""
    out = tmp_path_factory.mktemp("mpy")
    for path in glob.glob(os.path.join(ROOT, "firmware", "ludus", "**", "*.py"), recursive=True):
        rel = os.path.relpath(path, os.path.join(ROOT, "firmware"))
        target = out / (rel[:-3] + ".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [tool("mpy-cross"), "-march=x64", "-o", str(target), path], capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
    return str(out)


@pytest.mark.cpython_only
@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p) for p in FILES])
def test_under_micropython(path, compiled_firmware):
    runner = os.path.join(ROOT, "tests", "mpy_runner.py")
    proc = subprocess.run(
        [tool("micropython"), "-X", "heapsize=" + HEAP, runner, "--mpy", compiled_firmware, path],
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

"""Every file that goes onto the Pico must compile with mpy-cross of the firmware's MicroPython version,
for the Pico's own architecture (armv6m), which native and viper code need."""

import glob
import os
import subprocess

import pytest
from tools import ROOT, tool

FILES = sorted(glob.glob(os.path.join(ROOT, "firmware", "**", "*.py"), recursive=True))


@pytest.mark.cpython_only
def test_every_firmware_file_compiles(tmp_path):
    assert FILES, "no firmware files found"
    failures = []
    for path in FILES:
        out = tmp_path / (os.path.basename(path) + ".mpy")
        proc = subprocess.run(
            [tool("mpy-cross"), "-march=armv6m", "-o", str(out), path], capture_output=True, text=True
        )
        if proc.returncode != 0 or not out.exists():
            failures.append("%s: %s" % (os.path.relpath(path, ROOT), proc.stderr.strip()))
    assert not failures, "mpy-cross refused:\n" + "\n".join(failures)

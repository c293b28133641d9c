"""Locating the MicroPython tool chain for host-side tests."""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAP = "160K"


def tool(name):
    """Path of a console script from the dev extras: beside this interpreter first, then on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(beside):
        return beside
    found = shutil.which(name)
    if not found:
        raise RuntimeError("%s not found: install the dev extras (pip install -e '.[dev]')" % name)
    return found

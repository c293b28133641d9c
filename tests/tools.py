"""What the host-side tests share: the checkout's root, the MicroPython heap budget, and the tool chain
(ludus_host.paths, the one place the host tools look these up), and running the `ludus` command."""

import os
import subprocess
import sys

from ludus_host.paths import ROOT, tool  # noqa: F401 (re-exported for the tests)

HEAP = "160K"


def ludus(*argv, stdin=None, timeout=60, cwd=None):
    """Run `ludus ARGV...` as a user would (a fresh interpreter, the firmware on its path): the
    CompletedProcess, text out and err."""
    return subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        input=stdin,
        cwd=ROOT if cwd is None else cwd,
        env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware")),
    )

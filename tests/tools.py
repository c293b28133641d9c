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


def ctrl_c_as_at_a_terminal():
    """A Popen preexec_fn for a child a test interrupts with SIGINT: Ctrl-C's default, as at a terminal.
    A run started as a shell's background job (`.ci/run &`) passes SIGINT ignored to its children,
    and a Python started so never raises KeyboardInterrupt: the test would wait for it in vain."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)

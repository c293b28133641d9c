"""The firmware's ROMFS image (ludus_host.build.image) and bench/code_in_rom.py, which run the
MicroPython tests and benchmarks with the code as in a Pico's flash and an exact heap budget."""

import os
import subprocess

import pytest
from ludus_host.build import image as firmware_image
from tools import ROOT, tool

pytestmark = pytest.mark.cpython_only

PROBE = """
import gc, sys
sys.path.insert(0, "bench")
import code_in_rom
free = code_in_rom.mount(sys.argv[1], int(sys.argv[2]))
import ludus.referee.core
gc.collect()
print(free, ludus.referee.core.__file__, gc.mem_free())
"""


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return firmware_image.build(str(tmp_path_factory.mktemp("fw")))


def _probe(tmp_path, image, budget, heap):
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    return subprocess.run(
        [tool("micropython"), "-X", "heapsize=" + heap, str(script), image, str(budget)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_image_holds_every_firmware_module_compiled(image):
    package = os.path.join(ROOT, "firmware", "ludus")
    folders = {}
    for folder, _dirs, files in os.walk(package):
        folders[os.path.relpath(folder, package)] = [n[:-3] for n in files if n.endswith(".py")]
    with open(image, "rb") as f:
        data = f.read()
    assert data[:3] == b"\xd2\xcd\x31", data[:8]  # the ROMFS header
    assert len(folders) >= 9, folders  # the package and its subpackages
    for folder, names in folders.items():
        if folder != ".":
            assert os.path.basename(folder).encode() in data, folder
        for name in names:
            assert (name + ".mpy").encode() in data, (folder, name)


def test_code_runs_from_rom_and_exactly_the_budget_stays_free(tmp_path, image):
    budget = 64 * 1024
    proc = _probe(tmp_path, image, budget, firmware_image.heap_for(64, image))
    assert proc.returncode == 0, proc.stderr
    free, where, after = proc.stdout.split()
    assert abs(int(free) - budget) <= 64, free  # one heap block either way
    assert where.startswith("/rom/ludus/"), where  # imported from the image, not the source tree
    # importing the referee from ROM costs its objects, far less than loading its bytecode
    assert 0 < budget - int(after) < 48 * 1024, after


def test_a_heap_too_small_for_the_budget_is_named(tmp_path, image):
    proc = _probe(tmp_path, image, 512 * 1024, firmware_image.heap_for(64, image))
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr  # (the unix port prints the traceback to stdout)
    assert "heap too small" in out and "budget 524288" in out, out

"""`ludus bench --pico`'s heap census (ludus_host.bench.pico): the order it imports the firmware's
modules in, so that the heap each import adds is that module's alone, and the census itself on the
emulated Pico (about 25 s, one mode)."""

import types

import pytest
from ludus_host.bench import pico as pico_bench
from ludus_host.emulator import harness as pico

BOOTED = (
    "ludus ludus.app ludus.board ludus.board.definition ludus.checkers ludus.checkers.game "
    "ludus.checkers.geometry ludus.checkers.moves ludus.checkers.native ludus.checkers.options ludus.device "
    "ludus.dice ludus.errors ludus.hw ludus.hw.pico ludus.light ludus.light.scene ludus.link ludus.record "
    "ludus.record.journal ludus.referee ludus.referee.core ludus.runtime ludus.sensing "
    "ludus.sensing.occupancy"
).split()


def test_each_module_comes_after_its_packages_and_its_module_level_imports():
    order = pico_bench._module_order(BOOTED)
    assert sorted(order) == sorted(BOOTED)  # each once, nothing added
    at = order.index
    assert at("ludus") == 0
    for name in BOOTED:  # its packages first
        parts = name.split(".")
        for i in range(1, len(parts)):
            assert at(".".join(parts[:i])) < at(name), name
    # module-level imports of firmware/ludus/device.py and checkers/game.py
    assert at("ludus.link") < at("ludus.device") and at("ludus.runtime") < at("ludus.device")
    assert at("ludus.checkers.geometry") < at("ludus.checkers.game")


def test_a_module_that_is_not_loaded_is_not_imported_for_another():
    # ludus.device imports ludus.link at module level; with link not in the set, device comes alone
    order = pico_bench._module_order(["ludus", "ludus.device", "ludus.runtime"])
    assert order.index("ludus.runtime") < order.index("ludus.device") and "ludus.link" not in order


def test_pico_game_and_pico_mode_choose_the_games_and_modes_measured():
    def chosen(games, modes):
        args = types.SimpleNamespace(pico_game=games, pico_mode=modes)
        return [(preset, mode) for _, _, preset, mode in pico_bench._chosen_games(args)]

    assert chosen(None, None) == [
        ("checkers/6", "files"),
        ("checkers/6", "romfs"),
        ("ludo/classic/4", "files"),
        ("ludo/classic/4", "romfs"),
    ]
    assert chosen(["ludo/classic/4"], ["romfs"]) == [("ludo/classic/4", "romfs")]


@pytest.mark.long  # (many emulated minutes: pytest -m long)
def test_the_heap_census_on_the_emulated_pico():
    try:
        pico.assets()
        pico.node()
    except pico.PicoError as exc:
        pytest.skip(str(exc))
    c = pico_bench.heap_census("checkers", "checkers", "files")
    assert c["modules"] >= 30 and 0 < c["modules_alloc"] < c["booted_alloc"]
    assert c["bare_gc_us"] < c["modules_gc_us"] < c["booted_gc_us"]
    # every module's share, names aside, and the names they added, make up the modules' heap
    shares = sum(size for _, size in c["per_module"])
    assert shares + c["modules_names_bytes"] == c["modules_alloc"]
    assert dict(c["per_module"])["ludus.device"] > 4096  # its bytecode, in the heap with files
    # the booted device's marking, replayed: from the REPL sys.modules' modules overflow the collector's
    # stack and every marked block is scanned again; led through them by ludus.heap, nothing is
    repl, led = c["marking"]["repl"], c["marking"]["led"]
    assert repl["overflows"] > 0 and repl["passes"] >= 1 and repl["rescanned"] > 0
    assert led["overflows"] == 0 and led["passes"] == 0 and led["rescanned"] == 0
    assert led["blocks"] == repl["blocks"] > 1000  # (the same heap marked, either way)
    assert led["words"] <= repl["rescanned"]  # (one scan of the heap, where the REPL's made two)
    # one MicroPython starts itself in the referee's code overflows too, unless the loop runs as
    # main.py runs it, inside exec() with a dict that leads to the chain
    auto, auto_main = c["marking"]["auto"], c["marking"]["auto_main"]
    assert auto["overflows"] > 0 and auto_main["overflows"] == 0 and auto_main["words"] <= repl["rescanned"]
    assert c["booted_led_gc_us"] > 0

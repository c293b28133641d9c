"""ludus.heap: the order a collection marks the modules in (each after the modules it refers to), the
chain that leads it, and a module forgotten (ludus.runtime.forget) leaving that chain. Runs on both
runtimes; the chain itself exists on MicroPython only (CPython's collector has no such stack). What it
saves is measured by `ludus bench --pico --pico-part heap` (docs/benchmarks.md)."""

import gc
import sys

import ludus.light.scene  # noqa: F401 (the modules the order is checked on: these and their imports)
import ludus.record.journal  # noqa: F401
import ludus.referee.core  # noqa: F401
from ludus import heap, runtime, startup

MODULE = type(sys)


def _ours():
    return dict((name, m) for name, m in sys.modules.items() if name.startswith("ludus"))


def _refers(module, modules):
    # the names of MODULES that MODULE's globals refer to: written out here, apart from runtime's own
    found = set()
    for value in module.__dict__.values():
        if isinstance(value, MODULE):
            home = value.__name__
        elif type(value) is type(_ours):
            home = [n for n, m in modules.items() if m.__dict__ is value.__globals__]
            home = home[0] if home else None
        elif isinstance(value, type):
            home = getattr(value, "__module__", None)
        else:
            home = getattr(type(value), "__module__", None)
        if home in modules and modules[home] is not module:
            found.add(home)
    return found


def _reaches(start, goal, refs):
    todo, seen = [start], set()
    while todo:
        name = todo.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(refs[name])
    return False


def test_each_module_comes_after_the_modules_it_refers_to():
    modules = _ours()
    order = startup.module_order(modules)
    assert sorted(order) == sorted(modules)  # each once
    refs = dict((name, _refers(m, modules)) for name, m in modules.items())
    assert sum(len(r) for r in refs.values()) > 2 * len(refs)  # (the check below has work to do)
    where = dict((name, i) for i, name in enumerate(order))
    checked = 0
    for name, deps in refs.items():
        for dep in deps:
            if _reaches(dep, name, refs):  # a cycle (a package and its modules): either order will do
                continue
            assert where[dep] < where[name], "%s is marked before %s, which it refers to" % (name, dep)
            checked += 1
    assert checked > len(refs)
    # the package comes after its modules, which it holds as attributes
    assert where["ludus.referee"] > where["ludus.referee.core"]


def test_a_module_that_refers_to_nothing_of_ours_can_come_first():
    only = {"ludus.runtime": runtime}
    assert startup.module_order(only) == ["ludus.runtime"]
    assert startup.module_order({"ludus.heap": heap, "ludus.runtime": runtime}) in (
        ["ludus.heap", "ludus.runtime"],
        ["ludus.runtime", "ludus.heap"],
    )  # (neither refers to the other)
    assert startup.module_order({}) == []


def test_the_chain_holds_the_loaded_modules_in_that_order_and_loses_a_forgotten_one():
    import ludus.board.check as check  # (a module loaded for this test only, forgotten below)

    heap.lead_collections(startup.collection_order())
    chained = heap.chained()
    if not runtime.MICROPYTHON:  # no chain: CPython's collector needs none
        assert chained == []
        heap.collect()
        return
    names = startup.module_order(sys.modules)
    assert [m.__name__ for m in chained] == names
    assert check in chained
    runtime.forget("ludus.board.check")
    after = heap.chained()
    assert check not in after and "ludus.board.check" not in sys.modules
    assert after == [m for m in chained if m is not check]  # the rest in the same order
    chained = None
    runtime.forget("ludus.board.check")  # (no longer loaded: nothing to do)
    assert heap.chained() == after
    free = gc.mem_free()
    junk = [bytearray(100) for _ in range(20)]
    assert len(junk) == 20
    del junk
    heap.collect()
    assert gc.mem_free() >= free  # what the chain leads, the collection still frees


def test_a_module_loaded_for_one_use_is_never_chained():
    if not runtime.MICROPYTHON:
        return
    heap.lead_collections(startup.collection_order())
    before = heap.chained()
    module = runtime.transient("ludus.board.wiring")
    assert "ludus.board.wiring" not in sys.modules
    assert heap.chained() == before and module not in before

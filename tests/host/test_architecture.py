"""The house rules of firmware/ and of host_tools/ludus_host (docs/architecture.md), checked on the source
with `ast`: no import cycle, counting imports inside functions and modules loaded by name; the layers and
parts import one way; only ludus.hw touches the hardware; viper kernels are leaves; no code asks a lazy
package for a submodule; only the CLI imports a command; every package says what it is for; each
module map in the docs matches its tree."""

import ast
import os

import pytest
from tools import ROOT

pytestmark = pytest.mark.cpython_only

FIRMWARE = os.path.join(ROOT, "firmware")
HARDWARE_MODULES = ("machine", "neopixel", "rp2")

# What each part of the package may import (besides itself). Data flows one way: sensors -> occupancy ->
# referee <-> rules -> light scene -> pixels; rules never know hardware, drivers never know rules.
BASE = {"ludus", "ludus.runtime", "ludus.errors", "ludus.scan", "ludus.lazy", "ludus.outcome"}
ALLOWED = {
    "ludus": set(),
    "ludus.runtime": set(),
    "ludus.heap": set(),  # the collection's order: a leaf, which ludus.runtime.forget looks up by name
    "ludus.errors": set(),
    "ludus.scan": set(),
    "ludus.lazy": set(),
    "ludus.outcome": set(),
    "ludus.dice": BASE,
    "ludus.board": BASE,
    "ludus.sensing": BASE,
    "ludus.checkers": BASE,
    "ludus.ludo": BASE,
    "ludus.games": BASE | {"ludus.checkers", "ludus.ludo"},
    "ludus.record": BASE | {"ludus.dice", "ludus.games"},
    "ludus.light": BASE | {"ludus.board"},
    "ludus.bots": BASE | {"ludus.checkers", "ludus.ludo", "ludus.dice"},
    "ludus.referee": BASE
    | {"ludus.dice", "ludus.board", "ludus.sensing", "ludus.checkers", "ludus.ludo", "ludus.games"}
    | {"ludus.record", "ludus.light", "ludus.bots"},
    "ludus.hw": BASE,
    # config.json, read by the entry point: its names and season checked by their own rules
    "ludus.config": BASE | {"ludus.record", "ludus.ludo"},
    "ludus.club": BASE | {"ludus.ludo", "ludus.record"},  # the season kept on the board: wired by the device
    "ludus.calibrate": BASE | {"ludus.board", "ludus.sensing"},  # the wizard: a laptop's, kept off the board
    "ludus.link": BASE,  # the USB link's JSON lines: knows no layer above it
    "ludus.outgoing": BASE,  # the board's lines out, through a port that may not take them
    "ludus.app": None,  # the firmware's loop: wires every layer, as main does
    "ludus.device": None,  # boot, the tick, the link's commands: wires the app to the platform
    "ludus.commands": None,  # the link's settings commands, the device's own (loaded for each use)
    "ludus.startup": None,  # the device's boot and self-test (loaded for the boot)
    "ludus.notices": BASE,  # what the app says of a broken sensor chain or a supply change (loaded then)
    "ludus.recovery": BASE,  # a crash's restart, safe mode, the REPL's hand-over (loaded only then)
    "main": None,  # the entry point wires everything together
    # the test hooks, beside the package on a test build only: they take the device they are given
    "testhooks.ludus_testhooks": BASE | {"ludus.record", "ludus.dice"},
    "manifest": set(),  # read by MicroPython's build (ludus_host.build.packaging writes it)
}


def firmware_modules():
    """{dotted module name: path} of every file under firmware/ (a package by its __init__)."""
    found = {}
    for folder, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, FIRMWARE)[:-3].replace(os.sep, ".")
                found[dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
    return found


MODULES = firmware_modules()
PACKAGES = sorted(m for m, p in MODULES.items() if p.endswith("__init__.py"))


def _tree(name):
    with open(MODULES[name], encoding="utf-8") as f:
        return ast.parse(f.read(), MODULES[name])


def _resolve(name, module, level):
    if not level:
        return module
    base = name.split(".")
    if not MODULES[name].endswith("__init__.py"):
        base = base[:-1]
    base = base[: len(base) - level + 1]
    return ".".join(base + ([module] if module else []))


def _string_arg(call):
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def imports_of(name):
    """[(imported module, line, how)] of a firmware module: import statements anywhere in it, modules
    loaded by name through transient() or __import__, and the submodules a lazy __getattr__ loads."""
    out = []
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno, "import") for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(name, node.module, node.level)
            out.append((module, node.lineno, "from"))
            for a in node.names:
                if module + "." + a.name in MODULES:
                    out.append((module + "." + a.name, node.lineno, "from-submodule"))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            text = _string_arg(node)
            if called in ("transient", "__import__") and text and text.startswith("ludus"):
                out.append((text, node.lineno, called))
            elif called == "attribute" and text in MODULES:  # lazy.attribute(package, attr, attrs, default)
                targets = set()
                if len(node.args) == 4 and isinstance(node.args[3], ast.Constant):
                    targets.add(node.args[3].value)
                if len(node.args) == 4 and isinstance(node.args[2], ast.Dict):
                    targets |= {v.value for v in node.args[2].values if isinstance(v, ast.Constant)}
                out += [(text + "." + t, node.lineno, "lazy") for t in sorted(targets)]
    return out


def graph():
    edges = {}
    for name in MODULES:
        edges[name] = sorted({m for m, _, _ in imports_of(name) if m in MODULES and m != name})
    return edges


def find_cycles(edges):
    cycles, state, stack = [], {}, []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in edges[u]:
            if state.get(v) == 1:
                cycles.append(stack[stack.index(v) :] + [v])
            elif v not in state:
                visit(v)
        stack.pop()
        state[u] = 2

    for u in sorted(edges):
        if u not in state:
            visit(u)
    return cycles


def part(name):
    """The part of the package a module belongs to: ludus.board.places -> ludus.board."""
    bits = name.split(".")
    return ".".join(bits[:2]) if bits[0] == "ludus" and len(bits) > 1 else name


def test_the_import_graph_has_no_cycle():
    edges = graph()
    assert len(edges) > 40 and any(edges.values())
    assert find_cycles(edges) == []


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": []}) == [["a", "b", "c", "a"]]
    assert find_cycles({"a": ["b"], "b": [], "c": ["a", "b"]}) == []


def test_imports_inside_functions_and_by_name_are_counted():
    found = {m for m, _, _ in imports_of("ludus.record.game")}
    assert "ludus.record.codec" in found  # transient("ludus.record.codec"), inside a function
    assert "ludus.games" in found  # an import statement inside a function
    found = {(m, how) for m, _, how in imports_of("ludus.checkers")}
    assert ("ludus.checkers.game", "lazy") in found  # what the lazy __getattr__ loads


def test_layers_import_only_downwards():
    faults = []
    for name in sorted(MODULES):
        allowed = ALLOWED.get(part(name), set())
        if allowed is None:
            continue
        for module, line, _ in imports_of(name):
            if not module.startswith("ludus") or part(module) == part(name):
                continue
            if part(module) not in allowed and module not in allowed:
                faults.append("%s:%d imports %s" % (MODULES[name][len(ROOT) + 1 :], line, module))
    assert not faults, "\n".join(faults)
    assert set(ALLOWED) >= {part(n) for n in MODULES}, "a new part of the package needs its place in ALLOWED"


def test_only_ludus_hw_touches_the_hardware():
    faults = []
    for name in MODULES:
        if name == "ludus.hw" or name.startswith("ludus.hw."):
            continue
        for module, line, _ in imports_of(name):
            if module.split(".")[0] in HARDWARE_MODULES:
                faults.append("%s:%d imports %s" % (MODULES[name], line, module))
    assert not faults, "\n".join(faults)


# MicroPython's built-in modules. On the Pico an import of one inside a function costs 3.4 ms at every
# call (measured on the emulated RP2040 with the package on littlefs: the filesystem is searched before
# the built-in is taken; a loaded module of the package costs 35-45 us): they are imported at the top.
BUILTIN_MODULES = (
    "array", "binascii", "collections", "errno", "gc", "hashlib", "heapq", "io", "json", "math",
    "micropython", "os", "random", "re", "select", "struct", "sys", "time",
)  # fmt: skip
# where one stays inside a function: off the device (the fakes, the laptop's wizard), or the hardware,
# which only a Pico has, imported once as the drivers are built
BUILTIN_IN_FUNCTIONS = (
    "ludus.hw.fake",
    "ludus.calibrate",
    "ludus.hw.pico",
    "ludus.hw.pico_boot",
    "ludus.hw.pixels",
)


def test_built_in_modules_are_imported_at_the_top_of_a_module():
    faults = []
    for name in MODULES:
        if name in BUILTIN_IN_FUNCTIONS:
            continue
        for fn in ast.walk(_tree(name)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    modules = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    if module.split(".")[0] in BUILTIN_MODULES + HARDWARE_MODULES:
                        faults.append(
                            "%s:%d imports %s in %s()" % (MODULES[name], node.lineno, module, fn.name)
                        )
    assert not faults, "\n".join(faults)


def _is_kernel(name):
    with open(MODULES[name], encoding="utf-8") as f:
        text = f.read()
    return "@micropython.viper" in text and "_VIPER_SOURCE" not in text


def test_viper_kernels_are_leaves():
    kernels = [n for n in MODULES if _is_kernel(n)]
    assert sorted(kernels) == [
        "ludus.checkers.native",
        "ludus.hw.native",
        "ludus.ludo.native",
        "ludus.record.native",
        "ludus.referee.native",
    ]
    edges = graph()
    for kernel in kernels:
        for module in edges[kernel]:
            # a kernel may read tables of leaf modules, never a module that could import it back
            assert set(edges[module]) <= BASE, (kernel, module, edges[module])


def _lazy_packages():
    lazy = set()
    for name in PACKAGES:
        if any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in _tree(name).body):
            lazy.add(name)
    return lazy


def test_no_code_asks_a_lazy_package_for_a_submodule():
    # MicroPython asks a package's __getattr__ before it looks for a submodule, so
    # `from ludus.ludo import gen` would fail there: submodules are imported by their full name
    lazy = _lazy_packages()
    assert lazy >= {"ludus.checkers", "ludus.ludo", "ludus.referee", "ludus.sensing", "ludus.record"}
    faults = []
    for folder in ("firmware", "tests", "bench", "host_tools"):
        for top, _dirs, files in os.walk(os.path.join(ROOT, folder)):
            for file in files:
                if not file.endswith(".py"):
                    continue
                path = os.path.join(top, file)
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), path)
                for node in ast.walk(tree):
                    if isinstance(node, ast.ImportFrom) and node.module in lazy:
                        for a in node.names:
                            if node.module + "." + a.name in MODULES:
                                faults.append(
                                    "%s:%d from %s import %s" % (path, node.lineno, node.module, a.name)
                                )
    assert not faults, "\n".join(faults)


def test_firmware_modules_use_no_lazy_name_of_their_own_package():
    # inside the package the modules import each other directly: a lazy name would load ludus.lazy
    # on the board and keep its names on the heap
    lazy = _lazy_packages()
    faults = []
    for name in MODULES:
        if name in PACKAGES:
            continue
        for module, line, how in imports_of(name):
            if module in lazy and how in ("import", "from"):
                faults.append("%s:%d uses the lazy package %s" % (MODULES[name], line, module))
    assert not faults, "\n".join(faults)


def test_every_package_says_what_it_is_for():
    for name in PACKAGES:
        doc = ast.get_docstring(_tree(name))
        assert doc and len(doc.splitlines()) <= 3, name
    assert len(PACKAGES) >= 9, PACKAGES


def _documented_modules():
    import re

    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## The module map", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(ludus[\w.]*)` \|", section, re.M)


def test_the_module_map_in_the_docs_matches_the_tree():
    documented = _documented_modules()
    assert len(documented) == len(set(documented)), "a module is listed twice"
    package = sorted(m for m in MODULES if m.startswith("ludus"))
    assert sorted(documented) == package


def test_the_architecture_docs_examples_run():
    import doctest

    result = doctest.testfile(os.path.join(ROOT, "docs", "architecture.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0


# ---- the laptop side: host_tools/ludus_host ---------------------------------------------------------

HOST_TOOLS = os.path.join(ROOT, "host_tools")


def host_modules():
    """{dotted module name: path} of every module of ludus_host (a package by its __init__)."""
    found = {}
    for folder, dirs, files in os.walk(os.path.join(HOST_TOOLS, "ludus_host")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, HOST_TOOLS)[:-3].replace(os.sep, ".")
                found[dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
    return found


HOST = host_modules()


def host_imports_of(name):
    """[(imported ludus_host module, line, inside a function)] of a host module: every import statement,
    a `from package import module` counted as the module, and importlib.import_module("ludus_host.x")."""
    with open(HOST[name], encoding="utf-8") as f:
        tree = ast.parse(f.read(), HOST[name])
    out = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                out.extend((a.name, child.lineno, in_function) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                module = child.module or ""
                if child.level:
                    base = name.split(".") if HOST[name].endswith("__init__.py") else name.split(".")[:-1]
                    module = ".".join(base[: len(base) - child.level + 1] + ([module] if module else []))
                out.append((module, child.lineno, in_function))
                out.extend(
                    (module + "." + a.name, child.lineno, in_function)
                    for a in child.names
                    if module + "." + a.name in HOST
                )
            elif isinstance(child, ast.Call) and getattr(child.func, "attr", None) == "import_module":
                text = _string_arg(child)
                if text and text.startswith("ludus_host"):
                    out.append((text, child.lineno, in_function))
            visit(child, inner)

    visit(tree, False)
    return [(m, line, inner) for m, line, inner in out if m in HOST]


def host_graph():
    return {name: sorted({m for m, _, _ in host_imports_of(name) if m != name}) for name in HOST}


def host_part(name):
    """The part of ludus_host a module belongs to: ludus_host.sim.table -> sim. The circuit and the PCB
    are the boards' (top-level packages only because the generated netlists and drawings name them)."""
    bits = name.split(".")
    if len(bits) == 1:
        return "ludus_host"
    return {"circuit": "boards", "pcb": "boards"}.get(bits[1], bits[1])


# What each part may import besides itself and the base (ludus_host, paths, args), one way: a part below
# never imports one above it. None: anything.
HOST_BASE = {"ludus_host", "paths", "args"}
HOST_LEAVES = {"records", "boards", "build", "bots", "link", "emulator"}
HOST_ALLOWED = {
    "ludus_host": set(),
    "paths": set(),
    "args": set(),
    **{leaf: set() for leaf in HOST_LEAVES},
    "virtual": {"link"},  # the referee's events in the link's words
    "sim": {"virtual", "records", "link", "emulator", "build"},
    "bench": {"sim", "virtual", "records", "link", "emulator", "build"},
    "commands": None,
    "cli": set(),  # and the chosen command, loaded by name (importlib)
}


def test_the_host_import_graph_has_no_cycle():
    edges = host_graph()
    assert len(edges) > 60 and any(edges.values())
    assert find_cycles(edges) == []


def test_host_parts_import_one_way():
    faults = []
    for name in sorted(HOST):
        allowed = HOST_ALLOWED.get(host_part(name), set())
        if allowed is None:
            continue
        mine = host_part(name)
        for module, line, _ in host_imports_of(name):
            part = host_part(module)
            if part == mine or (part in HOST_BASE and mine not in HOST_BASE):
                continue
            if part == "commands" and name == "ludus_host.cli":
                continue
            if part not in allowed:
                faults.append("%s:%d imports %s" % (HOST[name][len(ROOT) + 1 :], line, module))
    assert not faults, "\n".join(faults)
    assert set(HOST_ALLOWED) >= {host_part(n) for n in HOST}, "a new part of ludus_host needs its place"


def test_only_the_cli_imports_the_commands():
    faults = []
    for name in sorted(HOST):
        for module, line, _ in host_imports_of(name):
            if host_part(module) == "commands" and name != "ludus_host.cli" and host_part(name) != "commands":
                faults.append("%s:%d imports %s" % (HOST[name][len(ROOT) + 1 :], line, module))
            if host_part(module) == "commands" and host_part(name) == "commands" and module != name:
                if module != "ludus_host.commands":
                    faults.append("%s:%d imports another command, %s" % (HOST[name], line, module))
    assert not faults, "\n".join(faults)


def test_the_cli_loads_a_command_by_name_only():
    # the CLI's own imports: no command module at the top, one chosen at run time by name
    found = host_imports_of("ludus_host.cli")
    assert not [m for m, _, _ in found if m.startswith("ludus_host.commands")]
    with open(HOST["ludus_host.cli"], encoding="utf-8") as f:
        assert 'import_module("ludus_host.commands." + name)' in f.read()


def test_every_host_package_says_what_it_is_for():
    for name, path in HOST.items():
        with open(path, encoding="utf-8") as f:
            doc = ast.get_docstring(ast.parse(f.read()))
        assert doc, "%s has no docstring" % name
        if path.endswith("__init__.py"):
            assert len(doc.splitlines()) <= 3, name


def _documented_host_modules():
    import re

    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## The module map of `ludus_host`", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(ludus_host[\w.]*)` \|", section, re.M)


def test_the_host_module_map_in_the_docs_matches_the_tree():
    documented = _documented_host_modules()
    assert len(documented) == len(set(documented)), "a module is listed twice"
    assert sorted(documented) == sorted(HOST)


# Imports that wait inside a function, and why: tools only the dev extras bring (LUDOpy, numpy), one
# that only a port needs (pyserial), mpremote (only a ROMFS image needs it: `ludus play` runs from a
# wheel installed without dependencies), and the ones whose import costs seconds on a branch most runs
# never take (SKiDL under the circuit and the PCB, aiohttp's test client).
HOST_LATE_IMPORTS = (
    "ludopy",
    "numpy",
    "serial",
    "mpremote",
    "aiohttp.test_utils",
    "ludus_host.circuit",
    "ludus_host.pcb",
)
# bench.pico: its imports follow the emulated Pico's benchmark runs (kept as they are while those change)
HOST_LATE_MODULES = ("ludus_host.bench.pico",)


def test_host_imports_are_at_the_top():
    faults = []
    for name in sorted(HOST):
        if name in HOST_LATE_MODULES:
            continue
        with open(HOST[name], encoding="utf-8") as f:
            tree = ast.parse(f.read(), HOST[name])
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    modules = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    modules = [node.module or ""]
                else:
                    continue
                for module in modules:
                    if not module.startswith(HOST_LATE_IMPORTS):
                        faults.append("%s:%d imports %s in %s()" % (HOST[name], node.lineno, module, fn.name))
    assert not faults, "\n".join(sorted(set(faults)))

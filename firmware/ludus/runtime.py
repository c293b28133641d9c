"""What every firmware module shares about the runtime it runs on: `const`, whether this is MicroPython
and whether it can load native (viper) code, and loading a rarely used module only for as long as it is
needed. A leaf: it imports nothing of the package."""

import gc
import sys

try:
    from micropython import const
except ImportError:  # CPython: const() is only an optimisation hint for MicroPython's compiler

    def const(x):  # type: ignore[misc]
        return x


MICROPYTHON = sys.implementation.name == "micropython"
# Native code (the viper kernels) needs a port with a native emitter: on MicroPython the architecture
# a .mpy file may carry is in bits 10 and up of sys.implementation._mpy (0: bytecode only). CPython has
# no viper at all. Modules with a kernel load it when this is True and let any error in it propagate:
# a kernel that should load but fails is a bug, not a reason to fall back silently.
NATIVE = MICROPYTHON and (getattr(sys.implementation, "_mpy", 0) >> 10) != 0
# Whether the bytecode was loaded into the heap (.mpy files on a file system, `ludus flash`'s files mode)
# or is read in place (a ROMFS image, frozen code). Loading a module for each use (transient) saves its
# code's RAM only in the first case; in the second it would only make its dictionary again each time.
_HERE = globals().get("__file__") or ""
CODE_IN_RAM = MICROPYTHON and not (_HERE.startswith("/rom") or _HERE.startswith(".frozen"))


_TICKS_MASK = const(0x3FFFFFFF)


def elapsed_ms(now, then):
    """now - then on a clock that wraps at 2**30, as time.ticks_ms and time.ticks_us do on MicroPython
    (like time.ticks_diff when now is the later): milliseconds or microseconds, as the clock counts."""
    return (now - then) & _TICKS_MASK


def forget(name):
    """Drop the module `name` (dotted, e.g. "ludus.board.check") from sys.modules and from its package,
    so that its code and tables are freed once nothing else refers to it; a later import loads it
    again. Does nothing on CPython, where heap is no concern."""
    if not MICROPYTHON:
        return
    module = sys.modules.pop(name, None)
    heap = sys.modules.get("ludus.heap")  # (looked up, not imported: both are leaves)
    if module is not None and heap is not None:
        heap.unchain(module)  # (its chain must not keep the module alive)
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot]) if dot > 0 else None
    if parent is not None:
        try:
            delattr(parent, name[dot + 1 :])
        except (AttributeError, KeyError):  # already gone (MicroPython says KeyError)
            pass


def transient(name):
    """The module `name` (dotted), for code used now and then (reading and writing text, explaining a
    fault, reading a board file). On MicroPython it is forgotten again at once, so its code does not
    stay on the heap while a game runs; the caller's reference keeps it alive until the call returns,
    and the next use loads it again."""
    module = sys.modules.get(name)
    if module is None:
        module = __import__(name, None, None, ("_",))
        forget(name)
    return module


def mem_free():
    """gc.mem_free() on MicroPython; -1 where the heap is not MicroPython's (CPython)."""
    f = getattr(gc, "mem_free", None)
    return f() if f is not None else -1

"""Helpers for firmware tests, which run both under pytest (CPython) and under tests/mpy_runner.py
(the MicroPython unix port). Keep this file MicroPython-compatible."""

import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"

# Functions marked with @cpython_only. MicroPython functions cannot carry attributes, so the runner
# looks them up here instead.
CPYTHON_ONLY = []


def cpython_only(fn):
    """Mark a test that needs CPython (say, hypothesis); the MicroPython runner skips it visibly."""
    CPYTHON_ONLY.append(fn)
    if not IS_MICROPYTHON:
        import pytest

        fn = pytest.mark.cpython_only(fn)
    return fn


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception of exc_type it raises; fail if it raises none."""
    try:
        fn(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("expected %s from %r" % (exc_type.__name__, fn))


def root():
    """The checkout's root, from this file's place in tests/firmware (the unix port runs the tests
    from the root: "." when __file__ is not known)."""
    try:
        here = __file__
    except NameError:
        return "."
    i = here.rfind("/")
    return (here[:i] if i > 0 else ".") + "/../.."


def message_of(exc):
    """The text of an exception, on both runtimes."""
    return str(exc.args[0]) if exc.args else ""


def locked(fn, arg):
    """Call fn(arg) with the heap locked (MicroPython only): a MemoryError if it allocates. (One
    argument, no *args: packing them would allocate under the lock.)"""
    import micropython

    micropython.heap_lock()
    try:
        return fn(arg)
    finally:
        micropython.heap_unlock()

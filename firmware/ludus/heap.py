"""A garbage collection that marks the modules in an order that keeps it fast (docs/firmware.md, "A
collection's order"). A leaf: it imports nothing of the package.

    lead_collections()    # once the game's modules are loaded (the device, after building the app)
    collect()             # gc.collect(), led by them

MicroPython's collector marks the live heap depth first with a stack of 64 blocks. The blocks it cannot
stack are marked but not scanned, and it then scans every marked block of the heap again (gc.c,
gc_deal_with_stack_overflow): the collection takes twice as long. Its first root is the globals of the
module whose function called it, its second sys.modules. There, some 45 modules were stacked at once,
and a module's names and a class's methods on top of them overflowed the stack in every collection.
Called from here, a collection starts with this module's globals, which hold the chain: it marks the
modules one at a time, each after the modules it refers to, so no stack holds more than one module's
names and the methods of one of its classes."""

import gc
import sys

# The loaded modules in that order, as a chain of (rest, module) pairs (a tuple of them all would be
# stacked at once). None until lead_collections() builds it.
_chain = None


def _home(value):
    # the name of the module a global value comes from: a module's, a function's, a class's or an
    # instance's; None for the rest (numbers, strings, containers, built-in types)
    kind = type(value)
    if kind is _MODULE:
        return value.__name__
    if kind is _FUNCTION:
        return value.__globals__.get("__name__")
    return getattr(value if kind is type else kind, "__module__", None)


_MODULE = type(sys)
_FUNCTION = type(_home)


def module_order(modules):
    """The names of MODULES (a dict name -> module, like sys.modules) in an order that puts each after
    the modules its globals refer to (its imports, and where its functions, classes and objects come
    from), as far as their references allow (a cycle is broken where it is met)."""
    refs = {}
    for name, module in modules.items():
        found = []
        for value in module.__dict__.values():
            home = _home(value)
            if home is not None and home != name and home in modules and home not in found:
                found.append(home)
        refs[name] = found
    order = []
    seen = {}
    for first in refs:  # depth first without recursion (the Pico's C stack is small)
        if first in seen:
            continue
        seen[first] = True
        stack = [[first, 0]]
        while stack:
            top = stack[-1]
            deps = refs[top[0]]
            if top[1] < len(deps):
                dep = deps[top[1]]
                top[1] += 1
                if dep not in seen:
                    seen[dep] = True
                    stack.append([dep, 0])
            else:
                stack.pop()
                order.append(top[0])
    return order


def lead_collections():
    """Build the chain collect() marks first from the modules loaded now (MicroPython; about 40 ms on
    the RP2040, so when a game is set up, not in its ticks). Modules loaded later are not in it and
    are marked as before; a module forgotten (ludus.runtime.forget) leaves it at once. Without the
    heap for it (a few KB for a moment) there is no chain, and collections take their old time."""
    global _chain
    _chain = None
    if sys.implementation.name != "micropython":  # (CPython's collector has no such stack)
        return
    gc.collect()  # (what building the game left, out of the way of the order's tables)
    try:
        _chain = _link(sys.modules[name] for name in module_order(sys.modules))
    except MemoryError:
        pass


def drop_chain():
    """No chain until the next lead_collections() (a boot starting again: its modules may not all be
    needed, and the chain would keep them)."""
    global _chain
    _chain = None


def chained():
    """The modules in the chain, in the order a collection marks them (a list)."""
    found = []
    link = _chain
    while link is not None:
        found.append(link[1])
        link = link[0]
    return found


def _link(modules):
    # the chain of MODULES (an iterable, the first marked first)
    chain = None  # type: tuple | None
    for module in reversed(list(modules)):
        chain = (chain, module)
    return chain


def unchain(module):
    """Take MODULE out of the chain (ludus.runtime.forget does), which must not keep it alive."""
    global _chain
    link = _chain
    while link is not None:
        if link[1] is module:
            _chain = _link(m for m in chained() if m is not module)
            return
        link = link[0]


def collect():
    """gc.collect() from this module, so that it starts with this module's globals and so with the
    chain."""
    gc.collect()

"""A garbage collection that marks the modules in an order that keeps it fast (docs/firmware.md, "A
collection's order"). A leaf: it imports nothing of the package.

    lead_collections(modules)   # the loaded modules in order (ludus.startup.collection_order)
    collect()                   # gc.collect(), led by them

MicroPython's collector marks the live heap depth first with a stack of 64 blocks. The blocks it cannot
stack are marked but not scanned, and it then scans every marked block of the heap again (gc.c,
gc_deal_with_stack_overflow): the collection takes twice as long. Its first root is the globals of the
module whose function called it, its second sys.modules. There, some 45 modules were stacked at once,
and a module's names and a class's methods on top of them overflowed the stack in every collection.
Called from here, a collection starts with this module's globals, which hold the chain: it marks the
modules one at a time, each after the modules it refers to, so no stack holds more than one module's
names and the methods of one of its classes. The order is worked out by ludus.startup, loaded for the
moment: with `.mpy` files its code would otherwise stay in the heap."""

import gc

# The loaded modules in that order, as a chain of (rest, module) pairs (a tuple of them all would be
# stacked at once). None until lead_collections() builds it.
_chain = None


def lead_collections(modules):
    """Build the chain collect() marks first from MODULES (a list, the first marked first: the
    loaded modules as ludus.startup.collection_order() orders them, each after those it refers to).
    Modules loaded later are not in it and are marked as before; a module forgotten
    (ludus.runtime.forget) leaves it at once. Without the heap for it there is no chain, and
    collections take their old time."""
    global _chain
    _chain = None
    try:
        _chain = _link(modules)
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

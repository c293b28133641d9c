"""Lazy package attributes (the pattern of MicroPython's own asyncio package): a package's __init__ is a
single __getattr__ that calls attribute(), so importing one submodule loads nothing else, and this module
itself loads only when a package-level name is first used."""

import sys


def attribute(package, attr, attrs, default):
    """The body of a package's module-level __getattr__ (the lazy pattern of MicroPython's asyncio): the
    name `attr` from the submodule attrs names for it, else from the package's `default` submodule,
    imported on first use and then kept on the package. AttributeError for a name neither has.

    Submodules themselves are imported by their full name (import ludus.ludo.gen as gen), never as
    `from ludus.ludo import gen`: MicroPython asks __getattr__ before it looks for a submodule."""
    if attr[:2] == "__":  # __path__, __file__ and the like: not ours to make up
        raise AttributeError(attr)
    name = package + "." + attrs.get(attr, default)
    module = sys.modules.get(name)
    if module is None:
        module = __import__(name, None, None, ("_",))
    value = getattr(module, attr)
    setattr(sys.modules[package], attr, value)
    return value

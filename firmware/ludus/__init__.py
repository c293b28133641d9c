"""Ludus: the rules cores and the referee of a sensing game board (Ludo and Chinese Checkers).

Runs unchanged on MicroPython (Raspberry Pi Pico) and CPython. Only ludus.hw touches hardware."""

__version__ = "0.1.0"
# The MicroPython release this firmware is built, type-checked and tested against.
MICROPYTHON_VERSION = "1.28.0"

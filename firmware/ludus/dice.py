"""Fair six-sided dice from a 32-byte seed, with commit-reveal so a finished game's rolls can be
checked by anyone: the same seed gives the same rolls on MicroPython and CPython."""

import binascii
import hashlib
import os

from ludus.errors import ConfigError, NotationError
from ludus.runtime import const

SEED_BYTES = const(32)
# 252 = 6 * 42 is the largest multiple of 6 that fits in a byte; bytes from 252 up are thrown away,
# so each face comes from exactly 42 byte values.
_REJECT_FROM = const(252)
# Upper 0.1% point of the chi-square distribution with 5 degrees of freedom (six faces).
CHI_SQUARE_CRITICAL_5DF = 20.515


def hex_of(data):
    """Lower-case hex text of bytes (binascii, because MicroPython's bytes have no .hex())."""
    return binascii.hexlify(data).decode()


def commitment(seed):
    """The commitment to a seed: the hex SHA-256 digest of its 32 bytes."""
    return hex_of(hashlib.sha256(bytes(seed)).digest())


def seed_from_hex(text):
    """The 32 seed bytes from their hex text; NotationError naming the text if it is not that."""
    if not isinstance(text, str) or len(text) != 2 * SEED_BYTES:
        raise NotationError("seed %r: expected %d hex digits" % (text, 2 * SEED_BYTES))
    try:
        return binascii.unhexlify(text)
    except ValueError:
        raise NotationError("seed %r: not hex" % (text,)) from None


class Dice:
    """Six-sided dice drawn from a seed.

    Dice() takes 32 bytes from os.urandom (on the Pico: the ring oscillator); Dice(entropy=f) calls
    f(32) instead; Dice(seed) replays a known seed (bytes or hex text). The byte stream is
    SHA-256(seed + 4-byte big-endian block counter) for counter 0, 1, 2, ...; each byte below 252
    gives the face (byte % 6) + 1, bytes from 252 up are skipped, so every face is equally likely."""

    def __init__(self, seed=None, entropy=None):
        if seed is None:
            seed = (entropy or os.urandom)(SEED_BYTES)
        elif isinstance(seed, str):
            seed = seed_from_hex(seed)
        if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
            raise ConfigError("dice seed must be %d bytes, got %r" % (SEED_BYTES, seed))
        self.seed = bytes(seed)
        # seed followed by the block counter, rewritten in place for every block
        self._input = bytearray(SEED_BYTES + 4)
        self._input[:SEED_BYTES] = self.seed
        self._counter = 0
        self._block = b""
        self._pos = 0
        self.count = 0  # faces drawn so far

    def commitment(self):
        """Hex SHA-256 of the seed: show and record it at game start, before any roll."""
        return commitment(self.seed)

    def seed_hex(self):
        """The seed as hex text: reveal it when the game is over."""
        return hex_of(self.seed)

    def _next_block(self):
        buf = self._input
        c = self._counter
        buf[SEED_BYTES] = (c >> 24) & 0xFF
        buf[SEED_BYTES + 1] = (c >> 16) & 0xFF
        buf[SEED_BYTES + 2] = (c >> 8) & 0xFF
        buf[SEED_BYTES + 3] = c & 0xFF
        self._counter = c + 1
        return hashlib.sha256(buf).digest()

    def roll(self):
        """One die: 1..6."""
        block = self._block
        pos = self._pos
        while True:
            if pos >= len(block):
                block = self._block = self._next_block()
                pos = 0
            b = block[pos]
            pos += 1
            if b < _REJECT_FROM:
                self._pos = pos
                self.count += 1
                return b % 6 + 1

    def roll_two(self):
        """Two dice, drawn one after the other from the same stream: a tuple (first, second)."""
        return (self.roll(), self.roll())


def chi_square(counts):
    """Pearson's chi-square statistic of face counts against a uniform die; compare it with
    CHI_SQUARE_CRITICAL_5DF for six faces."""
    total = 0
    for c in counts:
        total += c
    if total == 0:
        raise ConfigError("chi_square needs at least one roll")
    expected = total / len(counts)
    stat = 0.0
    for c in counts:
        d = c - expected
        stat += d * d / expected
    return stat

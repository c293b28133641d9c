"""The journal's checksum as native code (viper): CRC-16/CCITT-FALSE a byte at a time through the table.
In bytecode it took about 23 us a byte on the emulated RP2040: 6 ms for a game's start record, in the
busiest tick of a game. MicroPython only (ludus.record.journal imports it where the port runs native code
and keeps its bytecode loop elsewhere).

mpy-cross needs the target architecture for this file: mpy-cross -march=armv6m (the Pico's RP2040)."""

# ruff: noqa: F821 (ptr8, ptr16 and int() casts are viper built-ins)
# mypy: ignore-errors

import micropython


@micropython.viper
def crc16(data, crc: int, table) -> int:
    """ludus.record.journal.crc16 over every byte of data (any buffer), from crc, with its 256-entry
    table (an array of "H")."""
    d = ptr8(data)
    t = ptr16(table)
    n = int(len(data))
    i = 0
    while i < n:
        crc = ((crc << 8) & 0xFF00) ^ int(t[((crc >> 8) ^ int(d[i])) & 0xFF])
        i += 1
    return crc

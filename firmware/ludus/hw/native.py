"""The drivers' byte loops as native code (viper): the shift-register scanner's unpacking of the bytes
shifted in into one 0/1 level per channel, and the LED frame's gamma mapping. In bytecode they took
2.1 ms (128 channels: 15 us a channel, ten times the SPI transfer) and 3.8 ms (127 LEDs) a pass on the
emulated RP2040; here each is a few tens of microseconds. MicroPython only (ludus.hw.shift and
ludus.hw.pixels import them where the port runs native code and keep their bytecode loops elsewhere).

mpy-cross needs the target architecture for this file: mpy-cross -march=armv6m (the Pico's RP2040)."""

# ruff: noqa: F821 (ptr8 and int() casts are viper built-ins)
# mypy: ignore-errors

import micropython


@micropython.viper
def unpack(buf, levels, n: int, flags: int):
    """levels[c] for c < n from buf: channel c is bit c % 8 of byte c // 8 (bit 7 - c % 8 with flags
    bit 9, lsb_first), bytes counted from the end with flags bit 10 (far_first), each byte XORed with
    flags' low byte first (active low)."""
    b = ptr8(buf)
    lv = ptr8(levels)
    chips = int(len(buf))
    invert = flags & 0xFF
    lsb = flags & 0x200
    far = flags & 0x400
    c = 0
    k = 0
    while k < chips:
        byte = int(b[chips - 1 - k]) if far else int(b[k])
        byte ^= invert
        bit = 0
        while bit < 8 and c < n:
            if lsb:
                lv[c] = (byte >> (7 - bit)) & 1
            else:
                lv[c] = (byte >> bit) & 1
            bit += 1
            c += 1
        k += 1


@micropython.viper
def translate(src, dst, table):
    """dst[i] = table[src[i]] for every byte of dst: the LED frame through the gamma table (in bytecode
    3.8 ms for 127 LEDs on the emulated RP2040, as long as sending it)."""
    s = ptr8(src)
    d = ptr8(dst)
    t = ptr8(table)
    n = int(len(dst))
    i = 0
    while i < n:
        d[i] = t[s[i]]
        i += 1

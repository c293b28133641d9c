"""The light scene's frame loop as native code (viper), compiled from source when ludus.light.scene is
imported where the port runs native code, so the .mpy stays portable. A module of its own so that the
source text is freed once compiled: ludus.light.scene loads it, takes the function and drops it.

The kernel reads and writes the scene's ink buffer, whose layout ludus.light.scene names (_GRB, _SPEC, _INKS,
...); it holds the same loop in plain Python (_render_py), and a test compares the two."""

import micropython

# The frame at now_ms into out (dark beforehand), its estimated current in mA returned: the patterns'
# levels (palette.pattern_level times brightness + 1, over 256), each ink's GRB bytes, every lit LED's
# bytes, the die display over them (pip i in ink 1 when bit i of the face is set, else dark, instead of
# what its own ink drew; face 255: the waiting rolls take turns, one per 1.2 s); when over the budget, one
# 16-bit fixed-point factor for every channel, rounded down so the estimate lands at or just under the
# budget (the divisor rounded up for the same reason), and the same LEDs drawn again. Four LEDs at a time:
# inks is a bytearray, so word-aligned, and padded with dark LEDs to whole words, so four dark ones are
# skipped at once (when inks is not aligned, every LED is copied). The comments stay out of the source
# text, which the .mpy holds until it is compiled.
_VIPER_SOURCE = """
@micropython.viper
def _render(out: ptr8, buf: ptr8, inks: ptr8, dice: ptr16, now_ms: int) -> int:
    bright = buf[457] + 1
    on = 255 * bright >> 8
    buf[0] = on
    buf[1] = on if now_ms % 1000 < 500 else 0
    buf[2] = on if now_ms % 400 < 200 else 0
    p = now_ms % 1200
    buf[3] = on if p < 120 or (240 <= p and p < 360) else 0
    q = now_ms % 2000
    if q >= 1000:
        q = 2000 - q
    buf[4] = (26 + q * 229 // 1000) * bright >> 8
    buf[5] = on if p < 1000 else 0
    buf[6] = on if p < 500 else 0
    buf[7] = on if 600 <= p and p < 1100 else 0
    inks_n = buf[456]
    for k in range(inks_n):
        j = 200 + 4 * k
        lv = buf[buf[j + 3]] + 1
        m = 8 + 3 * k
        buf[m] = (buf[j + 1] * lv) >> 8
        buf[m + 1] = (buf[j] * lv) >> 8
        buf[m + 2] = (buf[j + 2] * lv) >> 8
    face = buf[458]
    count = buf[469]
    if face == 255:
        v = buf[461 + (now_ms // 1200) % buf[460]]
        face = buf[470 + v] if count == 7 else (1 << v) - 1
    n = buf[477] | buf[478] << 8
    idle = buf[481] | buf[482] << 8
    per = buf[483] | buf[484] << 8
    allowed = ((buf[479] | buf[480] << 8) - idle) * 255
    grb = ptr8(uint(buf) + 8)
    words = ptr32(inks)
    odd = int(uint(inks) & 3)
    scaled = 0
    while True:
        total = 0
        w = 0
        i = 0
        while i < n:
            if odd or words[w]:
                e = i + 4
                if e > n:
                    e = n
                j = 3 * i
                while i < e:
                    k = 3 * inks[i]
                    g = grb[k]
                    r = grb[k + 1]
                    b = grb[k + 2]
                    out[j] = g
                    out[j + 1] = r
                    out[j + 2] = b
                    total += g + r + b
                    i += 1
                    j += 3
            else:
                i += 4
            w += 1
        if face:
            for i in range(count):
                j = 3 * dice[i]
                k = 3 * inks[dice[i]]
                total -= grb[k] + grb[k + 1] + grb[k + 2]
                if (face >> i) & 1:
                    out[j] = grb[3]
                    out[j + 1] = grb[4]
                    out[j + 2] = grb[5]
                    total += grb[3] + grb[4] + grb[5]
                else:
                    out[j] = 0
                    out[j + 1] = 0
                    out[j + 2] = 0
        if scaled or total * per <= allowed:
            return idle + (total * per + 254) // 255
        factor = (allowed << 8) // ((total * per >> 8) + 1)
        for j in range(8, 8 + 3 * inks_n):
            buf[j] = (buf[j] * factor) >> 16
        scaled = 1
"""


def compile_kernel():
    """The kernel, compiled: _render."""
    namespace = {"micropython": micropython}
    exec(_VIPER_SOURCE, namespace)
    return namespace["_render"]

"""The light scene's inner loops as native code (viper), compiled from source when ludus.scene is imported
on MicroPython, so the .mpy stays portable. A module of its own so that the source text is freed once
compiled: ludus.scene imports it, takes the functions and drops it from sys.modules."""

import micropython

_VIPER_SOURCE = """
@micropython.viper
def _levels(level: ptr8, now_ms: int, bright: int):
    # palette.pattern_level for all eight patterns at once (the test compares the two)
    on = 255 * bright >> 8
    level[0] = on
    level[1] = on if now_ms % 1000 < 500 else 0
    level[2] = on if now_ms % 400 < 200 else 0
    p = now_ms % 1200
    level[3] = on if p < 120 or (240 <= p and p < 360) else 0
    q = now_ms % 2000
    if q >= 1000:
        q = 2000 - q
    level[4] = (26 + q * 229 // 1000) * bright >> 8
    level[5] = on if p < 1000 else 0
    level[6] = on if p < 500 else 0
    level[7] = on if 600 <= p and p < 1100 else 0


@micropython.viper
def _paint(grb: ptr8, spec: ptr8, level: ptr8, n: int):
    for k in range(n):
        j = 4 * k
        lv = level[spec[j + 3]] + 1
        m = 3 * k
        grb[m] = (spec[j + 1] * lv) >> 8
        grb[m + 1] = (spec[j] * lv) >> 8
        grb[m + 2] = (spec[j + 2] * lv) >> 8


@micropython.viper
def _total(grb: ptr8, uses: ptr16, n: int) -> int:
    total = 0
    for k in range(n):
        j = 3 * k
        total += uses[k] * (grb[j] + grb[j + 1] + grb[j + 2])
    return total


@micropython.viper
def _copy16(dst: ptr16, src: ptr16, n: int):
    for i in range(n):
        dst[i] = src[i]


@micropython.viper
def _copy(out: ptr8, grb: ptr8, inks: ptr8, n: int):
    j = 0
    for i in range(n):
        k = 3 * inks[i]
        out[j] = grb[k]
        out[j + 1] = grb[k + 1]
        out[j + 2] = grb[k + 2]
        j += 3


@micropython.viper
def _scale(grb: ptr8, n: int, factor: int):
    for j in range(n):
        grb[j] = (grb[j] * factor) >> 16
"""


def compile_kernels():
    """The six kernels, compiled: (_levels, _paint, _total, _copy16, _copy, _scale)."""
    namespace = {"micropython": micropython}
    exec(_VIPER_SOURCE, namespace)
    return tuple([namespace[name] for name in ("_levels", "_paint", "_total", "_copy16", "_copy", "_scale")])

"""The emulated Pico's XIP cache model and worst-case flash times (host_tools/pico_emu/xip-cache.mjs,
flash-emu.mjs): a bare MicroPython 1.28 RPI_PICO, timing reads of the flash window with its own
ticks_us. The charges are the model's, so they are checked exactly, within what the interpreter's
own fetches around the timed call add; they are not speed targets (ludus bench --pico --xip gives
those).

Skipped, saying so, without ../shared/pico's UF2 and bootrom."""

import pytest
from ludus_host.emulator import harness as pico
from ludus_host.virtual.board import load_board

# the model's figures (xip-cache.mjs): a miss stalls the core 56 cycles of the 125 MHz clk_sys
MISS_US = 56 * 8 / 1000
LINES = 8192  # lines read by each sweep: 64 KB of flash, four times the cache
SMALL_LINES = 512  # 4 KB: a quarter of the cache

# A viper sweep (its machine code in RAM) reading one word from each of n 8-byte lines at base, wrapping
# at mask + 1 bytes, timed by ticks_us; the sweeps' times in one line
_SWEEPS = """
import time, micropython, machine, rp2
from uctypes import addressof
@micropython.viper
def walk(base: uint, n: int, mask: int) -> int:
    s = 0
    i = 0
    while i < n:
        s += ptr32(base + ((i << 3) & mask))[0]
        i += 1
    return s
def t(base, mask):
    a = time.ticks_us()
    walk(base, %d, mask)
    return time.ticks_diff(time.ticks_us(), a)
ram = addressof(bytearray(65536))
walk(ram, 10, 0xfff)
r = {}
r["ram"] = t(ram, 0xffff)
r["miss"] = t(0x10010000, 0xffff)
r["fit_cold"] = t(0x10010000, 0xfff)
r["fit_warm"] = t(0x10010000, 0xfff)
r["bypass"] = t(0x13010000, 0xfff)
r["noalloc"] = t(0x11020000, 0xfff)
r["noalloc_again"] = t(0x11020000, 0xfff)
machine.mem32[0x14000010] = 0
machine.mem32[0x1400000c] = 0
t(0x10010000, 0xfff)
r["acc"] = machine.mem32[0x14000010]
r["hit"] = machine.mem32[0x1400000c]
rp2.Flash().ioctl(6, -1)
r["after_erase"] = t(0x10010000, 0xfff)
print(r)
""" % (LINES,)


@pytest.fixture(scope="module")
def harness():
    try:
        pico.assets()
    except pico.PicoError as exc:
        pytest.skip(str(exc))
    pico.node()


def sweeps(**options):
    with pico.EmulatedPico(load_board("checkers"), **options) as emu:
        emu.run(1500)  # (MicroPython boots in about 0.1 s)
        out, err = emu.exec(_SWEEPS, timeout_ms=60000)
        assert not err, err
        return eval(out.strip().splitlines()[-1])  # (a dict of ints the board printed)


def near(got, want, slack_us=60):
    return abs(got - want) <= slack_us + 0.02 * want


def test_a_sweep_that_misses_the_xip_cache_is_charged_as_the_model_says_and_one_that_fits_is_not(harness):
    r = sweeps(xip=True)
    base = r["ram"]  # the same sweep over SRAM: no charge
    # 64 KB through the cacheable window: every line misses, each 448 ns
    assert near(r["miss"] - base, LINES * MISS_US), r
    # 4 KB fits: its 512 lines miss once (cold), then never
    assert near(r["fit_cold"] - base, SMALL_LINES * MISS_US), r
    assert near(r["fit_warm"], base), r
    # the 0x13 alias bypasses the cache: every read misses, even of 4 KB
    assert near(r["bypass"] - base, LINES * MISS_US), r
    # 0x11 looks the cache up but never fills it: 4 KB read twice misses every time
    assert near(r["noalloc"] - base, LINES * MISS_US), r
    assert near(r["noalloc_again"] - base, LINES * MISS_US), r
    # XIP_CTRL's counters count as the chip's: the warm sweep's reads all hit
    assert r["acc"] >= LINES and r["acc"] - r["hit"] < 64, r
    # an erase flushes the whole cache: the 4 KB miss again
    assert near(r["after_erase"] - base, SMALL_LINES * MISS_US), r

    off = sweeps()  # without the model every fetch costs what an SRAM one does
    for key in ("miss", "fit_cold", "bypass", "noalloc"):
        assert near(off[key], off["ram"]), off


_ERASE = """
import time, rp2
f = rp2.Flash()
a = time.ticks_us()
f.ioctl(6, -1)
erase = time.ticks_diff(time.ticks_us(), a)
a = time.ticks_us()
f.writeblocks(-1, bytearray(256), 0)
program = time.ticks_diff(time.ticks_us(), a)
print(erase, program)
"""


def test_worst_erase_charges_the_datasheets_longest_erase_and_program(harness):
    for options, erase_ms, program_ms in (({}, 45, 0.4), ({"worst_erase": True}, 400, 3)):
        with pico.EmulatedPico(load_board("checkers"), **options) as emu:
            emu.run(1500)  # (MicroPython boots in about 0.1 s)
            out, err = emu.exec(_ERASE, timeout_ms=60000)
            assert not err, err
            erase, program = (int(x) for x in out.split())
            # the busy time, and the bootrom's and MicroPython's own work around it (under 1 ms)
            assert erase_ms * 1000 <= erase < erase_ms * 1000 + 1000, (options, erase)
            assert program_ms * 1000 <= program < program_ms * 1000 + 1000, (options, program)

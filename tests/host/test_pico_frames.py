"""LED frames by PIO and DMA on the emulated Pico's real rp2 module (a bare MicroPython 1.28 RPI_PICO):
the firmware's hand-assembled WS2812 program equals what rp2.asm_pio makes of the pico-examples
source, and a frame sent by DMA into that state machine reaches the chain byte for byte as the same
frame sent by machine.bitstream does, the CPU back long before the frame has gone out. The harness
decodes bitstream from the pin and PIO from the words its FIFO is given (host_tools/pico_emu/board.mjs).

Skipped, saying so, without ../shared/pico's UF2 and bootrom."""

import os

import pytest
from ludus_host.emulator import harness as pico
from ludus_host.paths import ROOT
from ludus_host.virtual.board import load_board

_PROBE = r"""
import rp2, machine, time
@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=8)
def ws2812():
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()
mine = program(rp2.PIO.OUT_LOW)
print("program", list(ws2812[0]) == list(mine[0]) and ws2812[1:] == mine[1:])
frame = bytearray((i * 37) & 255 for i in range(3 * 127))
pin = machine.Pin(15, machine.Pin.OUT)
a = time.ticks_us()
machine.bitstream(pin, 0, (400, 850, 800, 450), frame)
print("bitstream_us", time.ticks_diff(time.ticks_us(), a))
time.sleep_ms(5)
sm = rp2.StateMachine(4, mine, freq=FREQ, sideset_base=machine.Pin(15))
sm.active(1)
frames = DmaFrames(sm, rp2.DMA(), dreq(4))
a = time.ticks_us()
frames(frame)
print("dma_us", time.ticks_diff(time.ticks_us(), a))
a = time.ticks_us()
frames.wait()
print("wait_us", time.ticks_diff(time.ticks_us(), a))
time.sleep_ms(5)
"""


@pytest.fixture(scope="module")
def harness():
    try:
        pico.assets()
    except pico.PicoError as exc:
        pytest.skip(str(exc))
    pico.node()


def test_a_frame_by_pio_and_dma_equals_the_same_frame_by_bitstream(harness):
    with open(os.path.join(ROOT, "firmware", "ludus", "hw", "ws2812.py"), encoding="utf-8") as f:
        module = f.read().replace("from ludus.runtime import const", "from micropython import const")
    with pico.EmulatedPico(load_board("checkers")) as emu:
        emu.run(1500)  # (MicroPython boots in about 0.1 s)
        out, err = emu.exec(module + _PROBE, timeout_ms=60000)
        assert not err, err
        emu.run(50)
        said = dict(line.split(" ", 1) for line in out.strip().splitlines())
        frames = [grb for _ms, grb in emu.frames]
        words = emu.stats()["pio_words"]
    assert said["program"] == "True", out
    want = bytes((i * 37) & 255 for i in range(3 * 127)).hex()
    assert frames == [want, want], frames  # the bitstream one, then the DMA one, equal to the bytes
    assert words == 3 * 127  # (one FIFO write a byte)
    # bitstream holds the CPU for the whole frame (30 us an LED); the DMA's start takes a sliver of it,
    # and a wait right after it lasts about the frame's time on the wire
    bitstream, dma, wait = (int(said[k]) for k in ("bitstream_us", "dma_us", "wait_us"))
    assert 127 * 30 <= bitstream < 127 * 30 + 500, out
    assert dma < bitstream // 10, out
    assert 127 * 30 * 0.8 <= wait <= 127 * 30 + 500, out

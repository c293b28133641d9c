"""WS2812 frames sent by a PIO state machine that the DMA feeds: the CPU starts the transfer and goes
on, interrupts on, while the chain's bits go out (docs/drivers.md, "NeoPixels").

    sm = rp2.StateMachine(4, program(rp2.PIO.OUT_LOW), freq=FREQ, sideset_base=Pin(15))
    sm.active(1)
    pixels = Pixels(None, 127, send=DmaFrames(sm, rp2.DMA(), dreq(4)))

Loaded only on a Pico (ludus.hw.pico builds it); it imports no hardware module itself, so the fakes
(ludus.hw.fake.FakeStateMachine, FakeDma) stand in for the state machine and the channel."""

import time
from array import array

from ludus.runtime import const

# The WS2812 program of pico-examples (ws2812.pio), as rp2.asm_pio assembles it with one side-set pin:
#     bitloop: out x, 1        side 0 [2]   ; the bit in x; the line low 3 cycles (the end of the last)
#              jmp !x do_zero  side 1 [1]   ; high 2 cycles
#              jmp bitloop     side 1 [4]   ; a 1: high 5 more
#     do_zero: nop             side 0 [4]   ; a 0: low 5
# 10 cycles a bit: at 8 MHz, 800 kHz; a 1 is 875 ns high and 375 low, a 0 250 ns high and 1000 low.
PROGRAM_WORDS = (0x6221, 0x1123, 0x1400, 0xA442)
FREQ = const(8_000_000)
CYCLES_PER_BIT = const(10)
_EXECCTRL = const(3 << 12)  # wrap after instruction 3 back to 0
# autopull every 8 bits, shifted out high bit first: each byte the DMA writes is one GRB byte (a byte
# written to a FIFO is repeated in all four lanes of the word, so its high 8 bits are that byte)
_SHIFTCTRL = const(8 << 25 | 1 << 17)
_WAIT_US = const(20000)  # the most a frame can take (127 LEDs: 3.8 ms); past it the channel is stopped
_TICKS_MASK = const(0x3FFFFFFF)  # MicroPython's ticks wrap at 2**30


def program(out_low):
    """The program in the form rp2.asm_pio gives (rp2.py's prog list), its side-set pin starting at
    out_low (rp2.PIO.OUT_LOW)."""
    return [array("H", PROGRAM_WORDS), -1, -1, -1, _EXECCTRL, _SHIFTCTRL, None, None, out_low]


def dreq(sm_id):
    """The DMA request line of state machine sm_id's TX FIFO (RP2040 datasheet 2.5.3.1: PIO0's TX0..3
    are 0..3, PIO1's 8..11)."""
    return (sm_id >> 2) * 8 + (sm_id & 3)


class DmaFrames:
    """send(buf) for ludus.hw.pixels.Pixels: the buffer's bytes, one after another, into the state
    machine's TX FIFO by a DMA channel paced by the FIFO's request line. The call returns at once; the
    channel reads the buffer for the frame's length (30 us an LED), so wait() is called before the
    buffer is written again (Pixels does). ticks_us: the clock wait() gives up by (time.ticks_us on
    the board)."""

    def __init__(self, sm, dma, request, ticks_us=None):
        if ticks_us is None:
            ticks_us = time.ticks_us
        self.sm = sm
        self.dma = dma
        self.ticks_us = ticks_us
        self.ctrl = dma.pack_ctrl(size=0, inc_write=False, treq_sel=request)

    def __call__(self, buf):
        self.dma.config(read=buf, write=self.sm, count=len(buf), ctrl=self.ctrl, trigger=True)

    def wait(self):
        """Return once the last frame's bytes are all in the FIFO (at once, unless frames come closer
        together than a frame lasts)."""
        dma = self.dma
        if not dma.active():
            return
        clock = self.ticks_us
        start = clock()
        while dma.active():
            if (clock() - start) & _TICKS_MASK > _WAIT_US:
                dma.active(0)  # (a channel that never ends: the next frame starts it afresh)
                return

"""LED frames by PIO and DMA (ludus.hw.ws2812) against a fake state machine and channel: the program's
bit timing read from its words, the DMA request lines, a frame handed to the channel whole and
gamma-corrected, the buffer left alone until the channel has read it, a channel that never ends
stopped, no allocation. Runs on both runtimes; tests/host/test_pico_emulated.py runs it on the
emulated Pico's real PIO and DMA."""

import support
from ludus.hw.fake import FakeDma, FakeStateMachine, us_clock
from ludus.hw.pixels import Pixels, gamma_table
from ludus.hw.ws2812 import CYCLES_PER_BIT, FREQ, PROGRAM_WORDS, DmaFrames, dreq, program


def _cycles(word):
    # one side-set bit, no enable bit: the side-set in bit 12, the delay in bits 8..11
    return 1 + ((word >> 8) & 0xF), (word >> 12) & 1


def test_the_program_makes_the_ws2812_timing():
    out_x, jmp_not_x, jmp_back, nop = PROGRAM_WORDS
    assert out_x >> 13 == 0b011 and jmp_not_x >> 13 == 0 and jmp_back >> 13 == 0 and nop >> 13 == 0b101
    assert (jmp_not_x >> 5) & 7 == 0b001 and jmp_not_x & 31 == 3  # jmp !x to the nop
    assert (jmp_back >> 5) & 7 == 0 and jmp_back & 31 == 0  # jmp always, back to the start
    # the cycles each path takes, and the line high (side 1) during which
    one = [_cycles(w) for w in (out_x, jmp_not_x, jmp_back)]
    zero = [_cycles(w) for w in (out_x, jmp_not_x, nop)]
    assert sum(c for c, _ in one) == CYCLES_PER_BIT == sum(c for c, _ in zero)
    ns = 1_000_000_000 // FREQ
    high_one = sum(c for c, side in one if side) * ns
    high_zero = sum(c for c, side in zero if side) * ns
    # WS2812B: a 1 high 800 ns, a 0 high 400 ns, each +/-150 ns; 1.25 us a bit
    assert abs(high_one - 800) <= 150 and abs(high_zero - 400) <= 150, (high_one, high_zero)
    assert CYCLES_PER_BIT * ns == 1250
    prog = program(7)
    assert list(prog[0]) == list(PROGRAM_WORDS) and prog[-1] == 7
    assert (prog[4] >> 12) & 31 == 3 and (prog[4] >> 7) & 31 == 0  # wraps from 3 back to 0
    assert (prog[5] >> 25) & 31 == 8 and (prog[5] >> 17) & 1  # autopull, 8 bits a byte


def test_each_state_machine_has_its_own_dma_request_line():
    assert [dreq(sm) for sm in range(8)] == [0, 1, 2, 3, 8, 9, 10, 11]


def test_a_frame_goes_to_the_state_machine_gamma_corrected():
    sm, dma = FakeStateMachine(9), FakeDma(busy=0)
    frames = DmaFrames(sm, dma, dreq(4), us_clock())
    assert frames.ctrl == {"size": 0, "inc_write": False, "treq_sel": 8}  # bytes, into one FIFO, paced
    pixels = Pixels(None, 3, send=frames)
    pixels.write(bytes([0, 128, 255, 10, 20, 30, 255, 255, 255]))
    t = gamma_table(2.2)
    assert bytes(sm.got) == bytes(t[v] for v in (0, 128, 255, 10, 20, 30, 255, 255, 255))
    assert dma.started == 1 and sm.words == 9 and dma.ctrl is frames.ctrl


def test_the_next_frame_waits_for_the_channel_to_read_the_last():
    sm, dma = FakeStateMachine(6), FakeDma(busy=3)
    pixels = Pixels(None, 2, gamma=1.0, send=DmaFrames(sm, dma, dreq(0), us_clock()))
    pixels.write(bytes([1, 2, 3, 4, 5, 6]))
    assert sm.words == 0  # still going out when write returns: the CPU is free meanwhile
    pixels.write(bytes([9, 9, 9, 9, 9, 9]))
    # the first frame landed whole before the buffer was written again
    assert sm.words == 6 and bytes(sm.got) == bytes([1, 2, 3, 4, 5, 6])
    frames = pixels.send
    frames.wait()
    assert sm.words == 12 and bytes(sm.got) == bytes([9] * 6) and dma.stopped == 0


def test_a_channel_that_never_ends_is_stopped_and_the_next_frame_goes():
    sm, dma = FakeStateMachine(3), FakeDma(busy=1 << 30)
    pixels = Pixels(None, 1, gamma=1.0, send=DmaFrames(sm, dma, dreq(5), us_clock()))
    pixels.write(bytes([1, 2, 3]))
    clock = us_clock()
    start = clock()
    pixels.write(bytes([4, 5, 6]))
    waited = (clock() - start) & 0x3FFFFFFF
    assert dma.stopped == 1 and dma.started == 2
    assert waited >= 20000  # (the wait gives up after 20 ms; a hang would never get here)


def test_write_by_dma_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return  # heap_lock exists only on MicroPython
    sm, dma = FakeStateMachine(3 * 127), FakeDma(busy=2)
    pixels = Pixels(None, 127, send=DmaFrames(sm, dma, dreq(4), us_clock()))
    frame = bytearray(range(256)) + bytearray(125)
    pixels.write(frame)
    support.locked(pixels.write, frame)
    assert dma.started == 2 and sm.words == 3 * 127

"""The 74HC165 scanner against a fake chain: every channel read by SPI and by bit-banged pins, chip and
bit order, active-low switches, a partial last chip, one latch per read, no allocation. Runs on both
runtimes."""

import support
from ludus.hw.fake import FakeShiftChain
from ludus.hw.shift import ShiftScanner


def _chain_with(channels, magnets):
    chain = FakeShiftChain((channels + 7) // 8)
    for c in magnets:
        chain.lines[c] = 0  # a DRV5032 pulls its line low when it senses a magnet
    return chain


def test_every_channel_by_spi_and_by_pins():
    magnets = (0, 7, 8, 13, 63, 64, 100, 120)
    for mode in ("spi", "pins"):
        chain = _chain_with(121, magnets)
        if mode == "spi":
            scanner = ShiftScanner(121, chain.load, spi=chain.spi)
        else:
            scanner = ShiftScanner(121, chain.load, clock=chain.clock, data=chain.data)
        levels = bytearray(121)
        scanner.read(levels)
        assert [c for c in range(121) if levels[c]] == list(magnets), mode
        assert chain.latches == 1
        if mode == "pins":
            assert chain.edges == 17 * 8  # 121 channels: 16 chips, and the byte past the chain
        assert not scanner.broken


def test_a_broken_data_line_is_told_from_an_empty_board():
    # the last chip's serial input is grounded: the byte past the chain reads 0. A cut data line reads
    # its pull-up's 1s everywhere: "no magnet anywhere" on its own, but the byte past the chain says no
    for far_first in (False, True):
        chain = _chain_with(121, ())
        scanner = ShiftScanner(121, chain.load, spi=chain.spi, far_first=far_first)
        levels = bytearray(121)
        scanner.read(levels)
        assert not scanner.broken and sum(levels) == 0
        chain.broken = True
        scanner.read(levels)
        assert scanner.broken and sum(levels) == 0  # (the same levels: only the chain check tells)
        chain.broken = False
        scanner.read(levels)
        assert not scanner.broken


def test_a_magnet_moved_is_read_on_the_next_pass():
    chain = _chain_with(24, (5,))
    scanner = ShiftScanner(24, chain.load, spi=chain.spi)
    levels = bytearray(24)
    scanner.read(levels)
    chain.lines[5] = 1
    chain.lines[17] = 0
    scanner.read(levels)
    assert [c for c in range(24) if levels[c]] == [17]


def test_wiring_options():
    # a board wired with the inputs in A-first order, chips counted from the far end, active-high sensors
    chain = FakeShiftChain(2)
    for i in range(16):
        chain.lines[i] = 0
    chain.lines[3] = 1  # chip 0 input D high
    scanner = ShiftScanner(16, chain.load, spi=chain.spi, lsb_first=True, far_first=True, active_low=False)
    levels = bytearray(16)
    scanner.read(levels)
    # chip 0's byte is read as the far chip (channels 8..15), its bits reversed: D (3) becomes 8 + 4
    assert [c for c in range(16) if levels[c]] == [12]


def test_a_scanner_needs_a_bus_or_pins():
    chain = FakeShiftChain(1)
    exc = support.raises(ValueError, ShiftScanner, 8, chain.load)
    assert "SPI bus or clock and data pins" in support.message_of(exc)


def test_read_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return  # heap_lock exists only on MicroPython
    chain = _chain_with(121, (3, 99))
    for scanner in (
        ShiftScanner(121, chain.load, spi=chain.spi),
        ShiftScanner(121, chain.load, clock=chain.clock, data=chain.data),
    ):
        levels = bytearray(121)
        scanner.read(levels)
        support.locked(scanner.read, levels)
        assert levels[3] == 1 and levels[99] == 1


def test_the_native_unpacking_reads_what_the_bytecode_loop_reads():
    # ludus.hw.native.unpack (viper, where the port runs native code) against the bytecode loop, for
    # every wiring option and a partial last chip; on CPython both are the bytecode loop
    import ludus.hw.shift as shift

    for lsb_first in (False, True):
        for far_first in (False, True):
            for active_low in (False, True):
                chain = _chain_with(21, (0, 3, 9, 15, 16, 20))
                scanner = ShiftScanner(
                    21,
                    chain.load,
                    spi=chain.spi,
                    lsb_first=lsb_first,
                    far_first=far_first,
                    active_low=active_low,
                )
                fast = bytearray(21)
                scanner.read(fast)
                slow = bytearray(21)
                scanner._unpack_py(scanner.buf, slow)
                assert fast == slow, (lsb_first, far_first, active_low)
                assert 0 < sum(fast) < 21
    assert (shift._unpack is not None) == shift.NATIVE

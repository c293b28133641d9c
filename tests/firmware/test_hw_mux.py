"""The analog multiplexer scanner against fake muxes and ADCs: every channel, the select sequence, the
settle wait (a reading taken at once carries the previous channel), pins as select lines, bad wiring
named, no allocation. Runs on both runtimes."""

from array import array

import support
from ludus.hw.fake import FakeMuxBank, FakePin
from ludus.hw.mux import MuxScanner, PinSelect


def _bank(channels):
    bank = FakeMuxBank((channels + 15) // 16)
    for c in range(len(bank.inputs)):
        bank.inputs[c] = 1000 + 7 * c
    return bank


def test_every_channel_is_read_after_its_select_settles():
    bank = _bank(121)
    scanner = MuxScanner(121, bank.select, bank.adcs, settle_us=5, sleep_us=bank.sleep_us)
    levels = array("H", bytes(2 * 121))
    scanner.read(levels)
    assert list(levels) == [1000 + 7 * c for c in range(121)]
    assert bank.selects == 16  # one select per input, every mux read at each


def test_without_the_settle_wait_readings_carry_the_previous_channel():
    bank = _bank(32)
    scanner = MuxScanner(32, bank.select, bank.adcs, settle_us=0, sleep_us=bank.sleep_us)
    levels = array("H", bytes(64))
    scanner.read(levels)
    assert levels[5] == bank.inputs[4]  # what the fake's sample capacitor models: why settle_us exists


def test_pin_select_drives_s0_to_s3():
    pins = [FakePin(0) for _ in range(4)]
    select = PinSelect(pins)
    select.set(0b1010)
    assert [p.value() for p in pins] == [0, 1, 0, 1]
    select.set(0b0111)
    assert [p.value() for p in pins] == [1, 1, 1, 0]


def test_too_few_multiplexers_are_named():
    bank = _bank(32)
    exc = support.raises(ValueError, MuxScanner, 40, bank.select, bank.adcs)
    assert "40 channels need 3 multiplexers, not 2" in support.message_of(exc)


def test_read_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return  # heap_lock exists only on MicroPython
    bank = _bank(121)
    scanner = MuxScanner(121, bank.select, bank.adcs, settle_us=5, sleep_us=bank.sleep_us)
    levels = array("H", bytes(2 * 121))
    scanner.read(levels)
    support.locked(scanner.read, levels)
    assert levels[120] == 1000 + 7 * 120


class _Sio:
    """The RP2040's SIO GPIO_OUT register as SioSelect drives it: XOR writes flip output bits."""

    def __init__(self, out=0):
        self.out = out
        self.writes = 0

    def __getitem__(self, address):
        assert address == 0xD0000010  # GPIO_OUT
        return self.out

    def __setitem__(self, address, value):
        assert address == 0xD000001C  # GPIO_OUT_XOR
        self.out ^= value
        self.writes += 1


def test_sio_select_sets_all_four_lines_in_one_register_write():
    from ludus.hw.mux import SioSelect

    sio = _Sio()
    select = SioSelect(10, sio)  # S0..S3 on GPIO 10..13
    for n in (0, 5, 15, 1, 8, 7, 0, 3):
        before = sio.writes
        select.set(n)
        assert sio.writes == before + 1
        assert sio.out == n << 10  # exactly these lines high, the other GPIOs untouched
    # through a scanner: every channel read with its own select value
    from ludus.hw.fake import FakeMuxBank
    from ludus.hw.mux import MuxScanner

    bank = FakeMuxBank(2)
    for c in range(32):
        bank.inputs[c] = 100 + c

    class Both:  # the register and the fake bank, driven together
        def set(self, n):
            select.set(n)
            bank.select.set(n)

    scanner = MuxScanner(32, Both(), bank.adcs, settle_us=5, sleep_us=bank.sleep_us)
    levels = array("H", bytes(64))
    scanner.read(levels)
    assert list(levels) == [100 + c for c in range(32)] and sio.out == 15 << 10


def test_sio_select_starts_from_the_lines_as_they_are():
    # pins left high by what used them before (here S1 and S3, and GPIO 2 of something else): the first
    # XOR write is relative to them, so the lines read what was asked at once
    from ludus.hw.mux import SioSelect

    sio = _Sio(out=(0b1010 << 10) | 1 << 2)
    select = SioSelect(10, sio)
    for n in (0, 15, 6):
        select.set(n)
        assert sio.out == (n << 10) | 1 << 2

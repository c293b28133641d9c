"""The native (viper) kernels are proved active where the runtime can run them, and absent where it
cannot: each module with a kernel says whether it loaded (NATIVE). On MicroPython's unix port (x64
native code) every kernel must be the one in use, so the comparison tests elsewhere compare the viper
code with the bytecode, not the bytecode with itself; on CPython none can load."""

import sys


def _modules():
    import ludus.checkers.moves
    import ludus.hw.pixels
    import ludus.hw.shift
    import ludus.ludo.gen
    import ludus.ludo.turn
    import ludus.record.journal
    import ludus.referee.infer
    import ludus.sensing.calibration
    from ludus.light import scene

    return {
        "ludus.checkers.moves": ludus.checkers.moves,
        "ludus.hw.pixels": ludus.hw.pixels,
        "ludus.hw.shift": ludus.hw.shift,
        "ludus.ludo.gen": ludus.ludo.gen,
        "ludus.ludo.turn": ludus.ludo.turn,
        "ludus.record.journal": ludus.record.journal,
        "ludus.referee.infer": ludus.referee.infer,
        "ludus.sensing.calibration": ludus.sensing.calibration,
        "ludus.light.scene": scene,
    }


def test_every_kernel_is_active_exactly_where_native_code_runs():
    from ludus.runtime import MICROPYTHON, NATIVE

    assert MICROPYTHON == (sys.implementation.name == "micropython")
    if MICROPYTHON:
        assert NATIVE, "this MicroPython port cannot load native code: the kernels cannot be tested"
    modules = _modules()
    states = {name: module.NATIVE for name, module in modules.items()}
    assert states == {name: NATIVE for name in modules}, states


def test_the_kernels_are_the_functions_in_use():
    modules = _modules()
    if not modules["ludus.checkers.moves"].NATIVE:
        moves = modules["ludus.checkers.moves"]
        assert moves.fast_codes is None and moves.has_code is moves.python_has_code
        return
    import ludus.checkers.native
    import ludus.ludo.native
    import ludus.record.native
    import ludus.referee.native

    assert modules["ludus.record.journal"]._native_crc16 is ludus.record.native.crc16
    assert modules["ludus.checkers.moves"].fast_codes is ludus.checkers.native.generate_codes
    assert modules["ludus.ludo.gen"]._gen is ludus.ludo.native.gen
    assert modules["ludus.ludo.turn"]._apply is ludus.ludo.native.apply
    assert modules["ludus.referee.infer"].sense_changes is ludus.referee.native.sense_changes
    # the kernels call back into the bytecode modules that loaded them
    assert ludus.ludo.native.GEN_MODULE is modules["ludus.ludo.gen"]
    assert ludus.ludo.native.TURN_MODULE is modules["ludus.ludo.turn"]
    assert ludus.checkers.native.MOVES_MODULE is modules["ludus.checkers.moves"]


def test_a_port_without_native_code_is_told_apart_from_one_with_it():
    # ludus.runtime decides from the .mpy architecture the port can load (bits 10 and up of
    # sys.implementation._mpy): 0 means bytecode only
    from ludus import runtime

    if not runtime.MICROPYTHON:
        assert runtime.NATIVE is False
        return
    arch = sys.implementation._mpy >> 10
    assert arch != 0 and runtime.NATIVE


def test_the_journal_s_checksum_is_the_same_in_viper_and_bytecode():
    # random buffers of every length up to 300 (bytes, bytearrays, memoryviews of part of one), from
    # the standard start and from another's end, and the standard check value of CRC-16/CCITT-FALSE
    import ludus.record.journal as journal
    from ludus.bots.rng import Lcg

    assert journal.crc16(b"123456789") == 0x29B1
    rng = Lcg(5)
    for n in range(0, 300, 7):
        data = bytearray(rng.randrange(256) for _ in range(n + 4))
        view = memoryview(data)[2 : n + 2]
        for buf in (bytes(view), view):
            assert journal.crc16(buf) == journal._crc16_py(buf, 0xFFFF), n
            assert journal.crc16(buf, 0x1D0F) == journal._crc16_py(buf, 0x1D0F), n

"""The NeoPixel driver against a fake strip: gamma correction, a referee frame sent as shown, a frame of
the wrong size named, no allocation. Runs on both runtimes."""

import support
from ludus.hw.fake import FakeStrip
from ludus.hw.pixels import Pixels, gamma_table


def test_gamma_table_keeps_the_ends_and_rises():
    t = gamma_table(2.2)
    assert len(t) == 256 and t[0] == 0 and t[255] == 255
    assert all(t[i] <= t[i + 1] for i in range(255))
    assert t[128] == 56  # half the level is about a fifth of the light
    assert gamma_table(1.0) == bytes(range(256))


def test_a_frame_is_sent_gamma_corrected():
    strip = FakeStrip(3)
    pixels = Pixels(None, 3, send=strip.send)
    pixels.write(bytes([0, 128, 255, 10, 20, 30, 255, 255, 255]))
    t = gamma_table(2.2)
    assert bytes(strip.last) == bytes(t[v] for v in (0, 128, 255, 10, 20, 30, 255, 255, 255))
    assert strip.frames == 1


def test_the_referees_frame_goes_out():
    from referee_rig import Rig

    rig = Rig("checkers", "checkers")
    rig.settle()
    frame = bytearray(3 * rig.board.led_count)
    strip = FakeStrip(rig.board.led_count)
    pixels = Pixels(None, rig.board.led_count, gamma=1.0, send=strip.send)
    rig.referee.render(rig.now, frame)
    pixels.write(frame)
    assert strip.last == frame


def test_a_frame_of_the_wrong_size_is_named():
    pixels = Pixels(None, 4, send=FakeStrip(4).send)
    exc = support.raises(ValueError, pixels.write, bytes(9))
    assert "a frame for 4 LEDs is 12 bytes, not 9" in support.message_of(exc)


def test_write_allocates_nothing():
    if not support.IS_MICROPYTHON:
        return  # heap_lock exists only on MicroPython
    strip = FakeStrip(127)
    pixels = Pixels(None, 127, send=strip.send)
    frame = bytearray(range(256)) + bytearray(125)
    pixels.write(frame)
    support.locked(pixels.write, frame)
    assert strip.frames == 2


def test_every_level_goes_through_the_gamma_table():
    # (the viper mapping of ludus.hw.native where the port runs native code, the bytecode loop elsewhere)
    import ludus.hw.pixels as pixels_module

    strip = FakeStrip(86)
    pixels = Pixels(None, 86, gamma=1.8, send=strip.send)
    frame = bytes(range(256)) + b"\x07\xfe"
    pixels.write(frame)
    t = gamma_table(1.8)
    assert bytes(strip.last) == bytes(t[v] for v in frame)
    assert (pixels_module._translate is not None) == pixels_module.NATIVE

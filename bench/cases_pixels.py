"""The LED frame's cases, on a Pico only (they need rp2; elsewhere this area has no cases): what
Pixels.write costs the CPU for the largest chain (127 LEDs), sent by machine.bitstream (interrupts
off while the bits go out) and by PIO and DMA (ludus.hw.ws2812: the CPU goes on). Each call writes a
frame and sleeps 5 ms, longer than the frame lasts on the wire, so no call waits for the last frame;
pixels.sleep_5ms, the sleep alone, is the case `ludus bench --pico` subtracts. On a real Pico the
chain on GPIO 15 shows the frames."""

try:
    import machine
    import rp2  # noqa: F401  (only to know this is a Pico)
except ImportError:
    machine = None

LED_PIN = 15
LEDS = 127


def _frame():
    return bytearray((i * 37) & 255 for i in range(3 * LEDS))


def _sending(pixels):
    import time

    frame = _frame()

    def work():
        pixels.write(frame)
        time.sleep_ms(5)

    return work


def _bitstream():
    from ludus.hw.pixels import Pixels

    return _sending(Pixels(machine.Pin(LED_PIN, machine.Pin.OUT), LEDS))


def _dma():
    from ludus.hw.pico_boot import led_frames
    from ludus.hw.pixels import Pixels

    frames = led_frames(LED_PIN)
    if frames is None:
        raise OSError("no PIO state machine or DMA channel for the LED chain")
    return _sending(Pixels(None, LEDS, send=frames))


def _sleep():
    import time

    def work():
        time.sleep_ms(5)

    return work


CASES = (
    ()
    if machine is None
    else (
        ("pixels.frame_bitstream", _bitstream, 10),
        ("pixels.frame_dma", _dma, 10),
        ("pixels.sleep_5ms", _sleep, 10),
    )
)

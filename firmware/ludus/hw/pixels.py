"""NeoPixels (WS2812B, SK6812): the referee's LED frame out on one data pin, gamma-corrected.

    pixels = Pixels(Pin(15, Pin.OUT), 127)      # sends with machine.bitstream at 800 kHz
    pixels = Pixels(None, 127, send=frames)     # or by PIO and DMA (ludus.hw.ws2812.DmaFrames)
    referee.render(now, frame)                  # GRB bytes, brightness and the current budget applied
    pixels.write(frame)

The light scene works in linear levels (its current estimate assumes the LED's draw follows the byte);
the eye does not, so write() maps every byte through a gamma table first (2.2 by default: level 128 is
shown as 56). The estimate then over-states the draw, on the safe side of the budget.

machine.bitstream holds interrupts off for the whole frame, 30 us per LED: 3.8 ms for 127 LEDs. On the
Pico the frames go by PIO and DMA instead (ludus.hw.pico), and bitstream is the fallback where those
cannot be had. A sender with a wait() (DmaFrames) is still reading the last buffer after send returns:
write() waits for it before writing the buffer again."""

from ludus.runtime import NATIVE

_translate = None
if NATIVE:
    from ludus.hw.native import translate as _translate  # type: ignore[assignment]

# WS2812B bit timing for machine.bitstream: high and low time of a 0 bit, then of a 1 bit, in ns
TIMING_WS2812 = (400, 850, 800, 450)


def gamma_table(gamma):
    """256 bytes: level -> level ** gamma, scaled to 0..255 (0 and 255 stay)."""
    return bytes(int((i / 255) ** gamma * 255 + 0.5) for i in range(256))


class Pixels:
    """pin: the data pin (a machine.Pin output); count: LEDs in the chain. send: how a buffer goes out
    (default: machine.bitstream with TIMING_WS2812); a fake takes its place off the board."""

    def __init__(self, pin, count, gamma=2.2, send=None):
        self.count = count
        self.buf = bytearray(3 * count)
        self.table = gamma_table(gamma)
        if send is None:
            import machine

            def send(buf):
                machine.bitstream(pin, 0, TIMING_WS2812, buf)

        self.send = send
        self.wait = getattr(send, "wait", None)

    def write(self, frame):
        """Show a frame: 3 bytes per LED in the chain's order (GRB for WS2812B). Allocates nothing."""
        buf = self.buf
        n = len(buf)
        if len(frame) != n:
            raise ValueError("a frame for %d LEDs is %d bytes, not %d" % (self.count, n, len(frame)))
        if self.wait is not None:
            self.wait()
        if _translate is not None:
            _translate(frame, buf, self.table)
        else:
            table = self.table
            i = 0
            while i < n:
                buf[i] = table[frame[i]]
                i += 1
        self.send(buf)

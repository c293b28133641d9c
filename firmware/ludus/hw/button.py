"""The die button, polled every tick: debounced, with short and long presses as events (in the manner of
Peter Hinch's micropython-async Pushbutton, but polled by the main loop instead of run as a task).

    button = Button(machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP))
    event = button.poll(time.ticks_ms())     # NO_PRESS, SHORT_PRESS or LONG_PRESS, for Referee.tick

A short press is reported when the button is let go before LONG_MS; a long press as soon as it has been
held LONG_MS (the player sees the board react while still holding it), and its release reports nothing.
A change counts only once the pin has read the same for DEBOUNCE_MS, so contact bounce and a noisy
line make no presses. poll() allocates nothing.

A press shorter than a stall of the loop (a flash erase holds the RP2040 45 ms or more, a collection up
to 25 ms) falls between two polls and polling alone never sees it: found on the emulated Pico, where a
60 ms tap right after a move was lost. A pin with irq() (machine.Pin) therefore latches the pressing
edge; a latched edge counts as a short press when the polls around it were more than GAP_MS apart and
neither saw the button down (bounce at ordinary tick spacing still makes no press). Likewise a press
that one poll saw down and the next saw up, too soon to debounce it, counts when the polls that saw the
button up before and after it were more than GAP_MS apart: found on the emulated Pico too, where a
60 ms press was seen once, 20 ms into it, and the next poll came 45 ms later, after the press."""

from ludus.runtime import const

# the referee's button events (ludus.referee.states; a test checks they agree)
NO_PRESS = const(0)
SHORT_PRESS = const(1)
LONG_PRESS = const(2)

DEBOUNCE_MS = const(20)
LONG_MS = const(800)  # ludus play's long press holds the button this long
GAP_MS = const(45)  # polls further apart than this: the loop stalled, and a latched edge is a press


class Button:
    """pin: anything with value() (a machine.Pin, ludus.hw.fake.FakePin). active_low: pressed reads 0
    (the usual wiring: the pin pulled up, the button to ground)."""

    def __init__(self, pin, active_low=True, debounce_ms=DEBOUNCE_MS, long_ms=LONG_MS):
        self.pin = pin
        self.active_low = active_low
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.down = False  # the debounced state
        self._raw = False  # the last reading, and since when it has read so
        self._raw_since = 0
        self._down_since = 0
        self._long_sent = False
        self._edge = False  # a pressing edge latched by the pin's interrupt since the last poll
        self._polled = None  # the last poll's time
        self._up_polled = None  # the time of the last poll that saw the button up, before it read down
        irq = getattr(pin, "irq", None)
        if irq is not None:  # (the handler, bound once here, allocates nothing when it runs)
            irq(self._latch, pin.IRQ_FALLING if active_low else pin.IRQ_RISING)

    def _latch(self, pin):
        self._edge = True

    def poll(self, now_ms):
        """The event of this tick: NO_PRESS, SHORT_PRESS or LONG_PRESS."""
        raw = (self.pin.value() == 0) == self.active_low
        edge = self._edge
        self._edge = False
        last = self._polled
        self._polled = now_ms
        if edge and not raw and not self._raw and not self.down and last is not None:
            if (now_ms - last) & 0x3FFFFFFF > GAP_MS:
                return SHORT_PRESS  # pressed and let go between two polls the loop held apart
        if raw != self._raw:
            self._raw = raw
            self._raw_since = now_ms
            if raw:
                self._up_polled = last
            elif not self.down and self._up_polled is not None:
                if (now_ms - self._up_polled) & 0x3FFFFFFF > GAP_MS:
                    return SHORT_PRESS  # seen down once between two polls the loop held apart
            return NO_PRESS
        # ticks wrap at 2**30 (time.ticks_ms): differences modulo that
        if raw != self.down and (now_ms - self._raw_since) & 0x3FFFFFFF >= self.debounce_ms:
            self.down = raw
            if raw:
                self._down_since = self._raw_since
                self._long_sent = False
            elif not self._long_sent:
                return SHORT_PRESS
            return NO_PRESS
        if self.down and not self._long_sent and (now_ms - self._down_since) & 0x3FFFFFFF >= self.long_ms:
            self._long_sent = True
            return LONG_PRESS
        return NO_PRESS

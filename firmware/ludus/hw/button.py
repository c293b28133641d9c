"""The die button, polled every tick: debounced, with short and long presses as events (in the manner of
Peter Hinch's micropython-async Pushbutton, but polled by the main loop instead of run as a task).

    button = Button(machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP))
    event = button.poll(time.ticks_ms())     # NO_PRESS, SHORT_PRESS or LONG_PRESS, for Referee.tick

A short press is reported when the button is let go before LONG_MS; a long press as soon as it has been
held LONG_MS (the player sees the board react while still holding it), and its release reports nothing.
A change counts only once the pin has read the same for DEBOUNCE_MS, so contact bounce and a noisy
line make no presses. The loop samples the pin between ticks too (sample(), every few ms), so a quick
tap is seen for as long as it lasts; an edge that was never seen held for the debounce time (a spike
on the line when the LEDs' current steps, or anything that came and went while the loop was held up
by a flash erase) makes no press. poll() and sample() allocate nothing."""

from ludus.runtime import const

# the referee's button events (ludus.referee.states; a test checks they agree)
NO_PRESS = const(0)
SHORT_PRESS = const(1)
LONG_PRESS = const(2)

DEBOUNCE_MS = const(20)
LONG_MS = const(800)  # ludus play's long press holds the button this long


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
        self._kept = NO_PRESS  # a press sample() completed, for the next poll()

    def sample(self, now_ms):
        """Read the pin between ticks: a press it completes is kept for the next poll()."""
        event = self._step(now_ms)
        if event != NO_PRESS:
            self._kept = event

    def poll(self, now_ms):
        """The event of this tick: NO_PRESS, SHORT_PRESS or LONG_PRESS."""
        event = self._step(now_ms)
        if event == NO_PRESS:
            event = self._kept
        self._kept = NO_PRESS
        return event

    def _step(self, now_ms):
        raw = (self.pin.value() == 0) == self.active_low
        if raw != self._raw:
            self._raw = raw
            self._raw_since = now_ms
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

"""The light scene: what each LED means right now, rendered to GRB bytes for NeoPixels with patterns
from the palette, a global brightness and a current budget that no frame exceeds.

The scene knows LED indices and meanings only, not games or boards: the referee maps places to cells to
LEDs (through the board definition) and says what each LED means. Typical use, once per situation::

    scene = LightScene(121)
    scene.set_die_leds(board.die_leds)          # 7 pips, see set_die_leds
    ...
    scene.clear()
    scene.mark(board_leds_of_destinations, palette.DESTINATION)
    scene.set(victim_led, palette.CAPTURE_VICTIM)
    scene.set(turn_led, palette.TURN, palette.ludo_colour(seat))
    scene.set_die(5)

and once per frame (any rate; patterns come from the clock, not from a frame count)::

    scene.render(time.ticks_ms(), pixels.buf)   # writes 3 * led_count GRB bytes, allocates nothing

Composition: every LED holds one meaning. ``set`` keeps the meaning with the higher priority
(``palette.MEANING_PRIORITY``; on a tie the later call wins), so the referee may mark in any order and
e.g. a capture blink wins over a destination glow. ``clear`` starts a new composition.

Current: each frame's estimated draw is ``sum(channel bytes) * ma_per_channel / 255`` plus
``idle_ma_per_led`` per LED; when that exceeds ``budget_ma`` every channel is scaled down by one factor
(integer maths), so colours keep their balance. See docs/lights.md for the default budget's arithmetic.
"""

from array import array

from ludus import palette
from ludus.errors import ConfigError

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


SUPPLY_MA = const(500)  # USB 2.0 port
PICO_MA = const(25)  # RP2040 + regulator, running, no peripherals
SENSOR_UA = const(10)  # per hall sensor: DRV5032-class micropower switch (~2 uA), rounded up
SENSOR_COUNT = const(121)  # the largest board (Chinese Checkers)
MARGIN_PCT = const(10)  # kept in reserve for the die button, inrush and estimation error


def led_budget_ma(
    supply_ma=SUPPLY_MA,
    pico_ma=PICO_MA,
    sensor_count=SENSOR_COUNT,
    sensor_ua=SENSOR_UA,
    margin_pct=MARGIN_PCT,
):
    """mA left for the LEDs (idle draw included) once the Pico, the sensors and a margin are paid.

    With the defaults: 500 - 25 - 121 * 0.010 (rounded up to 2) - 50 = 423 mA. Analog boards with
    DRV5055-class sensors (~6 mA each) must power only a group of sensors at a time; pass the number
    powered at once as sensor_count. Raises ConfigError when nothing is left."""
    sensors_ma = (sensor_count * sensor_ua + 999) // 1000
    left = supply_ma - pico_ma - sensors_ma - supply_ma * margin_pct // 100
    if left <= 0:
        raise ConfigError(
            "no current left for the LEDs: supply %d mA - Pico %d mA - %d sensors x %d uA - %d%% margin"
            % (supply_ma, pico_ma, sensor_count, sensor_ua, margin_pct)
        )
    return left


DEFAULT_BUDGET_MA = led_budget_ma()

# Die faces on a 7-LED die display, pips in this order:
#   0 top-left   1 top-right
#   2 mid-left   3 centre   4 mid-right
#   5 bottom-left 6 bottom-right
DIE_FACES = bytes((0, 0b0001000, 0b1000001, 0b1001001, 0b1100011, 0b1101011, 0b1110111))

_MAX_INKS = const(64)
_MEANINGS = const(18)  # palette.MEANING_COUNT (a test checks)
_COLOURS = const(7)  # palette.COLOUR_COUNT
_KEYS = const(126)  # _MEANINGS * _COLOURS
_PRIORITY = palette.MEANING_PRIORITY
_DIE_INK = const(1)  # reserved: the die display's colour this frame (no LED points at it)
_WAITING_SLOT_MS = const(1200)  # one waiting roll per WINK cycle, the dark gap between rolls


# ink() and put() (set() calls them as functions: a method is looked up in the instance dictionary
# first)


def _ink(self, meaning, colour=0):
    """The ink (a small int) of a meaning in a colour, for put(): checked as set() checks them."""
    # Few locals on purpose: a frame of more than 11 slots would be taken from the heap.
    if 0 <= meaning < _MEANINGS and 0 <= colour < _COLOURS:
        ink = self._ink_of[meaning * _COLOURS + colour]
        if ink or not meaning:
            return ink
    return self._new_ink(meaning, colour)  # or raises, naming the fault


def _put(self, led, ink):
    """set() with an ink from ink(), for composing many LEDs fast; led must be in range."""
    leds = self._led_ink
    old = leds[led]
    if old and _PRIORITY[self._ink_meaning[old]] > _PRIORITY[self._ink_meaning[ink]]:
        return False
    uses = self._ink_uses
    uses[old] -= 1
    uses[ink] += 1
    leds[led] = ink
    return True


class LightScene:
    """What every LED shows; see the module docstring.

    led_count: LEDs in the chain. budget_ma: the most the LEDs may draw (idle draw included).
    ma_per_channel: draw of one colour channel at 255 (WS2812B: about 20 mA). idle_ma_per_led: draw of a
    dark LED (WS2812B: about 1 mA). brightness: 0..255, scales every colour before the budget."""

    def __init__(
        self, led_count, budget_ma=DEFAULT_BUDGET_MA, ma_per_channel=20, idle_ma_per_led=1, brightness=255
    ):
        if led_count <= 0:
            raise ConfigError("led_count must be positive, not %r" % (led_count,))
        if ma_per_channel <= 0:
            raise ConfigError("ma_per_channel must be positive, not %r" % (ma_per_channel,))
        if idle_ma_per_led < 0:
            raise ConfigError("idle_ma_per_led must not be negative, not %r" % (idle_ma_per_led,))
        idle = led_count * idle_ma_per_led
        if budget_ma >= 16000:  # keeps the fixed-point scaling below 2**30
            raise ConfigError("current budget %d mA is not plausible for one USB-powered board" % budget_ma)
        if budget_ma <= idle:
            raise ConfigError(
                "current budget %d mA does not cover the idle draw of %d LEDs (%d mA)"
                % (budget_ma, led_count, idle)
            )
        self.led_count = led_count
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle
        self._allowed = (budget_ma - idle) * 255  # channel units x mA per channel
        self.brightness = 0
        self.set_brightness(brightness)
        # Each LED points at an "ink": one (meaning, colour) pair. A frame computes each ink's bytes
        # once, so the per-LED work is three byte copies.
        self._led_ink = bytearray(led_count)
        self._ink_meaning = bytearray(_MAX_INKS)
        self._ink_colour = bytearray(_MAX_INKS)
        self._ink_uses = array("H", [0] * _MAX_INKS)  # LEDs pointing at each ink
        self._frame_uses = array("H", [0] * _MAX_INKS)  # the same with the die display laid over
        self._ink_uses[0] = led_count  # every LED dark
        self._ink_spec = bytearray(4 * _MAX_INKS)  # r, g, b at full, pattern: what the kernels read
        self._ink_grb = bytearray(3 * _MAX_INKS)  # this frame's bytes
        self._ink_count = 2  # ink 0 is "dark", ink 1 the die's
        # The ink of each (meaning, colour as passed to set) pair, 0 when it has none yet: set() finds
        # its ink with one lookup and allocates nothing.
        self._ink_of = bytearray(_KEYS)
        self._dark = bytes(led_count)
        self._no_uses = array("H", bytes(2 * _MAX_INKS))
        self._frame_ink = bytearray(led_count)  # _led_ink with the die display laid over
        self._level = bytearray(palette.PATTERN_COUNT)
        self._die_leds = ()
        self._die_value = 0
        self._define_ink(_DIE_INK, palette.DIE_PIP, palette.WHITE)
        self._waiting = bytearray(8)
        self._waiting_count = 0
        self.last_current_ma = 0

    # ---- composing ------------------------------------------------------------------------------------

    def clear(self):
        """Forget every meaning and the die: the next frame is dark until marked again."""
        # Inks stay defined (with no LED using them) so the next composition finds them at once.
        self._led_ink[:] = self._dark  # a slice copy: C speed, no allocation
        _copy16(self._ink_uses, self._no_uses, self._ink_count)
        self._ink_uses[0] = self.led_count  # every LED dark
        self._die_value = 0
        self._waiting_count = 0

    def set(self, led, meaning, colour=0):
        """Give LED `led` a meaning (a palette constant). colour: a palette colour id, required for
        player-coloured meanings (TURN, FINISHED, WINNER, PLAYER) and refused for the others.
        Keeps the LED's current meaning if that has a higher priority; returns True if this one won.
        (So set(led, NONE) never darkens a marked LED: compose afresh after clear().)"""
        if not 0 <= led < self.led_count:
            raise ConfigError("LED %r out of range 0..%d" % (led, self.led_count - 1))
        return _put(self, led, _ink(self, meaning, colour))

    ink = _ink
    put = _put

    def mark(self, leds, meaning, colour=0):
        """set() for every LED index in leds."""
        i = 0
        n = len(leds)
        while i < n:  # while, not for: the iterator's slots would push the frame onto the heap
            self.set(leds[i], meaning, colour)
            i += 1

    def meaning_at(self, led):
        """The meaning LED `led` holds (palette.NONE when dark); the die display is not included."""
        return self._ink_meaning[self._led_ink[led]]

    def colour_at(self, led):
        """The colour id LED `led` is drawn in (0 when dark)."""
        return self._ink_colour[self._led_ink[led]]

    def set_die_leds(self, leds):
        """The LED indices of the die display. Seven LEDs are pips in DIE_FACES order (top-left,
        top-right, mid-left, centre, mid-right, bottom-left, bottom-right); any other number is a bar
        that lights one LED per pip."""
        for led in leds:
            if not 0 <= led < self.led_count:
                raise ConfigError("die LED %r out of range 0..%d" % (led, self.led_count - 1))
        self._die_leds = tuple(leds)

    def set_die(self, value, waiting=(), colour=palette.WHITE):
        """Show a die result (1..6) on the die display; 0 leaves the display to set() meanings.

        waiting: the rolls still to be used (Ludo with several waiting rolls). With two or more, the
        display shows each in turn for 1 s with a short dark gap (WAITING_ROLL) instead of `value`.
        While a value shows, it replaces whatever set() put on the die LEDs."""
        if not 0 <= value <= 6:
            raise ConfigError("die value %r out of range 0..6" % (value,))
        if len(waiting) > len(self._waiting):
            raise ConfigError("at most %d waiting rolls, not %d" % (len(self._waiting), len(waiting)))
        for i, roll in enumerate(waiting):
            if not 1 <= roll <= 6:
                raise ConfigError("waiting roll %r out of range 1..6" % (roll,))
            self._waiting[i] = roll
        if not 0 < colour < palette.COLOUR_COUNT:
            raise ConfigError("unknown colour id %r" % (colour,))
        self._waiting_count = len(waiting)
        self._die_value = value
        self._define_ink(_DIE_INK, palette.WAITING_ROLL if len(waiting) > 1 else palette.DIE_PIP, colour)

    def set_brightness(self, brightness):
        """Global brightness 0..255, applied to every colour before the current budget."""
        if not 0 <= brightness <= 255:
            raise ConfigError("brightness %r out of range 0..255" % (brightness,))
        self.brightness = brightness

    def _new_ink(self, meaning, colour):
        if not 0 <= meaning < palette.MEANING_COUNT:
            raise ConfigError("unknown meaning %r" % (meaning,))
        if meaning == palette.NONE:
            return 0
        fixed = palette.MEANING_COLOUR[meaning]
        if fixed == palette.PLAYER_COLOUR:
            if not 0 < colour < palette.COLOUR_COUNT:
                raise ConfigError("meaning %d needs a player's colour id, not %r" % (meaning, colour))
        elif colour and colour != fixed:
            raise ConfigError("meaning %d has its own colour; do not pass %r" % (meaning, colour))
        else:
            colour = fixed
        key = meaning * _COLOURS + (colour if fixed == palette.PLAYER_COLOUR else 0)
        ink = self._ink_of[key]
        if ink:
            return ink
        n = self._ink_count
        for i in range(2, n):  # reuse an ink nothing points at any more
            if self._ink_uses[i] == 0:
                self._ink_of[self._ink_meaning[i] * _COLOURS + self._ink_key_colour(i)] = 0
                ink = i
                break
        if not ink:
            if n == _MAX_INKS:
                raise ConfigError("more than %d meaning/colour pairs in one scene" % (_MAX_INKS - 2))
            ink = n
            self._ink_count = n + 1
        self._define_ink(ink, meaning, colour)
        self._ink_of[key] = ink
        return ink

    def _ink_key_colour(self, i):
        # the colour part of ink i's key: the player's colour, or 0 for a meaning with its own colour
        m = self._ink_meaning[i]
        return self._ink_colour[i] if palette.MEANING_COLOUR[m] == palette.PLAYER_COLOUR else 0

    def _define_ink(self, k, meaning, colour):
        self._ink_meaning[k] = meaning
        self._ink_colour[k] = colour
        spec = self._ink_spec
        j = 4 * k
        c = 3 * colour
        spec[j] = palette.COLOUR_RGB[c]
        spec[j + 1] = palette.COLOUR_RGB[c + 1]
        spec[j + 2] = palette.COLOUR_RGB[c + 2]
        spec[j + 3] = palette.MEANING_PATTERN[meaning]

    # ---- rendering ------------------------------------------------------------------------------------

    def render(self, now_ms, out):
        """Write the frame at time now_ms as GRB bytes into out (a bytearray of 3 * led_count, such as
        NeoPixel.buf). Allocates nothing. Returns the frame's estimated current in mA."""
        # Small steps with few locals: MicroPython takes a call frame with more than 11 slots from the
        # heap when it can, which would count as allocation.
        _levels(self._level, now_ms, self.brightness + 1)
        _paint(self._ink_grb, self._ink_spec, self._level, self._ink_count)
        self._frame_ink[:] = self._led_ink
        _copy16(self._frame_uses, self._ink_uses, self._ink_count)
        if self._die_leds:
            total = _die_face(self, now_ms)
            if total:
                _lay_die(self, total)
        total = _fit(self, _total(self._ink_grb, self._frame_uses, self._ink_count))
        _copy(out, self._ink_grb, self._frame_ink, self.led_count)
        ma = self.idle_ma + (total * self.ma_per_channel + 254) // 255
        self.last_current_ma = ma
        return ma


# Render's steps as module functions (a method is looked up in the scene's instance dictionary first).


def _fit(sc, total):
    # Scale the inks into the budget if needed; returns the frame's channel sum.
    need = total * sc.ma_per_channel
    if need <= sc._allowed:
        return total
    # One 16-bit fixed-point factor for every channel, rounded down so the estimate lands at or just
    # under the budget; the divisor is rounded up for the same reason.
    _scale(sc._ink_grb, 3 * sc._ink_count, (sc._allowed << 8) // ((need >> 8) + 1))
    return _total(sc._ink_grb, sc._frame_uses, sc._ink_count)


def _die_face(sc, now_ms):
    # The pips lit this frame; 0 when the die LEDs show their set() meanings.
    if sc._waiting_count > 1:
        value = sc._waiting[(now_ms // _WAITING_SLOT_MS) % sc._waiting_count]
    elif sc._die_value:
        value = sc._die_value
    else:
        return 0
    if len(sc._die_leds) == 7:
        return DIE_FACES[value]
    return (1 << value) - 1


def _lay_die(sc, face):
    # while, not for: a for loop's extra slots would push this frame onto the MicroPython heap
    leds = sc._die_leds
    uses = sc._frame_uses
    fi = sc._frame_ink
    i = 0
    while i < len(leds):
        uses[fi[leds[i]]] -= 1
        fi[leds[i]] = _DIE_INK if face >> i & 1 else 0
        uses[fi[leds[i]]] += 1
        i += 1


# ---- Kernels: the per-LED loops. Plain Python here (and on CPython); on MicroPython the same code is
# compiled as viper (native) at import, which is ~20x faster and keeps the .mpy portable.
# Colour scaling uses x * (level + 1) >> 8: exact at 0 and 255, no division.


def _levels_py(level, now_ms, bright):
    # Every pattern's level at now_ms (palette.pattern_level) times brightness + 1, over 256.
    for p in range(palette.PATTERN_COUNT):
        level[p] = palette.pattern_level(p, now_ms) * bright >> 8


def _paint_py(grb, spec, level, n):
    # Each ink's bytes (GRB) from its colour and its pattern's level this frame.
    for k in range(n):
        j = 4 * k
        lv = level[spec[j + 3]] + 1
        grb[3 * k] = spec[j + 1] * lv >> 8
        grb[3 * k + 1] = spec[j] * lv >> 8
        grb[3 * k + 2] = spec[j + 2] * lv >> 8


def _total_py(grb, uses, n):
    # The frame's channel sum: each ink's bytes times the LEDs showing it.
    total = 0
    for k in range(n):
        total += uses[k] * (grb[3 * k] + grb[3 * k + 1] + grb[3 * k + 2])
    return total


def _copy16_py(dst, src, n):
    # array('H') slice assignment would allocate on MicroPython.
    for i in range(n):
        dst[i] = src[i]


def _copy_py(out, grb, inks, n):
    # Every LED's ink bytes into out.
    for i in range(n):
        k = 3 * inks[i]
        j = 3 * i
        out[j] = grb[k]
        out[j + 1] = grb[k + 1]
        out[j + 2] = grb[k + 2]


def _scale_py(grb, n, factor):
    # The first n bytes times factor / 65536, rounded down.
    for j in range(n):
        grb[j] = grb[j] * factor >> 16


_levels = _levels_py
_paint = _paint_py
_total = _total_py
_copy16 = _copy16_py
_copy = _copy_py
_scale = _scale_py

# On MicroPython the same loops as native code (viper), compiled at import from ludus.scene_native's
# source, which is then dropped (its text would otherwise stay on the heap).
try:
    import sys

    if sys.implementation.name == "micropython":
        try:
            from ludus.scene_native import compile_kernels

            _levels, _paint, _total, _copy16, _copy, _scale = compile_kernels()
            del compile_kernels
        finally:
            sys.modules.pop("ludus.scene_native", None)
            import ludus

            if hasattr(ludus, "scene_native"):
                delattr(ludus, "scene_native")
except Exception:  # a MicroPython build without the native emitters
    pass

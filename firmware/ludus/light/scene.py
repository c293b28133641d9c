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

import ludus.light.palette as palette
from ludus.errors import ConfigError
from ludus.runtime import NATIVE as _NATIVE
from ludus.runtime import const, transient

_MAX_INKS = const(64)  # at most 39 are ever defined: 4 player meanings x 6 colours, 13 others, 2 reserved
_MEANINGS = const(18)  # palette.MEANING_COUNT (a test checks)
_COLOURS = const(7)  # palette.COLOUR_COUNT
_KEYS = const(126)  # _MEANINGS * _COLOURS
_DIE_INK = const(1)  # reserved: the die display's colour this frame (no LED points at it)
_WAITING_SLOT_MS = const(1200)  # one waiting roll per WINK cycle, the dark gap between rolls
# The ink buffer, all the frame loop (_render) reads and writes: the patterns' levels this frame at 0..7,
# each ink's GRB bytes this frame from _GRB (3 per ink), each ink's r, g, b at full and pattern from _SPEC
# (4 per ink), then single bytes and 16-bit numbers (low byte first).
_GRB = const(8)
_SPEC = const(200)  # _GRB + 3 * _MAX_INKS
_INKS = const(456)  # _SPEC + 4 * _MAX_INKS: inks defined
_BRIGHT = const(457)  # brightness 0..255
_FACE = const(458)  # the die's pips lit while nothing cycles (0: none); 255: the waiting rolls take turns
_DIE_VALUE = const(459)
_WAITING_COUNT = const(460)
_WAITING = const(461)  # 8 waiting rolls
_DIE_COUNT = const(469)  # the die display's LEDs
_FACES = const(470)  # DIE_FACES, 7 bytes
_LEDS = const(477)  # 16-bit: led_count
_BUDGET = const(479)  # 16-bit: budget_ma
_IDLE = const(481)  # 16-bit: the LEDs' idle draw, mA
_PER_CHANNEL = const(483)  # 16-bit: ma_per_channel
_BUF = const(488)
_MAX_DIE_LEDS = const(16)  # (a bar lights at most 6; the kernel shifts a word by the pip's index)


# ink(), put(), put_many() and clear() are methods of LightScene and module functions as well: set() and
# a composer on the hot path call them as functions (a method is looked up in the instance dictionary
# first).


def ink(scene, meaning, colour=0):
    """The ink (a small int) of a meaning in a colour, for put(): checked as set() checks them. An ink
    keeps its meaning and colour for the scene's life."""
    if 0 <= meaning < _MEANINGS and 0 <= colour < _COLOURS:
        k = scene._ink_of[meaning * _COLOURS + colour]
        if k or not meaning:
            return k
    return scene._new_ink(meaning, colour)  # or raises, naming the fault


def put(scene, led, ink):
    """set() with an ink from ink(), for composing many LEDs fast; led must be in range."""
    leds = scene._led_ink
    old = leds[led]
    if old:
        prio = scene._ink_prio
        if prio[old] > prio[ink]:
            return False
    leds[led] = ink
    return True


def put_many(scene, leds, n, ink):
    """put() of one ink on the first n LEDs of leds (all of them when there are fewer)."""
    if n > len(leds):
        n = len(leds)
    inks = scene._led_ink
    prio = scene._ink_prio  # (a dark LED's ink 0 has priority 0)
    p = prio[ink]
    while n > 0:  # (last to first)
        n -= 1
        if prio[inks[leds[n]]] <= p:
            inks[leds[n]] = ink


def clear(scene):
    """Forget every meaning and the die: the next frame is dark until marked again."""
    # Inks stay defined, so the next composition finds them at once.
    scene._led_ink[:] = scene._dark  # a slice copy: C speed, no allocation
    buf = scene._buf
    buf[_FACE] = 0
    buf[_DIE_VALUE] = 0
    buf[_WAITING_COUNT] = 0


class LightScene:
    """What every LED shows; see the module docstring.

    led_count: LEDs in the chain. budget_ma: the most the LEDs may draw (idle draw included); None for the
    USB figure of ludus.board.power (a board's own figure is BoardDefinition.led_budget_ma()).
    die_faces: the pips of each die value (board.die_faces; None: ludus.board.places.DIE_FACES).
    ma_per_channel: draw of one colour channel at 255 (WS2812B: about 20 mA). idle_ma_per_led: draw of a
    dark LED (WS2812B: about 1 mA). brightness: 0..255, scales every colour before the budget."""

    def __init__(
        self, led_count, budget_ma=None, ma_per_channel=20, idle_ma_per_led=1, brightness=255, die_faces=None
    ):
        if budget_ma is None:
            budget_ma = transient("ludus.board.power").DEFAULT_BUDGET_MA
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
        # The frame loop's integers: whole mA in 16 bits, and a frame's channel sum (at most 765 per LED)
        # times ma_per_channel below 2**30.
        if int(budget_ma) != budget_ma or int(ma_per_channel) != ma_per_channel or int(idle) != idle:
            raise ConfigError("the current budget and draws are whole mA")
        if led_count * ma_per_channel > 0xFFFF:
            raise ConfigError(
                "%d LEDs at %d mA per channel: beyond this scene's maths" % (led_count, ma_per_channel)
            )
        self.led_count = led_count
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle
        buf = self._buf = bytearray(_BUF)
        _put16(buf, _LEDS, led_count)
        _put16(buf, _BUDGET, budget_ma)
        _put16(buf, _IDLE, idle)
        _put16(buf, _PER_CHANNEL, ma_per_channel)
        if die_faces is None:
            die_faces = transient("ludus.board.places").DIE_FACES
        buf[_FACES : _FACES + 7] = die_faces  # (kept here, for the kernel)
        self.brightness = 0
        self.set_brightness(brightness)
        # Each LED points at an "ink": one (meaning, colour) pair. A frame computes each ink's bytes
        # once, then copies three bytes per lit LED. The LEDs' inks are padded with dark ones to whole
        # words: the copy skips four dark LEDs at a time.
        self._dark = bytes((led_count + 3) & ~3)
        self._led_ink = bytearray(self._dark)
        self._dark_frame = bytes(3 * led_count)
        self._ink_meaning = bytearray(_MAX_INKS)
        self._ink_colour = bytearray(_MAX_INKS)
        self._ink_prio = bytearray(_MAX_INKS)  # the meaning's priority, for put()
        buf[_INKS] = 2  # inks defined: ink 0 is "dark", ink 1 the die's
        # The ink of each (meaning, colour as passed to set) pair, 0 when it has none yet: set() finds
        # its ink with one lookup and allocates nothing. An ink, once defined, keeps its meaning and
        # colour (there are few enough for all of them), so a caller may keep inks it was given.
        self._ink_of = bytearray(_KEYS)
        self._die_leds = array("H")
        self._define_ink(_DIE_INK, palette.DIE_PIP, palette.WHITE)
        self.last_current_ma = 0
        # what a composer keeps with this scene (ludus.referee.lights: each seat's inks); not used here
        self.composer = None

    # ---- composing ------------------------------------------------------------------------------------

    clear = clear

    def set(self, led, meaning, colour=0):
        """Give LED `led` a meaning (a palette constant). colour: a palette colour id, required for
        player-coloured meanings (TURN, FINISHED, WINNER, PLAYER) and refused for the others.
        Keeps the LED's current meaning if that has a higher priority; returns True if this one won.
        (So set(led, NONE) never darkens a marked LED: compose afresh after clear().)"""
        if not 0 <= led < self.led_count:
            raise ConfigError("LED %r out of range 0..%d" % (led, self.led_count - 1))
        return put(self, led, ink(self, meaning, colour))

    ink = ink
    put = put
    put_many = put_many

    def mark(self, leds, meaning, colour=0):
        """set() for every LED index in leds."""
        i = 0
        n = len(leds)
        while i < n:
            self.set(leds[i], meaning, colour)
            i += 1

    def meaning_at(self, led):
        """The meaning LED `led` holds (palette.NONE when dark); the die display is not included."""
        return self._ink_meaning[self._led_ink[led]]

    def colour_at(self, led):
        """The colour id LED `led` is drawn in (0 when dark)."""
        return self._ink_colour[self._led_ink[led]]

    def die_shown(self):
        """What the die display shows: [] (nothing), [value], or the waiting rolls taking turns."""
        buf = self._buf
        n = buf[_WAITING_COUNT]
        if n > 1:
            return list(buf[_WAITING : _WAITING + n])
        return [buf[_DIE_VALUE]] if buf[_DIE_VALUE] else []

    def set_die_leds(self, leds):
        """The LED indices of the die display. Seven LEDs are pips in DIE_FACES order (top-left,
        top-right, mid-left, centre, mid-right, bottom-left, bottom-right); any other number is a bar
        that lights one LED per pip."""
        if len(leds) > _MAX_DIE_LEDS:
            raise ConfigError("at most %d die LEDs, not %d" % (_MAX_DIE_LEDS, len(leds)))
        for led in leds:
            if not 0 <= led < self.led_count:
                raise ConfigError("die LED %r out of range 0..%d" % (led, self.led_count - 1))
        self._die_leds = array("H", leds)
        buf = self._buf
        buf[_DIE_COUNT] = len(leds)
        buf[_FACE] = _face_of(buf, buf[_DIE_VALUE], buf[_WAITING_COUNT])

    def set_die(self, value, waiting=(), colour=palette.WHITE):
        """Show a die result (1..6) on the die display; 0 leaves the display to set() meanings.

        waiting: the rolls still to be used (Ludo with several waiting rolls). With two or more, the
        display shows each in turn for 1 s with a short dark gap (WAITING_ROLL) instead of `value`.
        While a value shows, it replaces whatever set() put on the die LEDs."""
        if not 0 <= value <= 6:
            raise ConfigError("die value %r out of range 0..6" % (value,))
        if not 0 < colour < _COLOURS:
            raise ConfigError("unknown colour id %r" % (colour,))
        _show_die(self, value, _set_waiting(self._buf, waiting), colour)

    def set_budget(self, budget_ma):
        """A new current budget for the frames from now on (the board's supply changed: ludus.app)."""
        if not self.idle_ma < budget_ma < 16000:
            raise ConfigError(
                "current budget %r mA: it must cover the %d mA of idle LEDs, under 16000"
                % (budget_ma, self.idle_ma)
            )
        self.budget_ma = budget_ma
        _put16(self._buf, _BUDGET, budget_ma)

    def set_brightness(self, brightness):
        """Global brightness 0..255, applied to every colour before the current budget."""
        if not 0 <= brightness <= 255:
            raise ConfigError("brightness %r out of range 0..255" % (brightness,))
        self.brightness = self._buf[_BRIGHT] = brightness

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
        if not ink:
            ink = self._buf[_INKS]  # below _MAX_INKS: there are fewer keys than inks
            self._buf[_INKS] = ink + 1
            self._define_ink(ink, meaning, colour)
            self._ink_of[key] = ink
        return ink

    def _define_ink(self, k, meaning, colour):
        self._ink_meaning[k] = meaning
        self._ink_colour[k] = colour
        self._ink_prio[k] = palette.MEANING_PRIORITY[meaning]
        spec = self._buf
        j = _SPEC + 4 * k
        c = 3 * colour
        spec[j] = palette.COLOUR_RGB[c]
        spec[j + 1] = palette.COLOUR_RGB[c + 1]
        spec[j + 2] = palette.COLOUR_RGB[c + 2]
        spec[j + 3] = palette.MEANING_PATTERN[meaning]

    # ---- rendering ------------------------------------------------------------------------------------

    def render(self, now_ms, out):
        """Write the frame at time now_ms as GRB bytes into out (a bytearray of 3 * led_count, such as
        NeoPixel.buf). Allocates nothing. Returns the frame's estimated current in mA."""
        out[: len(self._dark_frame)] = self._dark_frame  # C speed, no allocation: _render skips dark LEDs
        ma = self.last_current_ma = _render(out, self._buf, self._led_ink, self._die_leds, now_ms)
        return ma


# Module functions, not methods: a method is looked up in the scene's instance dictionary first.


def _put16(buf, at, value):
    buf[at] = value & 255
    buf[at + 1] = value >> 8


def _set_waiting(buf, waiting):
    # the waiting rolls checked and copied into buf; their number
    n = len(waiting)
    if n > 8:
        raise ConfigError("at most 8 waiting rolls, not %d" % n)
    i = 0
    while i < n:
        roll = waiting[i]
        if not 1 <= roll <= 6:
            raise ConfigError("waiting roll %r out of range 1..6" % (roll,))
        buf[_WAITING + i] = roll
        i += 1
    return n


def _show_die(sc, value, waiting, colour):
    # set_die() once checked: waiting rolls (their number) in the buffer already
    buf = sc._buf
    buf[_WAITING_COUNT] = waiting
    buf[_DIE_VALUE] = value
    buf[_FACE] = _face_of(buf, value, waiting)
    meaning = palette.WAITING_ROLL if waiting > 1 else palette.DIE_PIP
    if meaning != sc._ink_meaning[_DIE_INK] or colour != sc._ink_colour[_DIE_INK]:
        sc._define_ink(_DIE_INK, meaning, colour)


def _face_of(buf, value, waiting):
    # the pips a die value lights on the die display; 255: the waiting rolls take turns
    if not buf[_DIE_COUNT]:
        return 0
    if waiting > 1:
        return 255
    if buf[_DIE_COUNT] == 7:
        return buf[_FACES + value]
    return (1 << value) - 1


# ---- The frame loop. Plain Python here (and on CPython); on MicroPython the same code is compiled as
# viper (native) at import, which is ~20x faster and keeps the .mpy portable. Colour scaling uses
# x * (level + 1) >> 8: exact at 0 and 255, no division.


def _render_py(out, buf, inks, dice, now_ms):
    # The frame at now_ms into out (dark beforehand), its estimated current in mA returned: the patterns'
    # levels (palette.pattern_level times brightness + 1, over 256), each ink's GRB bytes, every lit
    # LED's bytes, the die display over them; scaled into the budget and drawn again when over it.
    bright = buf[_BRIGHT] + 1
    for p in range(palette.PATTERN_COUNT):
        buf[p] = palette.pattern_level(p, now_ms) * bright >> 8
    for k in range(buf[_INKS]):
        j = _SPEC + 4 * k
        lv = buf[buf[j + 3]] + 1
        m = _GRB + 3 * k
        buf[m] = buf[j + 1] * lv >> 8
        buf[m + 1] = buf[j] * lv >> 8
        buf[m + 2] = buf[j + 2] * lv >> 8
    face = buf[_FACE]
    if face == 255:  # the waiting rolls take turns, one per 1.2 s
        v = buf[_WAITING + (now_ms // _WAITING_SLOT_MS) % buf[_WAITING_COUNT]]
        face = buf[_FACES + v] if buf[_DIE_COUNT] == 7 else (1 << v) - 1
    idle = _get16(buf, _IDLE)
    per = _get16(buf, _PER_CHANNEL)
    allowed = (_get16(buf, _BUDGET) - idle) * 255
    total = _draw_py(out, buf, inks, dice, face)
    if total * per > allowed:
        # One 16-bit fixed-point factor for every channel, rounded down so the estimate lands at or just
        # under the budget (the divisor rounded up for the same reason).
        factor = (allowed << 8) // ((total * per >> 8) + 1)
        for j in range(_GRB, _GRB + 3 * buf[_INKS]):
            buf[j] = buf[j] * factor >> 16
        total = _draw_py(out, buf, inks, dice, face)
    return idle + (total * per + 254) // 255


def _get16(buf, at):
    return buf[at] | buf[at + 1] << 8


def _draw_py(out, buf, inks, dice, face):
    # every lit LED's ink bytes, then the die display's pips (ink 1) and dark LEDs; the channel sum
    total = 0
    for i in range(_get16(buf, _LEDS)):
        if inks[i]:
            k = _GRB + 3 * inks[i]
            out[3 * i : 3 * i + 3] = buf[k : k + 3]
            total += buf[k] + buf[k + 1] + buf[k + 2]
    if face:
        for i in range(buf[_DIE_COUNT]):
            j = 3 * dice[i]
            k = _GRB + 3 * inks[dice[i]]
            total -= buf[k] + buf[k + 1] + buf[k + 2]
            out[j : j + 3] = buf[_GRB + 3 : _GRB + 6] if face >> i & 1 else b"\0\0\0"
            total += out[j] + out[j + 1] + out[j + 2]
    return total


_render = _render_py

# Where the port can run native code, the same loops as viper code, compiled at import from
# ludus.light.native's source, which is then dropped (its text would otherwise stay on the heap).
NATIVE = False  # whether _render is the viper kernel
if _NATIVE:
    _render = transient("ludus.light.native").compile_kernel()
    NATIVE = True

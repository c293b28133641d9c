"""From raw sensor levels to settled per-cell occupancy: quantise (analog sensors count stacked magnets),
debounce each channel, and publish a new occupancy only once the whole board has been still.

One ``Occupancy`` per board; the main loop reads every channel into one preallocated buffer and calls
``update(levels, now_ms)`` each tick (every few ms)::

    occ = Occupancy(121)                          # digital sensors, 200 ms settle, 30 ms debounce
    levels = bytearray(121)                       # the driver fills this: 0 absent, 1 present
    while True:
        read_all_sensors(levels)
        if occ.update(levels, time.ticks_ms()):   # True: occ.settled changed, occ.version went up
            referee.on_settled(occ.settled)
        elif occ.current_version != seen:        # a debounced change the board has not settled on yet
            referee.on_current(occ.current)       # e.g. a piece was lifted: show its destinations now

Analog sensors (``analog=True``) pass an ``array('H')`` of ``ADC.read_u16()`` values and a
``Calibration`` with each channel's empty / one magnet / two magnets levels; counts are 0, 1 or 2.

Timing: a raw change must be seen on ``debounce_ticks`` consecutive ticks spanning at least
``debounce_ms`` before ``current`` takes it; ``settled`` takes ``current`` once no channel's ``current``
has changed for ``settle_ms``, so a piece slid across cells never registers the cells between.
A channel whose ``current`` changes more than ``flicker_limit`` times before the board settles is
*flickering*: it stops holding the board up, and its ``settled`` value is frozen until it has kept still
for ``flicker_hold_ms``. ``update`` allocates nothing. docs/sensing.md has the details.

Times are ints in ms, e.g. ``time.ticks_ms()`` (which wraps at 2**30): differences are taken modulo
2**30, so any interval the code measures must stay below 2**29 ms (six days).
"""

from array import array

from ludus.errors import ConfigError

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


_TICKS_MASK = const(0x3FFFFFFF)
MAX_LEVEL = const(65535)
DEFAULT_MIN_GAP = const(1024)  # 1/64 of the ADC range: ~50 mV at 3.3 V, well above RP2040 ADC noise
DEFAULT_HYSTERESIS_PCT = const(20)

# Quantiser table layout, per channel: rising and falling thresholds for 1 and 2 magnets, flags.
_ROW = const(5)
_DESCENDING = const(1)  # levels fall as magnets are added (the other pole faces the sensor)
_HAS_TWO = const(2)  # the channel is calibrated for two stacked magnets


def elapsed_ms(now_ms, then_ms):
    """now_ms - then_ms for tick counts that wrap at 2**30 (like time.ticks_diff when now is later)."""
    return (now_ms - then_ms) & _TICKS_MASK


# ---- Calibration ------------------------------------------------------------------------------------


class Calibration:
    """Per-channel analog levels (0..65535) with no magnet, one magnet and two stacked magnets.

    ``two`` may be None for a channel that never holds a stack (it then counts 0 or 1). Levels may rise or
    fall with the field, but each channel must be monotonic, with at least ``min_gap`` between
    neighbouring levels. Thresholds lie halfway between neighbouring levels, widened by
    ``hysteresis_pct`` of the gap (20: rise at 60 % of the gap, fall back at 40 %)."""

    FORMAT = "ludus-calibration"
    VERSION = 1

    def __init__(self, channel_count, min_gap=DEFAULT_MIN_GAP, hysteresis_pct=DEFAULT_HYSTERESIS_PCT):
        if channel_count <= 0:
            raise ConfigError("channel_count must be positive, not %r" % (channel_count,))
        if not 0 <= hysteresis_pct < 100:
            raise ConfigError("hysteresis_pct %r out of range 0..99" % (hysteresis_pct,))
        if min_gap < 1:
            raise ConfigError("min_gap must be at least 1, not %r" % (min_gap,))
        self.channel_count = channel_count
        self.min_gap = min_gap
        self.hysteresis_pct = hysteresis_pct
        self._levels: list = [None] * channel_count

    @classmethod
    def uniform(cls, channel_count, empty, one, two=None, **options):
        """A calibration giving every channel the same levels (a starting point, or for tests)."""
        cal = cls(channel_count, **options)
        for ch in range(channel_count):
            cal.set(ch, empty, one, two)
        return cal

    def set(self, channel, empty, one, two=None):
        """Record a channel's levels; check them all with validate()."""
        self._check_channel(channel)
        for level in (empty, one) if two is None else (empty, one, two):
            if not (isinstance(level, int) and 0 <= level <= MAX_LEVEL):
                raise ConfigError("channel %d: level %r is not an int in 0..65535" % (channel, level))
        self._levels[channel] = (empty, one, two)

    def get(self, channel):
        """(empty, one, two) of a channel, two possibly None; None if the channel was never set."""
        self._check_channel(channel)
        return self._levels[channel]

    def _check_channel(self, channel):
        if not 0 <= channel < self.channel_count:
            raise ConfigError("channel %r out of range 0..%d" % (channel, self.channel_count - 1))

    def faults(self):
        """A list of messages, one per channel with unusable levels (empty when all is well)."""
        out = []
        gap = self.min_gap
        for ch in range(self.channel_count):
            levels = self._levels[ch]
            if levels is None:
                out.append("channel %d: not calibrated" % ch)
                continue
            empty, one, two = levels
            if abs(one - empty) < gap:
                out.append("channel %d: one magnet (%d) is within %d of empty (%d)" % (ch, one, gap, empty))
                continue
            if two is None:
                continue
            if (two - one > 0) != (one - empty > 0):
                out.append(
                    "channel %d: levels not monotonic: empty %d, one %d, two %d" % (ch, empty, one, two)
                )
            elif abs(two - one) < gap:
                out.append("channel %d: two magnets (%d) is within %d of one (%d)" % (ch, two, gap, one))
        return out

    def validate(self):
        """Raise ConfigError naming every faulty channel; return self when all are usable."""
        faults = self.faults()
        if faults:
            raise ConfigError("calibration has %d faulty channels: %s" % (len(faults), "; ".join(faults)))
        return self

    def to_json(self):
        """The calibration as JSON text (the format docs/sensing.md describes)."""
        import json

        return json.dumps(
            {
                "format": self.FORMAT,
                "version": self.VERSION,
                "min_gap": self.min_gap,
                "hysteresis_pct": self.hysteresis_pct,
                "channels": [list(levels) if levels else None for levels in self._levels],
            }
        )

    @classmethod
    def from_json(cls, text):
        """Parse and validate JSON text written by to_json (or by hand); ConfigError names the fault."""
        import json

        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ConfigError("calibration is not valid JSON: %s" % (exc,)) from None
        if not isinstance(data, dict) or data.get("format") != cls.FORMAT:
            raise ConfigError('not a calibration: expected "format": %r' % (cls.FORMAT,))
        if data.get("version") != cls.VERSION:
            raise ConfigError("calibration version %r not supported (want %d)" % (data.get("version"), 1))
        channels = data.get("channels")
        if not isinstance(channels, list) or not channels:
            raise ConfigError('calibration needs a non-empty "channels" list')
        cal = cls(
            len(channels),
            min_gap=data.get("min_gap", DEFAULT_MIN_GAP),
            hysteresis_pct=data.get("hysteresis_pct", DEFAULT_HYSTERESIS_PCT),
        )
        for ch, levels in enumerate(channels):
            if levels is None:
                continue
            if not isinstance(levels, list) or len(levels) not in (2, 3):
                raise ConfigError(
                    "channel %d: expected [empty, one] or [empty, one, two], got %r" % (ch, levels)
                )
            cal.set(ch, levels[0], levels[1], levels[2] if len(levels) == 3 else None)
        return cal.validate()

    def thresholds(self):
        """The quantiser table: per channel rise1, fall1, rise2, fall2, flags (levels mirrored for
        descending channels). Validates first."""
        self.validate()
        table = array("H", [0] * (_ROW * self.channel_count))
        h = self.hysteresis_pct
        for ch in range(self.channel_count):
            empty, one, two = self._levels[ch]
            flags = 0
            if one < empty:
                flags |= _DESCENDING
                empty, one = MAX_LEVEL - empty, MAX_LEVEL - one
                if two is not None:
                    two = MAX_LEVEL - two
            j = _ROW * ch
            band = (one - empty) * h // 200
            mid = (empty + one) // 2
            table[j] = mid + band
            table[j + 1] = mid - band
            if two is not None:
                flags |= _HAS_TWO
                band = (two - one) * h // 200
                mid = (one + two) // 2
                table[j + 2] = mid + band
                table[j + 3] = mid - band
            table[j + 4] = flags
        return table


def _quantise_py(levels, table, counts, n):
    # Reference quantiser (and the one CPython uses). counts holds the previous counts on entry, which
    # is what makes the thresholds hysteretic. Returns how many counts changed.
    changed = 0
    for i in range(n):
        j = 5 * i
        lv = levels[i]
        flags = table[j + 4]
        if flags & 1:
            lv = 65535 - lv
        c = counts[i]
        if c == 0:
            new = 1 if lv >= table[j] else 0
            if new and flags & 2 and lv >= table[j + 2]:
                new = 2
        elif lv < table[j + 1]:
            new = 0
        elif c == 1:
            new = 2 if flags & 2 and lv >= table[j + 2] else 1
        else:
            new = 1 if lv < table[j + 3] else 2
        if new != c:
            counts[i] = new
            changed += 1
    return changed


# On MicroPython the same loop as native code (viper), compiled at import so the .mpy stays portable.
_VIPER_SOURCE = """
@micropython.viper
def _quantise(levels: ptr16, table: ptr16, counts: ptr8, n: int) -> int:
    changed = 0
    for i in range(n):
        j = 5 * i
        lv = levels[i]
        flags = table[j + 4]
        if flags & 1:
            lv = 65535 - lv
        c = counts[i]
        if c == 0:
            new = 0
            if lv >= table[j]:
                new = 1
                if (flags & 2) and lv >= table[j + 2]:
                    new = 2
        elif lv < table[j + 1]:
            new = 0
        elif c == 1:
            new = 1
            if (flags & 2) and lv >= table[j + 2]:
                new = 2
        else:
            new = 2
            if lv < table[j + 3]:
                new = 1
        if new != c:
            counts[i] = new
            changed += 1
    return changed
"""

_quantise = _quantise_py
try:
    import micropython

    _namespace: dict = {"micropython": micropython}
    exec(_VIPER_SOURCE, _namespace)
    _quantise = _namespace["_quantise"]
    del _namespace
except Exception:  # CPython, or a MicroPython build without the native emitters
    pass


# ---- Occupancy --------------------------------------------------------------------------------------


class Occupancy:
    """Settled and instantaneous per-channel piece counts from raw levels; see the module docstring.

    Attributes the referee reads (never writes):
    - ``settled``: bytearray, the counts last published (changes only inside an update() returning True);
    - ``version``: increments each time ``settled`` changes;
    - ``current``: bytearray, the debounced counts right now (a lifted piece shows here at once);
    - ``current_version``: increments on every change of ``current``;
    - ``still_since_ms``: when ``current`` last changed (flickering channels aside);
    - ``unsettled``: True while ``current`` differs from ``settled`` or a flickering channel is held;
    - ``flickering``: bytearray, 1 for a channel currently treated as flickering."""

    def __init__(
        self,
        channel_count,
        settle_ms=200,
        debounce_ms=30,
        analog=False,
        calibration=None,
        debounce_ticks=2,
        flicker_limit=4,
        flicker_hold_ms=1000,
    ):
        if channel_count <= 0:
            raise ConfigError("channel_count must be positive, not %r" % (channel_count,))
        for name, value in (
            ("settle_ms", settle_ms),
            ("debounce_ms", debounce_ms),
            ("flicker_hold_ms", flicker_hold_ms),
        ):
            if not 0 <= value < 1 << 29:
                raise ConfigError("%s %r out of range 0..2**29" % (name, value))
        if not 1 <= debounce_ticks <= 255:
            raise ConfigError("debounce_ticks %r out of range 1..255" % (debounce_ticks,))
        if not 1 <= flicker_limit <= 250:
            raise ConfigError("flicker_limit %r out of range 1..250" % (flicker_limit,))
        self.channel_count = channel_count
        self.settle_ms = settle_ms
        self.debounce_ms = debounce_ms
        self.debounce_ticks = debounce_ticks
        self.flicker_limit = flicker_limit
        self.flicker_hold_ms = flicker_hold_ms
        self.analog = analog
        self._table = None
        if analog:
            if calibration is None:
                raise ConfigError("analog sensors need a Calibration")
            if calibration.channel_count != channel_count:
                raise ConfigError(
                    "calibration has %d channels, the board %d" % (calibration.channel_count, channel_count)
                )
            self._table = calibration.thresholds()
        elif calibration is not None:
            raise ConfigError("a calibration is only used with analog=True")
        n = channel_count
        self.raw = bytearray(n)  # analog: this tick's quantised counts (digital: the levels themselves)
        self._last_raw = bytearray(n)
        self.current = bytearray(n)
        self.settled = bytearray(n)
        self.flickering = bytearray(n)
        self._cand = bytearray(n)
        self._cand_ticks = bytearray(n)  # 0: no candidate for this channel
        self._cand_since = array("l", [0] * n)  # tick times (< 2**30, so no long ints)
        self._changed_at = array("l", [0] * n)
        self._flips = bytearray(n)
        self._pending = 0  # channels with a candidate
        self.unsettled = False
        self.version = 0
        self.current_version = 0
        self.still_since_ms = 0

    def reset(self, levels=None, now_ms=0):
        """Forget all history. With levels, adopt them at once as current and settled (power-up: the
        pieces on the board are believed without waiting) and bump both versions."""
        n = self.channel_count
        for buf in (self.raw, self._last_raw, self.current, self.settled, self.flickering, self._cand,
                    self._cand_ticks, self._flips):  # fmt: skip
            for i in range(n):
                buf[i] = 0
        self._pending = 0
        self.unsettled = False
        self.still_since_ms = now_ms
        if levels is not None:
            raw = self._read(levels)
            for i in range(n):
                self._last_raw[i] = raw[i]
                self.current[i] = raw[i]
                self.settled[i] = raw[i]
            self.version += 1
            self.current_version += 1

    def _read(self, levels):
        if len(levels) != self.channel_count:
            raise ConfigError("got %d levels for %d channels" % (len(levels), self.channel_count))
        if self._table is None:
            return levels
        _quantise(levels, self._table, self.raw, self.channel_count)
        return self.raw

    def update(self, levels, now_ms):
        """Take one tick's levels (bytearray of 0/1, or array('H') when analog) read at now_ms.
        Returns True when a new settled occupancy was published (``settled`` and ``version`` changed)."""
        raw = self._read(levels)
        if raw != self._last_raw:
            self._last_raw[:] = raw
            self._debounce(raw, now_ms)
        elif self._pending:
            self._debounce(raw, now_ms)
        if self.unsettled and elapsed_ms(now_ms, self.still_since_ms) >= self.settle_ms:
            return self._publish(now_ms)
        return False

    # The helpers below keep few local names on purpose: MicroPython takes the frame of a function with
    # more than 11 locals and stack slots from the heap when it can, which counts as allocation.

    def _debounce(self, raw, now):
        cur = self.current
        i = self.channel_count
        while i:  # while, not for: a for loop's slots would push this frame onto the heap
            i -= 1
            if raw[i] != cur[i] or self._cand_ticks[i]:
                self._step(i, raw, now)

    def _step(self, i, raw, now):
        # One channel whose raw count differs from its current count, or that had a candidate.
        r = raw[i]
        t = self._cand_ticks[i]
        if r == self.current[i]:  # back to the current count: the candidate was a glitch
            self._cand_ticks[i] = 0
            self._pending -= 1
            return
        if t == 0 or self._cand[i] != r:
            if t == 0:
                self._pending += 1
            self._cand[i] = r
            self._cand_since[i] = now
            t = 1
        elif t < 255:
            t += 1
        self._cand_ticks[i] = t
        if t >= self.debounce_ticks and (now - self._cand_since[i]) & _TICKS_MASK >= self.debounce_ms:
            self._cand_ticks[i] = 0
            self._pending -= 1
            self._commit(i, r, now)

    def _commit(self, i, count, now):
        self.current[i] = count
        self.current_version += 1
        self._changed_at[i] = now
        self.unsettled = True
        flips = self._flips[i] + 1
        if flips < 255:
            self._flips[i] = flips
        if flips > self.flicker_limit:
            self.flickering[i] = 1
        else:
            self.still_since_ms = now

    def _publish(self, now):
        changed = False
        held = False
        for i in range(self.channel_count):
            if self.flickering[i]:
                if (now - self._changed_at[i]) & _TICKS_MASK < self.flicker_hold_ms:
                    held = True
                    continue
                self.flickering[i] = 0
            self._flips[i] = 0
            if self.settled[i] != self.current[i]:
                self.settled[i] = self.current[i]
                changed = True
        self.unsettled = held
        if changed:
            self.version += 1
        return changed

"""Analog sensor calibration (analog boards only): per-channel levels with no magnet, one magnet and two
stacked magnets, turned into the quantiser table ``ludus.sensing.occupancy.Occupancy`` uses to count
stacked Ludo tokens; JSON save and load (the format docs/sensing.md describes). Its own module so that
a digital board never loads it; ``from ludus.sensing import Calibration`` still works (imported on
first use)."""

import json
from array import array

from ludus.errors import ConfigError
from ludus.runtime import NATIVE as _NATIVE
from ludus.runtime import const

MAX_LEVEL = const(65535)
DEFAULT_MIN_GAP = const(1024)  # 1/64 of the ADC range: ~50 mV at 3.3 V, well above RP2040 ADC noise
DEFAULT_HYSTERESIS_PCT = const(20)

# Quantiser table layout, per channel: rising and falling thresholds for 1 and 2 magnets, flags.
_ROW = const(5)
_DESCENDING = const(1)  # levels fall as magnets are added (the other pole faces the sensor)
_HAS_TWO = const(2)  # the channel is calibrated for two stacked magnets


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
        # whole numbers only (a calibration file may hold anything: null, text, 1e308)
        if not isinstance(channel_count, int) or not 0 < channel_count <= 4096:
            raise ConfigError("channel_count must be 1..4096, not %r" % (channel_count,))
        if (
            not isinstance(hysteresis_pct, int)
            or isinstance(hysteresis_pct, bool)
            or not 0 <= hysteresis_pct < 100
        ):
            raise ConfigError("hysteresis_pct %r out of range 0..99" % (hysteresis_pct,))
        if not isinstance(min_gap, int) or isinstance(min_gap, bool) or not 1 <= min_gap <= 65535:
            raise ConfigError("min_gap must be a whole number 1..65535, not %r" % (min_gap,))
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
        """The calibration as JSON text (the format docs/sensing.md describes), without spaces: the text
        is built in one piece of heap, which a long calibration leaves broken up."""
        return json.dumps(
            {
                "format": self.FORMAT,
                "version": self.VERSION,
                "min_gap": self.min_gap,
                "hysteresis_pct": self.hysteresis_pct,
                "channels": [list(levels) if levels else None for levels in self._levels],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text):
        """Parse and validate JSON text written by to_json (or by hand); ConfigError names the fault."""
        from ludus.scan import repeated_key

        k = repeated_key(text)
        if k is not None:
            raise ConfigError("calibration: key %r appears twice in one object" % (k,))
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
        # (from zero bytes: a list of zeros first would take four times the heap, in one block)
        table = array("H", bytes(2 * _ROW * self.channel_count))
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
NATIVE = False  # whether _quantise is the viper kernel
if _NATIVE:
    import micropython

    _namespace: dict = {"micropython": micropython}
    exec(_VIPER_SOURCE, _namespace)
    _quantise = _namespace["_quantise"]
    NATIVE = True
    del _namespace

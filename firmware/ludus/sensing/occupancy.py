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
Calibration and the analog quantiser live in ``ludus.sensing.calibration`` (a digital board never loads it);
``from ludus.sensing import Calibration`` imports it on first use.

Timing: a raw change must be seen on ``debounce_ticks`` consecutive ticks spanning at least
``debounce_ms`` before ``current`` takes it; ``settled`` takes ``current`` once no channel's ``current``
has changed for ``settle_ms``, counted from when each change was first read (the debounce lies inside
the settle time), so a piece slid across cells never registers the cells between.
A channel whose ``current`` changes more than ``flicker_limit`` times before the board settles is
*flickering*: it stops holding the board up, and its ``settled`` value is frozen until it has kept still
for ``flicker_hold_ms``. ``update`` allocates nothing. docs/sensing.md has the details.

Times are ints in ms, e.g. ``time.ticks_ms()`` (which wraps at 2**30): differences are taken modulo
2**30, so any interval the code measures must stay below 2**29 ms (six days).
"""

from array import array

from ludus.errors import ConfigError
from ludus.runtime import const, elapsed_ms

# inlined in the per-channel loops below (the hot path's rule 4, docs/architecture.md); elsewhere
# ludus.runtime.elapsed_ms
_TICKS_MASK = const(0x3FFFFFFF)

MAX_LEVEL = const(65535)


def __getattr__(name):
    # Calibration lives in ludus.sensing.calibration, loaded only for analog boards (see that module)
    if name == "Calibration":
        from ludus.sensing.calibration import Calibration

        return Calibration
    raise AttributeError(name)


# ---- Occupancy --------------------------------------------------------------------------------------


class Occupancy:
    """Settled and instantaneous per-channel piece counts from raw levels; see the module docstring.

    Attributes the referee reads (never writes):
    - ``settled``: bytearray, the counts last published (changes only inside an update() returning True);
    - ``version``: increments each time ``settled`` changes;
    - ``current``: bytearray, the debounced counts right now (a lifted piece shows here at once);
    - ``current_version``: increments on every change of ``current``;
    - ``still_since_ms``: when the latest change of ``current`` was first read (flickering channels
      aside);
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
            from ludus.sensing.calibration import _quantise

            self._table = calibration.thresholds()
            self._quantise = _quantise
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
        # (slice copies, not loops: at power-up this runs in the first tick, and a byte-by-byte loop
        # took 9.5 ms of it for 128 channels on the emulated RP2040)
        zero = bytes(self.channel_count)
        for buf in (self.raw, self._last_raw, self.current, self.settled, self.flickering, self._cand,
                    self._cand_ticks, self._flips):  # fmt: skip
            buf[:] = zero
        self._pending = 0
        self.unsettled = False
        self.still_since_ms = now_ms
        if levels is not None:
            raw = self._read(levels)
            self._last_raw[:] = raw
            self.current[:] = raw
            self.settled[:] = raw
            self.version += 1
            self.current_version += 1

    def _read(self, levels):
        if len(levels) != self.channel_count:
            raise ConfigError("got %d levels for %d channels" % (len(levels), self.channel_count))
        if self._table is None:
            return levels
        self._quantise(levels, self._table, self.raw, self.channel_count)
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

    def busy(self):
        """True while a reading is in its debounce or the board is not yet still: a change is about to be
        taken, and the main loop holds back its journal erases and collections (ludus.device)."""
        return self.unsettled or self._pending > 0

    # The helpers below keep few local names and use while loops (hot path: docs/architecture.md).

    def _debounce(self, raw, now):
        cur = self.current
        i = self.channel_count
        while i:
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
        moving = self.unsettled
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
            # The board has been moving since the change was first read, not since the debounce let
            # it through: the settle runs from then (the debounce inside it), unless a change read
            # later is already holding the board up
            since = self._cand_since[i]
            if not moving or (since - self.still_since_ms) & _TICKS_MASK < 0x20000000:
                self.still_since_ms = since

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

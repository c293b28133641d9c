"""The firmware's loop, with its hardware given to it: sensors -> referee -> LEDs, the button, the piezo,
and the journal that keeps the game through power cuts (docs/firmware.md). main.py builds the drivers
from config.json and runs it; tests run it with the fakes of ludus.hw.fake.

    app = App(config, board, sensors, button, pixels, journal, buzzer=None, out=print)
    while True:
        app.step(time.ticks_ms())    # once per tick (>= 50 Hz)

Each step reads every sensor, polls the button, ticks the referee and renders the LED frame when the
scene changed or a pattern may have moved (every FRAME_MS), sending it only when it differs from the
last one sent. What the referee did is booked at the start of the next step, before the referee ticks
again: every new action written to the journal (rolls and moves, undos, a game's start and end, in
that order), each event reported as a JSON line through `out` and its cue sounded. A tick thus holds
the referee's work or its bookkeeping, seldom both (docs/firmware.md, "A tick's budget"); `flush()`
books at once, before anything else reads the journal."""

import json
from array import array

from ludus.referee.core import Referee
from ludus.runtime import const, transient

# ticks wrap at 2**30: an interval is (now - then) & _TICKS_MASK, ludus.runtime.elapsed_ms inlined
# (a constant folded into the bytecode costs no heap on this resident path)
_TICKS_MASK = const(0x3FFFFFFF)

FRAME_MS = const(40)  # the LED frame rate while anything blinks: 25 frames a second


class App:
    """config: from ludus.config.read_config. board: a BoardDefinition. sensors: read(levels) (a
    ShiftScanner or MuxScanner). button: poll(now) (ludus.hw.button). pixels: write(frame). journal: a
    ludus.record.journal.Journal. buzzer: play(cue, now), tick(now), or None. out: one JSON line per
    event. seed: the dice seed (None: drawn per game from os.urandom). finished(record): called with
    each game's record as it ends, after the journal has it (the device's season, ludus.device).
    calibration: an analog board's ludus.sensing.calibration.Calibration. feed: called now and then
    while an unfinished game is restored (the watchdog's feed). supply: the supply-sense pin, or None.
    clock: a microsecond clock (time.ticks_us) that times each step's parts into `parts`: the
    bookkeeping, the referee, the frame (0s without one). restore: False when the caller restores
    the journal's game itself (ludus.startup.build_app, which has the restore's code loaded)."""

    def __init__(
        self,
        config,
        board,
        sensors,
        button,
        pixels,
        journal,
        buzzer=None,
        out=None,
        seed=None,
        finished=None,
        calibration=None,
        feed=None,
        supply=None,
        clock=None,
        restore=True,
    ):
        self.board = board
        self.sensors = sensors
        self.button = button
        self.pixels = pixels
        self.journal = journal
        self.buzzer = buzzer if config["sound"] else None
        self.out = out if out is not None else print
        # one level per sensor channel: ADC readings (analog) or 0/1 (digital)
        analog = board.sensor_kind == "analog"
        self.levels = array("H" if analog else "B", bytes((2 if analog else 1) * board.channel_count))
        # a digital board's sensors read again between ticks (moved()); an analog board's levels differ
        # a little on every reading, so it waits for its ticks
        self.peek = None if analog else array("B", bytes(board.channel_count))
        # a chain of shift registers tells a broken data line from an empty board (ludus.hw.shift)
        self.chained = getattr(sensors, "broken", None) is not None
        self.cut = False  # the chain reads broken: the referee waits, and it was said
        # The LEDs' current: config's budget_ma (the supply's figure) only while the supply-sense pin
        # says the external supply feeds the board; on USB alone, at most the board's USB budget. A
        # board without the pin is taken to be on USB (hardware/README.md, "Power").
        self.supply = supply
        self.usb_ma = board.led_budget_ma()
        self.supply_ma = config["budget_ma"] or self.usb_ma
        self.external = 0
        scene = transient("ludus.referee.build").default_scene(board, self._budget())
        scene.set_brightness(config["brightness"])
        bots = players = None
        if config["bots"] or config["names"]:
            from ludus.config import bot_seats, seat_names

            bots = bot_seats(config)
            players = seat_names(config)
        self.referee = Referee(
            board,
            config["game"],
            scene=scene,
            seed=seed,
            turn_clock=config["turn_clock"],
            bots=bots,
            players=players,
            calibration=calibration,
        )
        self.finished = finished
        if supply is not None and supply.value():
            self.external = 1
            self.referee.scene.set_budget(self._budget())
        self.frame = bytearray(3 * board.led_count)
        self.sent = bytearray(b"\x01" * (3 * board.led_count))  # the frame last sent (none yet)
        self.last_frame = -FRAME_MS
        self.kept = 0  # the journal's count of the current game's actions
        self.start_due = None  # a new game's start state, written to the journal at the next tick
        self.unkept = False  # the journal refused a write of this game (full): said once
        if feed is not None:
            feed()  # (a referee takes about a second to build on a Pico)
        if restore and journal.unfinished():
            # the unfinished game, streamed from flash into the record and replayed, the watchdog
            # fed as it goes (docs/journal.md, "Restoring"); an error here ends it as unrestorable
            # (ludus.device)
            transient("ludus.startup").restore(self, journal, feed)
        # (after the restore, which needs the heap in one piece more than these do)
        self.clock = clock
        # the last step's us: bookkeeping, referee (the sensors' reading in it), frame, the reading
        self.parts = array("l", (0, 0, 0, 0))

    def step(self, now_ms):
        """One tick of the board. True if anything happened (an event, the scene changed)."""
        clock = self.clock
        parts = self.parts
        t0 = clock() if clock is not None else 0
        ref = self.referee
        booked = bool(ref.events) or self.start_due is not None
        if booked:
            self.flush(now_ms)
        t1 = clock() if clock is not None else 0
        parts[0] = (t1 - t0) & _TICKS_MASK
        self.sensors.read(self.levels)
        parts[3] = ((clock() if clock is not None else 0) - t1) & _TICKS_MASK
        if self.chained and (self.sensors.broken or self.cut):
            if self._chain_cut():
                parts[1] = parts[2] = 0
                return booked
        supply = self.supply
        if supply is not None and supply.value() != self.external:
            if transient("ludus.notices").power(self, supply.value()):
                self.last_frame = now_ms - FRAME_MS  # (the next frame under the new budget, at once)
        # (a tick that booked leaves the referee's own deferred work to the next: ludus.referee.core)
        changed = ref.tick(self.levels, now_ms, self.button.poll(now_ms), not booked)
        t2 = clock() if clock is not None else 0
        parts[1] = (t2 - t1) & _TICKS_MASK
        # the frame in this tick, the bookkeeping (the journal, the USB lines) in the next: the
        # players see the board answer at once, and a move's tick does not also write the flash
        if changed or (now_ms - self.last_frame) & _TICKS_MASK >= FRAME_MS:
            frame = self.frame
            ref.render(now_ms, frame)
            self.last_frame = now_ms
            # sent only when it differs (by DMA it costs the CPU 0.4 ms; by bitstream 3.8 ms with
            # interrupts off)
            if changed or frame != self.sent:
                self.pixels.write(frame)
                self.sent[:] = frame
        parts[2] = ((clock() if clock is not None else 0) - t2) & _TICKS_MASK
        if self.buzzer is not None:
            self.buzzer.tick(now_ms)
        return bool(changed or booked or ref.events)

    def flush(self, now_ms):
        """Book what the referee did since the last booking: the journal brought up to the game
        record, each event said and its cue sounded, a finished game handed on. The device calls it
        before a link command (which may read the journal or rebuild the app)."""
        ref = self.referee
        # (taking them writes a committed move's text into the record: GameRecord.defer_move)
        events = ref.take_events() if ref.events else None
        if self.start_due is not None:  # (the start of the game begun earlier, and what followed)
            self._keep(())
        if events:
            ended = self._keep(events)
            for ev in events:
                self._say(ev)
                if self.buzzer is not None:
                    self._cue(ev, now_ms)
            if ended and self.finished is not None:
                self.finished(ref.record)

    def _chain_cut(self):
        # True while the sensor chain reads broken: no reading of it is a board's, so the referee is
        # not ticked (an empty board would look like every piece lifted); said once, and when it mends
        broken = self.sensors.broken
        if broken != self.cut:
            transient("ludus.notices").chain_changed(self, broken)
        return broken

    def _budget(self):
        return self.supply_ma if self.external else min(self.supply_ma, self.usb_ma)

    def moved(self, now_ms):
        """Whether the sensors read otherwise than at the last step, on a board that was still: read
        between ticks, so that a lifted piece is taken in at once rather than at the next tick (the
        referee's settle time then runs from that reading). False for an analog board, and while a
        change is already being taken in (a flickering sensor must not call for a tick every time).
        The die button is sampled too (ludus.hw.button: a quick tap seen for as long as it lasts).
        Allocates nothing."""
        self.button.sample(now_ms)
        peek = self.peek
        if peek is None or self.referee.occ.busy():
            return False
        self.sensors.read(peek)
        return peek != self.levels

    def _keep(self, events):
        # the journal follows the game record: its start, each action added or taken back, its end
        # (True if the game ended)
        ref = self.referee
        journal = self.journal
        kept = True
        for ev in events:
            if ev["event"] == "new_game":
                # written at the next tick, with any action taken meanwhile: the tick that begins a
                # game is the busiest of all (its start state is taken now, as the game begins)
                self.unkept = False
                self.start_due = ref.start_state()
                self.kept = 0  # (a start state holds no actions: any already taken follow it)
                return False
        if self.start_due is not None:
            kept = journal.begin(self.start_due)
            self.start_due = None
        actions = ref.record.actions if ref.record is not None else ()
        while self.kept > len(actions):
            kept = journal.undo() and kept
            self.kept -= 1
        while self.kept < len(actions):
            kept = journal.add(actions[self.kept]) and kept
            self.kept += 1
        if not kept and not self.unkept:
            # every block holds this game (a long one, or many cuts in the middle of writes: each
            # retires the rest of its block): it goes on, but a power cut would now lose it
            self.unkept = True
            self._say(
                {
                    "event": "fault",
                    "where": "journal",
                    "error": "the journal is full: this game is no longer kept through a power cut"
                    " (a new game starts it afresh)",
                }
            )
        ended = False
        for ev in events:
            if ev["event"] == "game_over":
                journal.end(json.dumps({"result": ev.get("placements"), "players": ev.get("players")}))
                ended = True
        return ended

    def _cue(self, ev, now_ms):
        from ludus.hw.buzzer import ILLEGAL, REFUSED, YOUR_TURN

        name = ev["event"]
        buzzer = self.buzzer
        if buzzer is None:
            return
        if name == "illegal":
            buzzer.play(ILLEGAL, now_ms)
        elif name == "refused":
            buzzer.play(REFUSED, now_ms)
        elif name == "move":
            buzzer.play(YOUR_TURN, now_ms)

    def _say(self, ev):
        self.out(json.dumps(ev))

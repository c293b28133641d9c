"""The referee: settled sensor readings in, legal moves out, by comparing whole board states with the
game's expected occupancy; it composes the light scene for every situation and keeps the game record.

    referee = Referee(board, "ludo/classic/4")       # board: a BoardDefinition
    while True:
        read_sensors(levels)                         # one level per sensor channel
        if referee.tick(levels, time.ticks_ms(), button_event()):
            pass                                     # the scene changed (events in referee.take_events())
        referee.render(time.ticks_ms(), pixels.buf)  # at the LED frame rate: patterns move with time

docs/referee.md describes the flow (setup, roll-off, moves, captures, confirmation, undo, recovery)."""

from ludus.referee.flow import RefereeFlow
from ludus.referee.infer import MoveTable, saturate, sense_changes
from ludus.referee.judge import RefereeJudge, _evaluate, table_of
from ludus.referee.states import (
    LONG_PRESS,
    NO_PRESS,
    PHASE_NAMES,
    SHORT_PRESS,
    SITUATION_NAMES,
    TABLE_DUE,
    const,
)
from ludus.runtime import transient

# ticks wrap at 2**30: an interval is (now - then) & _TICKS_MASK, ludus.runtime.elapsed_ms inlined
# (a constant folded into the bytecode costs no heap on this resident path)
_TICKS_MASK = const(0x3FFFFFFF)

# ludus.referee.states' values, inlined (hot path: docs/architecture.md; a test checks they agree)
_OVER = const(2)
_PLAY = const(1)
_S_IDLE = const(0)
_S_MISMATCH = const(4)
_S_UNDO = const(6)
_SETUP = const(0)
_CUE_MS = const(600)
_HOLD_MS = const(2000)
_S_PENDING = const(2)

# what other layers import from here
__all__ = ("LONG_PRESS", "NO_PRESS", "PHASE_NAMES", "SHORT_PRESS", "SITUATION_NAMES", "Referee")


class Referee(RefereeJudge, RefereeFlow):
    """Referees one board: setup detection, move inference, rolls, undo, recovery, lights.

    board: a ludus.board.definition.BoardDefinition. preset: "checkers" (any setup) or "ludo/RULES" (any
    player count; a trailing /N is accepted and ignored: the pieces on the board decide).
    scene, occupancy: built from the board when not given (scene=False: no lights at all).
    seed: 32 bytes (or hex) for reproducible dice (tests, the simulator); None draws one per game.
    adapter: the game adapter (ludus.referee.presets) when not derived from the preset.
    settle_ms: how long the board must be still.
    turn_clock: Ludo's turn clock and auto-play (docs/referee.md): False (off, the default), True (the
    rule set's clock: 15 s, 5 s in Blitz, none in Danish) or a number of seconds.
    bots: the seats the board plays, {seat: level} (Ludo: random, preferred, strong; Chinese Checkers:
    random, greedy, strong); set_bots() changes them. bot_pause_ms: how long a bot waits, the board
    still, before it rolls or shows its move (so people can follow). players: what the players are
    called, {seat: name} (set_players() changes them; a seat left out is called by its colour)."""

    bot_pause_ms = 1000  # (a class default: an instance attribute only where a referee is given another)

    def __init__(
        self,
        board,
        preset,
        scene=None,
        occupancy=None,
        seed=None,
        settle_ms=200,
        calibration=None,
        adapter=None,
        turn_clock=False,
        bots=None,
        bot_pause_ms=1000,
        players=None,
    ):
        self.board = board
        self.preset = preset
        # (the parts are made by ludus.referee.build, loaded for the call: not kept on the heap)
        (
            self.adapter,
            self.places,
            self.place_count,
            self.place_names,
            self.occ,
            self._compose,
            self.scene,
            self.cap,  # the most pieces the sensors can tell apart on each place
            self._led_of_place,
            self._starts,
            self.sensed,
            self._sense_bufs,  # what sense_changes() updates from a settled change, in one tuple
            self._table,
            self.clock,  # the turn clock, None when off: [its ms, the tick it runs from, seat, turn count]
        ) = transient("ludus.referee.build").parts(
            board, preset, scene, occupancy, settle_ms, calibration, adapter, turn_clock
        )
        n = self.place_count
        self._zeros = bytes(n)
        self.expected = bytearray(n)
        self.exp_sat = bytearray(n)
        self.seen = bytearray(n)
        self._diffs = []
        self.events = []
        self._seed = seed
        self._games_started = 0
        self.forced_rolls = []
        self.phase = _SETUP
        self.situation = _S_IDLE
        self.game = None
        self.record = None
        self.dice = None
        self.dice_used = 0
        self.table = None  # self._table once loaded with the position's moves
        self._scratch = None  # a second table, to try a position after a pending move
        self.pending = None  # the move of S_PENDING
        self.choices = None  # the moves of S_CONFIRM; in setup, the starts that fit the board
        self.choice = 0  # the one of them shown
        self.partials = None
        self.missing = []
        self.unexpected = []
        self.pairs = []
        self.hold = 0  # 1: a hold starts at the next tick; -1 - t: since tick time t; 2: over (judged)
        self.cue = 0  # 1: a refused press to show from the next tick; -1 - t: shown since tick time t
        self.guide = None  # the steps of an undo that must keep colours apart (ludus.referee.flow)
        self.chain_at = -1
        self.chain_next = ()  # type: ignore[assignment]  # a list during a jump chain
        self.die_value = 0
        self.die_seat = -1
        self._started = False
        self._dirty = True
        self._waited = False  # a scene to compose has waited a tick for a busy one (tick(spare=False))
        # the start the board shows, begun over the next three ticks (ludus.referee.flow._begin_due): in
        # one they took 40 ms on a Pico, twice a loop iteration (docs/firmware.md); its name, then
        # [name] once the adapter has prepared it, then [name, position]
        self.start_due = None
        # the game a commit ended, its end (placements, the seed revealed, the lights) due at the next
        # tick (ludus.referee.judge._load_moves)
        self.over_due = False
        self.auto_move = None  # the move the clock or a bot chose, for the players to carry out
        self.bots = None  # the seats the board plays (ludus.referee.flow.set_bots), None for none
        if bot_pause_ms != Referee.bot_pause_ms:
            self.bot_pause_ms = bot_pause_ms
        if bots:
            self.set_bots(bots)
        self.players = None  # the names set, {seat: name} (ludus.referee.flow.set_players), or None
        if players:
            self.set_players(players)

    # ---- the per-tick entry point -----------------------------------------------------------------

    def tick(self, levels, now_ms, button=NO_PRESS, spare=True):
        """Feed one tick of raw sensor levels (one per channel) and the button event (NO_PRESS,
        SHORT_PRESS, LONG_PRESS). Returns True when the scene changed. Allocates nothing while the
        board is unchanged and no button is pressed. spare: False when the tick's time is taken
        already (the firmware's loop wrote the journal and the events in it): the work that waits
        for a tick of its own then waits one more (the next position's move table, a game's
        beginning and end, a scene composed later, a bot's turn), and only what the players did is
        answered (docs/firmware.md, "A tick's budget")."""
        occ = self.occ
        settled = occ.update(levels, now_ms)
        held = False  # (a tick that began or ended a game: its scene at the next tick, below)
        # a scene left to compose at this tick (a game's beginning or end): one more tick if not
        # spare, once
        later = not spare and self._dirty and not self._waited
        if settled:
            sense_changes(occ.settled, self._sense_bufs)  # native code on MicroPython
            later = False
        elif not self._started:
            self._started = settled = True
            occ.reset(levels, now_ms)  # power-up: believe the pieces on the board at once
            self._sense()
            later = False
            held = True  # (its scene at the next tick: with both, the first tick was the longest)
        elif not spare:
            pass
        elif self.table is TABLE_DUE:
            table_of(self)  # the tick after a commit: its frame went out first (docs/referee.md)
        elif self.start_due is not None:
            self._begin_due()
            held = True  # (the new game's scene at the tick after its beginning; none between)
        # (before a change is judged: the game is over, and it goes to the setup)
        if self.over_due and (spare or settled):
            self._game_over()
            held = True
        if settled:
            self._dirty = True
            self.hold = 0  # a new reading: a hold (below) starts afresh if it still applies
            if self.phase == _PLAY:
                _evaluate(self)  # (a module function: a method is looked up through the instance first)
            else:
                self._detect_start()
                if self.start_due is not None:  # (begun over the next ticks: the setup's scene
                    held = True  # would only flash before the game's)
        if button and not self.over_due:  # (a press in the tick a game ends: not taken)
            self._button(button)
            later = False
        if self.hold or self.cue:  # (apart: tick's own frame stays small enough for the C stack)
            _timers(self, now_ms)
        if self.clock is not None and self.phase == _PLAY and not self.over_due:
            self._clock(now_ms)
        if spare and self.bots is not None and self.phase == _PLAY and not self.over_due:
            self._bot_turn(now_ms)
        # the ticks that begin and end a game are the busiest of all: the new scene is composed at
        # the next tick, with the frame that shows it (20 ms later; with `.mpy` files on the emulated
        # RP2040 a six-player checkers game's first tick took 21.8 ms, a Ludo game's last 19-22 ms)
        if self._dirty and not held:
            if later:
                self._waited = True
                return False
            self._dirty = self._waited = False
            if self._compose is not None:
                self._compose(self)
            return True
        return False

    def render(self, now_ms, out):
        """Write the LED frame at now_ms (GRB bytes) into out; returns its estimated current in mA."""
        return self.scene.render(now_ms, out)

    def take_events(self):
        """The events since the last call (a list of dicts, each with an "event" key)."""
        if self.record is not None:
            self.record.write_due()  # (a move committed in the last tick: its text)
        out = self.events
        self.events = []
        return out

    # ---- sensing ----------------------------------------------------------------------------------

    def _sense(self):
        # all places afresh (power-up, restore)
        bufs = self._sense_bufs
        raw = bufs[3]
        place_of_cell = bufs[2]
        channel_of_cell = self.board.channel_of_cell
        src = self.occ.settled
        raw[:] = self._zeros
        for i in range(self.board.cell_count):
            raw[place_of_cell[i]] += src[channel_of_cell[i]]
        s = self.sensed
        s[:] = raw
        saturate(s, self.cap)
        bufs[0][:] = src

    def _cell_count(self, cell):
        return self.occ.settled[self.board.channel_of_cell[cell]]

    def _event(self, name, **fields):
        fields["event"] = name
        self.events.append(fields)
        if name == "refused":
            self.cue = 1  # (from the next tick on)
            self._dirty = True

    # ---- the turn clock ---------------------------------------------------------------------------

    def _clock(self, now):
        # Runs from the start of each turn; a difference to put right stops it, and it starts afresh
        # once the board matches. Run out: auto-play, one step per tick while the board is idle; a
        # move it chose stays chosen (lit again whenever the board is back to idle).
        game = self.game
        sit = self.situation
        clock = self.clock
        assert clock is not None  # (called only while the clock is on)
        if game.turn != clock[2] or game.turn_count != clock[3]:
            clock[2] = game.turn
            clock[3] = game.turn_count
            clock[1] = now
            return
        if self.auto_move is not None:
            if sit == _S_IDLE:
                self._auto_step()
            return
        if _S_MISMATCH <= sit and sit <= _S_UNDO:
            clock[1] = now
            return
        if sit == _S_IDLE and (now - clock[1]) & _TICKS_MASK >= clock[0]:
            self._auto_step()

    # ---- setup and new games ----------------------------------------------------------------------
    def _scratch_table(self):
        t = self._scratch
        if t is None:
            t = self._scratch = MoveTable(self.cap)
        return t

    def _move(self, i):
        # the move object of the table's move i (made only when needed: Chinese Checkers tables hold codes)
        return self.adapter.move(self.game, self._table.keys[i])

    def _accept_only(self, move):
        # the turn clock chose this move: nothing else is accepted until the position changes
        self.auto_move = move
        self.adapter.load_one(self.game, self._table, self.expected, move)
        self.table = self._table

    def _awaiting_roll(self):
        return self.adapter.has_dice and self.game.awaiting_roll()

    def _game_over(self):
        self.over_due = False
        self._dirty = True
        self.phase = _OVER
        placements = self.game.placements()
        if self.record.result is None:
            self.record.finish(placements)
        self._event("game_over", placements=placements, seed=self.record.seed, players=self._named())

    # ---- move inference --------------------------------------------------------------------------

    def lights(self):
        """The lit LEDs as (led, meaning, colour) triples, LED order."""
        sc = self.scene
        out = []
        for led in range(sc.led_count):
            m = sc.meaning_at(led)
            if m:
                out.append((led, m, sc.colour_at(led)))
        return out

    def describe(self):
        """A short dict of where the referee stands (for the simulator's output and tests)."""
        d = {"phase": PHASE_NAMES[self.phase]}
        if self.phase == _PLAY:
            d["situation"] = SITUATION_NAMES[self.situation]
            d["turn"] = self.game.turn
        return d


def _timers(self, now_ms):
    # A token resting on its way (ludus.referee.judge) is judged once still for _HOLD_MS; a refused
    # press's cue, the turn LED flashing "illegal", lasts _CUE_MS (docs/lights.md). Both count from
    # the tick they began on: -1 - t holds tick time t (a small int on a Pico too: ticks < 2**30).
    hold = self.hold
    if hold == 1:
        self.hold = -1 - now_ms
    elif hold < 0 and (now_ms + 1 + hold) & _TICKS_MASK >= _HOLD_MS:
        self.hold = 2
        self._dirty = True
        if self.situation == _S_PENDING:
            self._commit(self.pending)
        else:
            _evaluate(self)
    cue = self.cue
    if cue > 0:
        self.cue = -1 - now_ms
    elif cue < 0 and (now_ms + 1 + cue) & _TICKS_MASK >= _CUE_MS:
        self.cue = 0
        self._dirty = True

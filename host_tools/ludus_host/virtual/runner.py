"""A simulated board for the referee: pieces on cells, the sensors they trigger (digital or analog, with
flicker), the die button and a millisecond clock; plus the play-script parser (docs/play-scripts.md).

    board = load_board("ludo52")
    script = parse_script(text, board)          # NotationError naming the line for a bad line
    sim = Simulator(board, "ludo/classic/4", seed=b"...")
    for item in sim.run(script):                # dicts: events, frames, the end summary
        print(json.dumps(item))
"""

import json
import os
from array import array

import ludus.light.palette as palette
from ludus.board.definition import BoardDefinition
from ludus.config import bot_seats, bots_fault, names_fault, seat_names
from ludus.errors import BoardDefinitionError, LudusError, NotationError
from ludus.ludo.geometry import COLOURS
from ludus.referee import LONG_PRESS, NO_PRESS, SHORT_PRESS, Referee
from ludus.sensing import Occupancy
from ludus.sensing.calibration import Calibration

from ludus_host import paths
from ludus_host.args import is_digits
from ludus_host.sim.words import in_rolloff, words
from ludus_host.virtual import colours as lights

TICK_MS = 10
GAP_MS = 400  # the hand's pause after each action: longer than the default settle time
CARRY_MS = 100  # lift-to-place time of a `move`
SLIDE_MS = 60  # time a slid piece spends on each cell it crosses
FLICKER_MS = 20
LONG_PRESS_MS = 800
ANALOG_LEVELS = (2000, 22000, 42000)  # simulated ADC readings for 0, 1 and 2+ magnets
MS_DIGITS = 9  # a wait or pause of at most 999,999,999 ms (11.5 days of simulated time)
MAX_MS_TEXT = "999999999"
QUIET_MS = 2000  # a board unchanged this long, with nothing flickering, waits without ticking


def load_board(name, wiring=None):
    """A board definition by the name of a shipped one (checkers, ludo40, ludo52, ludo56), or from a
    file: any other name is a path. A file in the working folder named like a shipped board never
    stands in for it (it is ./ludo52). wiring: the path of a wiring map (`ludus calibrate`'s
    wiring.json) laid over it (ludus.board.wiring)."""
    if name in paths.board_names():
        path = paths.board_file(name)
    elif not os.path.lexists(name):
        known = ", ".join(paths.board_names())
        raise BoardDefinitionError("board %r: not a shipped board (%s), and no such file" % (name, known))
    else:  # a file of the user's: UTF-8, of a sane size, each key once (the shipped ones are)
        path = name
        try:
            paths.check_json(paths.read_text(path, "board definition", 1024 * 1024), "board definition", path)
        except NotationError as exc:
            raise BoardDefinitionError(str(exc)) from None
    board = BoardDefinition.load(path)
    if wiring is not None:
        from ludus.board.wiring import apply

        text = paths.read_text(wiring, "wiring map", 256 * 1024)
        try:
            apply(board, text)
        except BoardDefinitionError as exc:
            raise BoardDefinitionError("%s: %s" % (wiring, exc)) from None
    return board


# ---- the script -------------------------------------------------------------------------------------

# verb -> (minimum, maximum) argument count; None: no maximum
VERBS = {
    "lift": (1, 2),
    "place": (1, 2),
    "move": (2, 2),
    "slide": (2, None),
    "press": (0, 1),
    "long": (0, 0),
    "wait": (1, 1),
    "die": (1, None),
    "power": (0, 0),
    "flicker": (1, 2),
    "setup": (0, 1),
    "start": (1, None),
    "clear": (0, 0),
    "bots": (1, None),
    "name": (1, None),
    "expect": (1, None),
}
EXPECTS = ("situation", "phase", "turn", "event", "no-event", "position", "lit", "die", "physical", "refused")
# the colours a piece may be given (`place CELL COLOUR`): the player colours of both games
PIECE_COLOURS = ("green", "yellow", "red", "blue", "purple", "white")
SLIDE_MARK = "~"  # `slide A B C ~MS`: MS on each cell passed


class Action:
    """One script line: its number, verb, arguments and the pause after it (ms)."""

    def __init__(self, line, verb, args, gap):
        self.line = line
        self.verb = verb
        self.args = args
        self.gap = gap

    def __repr__(self):
        return "<line %d: %s %s>" % (self.line, self.verb, " ".join(self.args))


def _cell_names(board):
    names = {}
    for i in range(board.cell_count):
        names[board.cell_id(i)] = i
    return names


def _zone_names(board):
    zones = {}
    place_names = board.place_names
    for pid in range(len(place_names)):
        cells = board.cells_of_place(pid)
        if len(cells) > 1:
            zones[place_names[pid]] = cells
    return zones


def parse_script(text, board):
    """The actions of a play script; NotationError "line N: ..." for the first bad line."""
    cells = _cell_names(board)
    zones = _zone_names(board)
    actions = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        gap = GAP_MS
        if words[-1].startswith("@"):
            tail = words.pop()
            if not is_digits(tail[1:], MS_DIGITS):
                raise NotationError(
                    "line %d: %r: a pause is @ followed by milliseconds in digits 0-9 (at most %s), like @50"
                    % (number, tail, MAX_MS_TEXT)
                )
            gap = int(tail[1:])
            if not words:
                raise NotationError("line %d: a pause %s needs an action before it" % (number, tail))
        verb = words[0].lower()
        args = words[1:]
        if verb == "longpress":
            verb = "long"
        if verb not in VERBS:
            raise NotationError(
                "line %d: unknown action %r (expected one of %s)"
                % (number, words[0], ", ".join(sorted(VERBS)))
            )
        lo, hi = VERBS[verb]
        if len(args) < lo or (hi is not None and len(args) > hi):
            want = str(lo) if lo == hi else ("%d or more" % lo if hi is None else "%d to %d" % (lo, hi))
            raise NotationError("line %d: %s takes %s argument(s), got %d" % (number, verb, want, len(args)))
        if verb == "slide" and args[-1].startswith(SLIDE_MARK):
            if not is_digits(args[-1][1:], MS_DIGITS):
                raise NotationError(
                    "line %d: slide: %r: the time on each cell is ~ followed by milliseconds in digits 0-9,"
                    " like ~500" % (number, args[-1])
                )
            if len(args) < 3:
                raise NotationError("line %d: slide takes 2 or more cells before %s" % (number, args[-1]))
        if verb in ("place", "lift") and len(args) == 2:
            if args[1] not in PIECE_COLOURS:
                raise NotationError(
                    "line %d: %s: %r is not a piece colour (expected one of %s)"
                    % (number, verb, args[1], ", ".join(PIECE_COLOURS))
                )
        if verb == "press" and args and not is_digits(args[0], MS_DIGITS):
            raise NotationError(
                "line %d: press: %r is not a number of milliseconds in digits 0-9 (at most %s)"
                % (number, args[0], MAX_MS_TEXT)
            )
        if verb in ("lift", "place", "move", "slide", "flicker"):
            names = args if verb not in ("flicker", "place", "lift") else args[:1]
            if verb == "slide" and args[-1].startswith(SLIDE_MARK):
                names = args[:-1]
            for name in names:
                if name not in cells and name not in zones:
                    raise NotationError(
                        "line %d: %s: no cell %r on board %s" % (number, verb, name, board.name)
                    )
            if verb == "slide":
                for name in names:
                    if name in zones:
                        raise NotationError("line %d: slide: %r is a zone; name its slots" % (number, name))
        if verb in ("wait", "flicker") and len(args) == (1 if verb == "wait" else 2):
            if not is_digits(args[-1], MS_DIGITS):
                raise NotationError(
                    "line %d: %s: %r is not a number of milliseconds in digits 0-9 (at most %s)"
                    % (number, verb, args[-1], MAX_MS_TEXT)
                )
        if verb == "wait":
            gap = 0
        if verb == "die":
            for v in args:
                if v not in ("1", "2", "3", "4", "5", "6"):
                    raise NotationError("line %d: die: %r is not a die value 1..6" % (number, v))
        if verb == "bots" and args != ["none"]:
            for arg in args:
                seat, eq, level = arg.partition("=")
                if not eq or not seat or not level:
                    raise NotationError(
                        "line %d: bots: %r: expected SEAT=LEVEL, like red=strong (or bots none)"
                        % (number, arg)
                    )
        if verb == "expect" and args[0] == "physical" and len(args) > 1:
            raise NotationError("line %d: expect physical takes no argument" % number)
        if verb == "expect" and args[0] not in ("physical",) and len(args) < 2:
            if args[0] in EXPECTS:
                raise NotationError("line %d: expect %s needs what to expect" % (number, args[0]))
        if verb == "expect" and args[0] not in EXPECTS:
            raise NotationError(
                "line %d: expect %r: expected one of %s" % (number, args[0], ", ".join(EXPECTS))
            )
        if verb == "expect" and args[0] == "die":
            for v in args[1:]:
                if v not in ("1", "2", "3", "4", "5", "6", "none"):
                    raise NotationError(
                        "line %d: expect die: %r is not a die value 1..6 (or none)" % (number, v)
                    )
        actions.append(Action(number, verb, args, gap))
    return actions


# ---- the physical board -----------------------------------------------------------------------------


class SimBoard:
    """Pieces per cell and the sensor levels they give (digital, or analog via ANALOG_LEVELS).

    Each piece has a colour (a name, or None for a piece of no known colour), which the sensors cannot
    see but a family can: `colours[cell]` lists a cell's pieces bottom to top, and `hand` the pieces
    lifted and not yet put down, the last lifted last. `place` puts down the piece last lifted, or a
    piece of the colour asked for (from the hand if one is there)."""

    def __init__(self, board, analog=False):
        self.board = board
        self.analog = analog
        self.counts = bytearray(board.cell_count)
        self.colours = [[] for _ in range(board.cell_count)]
        self.hand = []
        self.flicker_until = {}  # cell -> ms until which its sensor reads wrong
        self.cells = _cell_names(board)
        self.zones = _zone_names(board)
        self.levels = (
            array("H", [ANALOG_LEVELS[0]] * board.channel_count) if analog else bytearray(board.channel_count)
        )

    def occupancy(self, settle_ms):
        if self.analog:
            cal = Calibration.uniform(self.board.channel_count, *ANALOG_LEVELS)
            return Occupancy(self.board.channel_count, settle_ms=settle_ms, analog=True, calibration=cal)
        return Occupancy(self.board.channel_count, settle_ms=settle_ms)

    def resolve(self, name, want_piece, colour=None):
        """The cell index a name means: a cell id, or a zone (its first slot with / without a piece;
        lifting from a zone, one with a piece of `colour` if given)."""
        if name in self.cells:
            return self.cells[name]
        for c in self.zones[name]:
            if (self.counts[c] > 0) == want_piece and (
                colour is None or not want_piece or colour in self.colours[c]
            ):
                return c
        raise NotationError(
            "%s: no %s slot in zone %s"
            % ("lift" if want_piece else "place", "filled" if want_piece else "empty", name)
        )

    def lift(self, name, colour=None):
        """Pick a piece up: the top one, or one of `colour` (a family picks the one it means)."""
        c = self.resolve(name, True, colour)
        if not self.counts[c]:
            raise NotationError("lift %s: there is no piece on %s" % (name, self.board.cell_id(c)))
        pieces = self.colours[c]
        if colour is not None and colour not in pieces:
            raise NotationError(
                "lift %s %s: there is no %s piece on %s" % (name, colour, colour, self.board.cell_id(c))
            )
        self.counts[c] -= 1
        if colour is not None:
            pieces.reverse()
            pieces.remove(colour)
            pieces.reverse()
            self.hand.append(colour)
        else:
            self.hand.append(pieces.pop() if pieces else None)
        return c

    def place(self, name, colour=None):
        c = self.resolve(name, False)
        self.counts[c] += 1
        if colour is None:
            piece = self.hand.pop() if self.hand else None
        else:
            piece = colour
            if colour in self.hand:  # the one in the hand (else one from beside the board)
                self.hand.reverse()
                self.hand.remove(colour)
                self.hand.reverse()
        self.colours[c].append(piece)
        return c

    def clear(self):
        for i in range(len(self.counts)):
            self.counts[i] = 0
            self.colours[i] = []
        self.hand = []

    def fill(self, place_counts, binding_names, place_colours=None):
        """Put pieces on the board so each place holds place_counts[i] (zones: slot by slot), of the
        colours place_colours[name] lists (a dict; None: no known colour)."""
        board = self.board
        self.clear()
        for g in range(len(binding_names)):
            n = place_counts[g]
            if not n:
                continue
            cells = board.cells_of_place(board.place_id(binding_names[g]))
            colours = list((place_colours or {}).get(binding_names[g], ()))
            for k in range(n):
                c = cells[0] if len(cells) == 1 else cells[k % len(cells)]
                self.counts[c] += 1
                self.colours[c].append(colours[k] if k < len(colours) else None)

    def table(self):
        """The colours on each place as a dict: place name -> sorted colour names (None last as "?")."""
        board = self.board
        out = {}
        for c in range(board.cell_count):
            if not self.counts[c]:
                continue
            name = board.place_names[board.place_of_cell[c]]
            out.setdefault(name, []).extend(
                (self.colours[c][k] if k < len(self.colours[c]) else None) or "?"
                for k in range(self.counts[c])
            )
        for name in out:
            out[name].sort()
        return out

    def read(self, now_ms):
        """The levels of every channel at now_ms."""
        board = self.board
        levels = self.levels
        for c in range(board.cell_count):
            n = self.counts[c]
            until = self.flicker_until.get(c)
            if until is not None:
                if now_ms < until:
                    n = 0 if n else 1
                else:
                    del self.flicker_until[c]
            ch = board.channel_of_cell[c]
            if self.analog:
                levels[ch] = ANALOG_LEVELS[n if n < 2 else 2]
            else:
                levels[ch] = 1 if n else 0
        return levels


# ---- running a script -------------------------------------------------------------------------------


def _timing(ref):
    """True while the referee counts time on an unchanged board: sensors settling, a resting token
    about to be judged (its hold), a refused press's cue, a bot's pause before it acts. Skipping
    ticks then would move or drop what the timer does."""
    if getattr(ref.occ, "unsettled", 0):
        return True
    if ref.hold not in (0, 2) or ref.cue:
        return True
    bots = ref.bots
    return bots is not None and bots[2] != 0


def _colour_name(colour):
    return lights.colour_name(colour)


def game_colours(adapter, game):
    """The colours a game puts on each place: place name -> sorted colour names (what `expect
    physical` compares the simulated table with)."""
    out = {}
    names = game.place_names
    if adapter.family == "ludo":
        for seat in game.seats:
            colour = _colour_name(adapter.colour(game, seat))
            for gi in range(seat * 4, seat * 4 + 4):
                out.setdefault(game.token_place(gi), []).append(colour)
    else:
        for seat in adapter.seats_of(game):
            colour = _colour_name(adapter.colour(game, seat))
            for p in game.pieces(seat):
                out.setdefault(names[p], []).append(colour)
    for name in out:
        out[name].sort()
    return out


class Simulator:
    """Drives a Referee with a SimBoard through the actions of a script.

    preset: as Referee takes it. seed: dice seed (bytes/hex) for reproducible rolls. frames: "full"
    (lights and GRB hex), "lights" or "none". analog: simulate analog sensors that count stacks.
    turn_clock: the referee's Ludo turn clock (False, True for the rule set's, or seconds)."""

    def __init__(self, board, preset, seed=None, frames="full", analog=None, settle_ms=200, turn_clock=False):
        self.board = board
        self.preset = preset
        self.seed = seed
        self.frames = frames
        if analog is None:
            analog = board.sensor_kind == "analog"
        self.sim = SimBoard(board, analog)
        self.settle_ms = settle_ms
        self.turn_clock = turn_clock
        self.now = 0
        self.line = 0
        self.forced = []
        self.frame = bytearray(3 * board.led_count)
        self.names = {}
        for c in range(board.cell_count):
            self.names[board.led_of_cell[c]] = board.cell_id(c)
        for role, leds in (
            ("turn", board.turn_leds),
            ("die", board.die_pip_leds),
            ("waiting", board.waiting_leds),
        ):
            for k in range(len(leds)):
                self.names[leds[k]] = "%s.%d" % (role, k)
        self.all_events = []
        self.stirred = False  # the last tick changed the scene or said something
        self.rolloff = False  # the last tick began in a Ludo roll-off
        self.narrate = False  # each event item also has its `words` (ludus play --words)
        self.bots = {}  # the seats the board plays, as config.json's `bots` names them
        self.players = {}  # what the players are called, as config.json's `names` has them
        self.budget = None  # a replay's bound on its work (ludus_host.sim.table.Budget), checked each tick
        self.referee = self._new_referee()

    def _new_referee(self):
        ref = Referee(
            self.board,
            self.preset,
            occupancy=self.sim.occupancy(self.settle_ms),
            seed=self.seed,
            turn_clock=self.turn_clock,
        )
        ref.forced_rolls = self.forced
        if self.bots:
            ref.set_bots(bot_seats({"game": self.preset, "bots": self.bots}))
        if self.players:
            ref.set_players(seat_names({"game": self.preset, "names": self.players}))
        return ref

    def set_players(self, names):
        """What the players are called, {seat: name} as config.json's `names` has them (Ludo colours or
        seat digits), in the game in play too; kept across power cuts, as the board keeps its config.
        NotationError names a bad seat or name."""
        fault = names_fault(names, self.preset)
        if fault:
            raise NotationError(fault)
        self.players = dict(names)
        self.referee.set_players(seat_names({"game": self.preset, "names": self.players}))

    def set_bots(self, bots):
        """The seats the board plays, {seat: level} as config.json's `bots` has them (Ludo colours or
        seat digits); kept across power cuts, as the board keeps its config. NotationError names a bad
        seat or level."""
        fault = bots_fault(bots, self.preset)
        if fault:
            raise NotationError(fault)
        self.bots = dict(bots)
        self.referee.set_bots(bot_seats({"game": self.preset, "bots": self.bots}))

    # -- output --

    def _out(self, item):
        out = {"t": self.now, "line": self.line}
        if "event" in item:
            out["event"] = item["event"]
        out.update(item)
        return out

    def _frame_item(self):
        ref = self.referee
        ref.render(self.now, self.frame)
        lit = []
        for led, meaning, colour in ref.lights():
            entry = [self.names.get(led, "led%d" % led), lights.meaning_name(meaning)]
            if colour and palette.is_player_coloured(meaning):
                entry.append(_colour_name(colour))
            lit.append(entry)
        item = {"frame": ref.describe(), "lights": lit}
        shown = ref.scene.die_shown() if ref.phase == 1 else []
        if shown:
            item["die"] = shown
        if self.frames == "full":
            item["grb"] = self.frame.hex()
        return self._out(item)

    def tick(self, button=NO_PRESS):
        """One referee tick at self.now on the board as it is: (the scene changed, the events). The
        caller moves the clock on (the simulator's own steps, the browser simulator's table)."""
        self.rolloff = in_rolloff(self.referee.game)  # (the events' words: a roll of the roll-off)
        changed = self.referee.tick(self.sim.read(self.now), self.now, button)
        return changed, self.referee.take_events()

    def words(self, event):
        """An event of the last tick in words, as the simulator's page writes it (ludus_host.sim.words)."""
        ref = self.referee
        players = ref.record.players if ref.record is not None else None
        return words(event, ref.adapter, ref.game, players, self.rolloff)

    def _step(self, button=NO_PRESS):
        changed, events = self.tick(button)
        out = []
        for ev in events:
            self.all_events.append(ev)
            item = self._out(dict(ev))
            if self.narrate:
                item["words"] = self.words(ev)
            out.append(item)
        if changed and self.frames != "none":
            out.append(self._frame_item())
        self.now += TICK_MS
        # what happened, not what is printed: the frames option must not change when time is skipped
        self.stirred = changed or bool(events)
        return out

    def _run_for(self, ms, button=NO_PRESS):
        out = self._step(button)
        end = self.now + ms - TICK_MS
        quiet = 0
        budget = self.budget
        while self.now < end:
            if budget is not None:
                budget.check(self.line)
            out.extend(self._step())
            if self.stirred:
                quiet = 0
                continue
            quiet += TICK_MS
            if quiet >= QUIET_MS and not self.sim.flicker_until and not _timing(self.referee):
                self._skip_quiet(end)
                quiet = 0
        return out

    def _skip_quiet(self, end):
        # A long quiet wait costs nothing: the board has been still for QUIET_MS, so the referee's ticks
        # would change nothing until the turn clock (if any) runs out; jump to just before that, whole
        # ticks at a time, so the clock still fires on the same tick as when every tick is run.
        target = end
        ref = self.referee
        if ref.clock is not None:
            deadline = ref.clock[1] + ref.clock[0] - 2 * TICK_MS
            if deadline <= self.now:
                return
            target = min(target, deadline)
        ticks = (target - self.now) // TICK_MS
        if ticks > 0:
            self.now += ticks * TICK_MS

    # -- actions --

    def run(self, actions):
        """Yield the output dicts of each action in turn; a physically impossible action raises
        NotationError naming its line (everything before it has been yielded)."""
        yield from self._run_for(TICK_MS)
        for action in actions:
            self.line = action.line
            try:
                yield from self._do(action)
            except LudusError as exc:
                raise NotationError("line %d: %s" % (action.line, exc)) from None
        yield self._out(self.summary())

    def summary(self):
        ref = self.referee
        item = {"end": ref.describe()}
        if ref.game is not None:
            item["position"] = ref.game.notation()
            item["actions"] = list(ref.record.actions)
        return item

    def _do(self, a):
        verb = a.verb
        args = a.args
        sim = self.sim
        if verb == "lift":
            sim.lift(args[0], args[1] if len(args) > 1 else None)
        elif verb == "place":
            sim.place(args[0], args[1] if len(args) > 1 else None)
        elif verb == "move":
            sim.lift(args[0])
            yield from self._run_for(CARRY_MS)
            sim.place(args[1])
        elif verb == "slide":
            per = SLIDE_MS
            if args[-1].startswith(SLIDE_MARK):
                per = int(args[-1][1:])
                args = args[:-1]
            sim.lift(args[0])
            c = sim.place(args[1])
            for name in args[2:]:
                yield from self._run_for(per)
                sim.lift(sim.board.cell_id(c))
                c = sim.place(name)
        elif verb == "press":
            held = int(args[0]) if args else 0
            if held >= LONG_PRESS_MS:  # the button driver reports a long press once held that long
                yield from self._run_for(LONG_PRESS_MS)
                yield from self._run_for(held - LONG_PRESS_MS + TICK_MS, LONG_PRESS)
            else:  # a short press is reported on release
                if held > TICK_MS:
                    yield from self._run_for(held - TICK_MS)
                yield from self._run_for(TICK_MS, SHORT_PRESS)
        elif verb == "long":
            yield from self._run_for(LONG_PRESS_MS, LONG_PRESS)
        elif verb == "wait":
            yield from self._run_for(int(args[0]))
        elif verb == "die":
            self.forced.extend(int(v) for v in args)
            return
        elif verb == "flicker":
            c = sim.resolve(args[0], True) if args[0] in sim.zones else sim.cells[args[0]]
            sim.flicker_until[c] = self.now + (int(args[1]) if len(args) > 1 else FLICKER_MS)
        elif verb == "power":
            state = self.referee.state()
            saved = json.loads(json.dumps(state))  # what a journal would hold
            cut = self._out({"event": "power_cut"})
            if self.narrate:
                cut["words"] = self.words(cut)
            yield cut
            self.referee = self._new_referee()
            self.referee.restore(saved)
        elif verb == "setup":
            self._setup(args[0] if args else None)
        elif verb == "start":
            yield from self._start(" ".join(args))
        elif verb == "clear":
            sim.clear()
        elif verb == "bots":
            self.set_bots({} if args == ["none"] else dict(arg.split("=", 1) for arg in args))
        elif verb == "name":
            names = dict(self.players)
            names.pop(args[0], None)
            if len(args) > 1:
                names[args[0]] = " ".join(args[1:])
            self.set_players(names)
        elif verb == "expect":
            self._expect(args)
            return
        if a.gap:
            yield from self._run_for(a.gap)

    def _start(self, text):
        # the pieces of a position on the board, and the referee continuing it as after a power cut
        from ludus.dice import Dice
        from ludus.record import GameRecord

        game = self.referee.adapter.position(text)
        counts = bytearray(len(game.place_names))
        game.fill_counts(counts)
        self.sim.fill(counts, game.place_names, game_colours(self.referee.adapter, game))
        dice = Dice(
            self.seed if self.seed is None or not isinstance(self.seed, str) else bytes.fromhex(self.seed)
        )
        record = GameRecord(text, {}, dice.commitment())
        self.referee = self._new_referee()
        # restored before its first tick, as the firmware restores a journal at boot: that tick reads
        # the board as the position's (a setup that is no start is never judged)
        self.referee.restore({"record": record.to_json(), "seed": dice.seed_hex(), "dice_used": 0})
        yield from self._run_for(TICK_MS)

    def _setup(self, start):
        ref = self.referee
        ad = ref.adapter
        if start is None:
            text = self.preset
            game = None
            for name, g in ad.starts():
                if name == text:
                    game = g
            if game is None:
                game = (
                    ad.position(text)
                    if "/" in text and text.count("/") >= (1 if ad.family == "checkers" else 2)
                    else None
                )
            if game is None:
                raise NotationError("setup: %r is not a start; give one, like setup ludo/classic/4" % text)
        else:
            game = ad.position(start)
        counts = bytearray(len(game.place_names))
        game.fill_counts(counts)
        self.sim.fill(counts, game.place_names, game_colours(ad, game))

    def _expect(self, args):
        ref = self.referee
        what = args[0]
        rest = args[1:]
        if what == "situation":
            got = ref.describe().get("situation", "-")
        elif what == "phase":
            got = ref.describe()["phase"]
        elif what == "turn":
            got = str(ref.game.turn) if ref.game is not None else "-"
        elif what == "position":
            got = ref.game.notation() if ref.game is not None else "-"
            if got != " ".join(rest):
                raise NotationError("expect position: the game is at %r" % got)
            return
        elif what in ("event", "no-event"):
            want = " ".join(rest)
            found = False
            for ev in self.all_events:
                text = ev["event"]
                if "move" in ev:
                    text += " " + ev["move"]
                if text == want or ev["event"] == want:
                    found = True
            self.all_events = []
            if found != (what == "event"):
                raise NotationError(
                    "expect %s %s: %s" % (what, want, "not seen" if what == "event" else "seen")
                )
            return
        elif what == "lit":
            self._expect_lit(rest[0], " ".join(rest[1:]) or None)
            return
        elif what == "die":
            rolls = [] if rest == ["none"] else [int(v) for v in rest]
            shown = ref.scene.die_shown() if ref.phase == 1 else []
            if shown != rolls:
                raise NotationError(
                    "expect die %s: the die shows %s"
                    % (" ".join(rest), " ".join(map(str, shown)) or "nothing")
                )
            return
        elif what == "physical":
            self._expect_physical()
            return
        elif what == "refused":
            want = " ".join(rest)
            seen = [ev.get("reason", "") for ev in self.all_events if ev["event"] == "refused"]
            self.all_events = []
            if not any(want in reason for reason in seen):
                raise NotationError(
                    "expect refused %s: %s"
                    % (want, "; ".join(map(repr, seen)) if seen else "nothing refused")
                )
            return
        if got != " ".join(rest):
            raise NotationError("expect %s %s: it is %s" % (what, " ".join(rest), got))

    def _leds_named(self, name):
        # the LEDs a name means: a cell id, a zone (its slots), an indicator by index (turn.0, waiting.1,
        # die.3) or by its id in the board file (turn.green)
        sim = self.sim
        board = self.board
        if name in sim.cells:
            return [board.led_of_cell[sim.cells[name]]]
        if name in sim.zones:
            return [board.led_of_cell[c] for c in sim.zones[name]]
        for led, text in self.names.items():
            if text == name:
                return [led]
        # the shipped boards' ids: turn.green ... (Ludo, by seat colour), turn.p0 ... (checkers, by point)
        role, _, what = name.partition(".")
        k = None
        if role == "turn" and what in COLOURS:
            k = COLOURS.index(what)
        elif role == "turn" and what[:1] == "p" and what[1:].isdigit():
            k = int(what[1:])
        if k is not None and k < len(board.turn_leds):
            return [board.turn_leds[k]]
        return None

    def _expect_lit(self, name, meaning):
        leds = self._leds_named(name)
        if leds is None:
            raise NotationError(
                "expect lit: no cell, zone or indicator %r (indicators: turn.K, waiting.K, die.K)" % name
            )
        shown = [lights.meaning_name(self.referee.scene.meaning_at(led)) for led in leds]
        if meaning is None:
            if all(m == "none" for m in shown):
                raise NotationError("expect lit %s: it is dark" % name)
        elif meaning not in shown:
            raise NotationError(
                "expect lit %s %s: it shows %s" % (name, meaning, ", ".join(sorted(set(shown))))
            )

    def _expect_physical(self):
        # the simulated table, colours included, against the game: what presence sensors cannot check
        ref = self.referee
        if ref.game is None:
            raise NotationError("expect physical: no game is in play")
        want = game_colours(ref.adapter, ref.game)
        got = self.sim.table()
        wrong = []
        for place in sorted(set(want) | set(got)):
            a = got.get(place, [])
            b = want.get(place, [])
            if a != b:
                wrong.append(
                    "%s holds %s, the game has %s"
                    % (place, " ".join(a) or "nothing", " ".join(b) or "nothing")
                )
        if self.sim.hand:
            wrong.append("%d piece(s) still in the hand" % len(self.sim.hand))
        if wrong:
            raise NotationError("expect physical: " + "; ".join(wrong))

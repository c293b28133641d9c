"""The runner: the real referee on a virtual board with a die button and a millisecond clock, driven by
a play script's actions one at a time (do) or all at once (run), with what it said and lit.

    board = load_board("ludo52")
    script = parse_script(text, board)          # NotationError naming the line for a bad line
    sim = Simulator(board, "ludo/classic/4", seed=b"...")
    for item in sim.run(script):                # dicts: events, frames, the end summary
        print(json.dumps(item))
"""

import json
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

import ludus.light.palette as palette
from ludus.board.definition import BoardDefinition
from ludus.config import bot_seats, bots_fault, names_fault, seat_names
from ludus.dice import Dice
from ludus.errors import LudusError, NotationError
from ludus.ludo.geometry import COLOURS
from ludus.record import GameRecord
from ludus.referee import LONG_PRESS, NO_PRESS, SHORT_PRESS, Referee

from ludus_host.link.words import describe, in_rolloff
from ludus_host.virtual import colours as lights
from ludus_host.virtual.board import SimBoard, colour_name, game_colours
from ludus_host.virtual.script import SLIDE_MARK, Action

TICK_MS = 10
CARRY_MS = 100  # lift-to-place time of a `move`
SLIDE_MS = 60  # time a slid piece spends on each cell it crosses
FLICKER_MS = 20
LONG_PRESS_MS = 800
QUIET_MS = 2000  # a board unchanged this long, with nothing flickering, waits without ticking


class WorkBound(Protocol):
    """What bounds a replay's work (ludus_host.sim.table.Budget): check() raises to stop it."""

    def check(self, where: int | str) -> None: ...


def _timing(ref: Any) -> bool:
    """True while the referee counts time on an unchanged board: sensors settling, a resting token
    about to be judged (its hold), a refused press's cue, a bot's pause before it acts. Skipping
    ticks then would move or drop what the timer does."""
    if getattr(ref.occ, "unsettled", 0):
        return True
    if ref.hold not in (0, 2) or ref.cue:
        return True
    bots = ref.bots
    return bots is not None and bots[2] != 0


class Simulator:
    """Drives a Referee with a SimBoard through the actions of a script.

    preset: as Referee takes it. seed: dice seed (bytes/hex) for reproducible rolls. frames: "full"
    (lights and GRB hex), "lights" or "none". analog: simulate analog sensors that count stacks.
    turn_clock: the referee's Ludo turn clock (False, True for the rule set's, or seconds)."""

    def __init__(
        self,
        board: BoardDefinition,
        preset: str,
        seed: bytes | str | None = None,
        frames: str = "full",
        analog: bool | None = None,
        settle_ms: int = 200,
        turn_clock: bool | int = False,
    ) -> None:
        self.board = board
        self.preset = preset
        self.seed = seed
        self.frames = frames
        if analog is None:
            analog = board.sensor_kind == "analog"
        self.physical = SimBoard(board, analog)
        self.settle_ms = settle_ms
        self.turn_clock = turn_clock
        self.now = 0
        self.line = 0
        self.forced: list[int] = []
        self.frame = bytearray(3 * board.led_count)
        self.names: dict[int, str] = {}
        for c in range(board.cell_count):
            self.names[board.led_of_cell[c]] = board.cell_id(c)
        for role, leds in (
            ("turn", board.turn_leds),
            ("die", board.die_pip_leds),
            ("waiting", board.waiting_leds),
        ):
            for k in range(len(leds)):
                self.names[leds[k]] = "%s.%d" % (role, k)
        self.all_events: list[dict] = []
        self.stirred = False  # the last tick changed the scene or said something
        self.rolloff = False  # the last tick began in a Ludo roll-off
        # the board's loop books a tick's events at the next tick, and a new game's start record at
        # the one after; the referee then leaves its deferred work a tick (ludus.app.App.step): the
        # same here, so that the frames come at the ticks the board's come
        self._booking = False
        self._start_booking = False
        self._new_game_booked = False
        self.narrate = False  # each event item also has its `words` (ludus play --words)
        self.bots: dict = {}  # the seats the board plays, as config.json's `bots` names them
        self.players: dict = {}  # what the players are called, as config.json's `names` has them
        # a replay's bound on its work (ludus_host.sim.table.Budget), checked each tick
        self.budget: WorkBound | None = None
        self.referee = self._new_referee()

    def _new_referee(self) -> Referee:
        # a board started afresh has nothing left to book
        self._booking = self._start_booking = self._new_game_booked = False
        ref = Referee(
            self.board,
            self.preset,
            occupancy=self.physical.occupancy(self.settle_ms),
            seed=self.seed,
            turn_clock=self.turn_clock,
        )
        ref.forced_rolls = self.forced
        if self.bots:
            ref.set_bots(bot_seats({"game": self.preset, "bots": self.bots}))
        if self.players:
            ref.set_players(seat_names({"game": self.preset, "names": self.players}))
        return ref

    def set_players(self, names: dict) -> None:
        """What the players are called, {seat: name} as config.json's `names` has them (Ludo colours or
        seat digits), in the game in play too; kept across power cuts, as the board keeps its config.
        NotationError names a bad seat or name."""
        fault = names_fault(names, self.preset)
        if fault:
            raise NotationError(fault)
        self.players = dict(names)
        self.referee.set_players(seat_names({"game": self.preset, "names": self.players}))

    def set_bots(self, bots: dict) -> None:
        """The seats the board plays, {seat: level} as config.json's `bots` has them (Ludo colours or
        seat digits); kept across power cuts, as the board keeps its config. NotationError names a bad
        seat or level."""
        fault = bots_fault(bots, self.preset)
        if fault:
            raise NotationError(fault)
        self.bots = dict(bots)
        self.referee.set_bots(bot_seats({"game": self.preset, "bots": self.bots}))

    # -- output --

    def _out(self, item: dict) -> dict:
        out = {"t": self.now, "line": self.line}
        if "event" in item:
            out["event"] = item["event"]
        out.update(item)
        return out

    def _frame_item(self) -> dict:
        ref = self.referee
        ref.render(self.now, self.frame)
        lit = []
        for led, meaning, colour in ref.lights():
            entry = [self.names.get(led, "led%d" % led), lights.meaning_name(meaning)]
            if colour and palette.is_player_coloured(meaning):
                entry.append(colour_name(colour))
            lit.append(entry)
        item = {"frame": ref.describe(), "lights": lit}
        shown = ref.scene.die_shown() if ref.phase == 1 else []
        if shown:
            item["die"] = shown
        if self.frames == "full":
            item["grb"] = self.frame.hex()
        return self._out(item)

    def tick(self, button: int = NO_PRESS) -> tuple[bool, list[dict]]:
        """One referee tick at self.now on the board as it is: (the scene changed, the events). The
        caller moves the clock on (the simulator's own steps, the browser simulator's table)."""
        self.rolloff = in_rolloff(self.referee.game)  # (the events' words: a roll of the roll-off)
        ref = self.referee
        before = len(ref.events)  # (said between ticks, a restore's: the board books them at this one)
        booked = self._booking or self._start_booking or before > 0
        changed = ref.tick(self.physical.read(self.now), self.now, button, not booked)
        events = ref.take_events()
        # the start record follows at the tick after the one that books a new game
        self._start_booking = self._new_game_booked or any(
            e.get("event") == "new_game" for e in events[:before]
        )
        self._booking = len(events) > before
        self._new_game_booked = any(e.get("event") == "new_game" for e in events[before:])
        return changed, events

    def words(self, event: dict) -> str:
        """An event of the last tick in words, as the simulator's page writes it (link.words)."""
        ref = self.referee
        players = ref.record.players if ref.record is not None else None
        return describe(event, ref.adapter, ref.game, players, self.rolloff)

    def _step(self, button: int = NO_PRESS) -> list[dict]:
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

    def _run_for(self, ms: int, button: int = NO_PRESS) -> list[dict]:
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
            if quiet >= QUIET_MS and not self.physical.flicker_until and not _timing(self.referee):
                self._skip_quiet(end)
                quiet = 0
        return out

    def _skip_quiet(self, end: int) -> None:
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

    def run(self, actions: Iterable[Action]) -> Iterator[dict]:
        """Yield the output dicts of each action in turn; a physically impossible action raises
        NotationError naming its line (everything before it has been yielded)."""
        yield from self._run_for(TICK_MS)
        for action in actions:
            self.line = action.line
            try:
                yield from self.do(action)
            except LudusError as exc:
                raise NotationError("line %d: %s" % (action.line, exc)) from None
        yield self._out(self.summary())

    def summary(self) -> dict:
        ref = self.referee
        item = {"end": ref.describe()}
        if ref.game is not None:
            item["position"] = ref.game.notation()
            item["actions"] = list(ref.record.actions)
        return item

    def do(self, a: Action) -> Iterator[dict]:
        verb = a.verb
        args = a.args
        sim = self.physical
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
            self.setup(args[0] if args else None)
        elif verb == "start":
            yield from self.start(" ".join(args))
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

    def start(self, text: str) -> Iterator[dict]:
        # the pieces of a position on the board, and the referee continuing it as after a power cut

        game = self.referee.adapter.position(text)
        counts = bytearray(len(game.place_names))
        game.fill_counts(counts)
        self.physical.fill(counts, game.place_names, game_colours(self.referee.adapter, game))
        dice = Dice(
            self.seed if self.seed is None or not isinstance(self.seed, str) else bytes.fromhex(self.seed)
        )
        record = GameRecord(text, {}, dice.commitment())
        self.referee = self._new_referee()
        # restored before its first tick, as the firmware restores a journal at boot: that tick reads
        # the board as the position's (a setup that is no start is never judged)
        self.referee.restore({"record": record.to_json(), "seed": dice.seed_hex(), "dice_used": 0})
        yield from self._run_for(TICK_MS)

    def setup(self, start: str | None) -> None:
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
        self.physical.fill(counts, game.place_names, game_colours(ad, game))

    def _expect(self, args: list[str]) -> None:
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

    def _leds_named(self, name: str) -> list[int] | None:
        # the LEDs a name means: a cell id, a zone (its slots), an indicator by index (turn.0, waiting.1,
        # die.3) or by its id in the board file (turn.green)
        sim = self.physical
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

    def _expect_lit(self, name: str, meaning: str | None) -> None:
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

    def _expect_physical(self) -> None:
        # the simulated table, colours included, against the game: what presence sensors cannot check
        ref = self.referee
        if ref.game is None:
            raise NotationError("expect physical: no game is in play")
        want = game_colours(ref.adapter, ref.game)
        got = self.physical.colours_by_place()
        wrong = []
        for place in sorted(set(want) | set(got)):
            a = got.get(place, [])
            b = want.get(place, [])
            if a != b:
                wrong.append(
                    "%s holds %s, the game has %s"
                    % (place, " ".join(a) or "nothing", " ".join(b) or "nothing")
                )
        if self.physical.hand:
            wrong.append("%d piece(s) still in the hand" % len(self.physical.hand))
        if wrong:
            raise NotationError("expect physical: " + "; ".join(wrong))

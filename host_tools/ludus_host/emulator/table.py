"""A person at the emulated board: puts a game's pieces on it, rolls, and plays moves, the way players
at a real table do, while the firmware on the emulated Pico referees. The rules on CPython only say
where the pieces go; what counts is what the firmware answers over USB.

    table = PicoTable(pico, board, "checkers/6", seed=1)
    table.setup()                      # every piece placed; the firmware's new_game event
    while not table.over():
        table.turn()                   # (Ludo: the die pressed and its roll read) a move carried out

Used by the emulated-Pico tests (power cuts), `ludus bench --pico` (whole games) and ludus emulate."""

import random
from collections.abc import Callable, Iterable
from typing import Any

from ludus.board.definition import BoardDefinition
from ludus.errors import LudusError
from ludus.games import position

from ludus_host.emulator.harness import EmulatedPico

LIFT_MS = 120  # a hand moving a piece: off one cell, onto another this much later
WAIT_MS = 8000  # the longest a move or a roll may take to be judged before the table gives up
REACH_MS = 300  # a person's pause between the last move's lights and their own first touch (bench)
PRESS_MS = 120  # a quick press of the die by a person


class TableError(LudusError):
    """The firmware did not answer as a referee should (no event in time, a different roll)."""


class PowerCut(TableError):
    """The power went off (a cut the test asked for) while the table waited for the firmware."""


class PicoTable:
    def __init__(
        self,
        pico: EmulatedPico,
        board: BoardDefinition,
        preset: str,
        seed: int = 1,
        chooser: Callable[[Any], Any] | None = None,
        reach_ms: int = 0,
        press_ms: int = PRESS_MS,
    ) -> None:
        self.pico = pico
        self.press_ms = press_ms  # how long a short press holds the die button
        # the board left alone this long before each turn (0: the next touch the moment the last move
        # is announced, which no person manages; the tests play so, to be quick)
        self.reach_ms = reach_ms
        self.board = board
        self.preset = preset
        self.game = position(preset)
        self.binding = board.bind(self.game.place_names)
        self.on = [0] * len(self.game.place_names)  # pieces on each place, as the table has them
        self.rng = random.Random(seed)
        self.chooser = chooser  # game -> move; default: a random legal move
        self.moves = 0  # moves the firmware has announced
        self.in_flight: Any = None  # a move carried out whose announcement has not come (a power cut)
        self.dice = hasattr(self.game, "awaiting_roll")

    # -- the pieces

    def _set(self, place: int, count: int) -> dict[int, int]:
        cells = self.binding.cells(place)
        changes = {}
        for k, cell in enumerate(cells):
            was = k < self.on[place]
            now = k < count
            if was != now:
                changes[self.board.channel_of_cell[cell]] = 0 if now else 1
        self.on[place] = count
        return changes

    def apply(self, deltas: Iterable[tuple[int, int]]) -> None:
        """Lift every piece that leaves, then put down every piece that arrives, LIFT_MS apart."""
        lifts: dict[int, int] = {}
        puts: dict[int, int] = {}
        for place, delta in deltas:
            (lifts if delta < 0 else puts).update(self._set(place, self.on[place] + delta))
        if lifts:
            self.pico.lines(lifts)
            self.pico.run(LIFT_MS)
        if puts:
            self.pico.lines(puts)

    def setup(self) -> dict:
        """Every piece of the starting position on the board; the firmware's new_game event."""
        counts = bytearray(len(self.on))
        self.game.fill_counts(counts)
        self.apply([(p, c) for p, c in enumerate(counts) if c])
        event = self._wait(("new_game", "setup_choice"), "setting up")
        if event is not None and event["event"] == "setup_choice":
            # pieces that several setups share (six players, or two with three sets each): short presses
            # step through the choices, a long press takes the one shown (docs/referee.md)
            starts = event["starts"]
            if self.preset not in starts:
                raise TableError("the board offers %s, not %s" % (starts, self.preset))
            for _ in range(starts.index(self.preset)):
                self.press()
                self.pico.run(200)
            seen = len(self.pico.events)
            self.press(900)  # (taken once held 800 ms: new_game may come while it is held)
            event = self._wait(("new_game",), "choosing %s" % self.preset, since=seen)
        if event is None:
            raise TableError("no new_game from the firmware after the pieces of %s were placed" % self.preset)
        return event

    # -- play

    def over(self) -> bool:
        return self.game.is_over()

    def _wait(self, names: tuple[str, ...], what: str, since: int | None = None) -> dict | None:
        """The first event named in names (from events[since:] if given: one that came during a press),
        waiting up to WAIT_MS for it; PowerCut if the power went off meanwhile."""
        if since is not None:
            for e in self.pico.events[since:]:
                if e.get("event") in names:
                    return e
        event = self.pico.wait(lambda e: e.get("event") in names, WAIT_MS)
        if event is None and self.pico.off is not None:  # (an event that came before the cut counts)
            raise PowerCut("the power was cut (%s) while %s" % (self.pico.off, what))
        return event

    def press(self, ms: int | None = None) -> None:
        # a short press lasts press_ms (120 ms by default, a quick press by a person; `ludus bench
        # --pico --pico-press` plays games with shorter taps)
        self.pico.press(True)
        self.pico.run(self.press_ms if ms is None else ms)
        self.pico.press(False)

    def roll(self) -> None:
        """Press the die; the firmware's roll events (one or two values) applied to the table's game."""
        seen = len(self.pico.events)
        self.press()
        event = self._wait(("roll", "refused"), "rolling", since=seen)
        if event is None or event["event"] == "refused":
            raise TableError("the die press was not taken: %r" % (event,))
        self.pico.run(40)  # a second die's event follows in the same tick
        for e in self.pico.events[seen:]:
            if e.get("event") == "roll":
                self.game.apply_roll(e["value"])
            elif e.get("event") == "move":  # a move the board made itself (nothing to carry out)
                self.game.push(self.game.parse_move(e["move"]))
                self.moves += 1

    def turn(self) -> Any:
        """One turn: (the die), a legal move chosen and carried out, and the firmware's move event."""
        game = self.game
        if self.pico.off is not None:
            raise PowerCut("the power is off (%s)" % (self.pico.off,))
        if self.reach_ms:
            self.pico.run(self.reach_ms)
        if self.dice and game.awaiting_roll():
            self.roll()
            return None
        legal = game.legal_moves()
        move = self.chooser(game) if self.chooser else self.rng.choice(legal)
        seen = len(self.pico.events)
        self.in_flight = move
        self.apply(game.move_changes(move))
        event = self._wait(("move", "pending"), "playing %s" % move)
        if event is None or event["event"] == "pending":
            # a jump chain that could go on, or an arrival the sensors cannot see: a short press says
            # the move ends here (docs/referee.md)
            seen = len(self.pico.events)
            self.press()
            event = self._wait(("move",), "confirming %s" % move, since=seen)
        if event is None:
            tail = self.pico.events[seen:][-5:]
            raise TableError("no move event for %s after it was carried out (last events: %r)" % (move, tail))
        game.push(move)
        self.moves += 1
        self.in_flight = None
        return move

    def recover(self, state: dict, restored: int | None = None) -> str:
        """After a power cut, with the firmware's `state` reply once it has booted: the move that was
        in flight is either in the journal (kept) or lost, and then the pieces on the board show it
        made; the board takes it again as a move, or as a pending jump that a press confirms. The
        table's game follows. restored: the actions the journal gave back (its `journal` event), which
        tells a move kept from one taken again. TableError if the board did neither."""
        move = self.in_flight
        if move is None:
            return "none in flight"
        self.in_flight = None
        if state["actions"] == self.moves + 1:
            how = "kept" if restored == self.moves + 1 else "taken again"
        else:
            situation = state["referee"]["situation"]
            if situation == "pending":
                seen = len(self.pico.events)
                self.press()
                if self._wait(("move",), "confirming %s after the cut" % move, since=seen) is None:
                    raise TableError("the board did not take %s again after the cut" % move)
                how = "confirmed"
            elif situation == "idle" and any(e.get("event") == "move" for e in self.pico.events[-5:]):
                how = "taken again"
            else:
                raise TableError("after the cut the board is %r with %s on it" % (situation, move))
        self.game.push(move)
        self.moves += 1
        return how


def play_until_cut(table: PicoTable, at_op: int, seed: int, max_turns: int = 60) -> dict:
    """Turns until the power goes off during the at_op-th flash program or erase from now (left half
    done, its bytes drawn from seed): the cut (kind, address, op). TableError if none came."""
    table.pico.cut(at_op=at_op, seed=seed)
    try:
        for _ in range(max_turns):
            table.turn()
    except PowerCut:
        cut = table.pico.off
        assert cut is not None  # (PowerCut is raised once the Pico is off)
        return cut
    raise TableError("%d turns and no flash operation number %d to cut" % (max_turns, at_op))


def power_back(table: PicoTable, commitment: str, boot_ms: int = 120000) -> str:
    """Power on after a cut and check the journal's promise on the rebooted board: every move announced
    before the cut is restored and at most the one being written is lost; the game is the same (its
    dice commitment); the board takes the move in flight again from the pieces (table.recover). Returns
    how it came back ("kept", "confirmed", "taken again", "none in flight"); TableError otherwise."""
    pico = table.pico
    announced = table.moves
    seen = len(pico.events)
    pico.power_on()
    if pico.wait(lambda e: e.get("event") == "self_test", boot_ms) is None:
        raise TableError("no self-test after the power came back: %r" % pico.usb[-500:])
    restored = [e["restored"] for e in pico.events[seen:] if e.get("event") == "journal"]
    if not restored or restored[-1] not in (announced, announced + 1):
        raise TableError("%d moves announced before the cut, %r restored" % (announced, restored))
    pico.run(1500)
    state = pico.command("state")
    if not state or not state.get("ok") or state.get("commitment") != commitment:
        raise TableError("after the cut the board has another game: %r" % (state,))
    how = table.recover(state, restored[-1])
    after = pico.command("state")
    if after["actions"] != table.moves:
        raise TableError(
            "after the cut: %d actions on the board, %d moves made" % (after["actions"], table.moves)
        )
    bad = [e for e in pico.events[seen:] if e.get("event") in ("fault", "safe_mode")]
    if bad:
        raise TableError("after the cut: %r" % bad)
    return how

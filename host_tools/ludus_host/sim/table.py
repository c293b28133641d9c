"""The browser simulator's table: the firmware's referee, its light scene and its button driver, run in
this process against a simulated board (ludus_host.virtual.runner) and the clock, and the replays of a play
script or a game record as steps the page can show.

    table = LiveTable("ludo/classic/4")
    table.act({"do": "setup"})                     # the start position's pieces on the board
    table.act({"do": "button", "down": True})      # the die button held...
    table.advance(table.now + 100)
    table.act({"do": "button", "down": False})     # ...and let go: a short press, the referee rolls
    table.advance(table.now + 100)
    table.state()["log"][-1]                       # 'green rolled 4'
    table.script()                                 # what was done, as a `ludus play` script

Nothing here decides a rule: a lifted piece, a placed piece and a press go to the referee exactly as the
sensors and the button driver would give them on the board, and the page shows the referee's frame."""

import hashlib
import re
import threading
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from ludus.board.definition import BoardDefinition
from ludus.errors import BoardDefinitionError, LudusError, NotationError
from ludus.hw.button import Button
from ludus.hw.fake import FakePin
from ludus.ludo.season import KEY_DIGITS, Season, rules_of
from ludus.record import GameRecord
from ludus.record.actions import apply_action
from ludus.referee.presets import adapter_for, split_preset

from ludus_host import paths
from ludus_host.link.words import describe, in_rolloff, seat_colour
from ludus_host.records.season import record_players
from ludus_host.virtual import colours as lights
from ludus_host.virtual.board import SimBoard, game_colours, load_board
from ludus_host.virtual.runner import TICK_MS, Simulator
from ludus_host.virtual.script import PIECE_COLOURS, Action, parse_script
from ludus_host.virtual.words import (
    bot_turn_words,
    details,
    move_places,
    prompt,
    seat_words,
    waiting_rolls,
)

# the games the page offers: (preset, words)
GAMES = (
    ("checkers/2", "Chinese Checkers"),
    ("ludo/classic/4", "Ludo, classic"),
    ("ludo/danish/4", "Ludo, Danish"),
    ("ludo/master/4", "Ludo, master"),
    ("ludo/blitz/4", "Ludo, blitz"),
    ("ludo/arrow/4", "Ludo, arrow"),
    ("ludo/teamup/4", "Ludo, team-up"),
    ("ludo/hebrew-40/4", "Ludo, Hebrew 40"),
    ("ludo/hebrew-56/4", "Ludo, Hebrew 56"),
)
SPEEDS = (0.25, 0.5, 1, 2, 4, 8)
# the piezo's cue for each event, as the firmware's loop plays them (ludus.app.App._cue; a test checks)
CUES = {"illegal": "illegal", "refused": "refused", "move": "your_turn"}
MAX_CUES = 8  # cues the page is sent (it plays those newer than the last it played)


def bot_seat_names(preset: str) -> list[list[str]]:
    """The seats a page may hand to a bot, as [key in config.json's `bots`, words]: the four Ludo
    colours, or Chinese Checkers seats 0..5 (in the order of the setup put out)."""
    if preset.startswith("ludo/"):
        return [[c, c] for c in ("green", "yellow", "red", "blue")]
    return [[str(k), "seat %d" % (k + 1)] for k in range(6)]


class Club:
    """What the simulator keeps from table to table, as a board keeps it from game to game: the players'
    names (per game family) and a season of each Ludo rule set played (ludus.ludo.season, the code the
    board counts with), every finished game counted by its players' names."""

    def __init__(self) -> None:
        self.names: dict[str, dict] = {"ludo": {}, "checkers": {}}
        self.seasons: dict[str, Season] = {}  # rules -> Season

    def count(self, record: GameRecord, game: Any) -> tuple[str, Any] | None:
        """Count a finished game in its rule set's season: (rules, kind), or None for a game that is not
        Ludo or was counted already."""

        rules = rules_of(record.start)
        if rules is None or record.result is None:
            return None
        season = self.seasons.get(rules)
        if season is None:
            season = self.seasons[rules] = Season(rules)
        # the whole record's digest, not its dice commitment alone: with a fixed --seed the simulator's
        # tables share commitments, and each of their games is a game of the season
        key = hashlib.sha256(record.to_json().encode()).hexdigest()[:KEY_DIGITS]
        if key in season.seen:
            return None
        players, placements = record_players(record, game)
        return rules, season.add(players, placements, label=key, key=key, notes=record.notes)

    def standings(self, preset: str) -> dict | None:
        """The season of a preset's rule set as Season.result() gives it, or None (Chinese Checkers)."""
        family, rules = split_preset(preset)
        if family != "ludo":
            return None
        season = self.seasons.get(rules)
        return (season if season is not None else Season(rules)).result()

    def new_season(self, preset: str) -> None:
        family, rules = split_preset(preset)
        if family != "ludo":
            raise NotationError("new_season: Chinese Checkers keeps no season")
        self.seasons.pop(rules, None)


def lead_words(table: dict) -> str:
    """Who leads a season's table (Season.result()), in words: "Anna leads with 5 points", or "Anna,
    Bo tied at the top with 5 points" while a play-off is due."""
    top = table["standings"][0]
    level = [r["player"] for r in table["standings"] if r["points"] == top["points"]]
    if len(level) > 1 and table["champion"] is None:
        return "%s tied at the top with %d points" % (", ".join(level), top["points"])
    return "%s leads with %d points" % (top["player"], top["points"])


def _plural(n: int, thing: str) -> str:
    return "%d %s%s" % (n, thing, "" if n == 1 else "s")


def verified_words(record: GameRecord, dice: bool) -> str:
    """The check of a finished game's record, in words: its rolls against the revealed seed (a game of
    dice), its moves replayed."""
    problems = record.verify()
    if problems:
        return "the record does NOT verify: " + "; ".join(problems)
    rolls, moves = record.counts()
    if not dice:
        return "verified: the record replays, %s, all legal" % _plural(moves, "move")
    return "verified: %s and %s agree with the seed, which matches the commitment" % (
        _plural(rolls, "roll"),
        _plural(moves, "move"),
    )


MAX_LOG = 400  # log lines the page is sent (the oldest dropped beyond that)
MAX_SCRIPT = 20000  # actions a live table records before it says the script is full
MAX_STEPS = 5000  # steps of one replay
MAX_FLICKER_MS = 10000  # the longest flicker a replay takes
REPLAY_S = 10.0  # the most work one replay may take (a saved whole game takes well under a second)
MIN_PRESS_MS = 50  # the shortest press the page makes: past the button driver's 20 ms debounce


def board_for(preset: str) -> str:
    """The shipped board a game is played on: the 40- and 56-square tracks for the Hebrew rule sets,
    the 52-square cross for the other Ludo rule sets, the star for Chinese Checkers."""
    family, rules = split_preset(preset)
    if family == "checkers":
        return "checkers"
    if rules.startswith("hebrew-40"):
        return "ludo40"
    if rules.startswith("hebrew-56"):
        return "ludo56"
    return "ludo52"


def pieces_of(sim: SimBoard) -> dict[str, list[str]]:
    """The pieces on each cell as {cell id: [colour name, ...]} bottom to top ("?" for a piece of no
    known colour), cells with none left out."""
    board = sim.board
    out = {}
    for c in range(board.cell_count):
        n = sim.counts[c]
        if n:
            colours = sim.colours[c]
            out[board.cell_id(c)] = [(colours[k] if k < len(colours) else None) or "?" for k in range(n)]
    return out


def lit_of(referee: Any, names: dict[int, str]) -> list[list]:
    """The lit LEDs as [led, name, meaning, colour or None], LED order: what the page writes beside each
    LED for players who cannot tell the colours apart."""
    out = []
    for led, meaning, colour in referee.lights():
        shown = lights.colour_name(colour) if colour else None
        out.append([led, names.get(led, "led%d" % led), lights.meaning_name(meaning), shown])
    return out


class LiveTable:
    """One game on the simulated board, played from the page in (scaled) real time.

    preset: a game preset (checkers/2, ludo/classic/4, ...). board: a shipped board's name or a file
    (default: board_for(preset)). settle_ms: how long a cell must read the same before the referee
    believes it. analog: sensors that count stacked pieces. seed: the dice seed (default: a fresh one).
    turn_clock: the Ludo turn clock (False, True for the rule set's, or seconds). club: the names and
    seasons kept from table to table (a Club; default: one of this table's own)."""

    mirror = None  # the server's own game (sim.server.Table)

    def __init__(
        self,
        preset: str = "checkers/2",
        board: str | None = None,
        settle_ms: int = 200,
        analog: bool = False,
        seed: str | None = None,
        turn_clock: bool | int = False,
        club: Club | None = None,
    ) -> None:
        self.preset = preset
        self.club = club if club is not None else Club()
        self.board_name = board or board_for(preset)
        self.board = load_board(self.board_name)
        # None: every game draws a fresh seed from os.urandom, as the board does from its hardware
        # entropy (the saved script then carries the rolls as `die` lines); a seed given fixes them all
        self.seed = seed
        self.settle_ms = settle_ms
        self.analog = bool(analog)
        self.turn_clock = turn_clock
        try:
            self.sim = Simulator(
                self.board,
                preset,
                seed=self.seed,
                frames="none",
                analog=self.analog,
                settle_ms=settle_ms,
                turn_clock=turn_clock,
            )
        except BoardDefinitionError as exc:
            raise BoardDefinitionError(
                "board %s does not fit %s: %s" % (self.board_name, preset, str(exc).splitlines()[0])
            ) from None
        self.pin = FakePin(1)  # the die button: pulled up, pressed reads 0
        self.button = Button(self.pin)
        self.frame = bytearray(3 * self.board.led_count)
        self.log: list[tuple[int, str]] = []  # (sim ms, words)
        # (sim ms, script line, end ms) of what was done, for script()
        self.actions: list[tuple[int, str, int]] = []
        self.rolls: dict[int, list] = {}  # index in actions of a press -> the rolls it made (`die` lines)
        self.pressed_at: int | None = None
        self.release_at: int | None = None
        self.version = 0  # bumped whenever state() would say something new
        self.verified: str | None = None  # the record's check at the game's end: a message
        self.starts = [name for name, _ in adapter_for(preset).starts()]
        self.cues: list[
            tuple[int, str]
        ] = []  # (number, cue name) of the piezo cues played, the last MAX_CUES
        self.cue_count = 0
        names = self.club.names[split_preset(preset)[0]]
        if names:
            self.sim.set_players(names)
            for seat in sorted(names):
                self._record("name %s %s" % (seat, names[seat]))
        self.advance(TICK_MS)

    # ---- time ---------------------------------------------------------------------------------------

    @property
    def now(self) -> int:
        return self.sim.now

    @property
    def referee(self) -> Any:
        return self.sim.referee

    def advance(self, until_ms: int) -> bool:
        """Run the referee's ticks up to until_ms of simulated time (the button polled each tick, as
        the firmware's loop does). Returns True when something new happened."""
        sim = self.sim
        before = self.version
        while sim.now < until_ms:
            if self.release_at is not None:
                self._release()
            changed, events = sim.tick(self.button.poll(sim.now))
            if changed:
                self.version += 1
            for event in events:
                self._said(event)
            sim.now += TICK_MS
        return self.version != before

    def _release(self) -> None:
        if self.release_at is not None and self.now >= self.release_at:
            self.pin.value(1)
            self.release_at = None

    def render(self) -> bytearray:
        """The LED frame at this moment (GRB bytes, as the firmware writes them to the chain)."""
        self.referee.render(self.now, self.frame)
        return self.frame

    def close(self) -> None:
        """Nothing to let go of (a mirror closes its link or its emulator)."""

    def _said(self, event: dict) -> None:
        ref = self.referee
        self.log.append((self.now, self.sim.words(event)))
        name = event.get("event")
        if name in CUES:
            self.cue_count += 1
            self.cues = [*self.cues[1 - MAX_CUES :], (self.cue_count, CUES[name])]
        if name == "roll":
            for k in range(len(self.actions) - 1, -1, -1):
                if self.actions[k][1].startswith("press"):
                    self.rolls.setdefault(k, []).append(event.get("value"))
                    break
        if name == "game_over":
            self.verified = verified_words(ref.record, ref.adapter.has_dice)
            self.log.append((self.now, self.verified))
            if ref.record.start not in self.starts:
                self.log.append(
                    (self.now, "season: not counted, the game began from a typed position, not a start")
                )
            else:
                self._count(ref)
        self.version += 1

    def _count(self, ref: Any) -> None:
        counted = self.club.count(ref.record, ref.game)
        if counted is None:
            return
        table = self.club.standings(self.preset)
        assert table is not None  # (a game counted is a Ludo game, which has a season)
        self.log.append(
            (
                self.now,
                "season (%s): %s counted, %s; %s"
                % (
                    counted[0],
                    "a play-off" if counted[1] == "playoff" else "the game",
                    _plural(table["games"], "game"),
                    lead_words(table),
                ),
            )
        )

    # ---- what the page does -------------------------------------------------------------------------

    def act(self, message: dict) -> None:
        """Carry out one thing done on the page: a dict with "do" (lift, place, button, setup, start,
        bots, names, new_season, clear, aside, power). NotationError naming the problem for anything
        that cannot be done; nothing changes."""
        if not isinstance(message, dict):
            raise NotationError('a request is a JSON object with a "do" key')
        do = message.get("do")
        sim = self.sim.physical
        if len(self.actions) >= MAX_SCRIPT:
            raise NotationError("this game's script is full (%d actions): start a new game" % MAX_SCRIPT)
        if do in ("lift", "place"):
            cell, piece = move_piece(sim, message, self.board)
            self._record("%s %s%s" % (do, cell, " " + piece if piece else ""))
        elif do == "button":
            down = button_down(message)
            if down and self.pressed_at is None and self.release_at is None:
                self.pin.value(0)
                self.pressed_at = self.now
            elif not down and self.pressed_at is not None:
                # a tap shorter than the driver's debounce would be no press at all on the board; a
                # key or a click is meant as one, so the button stays down that long
                held = max(MIN_PRESS_MS, self.now - self.pressed_at)
                self.actions.append((self.pressed_at, "press %d" % held, self.pressed_at + held))
                self.release_at = self.pressed_at + held
                self.pressed_at = None
                self._release()
        elif do == "setup":
            start = message.get("start")
            if start is not None and not isinstance(start, str):
                raise NotationError("setup: the start is a name like checkers/3 or a position")
            try:
                self.sim.setup(start or None)
            except LudusError as exc:
                raise NotationError("setup: %s" % exc) from None
            self._record("setup" + (" " + start if start else ""))
        elif do == "start":
            text = message.get("position")
            if not isinstance(text, str) or not text.strip() or "\n" in text:
                raise NotationError("start: give a position in notation (one line), like the moves list's")
            text = " ".join(text.split())
            try:
                for item in self.sim.start(text):
                    if "event" in item:
                        self._said(item)
            except LudusError as exc:
                raise NotationError("start: %s" % exc) from None
            self._record("start " + text)
        elif do == "bots":
            bots = message.get("bots")
            if not isinstance(bots, dict):
                raise NotationError(
                    'bots: give {"bots": {SEAT: LEVEL}}, like {"red": "strong"} ({} for none)'
                )
            self.sim.set_bots(bots)
            self._record("bots " + (" ".join("%s=%s" % kv for kv in sorted(bots.items())) or "none"))
        elif do == "names":
            self._names(message.get("names"))
        elif do == "new_season":
            self.club.new_season(self.preset)
        elif do == "clear":
            sim.clear()
            self._record("clear")
        elif do == "aside":
            # the pieces in the hand put back in the box: no sensor sees it, so no script line (the
            # script names every placed piece's colour)
            del sim.hand[:]
        elif do == "power":
            self._record("power")
            for item in self.sim.do(POWER_CUT):
                if "event" in item:
                    self._said(item)
        else:
            raise NotationError(
                "unknown action %r (expected lift, place, button, setup, start, bots, names, new_season,"
                " clear, aside or power)" % (do,)
            )
        self.version += 1

    def _names(self, names: object) -> None:
        # the players' names, {seat: name} as config.json's `names`; kept for the next tables, and in
        # the script as one `name SEAT TEXT` line per seat changed
        if not isinstance(names, dict):
            raise NotationError('names: give {"names": {SEAT: NAME}}, like {"red": "Anna"} ({} for none)')
        for name in names.values():
            if isinstance(name, str) and ("#" in name or any(w.startswith("@") for w in name.split())):
                raise NotationError(
                    "names: %r cannot be written in a play script ('#' starts a comment, '@' a pause)"
                    % (name,)
                )
        before = dict(self.sim.players)
        self.sim.set_players(names)
        self.club.names[split_preset(self.preset)[0]] = dict(names)
        for seat in sorted(set(before) | set(names)):
            if before.get(seat) != names.get(seat):
                self._record("name %s%s" % (seat, " " + names[seat] if seat in names else ""))

    def _record(self, line: str) -> None:
        self.actions.append((self.now, line, self.now))

    # ---- what the page shows ------------------------------------------------------------------------

    def state(self) -> dict:
        """Everything the page draws but the frame: pieces, hand, situation, die, moves, log."""
        ref = self.referee
        game = ref.game
        d = ref.describe()
        dice = ref.adapter.has_dice
        out = {
            "type": "state",
            "preset": self.preset,
            "board": self.board_name,
            "t": self.now,
            "phase": d["phase"],
            "situation": d.get("situation"),
            "turn": seat_words(ref.adapter, game, d["turn"], ref.record.players) if "turn" in d else None,
            "pieces": pieces_of(self.sim.physical),
            "hand": [c or "?" for c in self.sim.physical.hand],
            "lit": lit_of(ref, self.sim.names),
            "die": ref.scene.die_shown() if ref.phase == 1 else [],
            "moves": list(ref.record.actions) if game is not None else [],
            "position": game.notation() if game is not None else None,
            "commitment": ref.record.seed_sha256 if game is not None and dice else None,
            "seed": ref.record.seed if game is not None and dice else None,
            "verified": self.verified,
            "log": [[t, text] for t, text in self.log[-MAX_LOG:]],
            "settle_ms": self.settle_ms,
            "analog": self.analog,
            "bots": dict(self.sim.bots),
            "names": dict(self.sim.players),
            "players": {str(k): v for k, v in (ref.record.players or {}).items()} if game is not None else {},
            "season": self.club.standings(self.preset),
            "button_down": self.pressed_at is not None or self.release_at is not None,
        }
        out.update(self._for_people(ref, game, d, out["hand"]))
        return out

    def _for_people(self, ref: Any, game: Any, d: dict, hand: list[str]) -> dict:
        # what the page shows people beside the referee's own state: whose turn in words and colour,
        # what to do now, the rolls waiting, the last move, the seats in play, the piezo's cues
        players = ref.record.players if game is not None else None
        turn = d.get("turn")
        return {
            "turn_colour": seat_colour(ref.adapter, game, turn) if turn is not None else None,
            "turn_name": _own_name(players, turn, seat_colour(ref.adapter, game, turn)),
            "prompt": prompt(ref, hand, players),
            "turn_bot": bot_turn_words(ref),
            "details": details(ref),
            "rolls": rolls_of(ref.adapter, game),
            "last_move": last_move_cells(self.board, ref.record.actions if game is not None else []),
            "seats": seats_in_play(ref.adapter, game, players),
            "start": ref.record.start if game is not None else None,
            "winner": winner_of(ref.adapter, game, players),
            "cues": [list(c) for c in self.cues],
        }

    def script(self) -> str:
        """What was done on the page as a `ludus play` script: the same actions at the same moments, so
        `ludus play` (or the page's replay) shows what the page showed."""
        lines = [
            "# played in the Ludus simulator; replay it with:",
            "# ludus play THIS_FILE --board %s --game %s%s --settle-ms %d%s"
            % (
                self.board_name,
                self.preset,
                " --seed %s" % self.seed if self.seed else "",
                self.settle_ms,
                " --analog" if self.analog else "",
            ),
        ]
        if not self.seed:
            lines.append(
                "# the dice came from fresh seeds: each press's rolls are given by a `die` line before it"
            )
        at = TICK_MS  # `ludus play` runs one tick before the first line
        for k, (start, text, end) in enumerate(self.actions):
            if start > at:
                lines.append("wait %d" % (start - at))
            at = end
            if not self.seed and k in self.rolls:
                lines.append("die " + " ".join(str(v) for v in self.rolls[k]))
            nxt = self.actions[k + 1][0] if k + 1 < len(self.actions) else self.now
            gap = max(0, nxt - end)
            lines.append("%s @%d" % (text, gap))
            at = end + gap
        return "\n".join(lines) + "\n"

    def record(self) -> str:
        """The game so far as a record (JSON text): `ludus verify` checks it once the seed is revealed."""
        if self.referee.game is None:
            raise NotationError("no game has started yet: set up the pieces and press the die button")
        return self.referee.record.to_json()


def winner_of(adapter: Any, game: Any, players: dict | None = None) -> list[str | None] | None:
    """The first placed seat of a finished game as [colour, player's name or None], or None."""
    if game is None or not game.is_over():
        return None
    places = game.placements()
    if not places:
        return None
    colour = seat_colour(adapter, game, places[0])
    return [colour, _own_name(players, places[0], colour)]


def _own_name(players: dict | None, seat: int | None, colour: str) -> str | None:
    # a seat's player's name, None where it has none of its own (the record names it by its colour)
    name = (players or {}).get(seat) if seat is not None else None
    return name if name and name != colour else None


def rolls_of(adapter: Any, game: Any) -> list[list]:
    """The rolls waiting to be played, as [value, colour of the seat] pairs: the mover's in play, the
    throws so far in a Ludo roll-off; [] in a game without dice."""
    if game is None or not adapter.has_dice:
        return []
    if in_rolloff(game):
        return [[v, seat_colour(adapter, game, s)] for v, s in zip(game.rolls, game.group)]
    colour = seat_colour(adapter, game, game.turn)
    return [[v, colour] for v in waiting_rolls(game)]


def last_move_cells(board: BoardDefinition, actions: Sequence[str]) -> list[list[str]] | None:
    """The cells of the last move played, [from cells, to cells] (a zone: all its slots), or None."""
    for action in reversed(actions):
        places = move_places(action) if not action.startswith("roll ") else None
        if places is None:
            continue
        out = []
        for name in places:
            try:
                cells = board.cells_of_place(board.place_id(name))
            except (ValueError, KeyError, BoardDefinitionError):
                return None
            out.append([board.cell_id(c) for c in cells])
        return out
    return None


def seats_in_play(adapter: Any, game: Any, players: dict | None = None) -> list[list[str | None]] | None:
    """The seats of the game in play as [key, colour, player's name or None]: the key as config.json's
    `bots` and `names` name the seat (a Ludo colour, a Chinese Checkers seat number)."""
    if game is None:
        return None
    out = []
    for seat in adapter.seats_of(game):
        colour = seat_colour(adapter, game, seat)
        key = colour if adapter.family == "ludo" else str(seat)
        name = (players or {}).get(seat)
        out.append([key, colour, name if name != colour else None])
    return out


# Simulator.do's power cut, as a script's `power` line: the referee rebuilt from what a journal would hold
POWER_CUT = Action(0, "power", [], 0)


def move_piece(sim: SimBoard, message: dict, board: BoardDefinition) -> tuple[str, str | None]:
    """A page's lift or place ({"do", "cell", "colour"}) carried out on the SimBoard sim: (the cell it
    was done on, the colour of the piece moved, None: of no known colour). A piece put on a full slot
    of a zone goes into a free one (that cell is given). NotationError, nothing changed, for a cell
    that is not the board's, a colour that is not a piece's, an empty cell or an empty hand."""
    do = message.get("do")
    cell = message.get("cell")
    if not isinstance(cell, str) or cell not in sim.cells:
        raise NotationError("no cell %r on board %s" % (cell, board.name))
    colour = message.get("colour")
    if colour is not None and colour not in PIECE_COLOURS:
        raise NotationError(
            "%s: %r is not a piece colour (expected one of %s)" % (do, colour, ", ".join(PIECE_COLOURS))
        )
    if do == "lift":
        sim.lift(cell, colour)
        return cell, sim.hand[-1]
    if colour is None and not sim.hand:
        raise NotationError("place %s: there is no piece in the hand (give a colour)" % cell)
    cell = _free_slot(sim, cell)
    c = sim.place(cell, colour)
    return cell, sim.colours[c][-1]


def _free_slot(sim: SimBoard, cell: str) -> str:
    # A piece put on a full slot of a zone (a Ludo home or base) goes into a free slot of it, as a hand
    # puts a token into the home, not on top of another; a cell of its own is taken as it is.
    c = sim.cells[cell]
    if not sim.counts[c]:
        return cell
    for slots in sim.zones.values():
        if c in slots:
            for k in slots:
                if not sim.counts[k]:
                    return sim.board.cell_id(k)
    return cell


def button_down(message: dict) -> bool:
    """A page's button message: True (pressed) or False (let go); NotationError for anything else."""
    down = message.get("down")
    if not isinstance(down, bool):
        raise NotationError('button: "down" is true (pressed) or false (let go)')
    return down


# ---- replays ------------------------------------------------------------------------------------------


class ReplayStopped(NotationError):
    """A replay that was stopped: it took more than its share of work, or its page went away."""


class Budget:
    """The work one replay may take: REPLAY_S seconds from its start(), and nothing after cancel() (its
    page went away). check() raises ReplayStopped, naming where the replay had got to."""

    def __init__(self, seconds: float = REPLAY_S):
        self.seconds = seconds
        self.deadline: float | None = None
        self.cancelled = threading.Event()

    def start(self) -> None:
        self.deadline = time.monotonic() + self.seconds
        self.check("its start")

    def cancel(self) -> None:
        self.cancelled.set()

    def check(self, where: int | str) -> None:
        """Go on, or ReplayStopped; where: a line number or words, said if it stops there."""
        if self.cancelled.is_set() or (self.deadline is not None and time.monotonic() > self.deadline):
            self._stop(where)

    def _stop(self, where: int | str) -> NoReturn:
        where = "line %d" % where if isinstance(where, int) else where
        if self.cancelled.is_set():
            raise ReplayStopped("the replay was stopped at %s: its page went away" % where)
        raise ReplayStopped(
            "the replay was stopped at %s: it took more than %g s of work (replay a shorter part)"
            % (where, self.seconds)
        )


_HEADER = re.compile(r"^#\s*ludus play\s+(.*)$", re.M)


def script_options(text: str, default_board: str | None, default_game: str | None) -> dict[str, Any]:
    """The board, game, seed, settle time and sensors a script names in a `# ludus play ...` comment
    (as the examples and saved scripts do), else the defaults given."""
    opts: dict[str, Any] = {
        "board": default_board,
        "game": default_game,
        "seed": None,
        "settle_ms": 200,
        "analog": False,
    }
    m = _HEADER.search(text)
    if m is None:
        return opts
    words_ = m.group(1).split()
    if "--game" in words_ and "--board" not in words_:
        opts["board"] = None  # the game's own board (board_for), not the page's
    for k, w in enumerate(words_):
        value = words_[k + 1] if k + 1 < len(words_) else None
        if w == "--board" and value:
            opts["board"] = value
        elif w == "--game" and value:
            opts["game"] = value
        elif w == "--seed" and value:
            try:
                ok = len(bytes.fromhex(value)) == 32
            except ValueError:
                ok = False
            if not ok:
                raise NotationError("the '# ludus play' line's --seed %r: 64 hex digits" % value[:80])
            opts["seed"] = value
        elif w == "--settle-ms" and value and value.isdigit() and len(value) <= 5:
            opts["settle_ms"] = int(value)
        elif w == "--analog":
            opts["analog"] = True
    return opts


def _shipped_board(name: str) -> str:
    # a replay names a shipped board only: the page must not open files by name
    if name not in paths.board_names():
        raise NotationError(
            "board %r: a replay names a shipped board (%s)" % (name, ", ".join(paths.board_names()))
        )
    return name


def replay_script(
    text: str, board: str | None = None, game: str | None = None, budget: Budget | None = None
) -> dict:
    """The steps of a play script: after each line, the pieces, the frame, the lit LEDs, the log so
    far. NotationError naming the line for a bad script; budget (a Budget): ReplayStopped when its
    work is spent or it is cancelled."""
    budget = budget or Budget()
    budget.start()
    opts = script_options(text, board, game)
    if not opts["game"]:
        raise NotationError("the script names no game: add a '# ludus play ... --game PRESET' line")
    opts["board"] = _shipped_board(opts["board"] or board_for(opts["game"]))
    try:
        split_preset(opts["game"])
    except LudusError as exc:
        raise NotationError(str(exc)) from None
    table = LiveTable(
        opts["game"],
        opts["board"],
        settle_ms=opts["settle_ms"],
        analog=opts["analog"],
        seed=opts["seed"] or "00" * 32,
    )
    actions = parse_script(text, table.board)
    if len(actions) > MAX_STEPS:
        raise NotationError(
            "the script has %d actions; a replay shows at most %d" % (len(actions), MAX_STEPS)
        )
    for action in actions:  # a sensor kept flickering stops the simulator skipping quiet time
        if action.verb == "flicker" and len(action.args) > 1 and int(action.args[1]) > MAX_FLICKER_MS:
            raise NotationError(
                "line %d: a replay flickers a sensor for at most %d ms" % (action.line, MAX_FLICKER_MS)
            )
    sim = table.sim
    sim.budget = budget  # (checked at every tick: one line may be thousands of them)
    memo = {}
    steps = [_script_step(table, "start", 0, memo)]
    for action in actions:
        sim.line = action.line
        budget.check(action.line)
        try:
            for item in sim.do(action):
                if "event" in item:
                    table._said(item)
        except ReplayStopped:
            raise
        except LudusError as exc:
            if action.verb != "expect":
                raise NotationError("line %d: %s" % (action.line, exc)) from None
            table.log.append((sim.now, "line %d: expectation not met: %s" % (action.line, exc)))
        label = "line %d: %s %s" % (action.line, action.verb, " ".join(action.args))
        steps.append(_script_step(table, label.strip(), action.line, memo))
    return {"kind": "script", "board": opts["board"], "game": opts["game"], "steps": steps}


def _script_step(table: LiveTable, label: str, line: int, memo: dict) -> dict:
    # A step carries the log lines it added and its moves only when they changed (memo: what the
    # steps before it carried; the page carries them forward), so a long script's steps stay linear.
    st = table.state()
    moves = st["moves"]
    step = {
        "label": label,
        "line": line,
        "pieces": st["pieces"],
        "hand": st["hand"],
        "grb": bytes(table.render()).hex(),
        "lit": st["lit"],
        "die": st["die"],
        "moves": moves if moves != memo.get("moves") else None,
        "log_new": [text for _, text in table.log[memo.get("logged", 0) :]],
        "situation": st["situation"],
        "turn": st["turn"],
        "phase": st["phase"],
        "turn_colour": st["turn_colour"],
        "prompt": st["prompt"],
        "turn_bot": st["turn_bot"],
        "details": st["details"],
        "rolls": st["rolls"],
        "last_move": st["last_move"],
    }
    memo["moves"] = moves
    memo["logged"] = len(table.log)
    return step


def _board_of_game(game: Any) -> tuple[str, BoardDefinition]:
    for name in ("checkers", "ludo52", "ludo40", "ludo56"):
        board = load_board(name)
        try:
            board.bind(game.place_names)
        except BoardDefinitionError:
            continue
        return name, board
    raise NotationError("no shipped board has the places of this game")


def replay_record(text: str, budget: Budget | None = None) -> dict:
    """The steps of a game record: the pieces after each roll and move (a record has no lights: the
    board's LEDs are not part of it). NotationError for a malformed record or an action that does not
    apply; ReplayStopped as for replay_script."""
    budget = budget or Budget()
    budget.start()
    try:
        record = GameRecord.from_json(text)
        game = record._new_game(None)
    except LudusError as exc:
        raise NotationError("record: %s" % exc) from None
    if len(record.actions) > MAX_STEPS:
        raise NotationError(
            "the record has %d actions; a replay shows at most %d" % (len(record.actions), MAX_STEPS)
        )
    board_name, board = _board_of_game(game)
    family = "checkers" if board_name == "checkers" else "ludo"
    adapter = adapter_for("checkers/2" if family == "checkers" else "ludo/classic")
    table = SimBoard(board)
    steps: list[dict[str, Any]] = []
    log: list[str] = []
    problems = record.verify() if record.seed is not None else None

    logged = [0]  # how much of the log the steps so far carry

    def step(label: str) -> None:
        counts = bytearray(len(game.place_names))
        game.fill_counts(counts)
        table.fill(counts, game.place_names, game_colours(adapter, game))
        steps.append(
            {
                "label": label,
                "pieces": pieces_of(table),
                "hand": [],
                "grb": None,
                "lit": [],
                "die": [],
                "moves_upto": len(steps),
                "log_new": log[logged[0] :],
                "turn": seat_colour(adapter, game, game.turn),
                "phase": "over" if game.is_over() else "play",
                "situation": None,
                "turn_colour": None if game.is_over() else seat_colour(adapter, game, game.turn),
                "prompt": log[-1] if log else "The game's start",
                "details": "a game record: its pieces after each action (a record keeps no lights)",
                "rolls": rolls_of(adapter, game),
                "last_move": last_move_cells(board, record.actions[: len(steps)]),
            }
        )
        logged[0] = len(log)

    step("start: %s" % record.start)
    for i, action in enumerate(record.actions):
        budget.check("action #%d" % i)
        seat = game.turn
        try:
            apply_action(game, action)
        except LudusError as exc:
            raise NotationError("record action #%d %r: %s" % (i, action, exc)) from None
        if action.startswith("roll "):
            log.append(describe({"event": "roll", "seat": seat, "value": action[5:]}, adapter, game))
        else:
            log.append(describe({"event": "move", "seat": seat, "move": action}, adapter, game))
        step("%d: %s" % (i + 1, action))
    if problems is not None:
        log.append(
            "verified: the rolls agree with the seed"
            if not problems
            else "does NOT verify: " + "; ".join(problems)
        )
        steps[-1]["log_new"].append(log[-1])
    return {
        "kind": "record",
        "board": board_name,
        "game": record.start,
        "moves": list(record.actions),
        "steps": steps,
    }

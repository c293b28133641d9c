"""The simulator's page showing firmware that runs elsewhere: a real board over its USB link (`ludus sim
--device PORT`), or the emulated Pico with the board around it (`ludus sim --pico`), where the page's
pieces and die button become pin levels and the LED frames are decoded from the data pin.

Both speak the board's USB protocol (docs/usb-protocol.md): its events are the log, the `state` and
`journal` replies give the position and the moves, and the LEDs are the firmware's own frame (the
`frame` command on a board; the WS2812 chain decoded on the emulated Pico). The page's state has the
same keys as ludus_host.sim.table.LiveTable's, so one page shows all three. Neither knows the meaning of
each lit LED (the firmware sends colours, not meanings), so the page shows no signs beside them."""

import json
import os
import queue
import time
from collections.abc import Callable
from typing import Any, NoReturn

from ludus.config import read_config
from ludus.errors import LudusError, NotationError
from ludus.referee.presets import adapter_for

from ludus_host import paths
from ludus_host.build.flash_tree import stage
from ludus_host.emulator.harness import EmulatedPico, assets, booted_pico, fs_image, node
from ludus_host.link.client import Link
from ludus_host.link.words import describe, in_rolloff, seat_colour, who
from ludus_host.sim.table import (
    CUES,
    MAX_CUES,
    MAX_LOG,
    board_for,
    button_down,
    last_move_cells,
    move_piece,
    pieces_of,
    seats_in_play,
)
from ludus_host.virtual.board import SimBoard, game_colours, load_board

FRAME_POLL_MS = 100  # how often a mirror asks a board for its LEDs
LEVELS_POLL_MS = 250  # ... and for its sensors
HELLO_S = 10  # how long a board has to answer hello
DEVICE_EVENTS = ("boot", "self_test", "journal", "fault", "safe_mode", "stopped", "reseed")
ANALOG_ONE, ANALOG_TWO = 12000, 32000  # analog readings taken as one / two magnets (the defaults' midpoints)


class MirrorError(LudusError):
    """The board cannot be shown: it does not answer, or has a board this page does not know."""


class _Shown:
    """What a board said, kept for the page: the game's position, moves, log and LED frame."""

    def __init__(self, board_name: object, preset: object, wiring: str | None = None) -> None:
        if not isinstance(board_name, str) or board_name not in paths.board_names():
            raise MirrorError("the board says it is %r: not a board this simulator knows" % (board_name,))
        if not isinstance(preset, str):
            raise MirrorError("the board says it plays %r: not a game's name" % (preset,))
        self.board_name = board_name
        self.preset = preset
        self.board = load_board(board_name, wiring)
        self.adapter = adapter_for(preset)
        self.frame = bytearray(3 * self.board.led_count)
        self.frames = 0  # frames taken from the firmware
        self.log: list[tuple[int, str]] = []
        self.version = 0
        self.referee: dict = {"phase": "setup"}
        self.position: str | None = None
        self.game: Any = None
        self.moves: list[str] = []
        self.commitment: str | None = None
        self.seed: str | None = None
        self.verified: str | None = None
        self.settle_ms: int | None = None
        self.analog = False
        self.cues: list[tuple[int, str]] = []  # (number, cue name), as sim.table.LiveTable keeps them
        self.cue_count = 0

    def said(self, item: dict, now: int) -> bool:
        """One JSON line from the firmware. Returns True when the game's state should be asked for."""
        if "event" in item:
            name = item["event"]
            self.log.append((now, describe(item, self.adapter, self.game, rolloff=in_rolloff(self.game))))
            if name in CUES:
                self.cue_count += 1
                self.cues = [*self.cues[1 - MAX_CUES :], (self.cue_count, CUES[name])]
            if name == "game_over":
                self.seed = item.get("seed")
            if name == "new_game":
                self.commitment = item.get("seed_sha256")
            self.version += 1
            return name not in DEVICE_EVENTS or name == "journal"
        reply = item.get("reply")
        if reply == "state" and item.get("ok"):
            # a board's reply is data from outside: each field taken only when it has its right kind
            referee = item.get("referee")
            self.referee = referee if isinstance(referee, dict) else {}
            position = item.get("position")
            self.position = position if isinstance(position, str) else None
            commitment = item.get("commitment")
            self.commitment = commitment if isinstance(commitment, str) and self.adapter.has_dice else None
            self.game = self._game()
            self.version += 1
        elif reply == "journal" and item.get("ok"):
            state = item.get("state") or {}
            try:
                text = state.get("record") if isinstance(state, dict) else None
                record = json.loads(text) if isinstance(text, str) else {}
            except (ValueError, RecursionError):
                record = {}
            actions = record.get("actions") if isinstance(record, dict) else None
            self.moves = [a for a in actions if isinstance(a, str)] if isinstance(actions, list) else []
            self.version += 1
        elif reply == "frame" and item.get("ok"):
            self.take_frame(item.get("grb", ""))
        elif reply is not None and item.get("ok") is False:
            self.log.append((now, "the board refused %s: %s" % (reply, item.get("error"))))
            self.version += 1
        return False

    def take_frame(self, hex_text: str) -> None:
        try:
            frame = bytes.fromhex(hex_text)
        except (TypeError, ValueError):
            return
        if len(frame) == len(self.frame):
            self.frame[:] = frame
            self.frames += 1

    def _game(self) -> Any:
        if not self.position:
            return None
        try:
            return self.adapter.position(self.position)
        except LudusError:
            return None

    def state(self, pieces: dict[str, list[str]], hand: list[str], now: int, mirror: str) -> dict:
        ref = self.referee
        turn = ref.get("turn")
        if not isinstance(turn, int) or isinstance(turn, bool):
            turn = None
        phase = ref.get("phase")
        situation = ref.get("situation")
        return {
            "type": "state",
            "mirror": mirror,
            "preset": self.preset,
            "board": self.board_name,
            "t": now,
            "phase": phase if phase in ("setup", "play", "over") else "setup",
            "situation": situation if isinstance(situation, str) else None,
            "turn": seat_colour(self.adapter, self.game, turn) if turn is not None else None,
            "pieces": pieces,
            "hand": hand,
            "lit": [],
            "die": [],
            "moves": self.moves,
            "position": self.position,
            "commitment": self.commitment,
            "seed": self.seed,
            "verified": self.verified,
            "log": [[t, text] for t, text in self.log[-MAX_LOG:]],
            "settle_ms": self.settle_ms,
            "analog": self.analog,
            "button_down": False,
            "turn_colour": seat_colour(self.adapter, self.game, turn) if turn is not None else None,
            "turn_name": None,
            "prompt": self._prompt(phase, situation, turn),
            "details": " · ".join(str(x) for x in (phase, situation) if x),
            "rolls": [],
            "last_move": last_move_cells(self.board, self.moves),
            "seats": seats_in_play(self.adapter, self.game) if self.game is not None else None,
            "start": None,
            "winner": None,
            "cues": [list(c) for c in self.cues],
        }

    def _prompt(self, phase: object, situation: object, turn: int | None) -> str:
        # the firmware's state says less than a referee at hand: whose turn, and whether the board is
        # as the game has it
        if phase == "over":
            return "Game over"
        if phase != "play" or turn is None:
            return "Setting up: the board starts a game when its pieces form a start"
        mover = who(self.adapter, self.game, turn)
        if situation in ("mismatch", "illegal", "undo"):
            return "%s to play: put the pieces as lit" % mover
        return "%s to play: the board's lights show what it waits for" % mover


class DeviceMirror:
    """A board on a serial port (or exec:COMMAND, ludus_host.link.client.Link), shown live; the page
    cannot move its pieces."""

    mirror = "device"

    def __init__(self, port: str, link: Link | None = None, wiring: str | None = None) -> None:
        self.port = port
        self.link: Link | _Closed = link or Link(port)
        self.t0 = time.monotonic()
        hello = self._hello()
        self.shown = _Shown(hello.get("board"), hello.get("game"), wiring)
        self.board = self.shown.board
        self.board_name = self.shown.board_name
        self.preset = self.shown.preset
        self.levels: list | None = None
        self.last_frame = self.last_levels = -(10**9)
        self.generation = getattr(self.link, "generation", 0)  # the port's openings (link.client.Link)
        self._ask("state")
        self._ask("journal")

    @property
    def now(self) -> int:
        return int((time.monotonic() - self.t0) * 1000)

    @property
    def version(self) -> int:
        return self.shown.version

    def _hello(self) -> dict[str, Any]:
        self.link.send(json.dumps({"cmd": "hello", "id": "sim-hello"}))
        end = time.monotonic() + HELLO_S
        early = []
        while time.monotonic() < end:
            try:
                line = self.link.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            if line is None:
                raise MirrorError("%s: the board's link closed before it said hello" % self.port)
            item = _json(line)
            if item is None:
                continue
            if item.get("reply") == "hello" and item.get("ok"):
                self._early = early
                return item
            early.append(item)
            if item.get("reply") == "hello":
                raise MirrorError("%s: the board cannot play: %s" % (self.port, item.get("error")))
        raise MirrorError(
            "%s: no hello from the board in %d s (is the firmware running?)" % (self.port, HELLO_S)
        )

    def _ask(self, name: str) -> None:
        try:
            self.link.send(json.dumps({"cmd": name, "id": "sim"}))
        except LudusError as exc:
            self.shown.log.append((self.now, "cannot ask the board: %s" % exc))

    def advance(self, until_ms: int | None = None) -> None:
        now = self.now
        shown = self.shown
        for item in getattr(self, "_early", []):
            shown.said(item, now)
        self._early = []
        ask = False
        if getattr(self.link, "generation", 0) != self.generation:  # the board reset: its port is back
            self.generation = self.link.generation
            shown.log.append((now, "the board's port is back (it started again)"))
            shown.version += 1
            ask = True
        while True:
            try:
                line = self.link.lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                shown.log.append((now, "the board's link closed"))
                shown.version += 1
                self.link = _Closed(self.generation)
                break
            item = _json(line)
            if item is None:
                continue
            if item.get("reply") == "levels" and item.get("ok"):
                levels = item.get("levels")
                if isinstance(levels, list) and len(levels) == self.board.channel_count:
                    if levels != self.levels:
                        self.levels = levels
                        shown.version += 1
                continue
            ask = shown.said(item, now) or ask
        if ask:
            self._ask("state")
            self._ask("journal")
        if now - self.last_frame >= FRAME_POLL_MS:
            self.last_frame = now
            self._ask("frame")
        if now - self.last_levels >= LEVELS_POLL_MS:
            self.last_levels = now
            self._ask("levels")

    def render(self) -> bytearray:
        return self.shown.frame

    def pieces(self) -> dict[str, list[str]]:
        """The pieces where the board's sensors read them, coloured as the game has them where it can."""
        if self.levels is None:
            return {}
        board = self.board
        sim = SimBoard(board)
        colours = {}
        if self.shown.game is not None:
            colours = game_colours(self.shown.adapter, self.shown.game)
        taken = {}
        for c in range(board.cell_count):
            v = self.levels[board.channel_of_cell[c]]
            n = v if v < 3 else (2 if v >= ANALOG_TWO else 1 if v >= ANALOG_ONE else 0)
            if not n:
                continue
            place = board.place_names[board.place_of_cell[c]]
            for _ in range(n):
                k = taken.get(place, 0)
                have = colours.get(place, [])
                sim.counts[c] += 1
                sim.colours[c].append(have[k] if k < len(have) else None)
                taken[place] = k + 1
        return pieces_of(sim)

    def state(self) -> dict:
        return self.shown.state(self.pieces(), [], self.now, self.mirror)

    def act(self, message: dict) -> NoReturn:
        raise NotationError(
            "this page mirrors the board on %s: move the pieces on the board itself" % self.port
        )

    def script(self) -> NoReturn:
        raise NotationError("a mirror records no play script: the board's own journal keeps its game")

    def record(self) -> NoReturn:
        raise NotationError(
            "a mirror keeps no record: `ludus monitor %s --games --save DIR` saves the board's finished games"
            % self.port
        )

    def close(self) -> None:
        self.link.close()


class _Closed:
    """A link that closed: nothing comes, nothing goes. It keeps the closed link's generation, so a
    mirror does not take it for the board's port come back."""

    lines: queue.Queue = queue.Queue()

    def __init__(self, generation: int) -> None:
        self.generation = generation

    def send(self, line: str) -> NoReturn:
        raise MirrorError("the board's link is closed")

    def close(self) -> None:
        pass


def _json(line: str) -> dict | None:
    try:
        item = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return item if isinstance(item, dict) else None


class PicoTwin:
    """The emulated Pico running the flashed firmware, with the page's pieces and button on its pins.
    Its clock runs as fast as the emulator can (about a quarter of real time)."""

    mirror = "pico"
    RUN_MS = 40  # emulated time per beat of the page's clock

    def __init__(
        self, preset: str, board_name: str | None = None, say: Callable[[str], object] | None = None
    ) -> None:
        # what the emulator needs, first: without it, one line says so before anything is compiled
        assets()
        node()
        board_name = board_name or board_for(preset)
        self.shown = _Shown(board_name, preset)
        self.board = self.shown.board
        self.board_name = board_name
        self.preset = preset
        config = {"board": board_name, "game": preset}
        tree = os.path.join(paths.ROOT, "build", "pico-tree-" + board_name)
        say = say or (lambda text: None)
        say("compiling the firmware for the emulated Pico")
        stage(tree, json.dumps(config), "files", "armv6m")

        full = read_config(json.dumps(config))[0]
        if not os.path.exists(fs_image(tree)):
            say(
                "copying it into the emulated Pico's flash: on the first start only, a minute or two"
                " (kept in build/pico-fs)"
            )
        self.pico: EmulatedPico = booted_pico(tree, self.board, full)
        say(
            "the firmware boots at about a quarter of real time: the page says 'self-test passed'"
            " about 40 s after it opens"
        )
        self.sim = SimBoard(self.board)
        self.seen = 0
        self.frames_seen = 0
        self.lines_sent = bytearray(b"\x01" * self.board.channel_count)  # 1: no magnet
        self.shown.log.append((0, "the emulated Pico is starting (about 6 s of its time)"))
        self.pending: list[str] = []  # link commands to send once it runs

    @property
    def now(self) -> int:
        return int(self.pico.ms)

    @property
    def version(self) -> int:
        return self.shown.version

    def advance(self, until_ms: int | None = None) -> None:
        pico = self.pico
        pico.run(self.RUN_MS)
        shown = self.shown
        ask = False
        for item in pico.events[self.seen :]:
            if item.get("event") == "self_test":
                ask = True
            ask = shown.said(item, self.now) or ask
        self.seen = len(pico.events)
        if len(pico.frames) > self.frames_seen:
            shown.take_frame(pico.frames[-1][1])
            self.frames_seen = len(pico.frames)
        if ask:
            for name in ("state", "journal"):
                pico.send(json.dumps({"cmd": name, "id": "sim"}) + "\n")

    def render(self) -> bytearray:
        return self.shown.frame

    def _lines(self) -> None:
        board = self.board
        changes = {}
        for c in range(board.cell_count):
            ch = board.channel_of_cell[c]
            level = 0 if self.sim.counts[c] else 1
            if self.lines_sent[ch] != level:
                self.lines_sent[ch] = level
                changes[ch] = level
        if changes:
            self.pico.lines(changes)

    def act(self, message: dict) -> None:
        if not isinstance(message, dict):
            raise NotationError('a request is a JSON object with a "do" key')
        do = message.get("do")
        sim = self.sim
        if do in ("lift", "place"):
            move_piece(sim, message, self.board)
        elif do == "button":
            self.pico.press(button_down(message))
        elif do == "setup":
            start = message.get("start") or self.preset
            adapter = self.shown.adapter
            try:
                game = adapter.position(start)
            except LudusError as exc:
                raise NotationError("setup: %s" % exc) from None
            counts = bytearray(len(game.place_names))
            game.fill_counts(counts)
            sim.fill(counts, game.place_names, game_colours(adapter, game))
        elif do == "clear":
            sim.clear()
        elif do == "aside":
            del sim.hand[:]
        elif do == "power":
            self.pico.cut(0)
            self.pico.power_on()
            self.shown.log.append((self.now, "power cut: the emulated Pico starts again from its flash"))
        elif do == "start":
            raise NotationError("the emulated Pico starts a game from the pieces on it: set up a start")
        else:
            raise NotationError("unknown action %r" % (do,))
        self._lines()
        self.shown.version += 1

    def state(self) -> dict:
        return self.shown.state(pieces_of(self.sim), [c or "?" for c in self.sim.hand], self.now, self.mirror)

    def script(self) -> NoReturn:
        raise NotationError(
            "the emulated Pico's page records no play script yet: use the simulator's own table"
        )

    def record(self) -> NoReturn:
        raise NotationError(
            "`ludus monitor` on `ludus emulate`'s port saves the emulated board's finished games"
        )

    def close(self) -> None:
        self.pico.close()

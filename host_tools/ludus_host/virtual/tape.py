"""A `ludus play` session recorded tick by tick, for replaying on the firmware itself
(tests/unix_board.py --tape): what the simulated board's sensors read at each tick, the button's event,
and the power cuts, together with what `ludus play` printed.

    items, tape = record(script_text, "checkers", "checkers")
    write(tape, path)
"""

import json
from collections.abc import Iterator
from typing import Any

from ludus.referee import NO_PRESS, Referee

from ludus_host.virtual.board import load_board
from ludus_host.virtual.runner import Simulator
from ludus_host.virtual.script import Action, parse_script


class RecordingSimulator(Simulator):
    """A Simulator that notes every tick's inputs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.ticks: list[dict] = []
        self._last: bytes | None = None
        self._power_tear = kwargs.pop("tear", None)
        self._powering = False
        super().__init__(*args, **kwargs)

    def _step(self, button: int = NO_PRESS) -> list[dict]:
        levels = bytes(self.physical.read(self.now))
        tick: dict = {"t": self.now}
        if levels != self._last:
            tick["l"] = levels.hex()
            self._last = levels
        if button:
            tick["b"] = button
        self.ticks.append(tick)
        return super()._step(button)

    def _new_referee(self) -> Referee:
        ref = super()._new_referee()
        restore = ref.restore

        def noted(state: dict) -> None:
            # a `start` line: the game the script sets up goes to the device as a restore through
            # its journal, as after a power cut (a power cut's own restore needs no note)
            if not self._powering:
                self.ticks.append({"t": self.now, "restore": json.loads(json.dumps(state))})
                self._last = None
            restore(state)

        ref.restore = noted
        return ref

    def do(self, a: Action) -> Iterator[dict]:
        if a.verb == "die":  # the script's forced rolls: the device's referee is given them too
            self.ticks.append({"t": self.now, "die": [int(v) for v in a.args]})
        if a.verb == "power":
            self.ticks.append({"t": self.now, "power": True, "tear": self._power_tear})
            self._last = None  # (the new device reads every line again)
            self._powering = True
        try:
            yield from super().do(a)
        finally:
            self._powering = False
        if a.verb == "name":  # the players' names: to the device as its config (the link's `names`)
            self.ticks.append({"t": self.now, "names": dict(self.players)})


def record(
    script_text: str, board_name: str, preset: str, seed: str = "00" * 32, tear: int | None = None
) -> tuple[list[dict], list[dict]]:
    """(ludus play's output items, the tape's ticks) of a script. tear: cut the power in the middle
    of the next journal write at a `power` line, after that many bytes (None: a clean cut)."""
    board = load_board(board_name)
    actions = parse_script(script_text, board)
    sim = RecordingSimulator(board, preset, seed=seed, tear=tear)
    items = list(sim.run(actions))
    return items, sim.ticks


def write(path: str, ticks: list[dict], board_name: str, preset: str, seed: str = "00" * 32) -> None:
    """The tape file: a header line (the device's config and seed), then one line per tick."""
    with open(path, "w", encoding="utf-8") as f:
        head = {"config": {"board": board_name, "game": preset, "brightness": 255}, "seed": seed}
        f.write(json.dumps(head) + "\n")
        for tick in ticks:
            f.write(json.dumps(tick) + "\n")

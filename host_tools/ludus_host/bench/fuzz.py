"""A fuzzer over every parser the project has: both position notations and named starts, move texts of
both games, rule sets and options, game records, board definitions, calibration files, the board's
config.json and play scripts.
Each input comes from a valid example, mutated (characters flipped, dropped, repeated, other scripts'
digits and huge numbers put in, tokens swapped) or made of random text. The property: a parser gives a
result or the project's own error (LudusError) naming the fault, within a bounded time; anything else
is a failure, reported with its input (`ludus fuzz`, tests/host/test_fuzz.py)."""

import json
import random
import time
from collections.abc import Callable, Iterable

from ludus.board.definition import BoardDefinition
from ludus.checkers.game import start_position as checkers_start
from ludus.config import defaults, read_config
from ludus.errors import LudusError, NotationError
from ludus.games import position
from ludus.ludo.rules import rules_from_spec
from ludus.record import GameRecord
from ludus.sensing.calibration import Calibration

from ludus_host.paths import shipped_board
from ludus_host.sim.server import Hub, Settings
from ludus_host.sim.table import replay_record, replay_script
from ludus_host.virtual.board import load_board
from ludus_host.virtual.runner import Simulator
from ludus_host.virtual.script import parse_script

ODD = [
    "\u00b2",
    "\u0664",
    "\uff13",
    "\x00",
    "\n",
    "\t",
    " ",
    "-",
    "+",
    "9" * 5000,
    "1e308",
    "NaN",
    '"',
    "{",
    "[",
    "\ufeff",
]

CHECKERS_START = "checkers 2 - 0 a/aa/aaa/aaaa/13/12/11/10/9/10/11/12/13/dddd/ddd/dd/d - 0"
LUDO_POSITION = "ludo classic seats=gr turn=g rolls=6,3 g=t2,base,base,base r=t5,base,base,base"
SEEDS = {
    "position": [
        CHECKERS_START,
        LUDO_POSITION,
        "ludo danish seats=gyrb turn=y rolls=4 g=t3,t9,base,base y=t15,base,base,base"
        " r=home,base,base,base b=base,base,base,base",
        "checkers/2",
        "checkers/3x2",
        "ludo/classic/4",
        "ludo/teamup+arrow/4",
        "ludo custom:base=danish,entry=5.6 seats=gr turn=g rolls=- g=base,base,base,base"
        " r=base,base,base,base",
    ],
    "ludo move": ["6 green.0 t2-t8", "3 green.0 t2-t5", "6 green.1 base-t0", "6 green.0 t2-t8 via t5"],
    "checkers move": ["h7-h16", "h2-h29", "pass", "h8-h17"],
    "rule set": [
        "classic",
        "danish",
        "teamup+arrow",
        "custom:base=danish,entry=5.6",
        "master:walls=1",
        "classic:clock=20",
    ],
    "checkers options": ["-", "noparking", "cap=200", "noparking,locked,antispoil,super,cap=300"],
    "record": [],  # made at start: a real record
    "board": [],  # the shipped ludo52 board, as text
    "calibration": [],
    "config": [],  # the defaults, as a config.json
    "play script": [
        "setup\nmove h7 h16\nmove h112 h104\n",
        "lift h2 @50\nplace h7\nexpect situation pending\nwait 3000\n",
        "start checkers/2\ndie 3\npress\nlong\npower\nflicker h7 40\nslide h7 h16 h26\n",
    ],
    # what a page sends the simulator over its WebSocket (ludus_host.sim.server)
    "sim request": [
        '{"do": "setup", "start": "checkers/2"}',
        '{"do": "lift", "cell": "h7"}',
        '{"do": "place", "cell": "h16", "colour": "red"}',
        '{"do": "button", "down": true}',
        '{"do": "button", "down": false}',
        '{"do": "start", "position": "%s"}' % CHECKERS_START,
        '{"do": "new", "game": "ludo/classic/4", "settle_ms": 200, "analog": false}',
        '{"do": "speed", "value": 2}',
        '{"do": "power"}',
    ],
    # what a page asks the simulator to replay (a play script, or a record: made at start)
    "sim replay": [
        "# ludus play x --board checkers --game checkers/2\nsetup\nmove h7 h16\nmove h112 h104\n",
        "# ludus play x --board ludo52 --game ludo/classic/2\nstart %s\ndie 3\npress\n" % LUDO_POSITION,
    ],
}


def _record_seed() -> str:
    record = GameRecord.new("checkers/2", seed=bytes(32))
    game = position("checkers/2")
    for _ in range(3):
        move = game.legal_moves()[0]
        game.push(move)
        record.record_move(move)
    record.finish([])
    return record.to_json()


def _board_seed() -> str:
    with open(shipped_board("ludo52"), encoding="utf-8") as f:
        return f.read()


def _calibration_seed() -> str:
    cal = Calibration(4)
    return cal.to_json()


def _config_seed() -> str:

    return json.dumps(defaults())


def entry_points() -> dict[str, Callable[[str], object]]:
    """{name: function(text)}: each returns normally or raises LudusError."""

    ludo_game = position(LUDO_POSITION)
    checkers_game = position(CHECKERS_START)
    board = load_board("checkers")

    def record(text: str) -> None:
        GameRecord.from_json(text).verify()

    def script(text: str) -> None:
        actions = parse_script(text, board)
        if len(actions) <= 30:
            for _ in Simulator(board, "checkers/2").run(actions):
                pass

    hub = Hub(Settings("checkers/2", seed="00" * 32))

    def sim_request(text: str) -> None:
        # as the server takes a WebSocket message: JSON first, then the hub's own checks
        try:
            message = json.loads(text)
        except ValueError as exc:
            raise NotationError("not JSON: %s" % exc) from None
        hub.control(message)

    def sim_replay(text: str) -> None:
        if text.lstrip().startswith("{"):
            replay_record(text)
        elif text.count("\n") <= 30:
            replay_script(text, "checkers", "checkers/2")

    return {
        "position": position,
        "ludo move": ludo_game.parse_move,
        "checkers move": checkers_game.parse_move,
        "rule set": rules_from_spec,
        "checkers options": lambda text: checkers_start("2", text),
        "record": record,
        "board": lambda text: BoardDefinition.from_json(text, "fuzzed board"),
        "calibration": Calibration.from_json,
        "config": read_config,
        "play script": script,
        "sim request": sim_request,
        "sim replay": sim_replay,
    }


def seeds() -> dict[str, list[str]]:
    out = {k: list(v) for k, v in SEEDS.items()}
    out["record"] = [_record_seed()]
    out["board"] = [_board_seed()]
    out["calibration"] = [_calibration_seed()]
    out["config"] = [_config_seed()]
    out["sim replay"].append(_record_seed())
    return out


def mutate(text: str, rng: random.Random) -> str:
    """One mutation of text (or a random text when rng says so)."""
    how = rng.randrange(9)
    if not text or how == 0:
        return "".join(
            rng.choice(ODD + list("abcdefgh0123456789=,./:- ")) for _ in range(rng.randrange(1, 40))
        )
    i = rng.randrange(len(text))
    if how == 1:
        return text[:i] + rng.choice(ODD) + text[i + 1 :]
    if how == 2:
        return text[:i] + rng.choice(ODD) + text[i:]
    if how == 3:
        j = min(len(text), i + rng.randrange(1, 8))
        return text[:i] + text[j:]
    if how == 4:
        j = min(len(text), i + rng.randrange(1, 12))
        return text[:i] + text[i:j] * rng.randrange(2, 4) + text[j:]
    if how == 5:
        words = text.split(" ")
        a, b = rng.randrange(len(words)), rng.randrange(len(words))
        words[a], words[b] = words[b], words[a]
        return " ".join(words)
    if how == 6:
        return text[:i] + chr(rng.randrange(32, 0x3000)) + text[i + 1 :]
    if how == 7:
        digits = [k for k, ch in enumerate(text) if "0" <= ch <= "9"]
        if digits:
            k = rng.choice(digits)
            return text[:k] + rng.choice(["\u00b2", "\u0664", "99999999999", "-1", "0"]) + text[k + 1 :]
        return text + rng.choice(ODD)
    return text[: rng.randrange(len(text) + 1)]


def cases(name: str, count: int, rng: random.Random, pool: list[str]) -> list[str]:
    """count inputs for one entry point: mutations of mutations of its seeds."""
    out = []
    for _ in range(count):
        text = rng.choice(pool)
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng)
        out.append(text)
    return out


def run(
    count: int = 500,
    seconds: float | None = None,
    seed: int = 1,
    slow_s: float = 5.0,
    names: Iterable[str] | None = None,
) -> tuple[dict[str, int], list[tuple[str, str, str]]]:
    """Fuzz each entry point with `count` inputs (or for `seconds` in all); returns
    ({name: cases tried}, [(name, input, error)])."""
    rng = random.Random(seed)
    points = entry_points()
    pools = seeds()
    tried = {name: 0 for name in points if names is None or name in names}
    failures = []
    end = time.monotonic() + seconds if seconds else None
    while True:
        for name in tried:
            batch = cases(name, 50 if end else count, rng, pools[name])
            for text in batch:
                started = time.monotonic()
                try:
                    points[name](text)
                except LudusError:
                    pass
                except Exception as exc:  # anything but the project's own error is a defect
                    failures.append((name, text, "%s: %s" % (type(exc).__name__, exc)))
                took = time.monotonic() - started
                if took > slow_s:
                    failures.append((name, text, "took %.1f s" % took))
                tried[name] += 1
        if end is None or time.monotonic() > end:
            return tried, failures


DEVICE_POINTS = ("position", "ludo move", "checkers move", "rule set", "checkers options")


def corpus(count: int = 60, seed: int = 1) -> dict[str, list[str]]:
    """Inputs for the device-side parsers, for tests/firmware/fuzz_corpus.json (replayed under
    MicroPython by tests/firmware/test_fuzz_corpus.py)."""
    rng = random.Random(seed)
    pools = seeds()
    # each input cut to 160 characters (a 5000-digit number keeps 160 of them): the corpus is read
    # whole into a 160K heap
    return {name: [t[:160] for t in cases(name, count, rng, pools[name])] for name in DEVICE_POINTS}

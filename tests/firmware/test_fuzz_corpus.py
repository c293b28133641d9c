"""The fuzz corpus of the parsers that run on the board (tests/firmware/fuzz_corpus.json, made by
`ludus fuzz --save-corpus`), replayed on both runtimes: every input gives a result or a LudusError
naming the fault, never another exception (issue 10)."""

import gc
import json

from ludus.errors import LudusError
from ludus.games import position

LUDO = "ludo classic seats=gr turn=g rolls=6,3 g=t2,base,base,base r=t5,base,base,base"
CHECKERS = "checkers 2 - 0 a/aa/aaa/aaaa/13/12/11/10/9/10/11/12/13/dddd/ddd/dd/d - 0"


def _corpus():
    for prefix in ("", "tests/firmware/"):
        try:
            with open(prefix + "fuzz_corpus.json") as f:
                return json.load(f)
        except OSError:
            pass
    raise AssertionError("fuzz_corpus.json not found")


def _replay(name, parse):
    inputs = _corpus()[name]
    bad = []
    for i in range(len(inputs)):
        try:
            parse(inputs[i])
        except LudusError:
            pass
        except Exception as exc:  # noqa: BLE001 - anything else is the defect this test looks for
            bad.append((inputs[i][:60], repr(exc)))
        if i % 20 == 0:
            gc.collect()
    assert not bad, bad[:3]
    return len(inputs)


def test_positions():
    assert _replay("position", position) >= 50


def test_move_texts():
    game = position(LUDO)
    assert _replay("ludo move", game.parse_move) >= 50
    game = position(CHECKERS)
    assert _replay("checkers move", game.parse_move) >= 50


def test_rule_sets_and_options():
    from ludus.checkers.game import start_position
    from ludus.ludo.rules import rules_from_spec

    assert _replay("rule set", rules_from_spec) >= 50
    assert _replay("checkers options", lambda text: start_position("2", text)) >= 50

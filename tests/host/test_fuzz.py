"""The fuzz harness (issue 10) over every parser, within the test command's budget: the mutation fuzzer
(ludus fuzz, a longer run) and hypothesis, both structured (text made of the notations' own tokens)
and byte-level (any bytes, decoded as the tools decode files). The property: a result or the project's
own error naming the fault; never another exception and never a hang."""

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ludus.errors import LudusError
from ludus_host.bench import fuzz
from tools import ROOT

pytestmark = pytest.mark.cpython_only

POINTS = fuzz.entry_points()
TOKENS = [
    "checkers", "ludo", "classic", "danish", "teamup+arrow", "custom:", "base=", "seats=", "turn=",
    "rolls=", "g=", "r=", "y=", "b=", "t", "h", "c", "base", "home", "green.", "red.", "-", "/", ",", ".",
    "=", ":", " ", "x", "via", "pass", "a", "d", "13", "2", "6", "0", "99999999999", "\u00b2", "\u0664",
    "\uff13", "{", "}", "[", "]", '"', "format", "ludus-record/1", "setup", "move", "lift", "place",
    "wait", "die", "press", "expect", "@", "\n", "#",
]  # fmt: skip
STRUCTURED = st.lists(st.sampled_from(TOKENS), max_size=25).map("".join)
BYTES = st.binary(max_size=300).map(lambda b: b.decode("utf-8", "replace"))


def _holds(name, text):
    try:
        POINTS[name](text)
    except LudusError:
        pass


@pytest.mark.parametrize("name", sorted(POINTS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=STRUCTURED)
def test_structured_input_gets_a_result_or_a_named_error(name, text):
    _holds(name, text)


@pytest.mark.parametrize("name", sorted(POINTS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=BYTES)
def test_any_bytes_get_a_result_or_a_named_error(name, text):
    _holds(name, text)


def test_the_mutation_fuzzer_finds_no_failure(capsys):
    tried, failures = fuzz.run(count=300, seed=7)
    assert set(tried) == set(POINTS) and all(n == 300 for n in tried.values())
    assert failures == [], failures[:5]
    with capsys.disabled():
        print("\nfuzzed: " + ", ".join("%s %d" % kv for kv in sorted(tried.items())))


def test_the_fuzzer_reports_an_exception_that_is_not_a_named_error(monkeypatch):
    # the harness can fail: an entry point that raises a plain ValueError is a failure, with its input
    broken = dict(POINTS)
    broken["rule set"] = lambda text: int(text)
    monkeypatch.setattr(fuzz, "entry_points", lambda: broken)
    _tried, failures = fuzz.run(count=50, seed=1, names=("rule set",))
    assert failures and failures[0][0] == "rule set" and "ValueError" in failures[0][2]


def test_the_saved_device_corpus_is_the_fuzzers_own():
    # tests/firmware/test_fuzz_corpus.py replays it under MicroPython; remake it with
    # `ludus fuzz --save-corpus tests/firmware/fuzz_corpus.json`
    with open(os.path.join(ROOT, "tests", "firmware", "fuzz_corpus.json"), encoding="utf-8") as f:
        saved = json.load(f)
    assert saved == fuzz.corpus()
    assert sum(len(v) for v in saved.values()) >= 250

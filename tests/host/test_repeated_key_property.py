"""ludus.scan.repeated_key (the board's check) agrees with CPython's JSON reader told to watch for
repeated keys (the host's check), on random JSON with and without a key named twice."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from ludus.scan import repeated_key

KEYS = st.sampled_from(["a", "b", "leds", 'q"uote', "back\\slash", "}", "[", "é"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=4))


def _text(node):
    # node: a scalar, ("list", [nodes]) or ("obj", [(key, node)]) with keys possibly repeated
    if isinstance(node, tuple) and node[0] == "list":
        return "[" + ", ".join(_text(n) for n in node[1]) + "]"
    if isinstance(node, tuple) and node[0] == "obj":
        return "{" + ", ".join(json.dumps(k) + ": " + _text(v) for k, v in node[1]) + "}"
    return json.dumps(node)


NODES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.tuples(st.just("list"), st.lists(inner, max_size=4)),
        st.tuples(st.just("obj"), st.lists(st.tuples(KEYS, inner), max_size=4)),
    ),
    max_leaves=20,
)


def _first_repeat(text):
    found = []

    def pairs(items):
        seen = set()
        for k, _ in items:
            if k in seen and not found:
                found.append(k)
            seen.add(k)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    return found


@settings(max_examples=300, deadline=None)
@given(NODES)
def test_repeated_key_agrees_with_the_json_reader(node):
    text = _text(node)
    repeats = _first_repeat(text)
    got = repeated_key(text)
    assert (got is not None) == bool(repeats), (text, got, repeats)
    if got is not None:  # the key as written (escapes kept): it decodes to a key the reader saw twice
        assert json.loads('"%s"' % got) in set(_all_repeats(text)), (text, got)


def _all_repeats(text):
    out = []

    def pairs(items):
        seen = set()
        for k, _ in items:
            if k in seen:
                out.append(k)
            seen.add(k)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    return out

"""The words for the lights (ludus_host.virtual.colours) against the firmware's palette and docs/lights.md."""

import os

import ludus.light.palette as P
from ludus_host.virtual import colours as lights

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def test_every_meaning_has_a_unique_name_and_a_text():
    assert len(lights.MEANING_TEXTS) == P.MEANING_COUNT
    assert len(set(lights.MEANING_NAMES)) == P.MEANING_COUNT
    assert all(text for name, text in lights.MEANING_TEXTS)
    assert len(lights.PATTERN_NAMES) == len(lights.PATTERN_DESCRIPTIONS) == P.PATTERN_COUNT
    assert len(lights.COLOUR_NAMES) == P.COLOUR_COUNT
    assert [lights.colour_name(P.ludo_colour(s)) for s in range(4)] == ["green", "yellow", "red", "blue"]
    assert lights.meaning_name(P.CAPTURE_VICTIM) == "capture victim"


def test_docs_table_matches_the_code():
    with open(os.path.join(ROOT, "docs", "lights.md")) as f:
        doc = f.read()
    assert lights.markdown_table() in doc, "docs/lights.md is out of date: paste lights.markdown_table()"
    for p in range(P.PATTERN_COUNT):
        row = "| %s | %s |" % (lights.PATTERN_NAMES[p], lights.PATTERN_DESCRIPTIONS[p])
        assert row in doc, lights.PATTERN_NAMES[p]
    for c in range(1, P.COLOUR_COUNT):
        r, g, b = P.rgb(c)
        assert "| %s | %d, %d, %d |" % (lights.COLOUR_NAMES[c], r, g, b) in doc, lights.COLOUR_NAMES[c]

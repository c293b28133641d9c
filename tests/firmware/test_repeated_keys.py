"""JSON read on the board names each key once per object (docs/bad-input.md): board definitions,
game records and calibration files with a key twice are refused naming the key, as the host's tools
refuse them. Runs on both runtimes."""

import support
from ludus.errors import BoardDefinitionError, ConfigError, NotationError
from ludus.scan import repeated_key


def test_repeated_key_finds_the_first_key_named_twice_in_one_object():
    assert repeated_key('{"a": 1, "b": 2}') is None
    assert repeated_key('{"a": 1, "a": 2}') == "a"
    assert repeated_key('{"a": {"x": 1}, "b": {"x": 2}}') is None  # one per object: different objects
    assert repeated_key('{"a": [{"x": 1, "x": 2}]}') == "x"
    assert repeated_key('{"a": ["a", "a"], "b": "a"}') is None  # values are not keys
    assert repeated_key('{"k\\"q": 1, "k\\"q": 2}') == 'k\\"q'  # escaped quotes inside a key
    assert repeated_key('{"a": "}", "a": 1}') == "a"  # brackets inside strings are text
    assert repeated_key("[1, 2, {") is None  # broken JSON: left to the reader to name
    assert repeated_key("") is None
    for broken in ('{}"x"', '}"x"', '{"a": 1}, "a"', '"', '{"', '{"a\\', ']]]"a"'):
        assert repeated_key(broken) is None, broken
    assert repeated_key("[" * 20000) is None  # nested beyond any file: left to the reader, no heap spent
    assert repeated_key('{"a": ' * 70 + '{"b": 1, "b": 2}') is None


def _board_text():
    import referee_rig

    with open(referee_rig._root() + "/hardware/boards/checkers.json") as f:
        return f.read()


def test_a_board_definition_with_a_key_twice_is_refused():
    from ludus.board.definition import BoardDefinition

    text = _board_text()
    twice = text.replace('"name":', '"leds": {"count": 1}, "name":', 1) if '"leds"' in text else None
    assert twice is not None
    exc = support.raises(BoardDefinitionError, BoardDefinition.from_json, twice, "b.json")
    assert "'leds' appears twice" in support.message_of(exc), support.message_of(exc)


def test_a_board_file_with_a_key_twice_in_one_cell_is_refused():
    from ludus.board.definition import BoardDefinition

    text = _board_text()
    i = text.index('{"id": "h0"')
    bad = text[:i] + '{"led": 0, ' + text[i + 1 :]  # the first cell's line names "led" twice
    path = "/tmp/ludus-repeated-key.json" if support.IS_MICROPYTHON else None
    if path is None:
        import tempfile

        path = tempfile.mktemp(suffix=".json")
    with open(path, "w") as f:
        f.write(bad)
    exc = support.raises(BoardDefinitionError, BoardDefinition.load, path)
    assert "'led' appears twice" in support.message_of(exc), support.message_of(exc)


def test_a_record_and_a_calibration_with_a_key_twice_are_refused():
    from ludus.record.game import GameRecord
    from ludus.sensing.calibration import Calibration

    exc = support.raises(NotationError, GameRecord.from_json, '{"format": "x", "format": "y"}')
    assert "'format' appears twice" in support.message_of(exc)
    text = Calibration.uniform(2, 100, 200, 300).to_json()
    bad = text.replace('"format":', '"version": 1, "format":', 1)
    exc = support.raises(ConfigError, Calibration.from_json, bad)
    assert "'version' appears twice" in support.message_of(exc), support.message_of(exc)

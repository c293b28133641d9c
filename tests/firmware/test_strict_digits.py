"""Numbers in the notations, move texts, presets and board files are ASCII digits 0-9 only (issue 10):
CPython's str.isdigit() and int() also take superscripts and other scripts' digits ('²', '٤', '３'),
which either crashed (int('²')) or were read silently as ASCII (int('٤') == 4). Each is refused with
the error of its kind, naming the text."""

import support
from ludus.errors import ConfigError, LudusError, NotationError
from ludus.ludo.game import from_notation, start_position
from ludus.ludo.rules import rules_from_spec

POSITION = "ludo classic seats=gr turn=g rolls=%s g=%s,base,base,base r=t5,base,base,base"
ODD_DIGITS = ("\u00b2", "\u0664", "\uff13", "\u0663")  # superscript two, Arabic-Indic four, fullwidth three


def test_ludo_notation_takes_ascii_digits_only():
    assert from_notation(POSITION % ("4", "t3")).rolls == [4]
    for odd in ODD_DIGITS:
        exc = support.raises(NotationError, from_notation, POSITION % (odd, "t3"))
        assert odd in support.message_of(exc) and "die value" in support.message_of(exc)
        exc = support.raises(NotationError, from_notation, POSITION % ("4", "t" + odd))
        assert ("t" + odd) in support.message_of(exc)


def test_a_huge_number_is_refused_before_it_is_read():
    exc = support.raises(NotationError, from_notation, POSITION % ("4", "t" + "9" * 5000))
    assert "is not a place" in support.message_of(exc)


def test_ludo_start_and_move_text_take_ascii_digits_only():
    for odd in ODD_DIGITS:
        support.raises(LudusError, start_position, "classic/" + odd)
    game = from_notation(POSITION % ("6", "base"))
    assert str(game.parse_move("6 green.0 base-t0")) == "6 green.0 base-t0"
    for odd in ODD_DIGITS:
        support.raises(NotationError, game.parse_move, "6 green.0 base-t" + odd)
        support.raises(NotationError, game.parse_move, odd + " green.0 base-t0")


def test_rule_options_take_ascii_digits_once_each():
    assert rules_from_spec("classic:clock=20").clock == 20
    for odd in ODD_DIGITS:
        exc = support.raises(ConfigError, rules_from_spec, "classic:clock=" + odd)
        assert "digits 0-9" in support.message_of(exc)
    exc = support.raises(ConfigError, rules_from_spec, "custom:base=danish,entry=5,entry=6")
    assert "option entry is given twice" in support.message_of(exc)


def test_board_seat_entries_take_ascii_digits_only():
    import gc
    import json

    from ludus.board.definition import validate

    with open("hardware/boards/ludo52.json") as f:
        d = json.load(f)
    assert validate(d) == []
    gc.collect()  # (the first check's garbage gone before the second: a whole board dict is large)
    d["seats"][0]["entry"] = "t\u00b2"
    faults = validate(d)
    assert len(faults) == 1 and faults[0].startswith("seats[0].entry must be a track place t0..t51, found"), (
        faults
    )


def test_the_shared_reader_takes_ascii_digits_within_a_length():
    from ludus.scan import ascii_digits

    assert ascii_digits("0", 1) and ascii_digits("123456789", 9)
    assert not ascii_digits("", 9) and not ascii_digits("1234567890", 9)
    for odd in ODD_DIGITS + ("-1", "+1", " 1", "1 ", "1.0", "1e3"):
        assert not ascii_digits(odd, 9), odd

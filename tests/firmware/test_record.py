"""Game records: commit-reveal, JSON round trip, refusal of malformed records naming the field, replay
through the game interface and verification of every roll. A tiny dice game stands in for Ludo here; the
real rules cores are exercised in test_record_games.py."""

import support
from ludus.dice import Dice, commitment, hex_of
from ludus.errors import IllegalMoveError, NotationError, StateError
from ludus.record import FORMAT, GameRecord, roll_text, roll_values

SEED = bytes(range(32))
SEED_HEX = hex_of(SEED)
GOAL = 10


class RaceMove:
    def __init__(self, seat, steps):
        self.seat = seat
        self.steps = steps

    def text(self):
        return "advance %d" % self.steps

    def __str__(self):
        return self.text()


class RaceGame:
    """Two tokens race from 0 to exactly GOAL; roll, then advance by the roll. A roll that would
    overshoot is discarded and the turn passes, like apply_roll in the game interface."""

    def __init__(self, seats=2):
        self.pos = [0] * seats
        self.turn = 0
        self.pending = None
        self.stack = []
        self.finished = []
        self.options = {}

    def set_options(self, options):
        self.options = dict(options)

    def awaiting_roll(self):
        return self.pending is None and not self.is_over()

    def apply_roll(self, value):
        if not 1 <= value <= 6:
            raise NotationError("die value %r" % value)
        self.pending = value
        if not self.legal_moves():
            self.pending = None
            self._pass()

    def _pass(self):
        for _ in range(len(self.pos)):
            self.turn = (self.turn + 1) % len(self.pos)
            if self.turn not in self.finished:
                return

    def legal_moves(self):
        if self.pending is None or self.pos[self.turn] + self.pending > GOAL:
            return []
        return [RaceMove(self.turn, self.pending)]

    def parse_move(self, text):
        words = text.split()
        if len(words) != 2 or words[0] != "advance" or not words[1].isdigit():
            raise NotationError("race move %r: expected 'advance N'" % text)
        for move in self.legal_moves():
            if move.steps == int(words[1]):
                return move
        raise IllegalMoveError("race move %r: the roll owed is %r" % (text, self.pending))

    def push(self, move):
        self.stack.append((self.turn, self.pending, list(self.finished)))
        self.pos[move.seat] += move.steps
        if self.pos[move.seat] == GOAL:
            self.finished.append(move.seat)
        self.pending = None
        if not self.is_over():
            self._pass()

    def is_over(self):
        return len(self.finished) >= len(self.pos) - 1

    def placements(self):
        return list(self.finished)

    def notation(self):
        return "race %s turn %d" % (",".join([str(p) for p in self.pos]), self.turn)


def race_position(start):
    if start != "race/2":
        raise NotationError("unknown race start %r" % start)
    return RaceGame(2)


def play_race(record, max_actions=400):
    """Play a whole race game, recording it; returns the live game."""
    game = race_position(record.start)
    while not game.is_over() and len(record.actions) < max_actions:
        if game.awaiting_roll():
            game.apply_roll(record.roll())
        else:
            move = game.legal_moves()[0]
            record.record_move(move)
            game.push(move)
    record.finish(game.placements())
    return game


def finished_record():
    record = GameRecord.new("race/2", {"goal": GOAL}, seed=SEED)
    play_race(record)
    return record


# -- commit-reveal and recording ---------------------------------------------------------------------


def test_new_record_commits_and_keeps_the_seed_secret():
    record = GameRecord.new("race/2", seed=SEED)
    assert record.seed_sha256 == commitment(SEED)
    assert record.seed is None
    text = record.to_json()
    assert commitment(SEED) in text
    assert SEED_HEX not in text and '"seed"' not in text
    assert record.reveal() == SEED_HEX
    assert '"seed": "%s"' % SEED_HEX in record.to_json()


def test_new_record_draws_a_seed_from_the_entropy_source():
    record = GameRecord.new("race/2", entropy=lambda n: bytes([3]) * n)
    assert record.seed_sha256 == commitment(bytes([3]) * 32)
    other = GameRecord.new("race/2")
    assert other.seed_sha256 != record.seed_sha256


def test_recorded_rolls_come_from_the_committed_seed():
    record = GameRecord.new("race/2", seed=SEED)
    dice = Dice(SEED)
    singles = [record.roll() for _ in range(5)]
    pair = record.roll(2)
    assert singles == [dice.roll() for _ in range(5)]
    assert pair == dice.roll_two()
    assert record.actions == [roll_text(v) for v in singles] + ["roll %d %d" % pair]
    support.raises(NotationError, record.roll, 3)
    assert len(record.actions) == 6 and record.dice.count == 7  # nothing drawn for the refused roll
    loaded = GameRecord.from_json(record.to_json())
    exc = support.raises(StateError, loaded.roll)
    assert "no live dice" in support.message_of(exc)
    assert not isinstance(exc, NotationError)  # a misuse of state, not bad text


def test_action_texts():
    assert roll_text(4) == "roll 4"
    assert roll_text((3, 5)) == "roll 3 5"
    assert roll_values("roll 4") == (4,)
    assert roll_values("roll 3 5") == (3, 5)
    assert roll_values("h3-h12") is None
    for bad in ("roll", "roll 7", "roll 0", "roll x", "roll 1 2 3", "roll 12"):
        support.raises(NotationError, roll_values, bad)
    for bad in (0, 7, (1, 2, 3), (), (True,)):
        support.raises(NotationError, roll_text, bad)


def test_record_move_and_record_roll():
    record = GameRecord.new("race/2", seed=SEED)
    record.record_roll(6)
    record.record_roll((2, 2))
    record.record_move(RaceMove(0, 6))
    record.record_move("advance 2")
    assert record.actions == ["roll 6", "roll 2 2", "advance 6", "advance 2"]
    assert record.counts() == (2, 2)
    for bad in ("", " advance 1", "advance 1 ", "roll 3", "roll", "roll\tx", "a\nb"):
        exc = support.raises(NotationError, record.record_move, bad)
        assert repr(bad) in support.message_of(exc)
    record.record_move("rolling 3")  # only a first word "roll" marks a roll
    assert record.counts() == (2, 3)
    assert roll_values("rolling 3") is None


# -- JSON ---------------------------------------------------------------------------------------------

PINNED_JSON = (
    "{\n"
    '  "format": "ludus-record/1",\n'
    '  "start": "race/2",\n'
    '  "options": {"goal": 10, "name": "caf\u00e9"},\n'
    '  "seed_sha256": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",\n'
    '  "seed": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",\n'
    '  "actions": [\n'
    '    "roll 5",\n'
    '    "advance 5"\n'
    "  ],\n"
    '  "result": [0]\n'
    "}\n"
)


def test_json_text_is_pinned_and_identical_on_both_runtimes():
    record = GameRecord.new("race/2", {"name": "caf\u00e9", "goal": 10}, seed=SEED)
    assert record.roll() == 5
    record.record_move("advance 5")
    record.finish([0])
    assert record.to_json() == PINNED_JSON


def test_json_round_trip():
    record = finished_record()
    text = record.to_json()
    loaded = GameRecord.from_json(text)
    assert loaded.start == "race/2"
    assert loaded.options == {"goal": GOAL}
    assert loaded.seed == SEED_HEX
    assert loaded.seed_sha256 == commitment(SEED)
    assert loaded.actions == record.actions
    assert loaded.result == record.result
    assert loaded.to_json() == text
    # an unrevealed, empty record too, with unusual characters in a move
    fresh = GameRecord.new("race/2", seed=SEED)
    fresh.record_move('odd "move" \\ \u00e9\u4e2d\U0001f3b2 \x01 end')
    again = GameRecord.from_json(fresh.to_json())
    assert again.seed is None and again.result is None
    assert again.actions == fresh.actions
    assert again.to_json() == fresh.to_json()
    empty = GameRecord.new("race/2", seed=SEED)
    assert GameRecord.from_json(empty.to_json()).to_json() == empty.to_json()


def good_fields():
    return {
        "format": FORMAT,
        "start": "race/2",
        "options": {},
        "seed_sha256": commitment(SEED),
        "seed": SEED_HEX,
        "actions": ["roll 5", "advance 5"],
        "result": [0],
    }


def dump(fields):
    import json

    return json.dumps(fields)


def refused(text):
    return support.message_of(support.raises(NotationError, GameRecord.from_json, text))


def test_malformed_json_is_refused():
    assert "not valid JSON" in refused("{not json")
    assert "not valid JSON" in refused("")
    assert "JSON object" in refused("[1, 2]")


def test_missing_fields_are_named():
    for name in ("format", "start", "options", "seed_sha256", "actions"):
        fields = good_fields()
        del fields[name]
        message = refused(dump(fields))
        assert "'%s'" % name in message and "missing" in message, message
    # seed and result are optional
    fields = good_fields()
    del fields["seed"]
    del fields["result"]
    assert GameRecord.from_json(dump(fields)).seed is None


def test_wrongly_typed_fields_are_named():
    cases = [
        ("start", 5),
        ("start", ""),
        ("options", []),
        ("seed_sha256", "abc"),
        ("seed_sha256", commitment(SEED).upper()),
        ("seed", "00" * 31),
        ("seed", 7),
        ("actions", "roll 5"),
        ("actions", ["roll 5", 3]),
        ("actions", ["roll 5", ""]),
        ("actions", ["roll 9"]),
        ("result", [0, "1"]),
        ("result", {"0": 1}),
        ("result", [True]),
    ]
    for name, value in cases:
        fields = good_fields()
        fields[name] = value
        message = refused(dump(fields))
        assert "'%s'" % name in message, (name, value, message)


def test_unknown_format_and_fields_are_refused():
    fields = good_fields()
    fields["format"] = "ludus-record/3"
    message = refused(dump(fields))
    assert "'format'" in message and "ludus-record/3" in message
    fields = good_fields()
    fields["sede"] = SEED_HEX
    assert "'sede'" in refused(dump(fields))


# -- replay -------------------------------------------------------------------------------------------


def test_replay_rebuilds_the_game_exactly():
    record = GameRecord.new("race/2", {"goal": GOAL}, seed=SEED)
    live = play_race(record)
    rebuilt = GameRecord.from_json(record.to_json()).replay(race_position)
    assert rebuilt.notation() == live.notation()
    assert rebuilt.placements() == live.placements() == record.result
    assert rebuilt.options == {"goal": GOAL}
    assert len(rebuilt.stack) == record.counts()[1]


def test_replay_names_the_first_action_that_does_not_apply():
    record = finished_record()
    record.actions[1] = "advance 9"  # the roll owed is another value
    exc = support.raises(IllegalMoveError, record.replay, race_position)
    message = support.message_of(exc)
    assert "action #1" in message and "'advance 9'" in message and "roll owed" in message
    record.actions[1] = "jump"
    exc = support.raises(NotationError, record.replay, race_position)
    assert "action #1 'jump'" in support.message_of(exc)


def test_replay_refuses_options_a_game_cannot_take():
    class Plain:
        pass

    record = GameRecord("plain", {"x": 1}, commitment(SEED))
    exc = support.raises(NotationError, record.replay, lambda start: Plain())
    assert "options" in support.message_of(exc)


# -- verify -------------------------------------------------------------------------------------------


def test_a_faithful_record_verifies():
    record = finished_record()
    assert record.verify(race_position) == []
    assert GameRecord.from_json(record.to_json()).verify(race_position) == []


def test_tampered_roll_is_reported_with_its_index():
    record = finished_record()
    rolls = [i for i, a in enumerate(record.actions) if a.startswith("roll")]
    i = rolls[3]
    true_value = roll_values(record.actions[i])[0]
    fake = true_value % 6 + 1
    record.actions[i] = "roll %d" % fake
    problems = record.verify(race_position)
    expected = "action #%d (roll #4): recorded 'roll %d' but the seed gives 'roll %d'" % (i, fake, true_value)
    assert expected in problems, problems


def test_tampered_seed_is_reported():
    record = finished_record()
    record.seed = hex_of(bytes(32))
    problems = record.verify(race_position)
    assert problems[0].startswith("seed does not match commitment"), problems
    assert commitment(bytes(32)) in problems[0] and commitment(SEED) in problems[0]


def test_unrevealed_seed_is_reported():
    record = GameRecord.new("race/2", seed=SEED)
    record.roll()
    problems = GameRecord.from_json(record.to_json()).verify(race_position)
    assert problems == ["seed not revealed: the rolls cannot be checked (commitment %s)" % commitment(SEED)]


def test_illegal_action_and_wrong_result_are_reported():
    record = finished_record()
    moves = [i for i, a in enumerate(record.actions) if not a.startswith("roll")]
    i = moves[0]
    record.actions[i] = "advance 0"
    problems = record.verify(race_position)
    assert len(problems) == 1 and problems[0].startswith("action #%d 'advance 0' is illegal" % i), problems
    record = finished_record()
    true_result = record.result
    record.result = [1 - true_result[0]]
    problems = record.verify(race_position)
    assert problems == ["result: recorded %r but the replay gives %r" % (record.result, true_result)]


def test_many_seeds_record_and_verify():
    for k in range(20 if support.IS_MICROPYTHON else 100):
        record = GameRecord.new("race/2", seed=bytes([k]) * 32)
        play_race(record)
        loaded = GameRecord.from_json(record.to_json())
        assert loaded.verify(race_position) == [], k


def test_two_dice_go_to_apply_rolls_or_one_by_one():
    class OneByOne:
        def __init__(self):
            self.calls = []

        def apply_roll(self, value):
            self.calls.append(value)

    class Pairs(OneByOne):
        def apply_rolls(self, values):
            self.calls.append(tuple(values))

    record = GameRecord("x", None, commitment(SEED), actions=["roll 3 5", "roll 2"])
    assert record.replay(lambda start: OneByOne()).calls == [3, 5, 2]
    assert record.replay(lambda start: Pairs()).calls == [(3, 5), 2]


def test_write_json_streams_the_same_text():
    class Sink:
        def __init__(self):
            self.pieces = []

        def write(self, text):
            self.pieces.append(text)

    record = finished_record()
    sink = Sink()
    record.write_json(sink)
    assert len(sink.pieces) > len(record.actions)  # one piece per action at least, no big string
    assert "".join(sink.pieces) == record.to_json()


def test_action_log_is_a_list_of_texts_kept_in_fixed_chunks():
    from ludus.record import ActionLog

    texts = [
        "roll %d" % (1 + k % 6) if k % 3 else "%d green.%d t%d-t%d" % (k % 6, k % 4, k, k + 3)
        for k in range(400)
    ]
    log = ActionLog()
    for t in texts:
        log.append(t)
    assert len(log) == 400 and log == texts and list(log) == texts
    assert log[0] == texts[0] and log[-1] == texts[-1] and log[137] == texts[137] and log[-400] == texts[0]
    assert log[5:8] == texts[5:8]
    # a roll in one byte, a move's "green." in one, one newline each, in 512-byte chunks that are never
    # grown or copied
    assert sum(log._fills) == sum(2 if t.startswith("roll") else len(t) - 5 + 1 for t in texts)
    assert all(len(c) == ActionLog.CHUNK for c in log._chunks) and len(log._chunks) < 400 * 11 // 512 + 2
    # popping back across chunk boundaries and appending again
    for k in range(399, 99, -1):
        assert log.pop() == texts[k]
    assert len(log) == 100 and log == texts[:100] and log[-1] == texts[99]
    log.append("pass")
    assert log[-1] == "pass" and len(log) == 101 and log != texts[:101]
    log[3] = "roll 6"
    log.insert(0, "roll 1")
    assert log[0] == "roll 1" and log[4] == "roll 6" and len(log) == 102
    assert support.raises(IndexError, lambda: log[102]) and support.raises(
        IndexError, lambda: ActionLog().pop()
    )
    assert support.raises(NotationError, lambda: log.append("two\nlines"))
    assert not ActionLog() and log
    log.truncate(60)
    assert len(log) == 60 and log == (["roll 1"] + texts[:3] + ["roll 6"] + texts[4:])[:60]
    log.truncate(3)
    assert list(log) == ["roll 1"] + texts[:2] and len(log._chunks) == 1
    log.truncate(0)
    assert len(log) == 0 and not log._chunks
    log.append("roll 2")
    assert list(log) == ["roll 2"]


def test_action_log_gives_back_every_text_as_it_was_given():
    # the packed forms (rolls, Ludo's colour words) and everything that only looks like them
    from ludus.record import ActionLog

    texts = [
        "roll 1",
        "roll 6 6",
        "roll 3 5",
        "roll 7",  # not a die value: kept as text
        "roll 0 2",
        "roll 12",
        "roll 6  6",
        "roll",
        "",
        "6 green.0 base-t0",
        "5 yellow.1+yellow.2 t3-t8 x red.0 x blue.3",
        "green.",
        "greenred.",
        "h7-h16",
        "pass",
        "Ærø blue.0",  # not ASCII: kept as its UTF-8, colour words and all
        "\xf8",
        "\x86",
        "ÿ",
    ]
    log = ActionLog(texts)
    assert list(log) == texts and [log[k] for k in range(len(texts))] == texts
    assert [log.pop() for _ in range(len(texts))] == texts[::-1] and not log
    # the sizes kept: a roll one byte, each colour word one, other text as it is, a newline each
    for text, size in (("roll 4", 2), ("roll 2 3", 2), ("roll 7", 7), ("4 red.0 t1-t5", 11), ("h7-h16", 7)):
        one = ActionLog([text])
        assert one._fills == [size] and one[0] == text, (text, one._fills)


def test_a_move_text_with_spaces_at_its_ends_or_a_newline_is_not_recorded():
    record = GameRecord("checkers/2", {}, "0" * 64)
    for bad in (" h1-h2", "h1-h2 ", "h1\nh2", "", "roll 4"):
        assert support.raises(NotationError, record.record_move, bad), bad
    record.record_move("h1-h2")
    assert list(record.actions) == ["h1-h2"]

"""A game record's notes (ludus.record.notes): written as format 2 and read back, checked field by
field, dice re-committed and verified seed by seed, a roll after a stop into the REPL with no
re-commit found, and notes kept in place by a take-back. The race game of test_record.py stands in
for Ludo. Runs on both runtimes."""

import support
from ludus.dice import Dice, hex_of
from ludus.errors import NotationError
from ludus.record import GameRecord
from ludus.runtime import transient
from test_record import play_race, race_position

SEED = bytes(range(32))
SECOND = bytes([7]) * 32


def _notes():
    return transient("ludus.record.notes")


def _race_with_a_recommit(stop=True):
    # a race game: a few rolls, the board stopped into the REPL, the dice re-committed, the rest
    record = GameRecord.new("race/2", seed=SEED)
    game = race_position("race/2")
    for _ in range(6):
        if game.awaiting_roll():
            game.apply_roll(record.roll())
        else:
            move = game.legal_moves()[0]
            record.record_move(move)
            game.push(move)
    notes = _notes()
    if stop:
        notes.add(record, {"stopped": "Ctrl-C"})
    note = notes.reseed(record, notes.why_reseed(record), SECOND)
    while not game.is_over():
        if game.awaiting_roll():
            game.apply_roll(record.roll())
        else:
            move = game.legal_moves()[0]
            record.record_move(move)
            game.push(move)
    record.finish(game.placements())
    return record, note


def test_a_record_without_notes_is_format_1_byte_for_byte_and_one_with_notes_format_2():
    plain = GameRecord.new("race/2", seed=SEED)
    play_race(plain)
    text = plain.to_json()
    assert '"format": "ludus-record/1"' in text and '"notes"' not in text
    record, note = _race_with_a_recommit()
    text = record.to_json()
    assert '"format": "ludus-record/2"' in text
    assert '\n    {"at": 6, "stopped": "Ctrl-C"},\n' in text  # one note a line, keys sorted
    back = GameRecord.from_json(text)
    assert back.notes == record.notes and back.to_json() == text
    assert note == {
        "at": 6,
        "reseed": "stopped",
        "seed": hex_of(SEED),
        "seed_sha256": Dice(SECOND).commitment(),
    }
    assert back.seed == hex_of(SECOND)  # the last seed revealed at the end
    assert hex_of(SECOND) not in text.split('"seed": "')[0]  # (never before the end)


def test_re_committed_dice_verify_seed_by_seed():
    record, note = _race_with_a_recommit()
    back = GameRecord.from_json(record.to_json())
    assert back.verify(race_position) == []
    # a roll after the re-commit is checked against the second seed, one before it against the first
    actions = list(back.actions)
    late = [i for i in range(note["at"], len(actions)) if actions[i].startswith("roll")][0]
    early = [i for i in range(note["at"]) if actions[i].startswith("roll")][0]
    for i in (early, late):
        changed = list(actions)
        value = int(changed[i].split()[1])
        changed[i] = "roll %d" % (value % 6 + 1)
        bad = GameRecord(back.start, {}, back.seed_sha256, back.seed, changed, back.result, None, back.notes)
        problems = bad.verify(race_position)
        assert problems and problems[0].startswith("action #%d (roll #" % i), problems
        assert "but the seed gives 'roll %d'" % value in problems[0], problems


def test_a_re_commit_that_reveals_another_seed_or_an_unrevealed_last_seed_is_named():
    record, note = _race_with_a_recommit()
    notes = [dict(n) for n in record.notes]
    notes[1]["seed"] = hex_of(bytes(32))  # not the seed the game began with
    bad = GameRecord(
        record.start, {}, record.seed_sha256, record.seed, list(record.actions), None, None, notes
    )
    problems = bad.verify(race_position)
    assert problems[0].startswith("note at action #6: the seed revealed at the re-commit does not match")
    hidden = GameRecord(
        record.start, {}, record.seed_sha256, None, list(record.actions), None, None, record.notes
    )
    problems = hidden.verify(race_position)
    assert problems == [
        "seed not revealed: the rolls from action #6 on cannot be checked (commitment %s)"
        % note["seed_sha256"]
    ], problems


def test_a_roll_after_a_stop_into_the_repl_with_no_re_commit_is_named():
    record, note = _race_with_a_recommit()
    # the same game as a board that did not re-commit would have recorded it: its first seed to the end
    notes = [record.notes[0]]
    again = GameRecord.new("race/2", seed=SEED)
    game = race_position("race/2")
    for action in record.actions[: note["at"]]:
        if action.startswith("roll"):
            game.apply_roll(again.roll())
        else:
            move = game.parse_move(action)
            again.record_move(move)
            game.push(move)
    again.notes = notes
    while not game.is_over():
        if game.awaiting_roll():
            game.apply_roll(again.roll())
        else:
            move = game.legal_moves()[0]
            again.record_move(move)
            game.push(move)
    again.finish(game.placements())
    problems = GameRecord.from_json(again.to_json()).verify(race_position)
    first = [i for i in range(6, len(again.actions)) if again.actions[i].startswith("roll")][0]
    assert len(problems) == 1 and problems[0].startswith("action #%d (roll #" % first), problems
    assert "stopped into the REPL at action #6" in problems[0] and "not re-committed" in problems[0]


def test_bad_notes_are_refused_naming_the_fault():
    import json

    record, _ = _race_with_a_recommit()
    good = json.loads(record.to_json())

    def refused(change):
        data = json.loads(json.dumps(good))
        change(data)
        return str(support.raises(NotationError, GameRecord.from_json, json.dumps(data)))

    def note(k, **fields):
        def change(data):
            data["notes"][k].update(fields)

        return change

    assert "'notes' must be a list" in refused(lambda d: d.update(notes=5))
    assert "'notes'[0] must be an object" in refused(lambda d: d.update(notes=[5]))
    slept = [{"at": 0, "slept": "x"}]
    assert "must have one of names, bots, stopped, reseed, ended" in refused(lambda d: d.update(notes=slept))
    assert "must have one of" in refused(note(0, ended="x"))  # (two kinds)
    assert "'why' is not a key of a 'stopped' note" in refused(note(0, why=1))
    assert "'at' must be an action index 0..%d, got 999" % len(record.actions) in refused(note(0, at=999))
    assert "'at' must be an action index 6.." in refused(note(1, at=5))  # (in order)
    assert "'seed' must be 64 lower-case hex digits" in refused(note(1, seed="X" * 64))
    assert "'seed' must be 64 lower-case hex digits" in refused(note(1, seed="AB" * 32))
    assert "a 'reseed' note needs 'seed_sha256'" in refused(lambda d: d["notes"][1].pop("seed_sha256"))
    assert "'stopped' must be text" in refused(note(0, stopped=3))
    seats = [{"at": 0, "names": {"9": "Bo"}, "was": {}}]
    assert "'names': '9' is not a seat number 0..5" in refused(lambda d: d.update(notes=seats))
    assert "needs the format 'ludus-record/2'" in refused(lambda d: d.update(format="ludus-record/1"))


def test_a_take_back_keeps_each_note_after_the_actions_it_came_after():
    record = GameRecord.new("race/2", seed=SEED)
    for text in ("roll 5", "advance 5", "roll 1", "advance 1"):
        record.actions.append(text)
    _notes().add(record, {"names": {"0": "Bo"}, "was": {"0": "Anna"}})
    record.actions.pop()
    assert '"at": 3' in record.to_json()  # a note past the actions left comes after the last
    _notes().clamp(record)
    assert record.notes[0]["at"] == 3


def _journalled(record, end):
    # RECORD (with its notes) written to a journal as the board writes it: its start, its actions, a
    # note where each came, the next seed with a re-commit, then END
    import json

    from ludus.hw.fake import FakeFlash
    from ludus.record.journal import Journal

    flash = FakeFlash(2, 1024)
    journal = Journal(flash)
    start = {"start": record.start, "options": {}, "players": None, "seed_sha256": record.seed_sha256}
    start["seed"] = hex_of(SEED)
    start["dice_used"] = 0
    journal.begin(start)
    notes = list(record.notes)
    for i in range(len(record.actions) + 1):
        while notes and notes[0]["at"] == i:
            note = dict(notes.pop(0))
            del note["at"]
            if "reseed" in note:
                note["next"] = hex_of(SECOND)
            journal.note(json.dumps(note))
        if i < len(record.actions):
            journal.add(record.actions[i])
    if end is not None:
        journal.end(end)
    return flash


def test_the_journal_keeps_notes_and_the_re_committed_seed_through_a_power_cut():
    from ludus.record.journal import Journal

    record, note = _race_with_a_recommit()
    result = record.result
    record.result = None
    cut = note["at"] + 3  # a power cut three actions after the re-commit
    while len(record.actions) > cut:
        record.actions.pop()
    state = Journal(_journalled(record, None)).resume()
    back = state["record"]
    assert back.notes == record.notes and list(back.actions) == list(record.actions)
    # the dice go on from the second seed, the faces drawn since the re-commit counted
    drawn = len([a for a in record.actions[note["at"] :] if a.startswith("roll")])
    assert state["seed"] == hex_of(SECOND) and state["dice_used"] == drawn
    assert hex_of(SECOND) not in back.to_json()  # (the next seed is the journal's alone)
    record.result = result


def test_a_finished_or_abandoned_game_reads_back_from_the_journal_with_its_notes():
    import json

    from ludus.record.journal import Journal

    record, _ = _race_with_a_recommit()
    ended = '{"result": %s, "players": null}' % json.dumps(record.result)
    (text,) = Journal(_journalled(record, ended)).records()
    back = GameRecord.from_json(text)
    assert back.notes == record.notes and back.seed == hex_of(SECOND)
    assert back.verify(race_position) == []
    # given up half way (the link's new_game): its notes end with one that says so
    journal = Journal(_journalled(record, json.dumps("abandoned")))
    (text,) = journal.records()
    back = GameRecord.from_json(text)
    assert back.result is None and back.notes[-1] == {"at": len(record.actions), "ended": "abandoned"}
    ((_, _, _, notes),) = journal.finished(1, actions=False, notes=True)
    assert notes[-1] == {"at": len(record.actions), "ended": "abandoned"} and notes[0]["stopped"] == "Ctrl-C"

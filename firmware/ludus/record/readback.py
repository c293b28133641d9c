"""Reading the journal's games back from flash (ludus.record.journal): the unfinished game to restore,
streamed into its record, and the finished ones, a record at a time. Loaded only for a read (a boot's
restore, the link's `games` and `journal`) and dropped again: a game's ticks only write.

    state = journal.resume(feed)          # the Journal's methods call these functions
    for where in journal.finished_games(10):
        record = journal.record_at(where)
"""

import json

from ludus.errors import LudusError, NotationError
from ludus.runtime import transient


def _text(payload):
    # an action's text (payload: bytes or a memoryview); bytes that are no UTF-8 (damage the checksum
    # missed) as U+FFFD, never an error
    try:
        return str(payload, "utf-8")
    except UnicodeError:
        return "".join(chr(b) if b < 128 else "\ufffd" for b in payload)


def _faces(text):
    # the die faces an action draws: "roll 4" one, "roll 3 5" two, a move none (checked without
    # allocating, as ludus.record.actions.is_roll_action)
    if text.startswith("roll") and len(text) > 5:
        return 2 if len(text) > 7 else 1
    return 0


def actions(journal, log, feed=None):
    """The unfinished game read from flash: its actions into LOG (an empty list, or the ActionLog
    of ludus.record.actions, which keeps them compactly), each undo popping the last. Returns (its
    start record's payload, the die faces its actions draw since its dice were last committed, its
    notes (ludus.record.notes; None if it has none), the seed of its last re-commit or None), or None
    if there is no unfinished game. The journal keeps none of it in RAM, where a thousand-action
    game's texts (30 KB on a Pico) would copy what the referee's record already holds compactly.
    feed() is called as it reads."""
    game = journal.game
    if game is None or game[2] is not None:
        return None
    # faces drawn, the game's start payload once met, its notes, the last re-commit's seed
    found = [0, None, None, None]  # type: list

    def visit(kind, payload, seq):
        if kind == 0x53:  # S: this game's start (an earlier game's records in its block came first)
            found[1] = None
            if journal.is_start(payload, seq):
                found[1] = bytes(payload)
                while log:
                    log.pop()
                found[0] = 0
                found[2] = found[3] = None
        elif found[1] is None:
            return
        elif kind == 0x41:  # A
            text = _text(payload)
            found[0] += _faces(text)
            log.append(text)
        elif kind == 0x55 and log:  # U
            found[0] -= _faces(log.pop())
            _clamp(found[2], len(log))
        elif kind == 0x4E:  # N
            found[2], seed = _noted(found[2], payload, len(log))
            if seed is not None:
                found[0] = 0
                found[3] = seed

    journal._scan(visit, since=game[3], feed=feed)
    if found[1] is None:  # (cannot happen unless the flash changed under the journal)
        raise NotationError("the journal's unfinished game has no start on flash")
    return found[1], found[0], found[2], found[3]


def _noted(notes, payload, at):
    # (the notes with an N record's note added at AT, the new seed of a re-commit or None); the seed
    # is the journal's alone, never the record's
    try:
        note = json.loads(bytes(payload))
        seed = note.pop("next", None)
    except (ValueError, TypeError, AttributeError) as exc:
        raise NotationError("a note in the journal is damaged (%s)" % (exc,)) from None
    note["at"] = at
    if notes is None:
        notes = []
    notes.append(note)
    return notes, seed


def _clamp(notes, n):
    # a take-back: a note past the actions left comes after the last of them
    for note in notes or ():
        if note["at"] > n:
            note["at"] = n


def current(journal):
    """(start payload, actions as a list of texts) of the unfinished game, or None."""
    texts = []
    found = actions(journal, texts)
    return None if found is None else (found[0], texts)


def finished(journal, last=None, actions=True, notes=False):
    """The finished games still in flash, oldest first: (start payload, actions, end payload), and
    with NOTES a fourth item, the game's notes (a list, ludus.record.notes, with an "ended" one for
    a game ended without a result, as record_at() gives them); with `last`, only that
    many of the newest (the others are dropped as the scan goes, so a full journal is never in RAM
    at once). Read from flash on each call."""
    out = []
    games = []  # [start, actions, end, actions counted, notes]

    def visit(kind, payload, seq):
        if kind == 0x53:
            games.append([bytes(payload), [], None, 0, []])
        elif games and games[-1][2] is None:
            game = games[-1]
            if kind == 0x41:
                game[3] += 1
                if actions:
                    game[1].append(_text(payload))
            elif kind == 0x55 and game[3]:
                game[3] -= 1
                if game[1]:
                    game[1].pop()
                _clamp(game[4], game[3])
            elif kind == 0x4E and notes:
                game[4] = _noted(game[4], payload, game[3])[0]
            elif kind == 0x45:
                game[2] = bytes(payload)
                if notes and game[2][:1] == b'"':  # ended without a result ("abandoned"): a note says so
                    game[4] = _noted(game[4], b'{"ended": ' + game[2] + b"}", game[3])[0]
                games.pop()
                out.append((game[0], game[1], game[2], game[4]) if notes else (game[0], game[1], game[2]))
                if last is not None and len(out) > last:
                    out.pop(0)

    journal._scan(visit)
    return out


def finished_games(journal, last=None):
    """Where each finished game still in flash begins, oldest first, to read with record_at():
    (its start's block sequence number, offset); `last`: only that many of the newest. Reads no
    action."""
    found = []
    begun = [None]  # type: list

    def visit(kind, payload, seq):
        if kind == 0x53:
            begun[0] = (seq, journal.where)
        elif kind == 0x45 and begun[0] is not None:
            found.append(begun[0])
            begun[0] = None
            if last is not None and len(found) > last:
                found.pop(0)

    if last != 0:
        journal._scan(visit)
    return found


def record_at(journal, where, feed=None):
    """The finished game that begins at WHERE (from finished_games()) as a GameRecord, its seed
    revealed (so `ludus verify` checks it), its actions read straight into the record's compact
    log, feed() called as it reads; None if it cannot be read (its blocks reused since, damage
    past its checksums)."""
    from ludus.record.actions import ActionLog
    from ludus.record.game import GameRecord

    log = ActionLog()
    parts = [None, None, None, None]  # type: list  # its start and end payloads, notes, last seed

    def visit(kind, payload, seq):
        if parts[0] is None:
            if kind != 0x53:
                return True
            parts[0] = bytes(payload)
        elif kind == 0x41:
            log.append(_text(payload))
        elif kind == 0x55 and log:
            log.pop()
            _clamp(parts[2], len(log))
        elif kind == 0x4E:
            parts[2], seed = _noted(parts[2], payload, len(log))
            if seed is not None:
                parts[3] = seed
        elif kind == 0x45:
            parts[1] = bytes(payload)
            return True
        elif kind == 0x53:
            return True  # (another game's start: this one's end is gone)
        return False

    try:
        journal._scan(visit, since=where[0], feed=feed, start=where[1])
        if parts[1] is None:
            return None
        state = json.loads(parts[0])
        record = _record_of(state, GameRecord)
        _add_actions(record, log, parts[2])
        record.result, players = end_of(parts[1])
        if players is not None:
            record.players = players
        ended = json.loads(parts[1])
        if isinstance(ended, str):  # ended without a result: "abandoned" (new_game), "unrestorable"
            transient("ludus.record.notes").add(record, {"ended": ended})
        record.seed = parts[3] or state.get("seed")
    except (LudusError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return record


def _add_actions(record, log, notes):
    # the journal's actions and notes after the start's (a start with a whole record may have some),
    # and the players the last names note gave
    before = len(record.actions)
    if before:
        for text in log:
            record.actions.append(text)
    else:
        record.adopt(log)
    if notes:
        named = None
        for note in notes:
            note["at"] += before
            if "names" in note:
                named = note["names"]
        record.notes = (record.notes or []) + notes
        if named is not None:  # (renamed in the game: the start's names are no longer its players)
            record.players = {}
            for seat in named:
                record.players[int(seat)] = named[seat]


def records(journal, last=None):
    """The finished games still in flash as game records (JSON text), oldest first; `last`: only
    that many of the newest. A game that cannot be read is left out (record_at())."""
    out = []
    for where in finished_games(journal, last):
        record = record_at(journal, where)
        if record is not None:
            out.append(record.to_json())
    return out


def resume(journal, feed=None):
    """The unfinished game as Referee.restore takes it, or None: {"record": its GameRecord with every
    action, "seed": the dice seed, "dice_used": the faces drawn}. Read straight from flash into
    the record's compact action log, feed() called as it goes (a thousand actions take seconds on a
    Pico: the watchdog must not bite). NotationError (a LudusError) for a start or an action
    that is no record's (flash damaged past its checksums)."""
    if not journal.unfinished():
        return None
    from ludus.record.actions import ActionLog
    from ludus.record.game import GameRecord

    log = ActionLog()
    start, faces, notes, seed = actions(journal, log, feed)
    try:
        state = json.loads(start)
        start = None
        record = _record_of(state, GameRecord)
        used = state.get("dice_used", 0)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise NotationError("the journal's start record is damaged (%s)" % (exc,)) from None
    _add_actions(record, log, notes)  # (a start holding a whole record: the journal's follow its own)
    if seed is not None:  # re-committed: the last seed's faces only
        return {"record": record, "seed": seed, "dice_used": faces}
    return {"record": record, "seed": state.get("seed"), "dice_used": used + faces}


def state(journal):
    """resume() with the record as JSON text (Referee.state()'s form: the `journal` command), or
    None; None too for a game whose records are damaged."""
    try:
        state = resume(journal)
    except LudusError:
        return None
    if state is not None:
        state["record"] = state["record"].to_json()
    return state


def seats_of(players):
    """{"0": "Anna"} as JSON keeps a record's players -> {0: "Anna"} (None stays None)."""
    if not isinstance(players, dict):
        return None
    return {int(seat): players[seat] for seat in players}


def end_of(payload):
    """(placements or None, players or None) of an end record: the placements' list, or an object
    with "result" and "players" (the names as the game ended: they may have been set during it)."""
    end = json.loads(payload)
    players = None
    if isinstance(end, dict):
        players = seats_of(end.get("players"))
        end = end.get("result")
    return (list(end) if isinstance(end, list) else None), players


def _record_of(state, GameRecord):
    # a start record is Referee.start_state() (start, options, players, commitment) or an older state()
    # with the record's whole JSON: either becomes the record, checked as a record read from a file is
    if "record" in state:
        return GameRecord.from_json(state["record"])
    record = GameRecord(
        state["start"], state.get("options"), state["seed_sha256"], players=seats_of(state.get("players"))
    )
    return GameRecord.from_json(record.to_json())

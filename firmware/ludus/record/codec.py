"""The JSON side of game records (ludus.record): writing, reading with every field checked, and verifying
a record against its seed and the rules. Imported by GameRecord only when needed (saving or restoring a
referee's state, host tools), so a game in play does not keep this code on the Pico's heap."""

import json

from ludus.dice import Dice, seed_from_hex
from ludus.errors import LudusError, NotationError
from ludus.record.actions import FORMAT, apply_action, roll_text, roll_values
from ludus.scan import repeated_key

_HEX = "0123456789abcdef"
# every field a record may carry, in the order emit writes them
_FIELDS = ("format", "start", "options", "players", "seed_sha256", "seed", "actions", "result", "notes")
# the format of a record with notes (ludus.record.notes); one without them is written as FORMAT, byte for
# byte as before, so the tools that know only that read it
FORMAT_NOTES = "ludus-record/2"


def _quote(text):
    # A JSON string, escaped the same way on both runtimes (their json.dumps differ on non-ASCII):
    # only quote, backslash and control characters are escaped; the rest is written as UTF-8.
    for ch in text:
        if ch < " " or ch == '"' or ch == "\\" or ch == "\x7f":
            break
    else:
        return '"' + text + '"'  # the usual case: nothing to escape
    out = ['"']
    for ch in text:
        c = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif c < 0x20 or c == 0x7F:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(v):
    if v is None or v is True or v is False:
        return json.dumps(v)
    if isinstance(v, str):
        return _quote(v)
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join([_value(x) for x in v]) + "]"
    if isinstance(v, dict):
        keys = sorted(v)
        return "{" + ", ".join([_quote(k) + ": " + _value(v[k]) for k in keys]) + "}"
    raise NotationError("cannot write %r in a record" % (v,))


def _is_hex64(text):
    if not isinstance(text, str) or len(text) != 64:
        return False
    for ch in text:
        if ch not in _HEX:
            return False
    return True


def write_json(record, write):
    """Write a record as JSON through write(text), piece by piece."""
    notes = record.notes
    write('{\n  "format": ' + _quote(FORMAT_NOTES if notes else FORMAT))
    write(',\n  "start": ' + _quote(record.start))
    write(',\n  "options": ' + _value(record.options))
    if record.players:
        seats = sorted(record.players)
        write(
            ',\n  "players": {'
            + ", ".join(['"%d": %s' % (s, _quote(record.players[s])) for s in seats])
            + "}"
        )
    write(',\n  "seed_sha256": ' + _quote(record.seed_sha256))
    if record.seed is not None:
        write(',\n  "seed": ' + _quote(record.seed))
    if record.actions:
        write(',\n  "actions": [')
        sep = "\n    "
        for action in record.actions:
            write(sep)
            write(_quote(action))
            sep = ",\n    "
        write("\n  ]")
    else:
        write(',\n  "actions": []')
    if record.result is not None:
        write(',\n  "result": ' + _value(record.result))
    if notes:
        count = len(record.actions)
        sep = ',\n  "notes": [\n    '
        for note in notes:
            if note["at"] > count:  # (a take-back since: it came after the actions kept)
                note = dict(note)
                note["at"] = count
            write(sep + _value(note))
            sep = ",\n    "
        write("\n  ]")
    write("\n}\n")


def parse(text):
    """The GameRecord constructor's arguments from JSON text; NotationError naming the field for anything
    malformed."""
    k = repeated_key(text)
    if k is not None:
        raise NotationError("record: key %r appears twice in one object" % (k,))
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise NotationError("record is not valid JSON: %s" % (exc,)) from None
    except RuntimeError:  # RecursionError on CPython, RuntimeError on MicroPython
        raise NotationError("record is not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise NotationError("record must be a JSON object, got %s" % type(data).__name__)
    if "format" not in data:
        raise NotationError("record field 'format' is missing (expected %r)" % FORMAT)
    if data["format"] != FORMAT and data["format"] != FORMAT_NOTES:
        raise NotationError(
            "record field 'format': unknown format %r, expected %r or %r"
            % (data["format"], FORMAT, FORMAT_NOTES)
        )
    if "notes" in data and data["format"] == FORMAT:
        raise NotationError("record field 'notes' needs the format %r, not %r" % (FORMAT_NOTES, FORMAT))
    for name in data:
        if name not in _FIELDS:
            raise NotationError("record field %r is unknown" % (name,))
    for name in ("start", "options", "seed_sha256", "actions"):
        if name not in data:
            raise NotationError("record field %r is missing" % name)
    start = data["start"]
    if not isinstance(start, str) or not start.strip():
        raise NotationError("record field 'start' must be a non-empty string, got %r" % (start,))
    if not isinstance(data["options"], dict):
        raise NotationError("record field 'options' must be an object, got %r" % (data["options"],))
    if not _is_hex64(data["seed_sha256"]):
        raise NotationError(
            "record field 'seed_sha256' must be 64 lower-case hex digits, got %r" % (data["seed_sha256"],)
        )
    seed = data.get("seed")
    if seed is not None and not _is_hex64(seed):
        raise NotationError("record field 'seed' must be 64 lower-case hex digits, got %r" % (seed,))
    actions = data["actions"]
    if not isinstance(actions, list):
        raise NotationError("record field 'actions' must be a list, got %r" % (actions,))
    for i, action in enumerate(actions):
        if not isinstance(action, str) or not action.strip():
            raise NotationError("record field 'actions'[%d] must be a non-empty string, got %r" % (i, action))
        try:
            roll_values(action)
        except NotationError as exc:
            raise NotationError("record field 'actions'[%d]: %s" % (i, exc)) from None
    result = data.get("result")
    if result is not None:
        ok = isinstance(result, list)
        for seat in result if ok else ():
            if not isinstance(seat, int) or isinstance(seat, bool):
                ok = False
        if not ok:
            raise NotationError("record field 'result' must be a list of seat numbers, got %r" % (result,))
    notes = data.get("notes")
    if notes is not None:
        from ludus.runtime import transient

        notes = transient("ludus.record.notes").check(notes, len(actions)) or None
    players = _players(data.get("players"))
    return start, data["options"], data["seed_sha256"], seed, actions, result, players, notes


def _players(players):
    # {"0": "Anna", ...} -> {0: "Anna", ...}; None when the record names nobody
    if players is None:
        return None
    if not isinstance(players, dict):
        raise NotationError(
            'record field \'players\' must be an object like {"0": "Anna"}, got %r' % (players,)
        )
    out = {}
    for key in players:
        if not (isinstance(key, str) and len(key) == 1 and "0" <= key <= "5"):
            raise NotationError("record field 'players': %r is not a seat number 0..5" % (key,))
        out[ord(key) - 48] = players[key]
    from ludus.runtime import transient

    fault = transient("ludus.record.players").players_fault(out)
    if fault:
        raise NotationError("record field 'players': %s" % fault)
    return out


def verify(record, position=None):
    """Every way the record disagrees with its seed and the rules, as a list of messages (empty when
    all is consistent): an unrevealed seed, a seed that does not match the commitment, each roll the
    seed does not give, the first action the rules reject, a result the replay does not reach."""
    problems = []
    dice = None
    segments = []  # (first action, dice or None) of each seed, when the dice were re-committed
    exposed = {}  # rolls after a stop into the REPL with no re-commit between (ludus.record.notes)
    if record.notes:
        from ludus.runtime import transient

        notes = transient("ludus.record.notes")
        exposed = notes.exposed_rolls(record)
        if [n for n in record.notes if "reseed" in n]:
            segments = notes.verify_segments(record, problems)
    if segments:
        dice = segments.pop(0)[1]
    elif record.seed is None:
        problems.append("seed not revealed: the rolls cannot be checked (commitment %s)" % record.seed_sha256)
    else:
        dice = Dice(seed_from_hex(record.seed))
        if dice.commitment() != record.seed_sha256:
            problems.append(
                "seed does not match commitment: sha256(seed) is %s, recorded seed_sha256 is %s"
                % (dice.commitment(), record.seed_sha256)
            )
    try:
        game = record._new_game(position)
    except LudusError as exc:
        problems.append("start %r: %s" % (record.start, exc))
        return problems
    if hasattr(game, "max_undo"):
        game.max_undo = 0  # verifying never takes back: keep no history (matters on the Pico)
    if record.players:
        seats = game.seats if isinstance(game.seats, (list, tuple)) else range(game.seats)
        strays = [s for s in sorted(record.players) if s not in seats]
        if strays:
            problems.append("players: seat %s is not in the game" % ", ".join([str(s) for s in strays]))
    roll_number = 0
    k = 0
    for i, action in enumerate(record.actions):
        while k < len(segments) and segments[k][0] <= i:  # a re-commit: the next seed's rolls from here
            dice = segments[k][1]
            k += 1
        values = roll_values(action)
        if values is not None:
            roll_number += 1
            if i in exposed:
                problems.append(
                    "action #%d (roll #%d): the board was stopped into the REPL at action #%d and its dice"
                    " were not re-committed: the seed of this roll could have been read from the"
                    " journal's flash" % (i, roll_number, exposed[i])
                )
            if dice is not None:
                expected = tuple([dice.roll() for _ in values])
                if expected != values:
                    problems.append(
                        "action #%d (roll #%d): recorded %r but the seed gives %r"
                        % (i, roll_number, action, roll_text(expected))
                    )
        if game is None:
            continue  # keep checking rolls after the replay has stopped
        try:
            apply_action(game, action)
        except LudusError as exc:
            problems.append("action #%d %r is illegal: %s (replay stopped)" % (i, action, exc))
            game = None
    if game is not None and record.result is not None:
        got = list(game.placements())
        if got != list(record.result):
            problems.append("result: recorded %r but the replay gives %r" % (record.result, got))
    return problems

"""A game record's notes: what happened to a game besides its play, each at the action index it came
at (docs/dice-and-records.md, "Notes"). Loaded only for a record that has notes or gets one.

    {"at": 14, "names": {"0": "Bo", "1": "red"}, "was": {"0": "Anna", "1": "red"}}   a seat renamed
    {"at": 20, "bots": {"1": "strong"}, "was": {}}           the seats the board plays changed
    {"at": 31, "stopped": "Ctrl-C"}                          the firmware stopped into the REPL
    {"at": 31, "reseed": "stopped", "seed": OLD, "seed_sha256": NEW}   the dice re-committed
    {"at": 40, "ended": "abandoned"}                         the game ended without a result

A note at N came after the first N actions. A re-commit reveals the seed the rolls before it came
from and commits to the one the rolls after it come from; the record's `seed` reveals the last."""

from ludus.dice import Dice, commitment, seed_from_hex
from ludus.errors import NotationError

KINDS = ("names", "bots", "stopped", "reseed", "ended")
# the keys each kind of note has besides "at" and its own
_MORE = {"names": ("was",), "bots": ("was",), "stopped": (), "reseed": ("seed", "seed_sha256"), "ended": ()}
STOPPED = "stopped"  # a re-commit's reason when the REPL had the board since the last one
RESTART = "restart"  # ...and when it did not: a power cut, a reset, the watchdog, a crash of the loop


def kind(note):
    """The kind of a note: "names", "bots", "stopped", "reseed" or "ended"."""
    for k in KINDS:
        if k in note:
            return k
    raise NotationError("note %r: not one of %s" % (note, ", ".join(KINDS)))


def add(record, note):
    """NOTE (a dict without "at") added to RECORD at its current length; returns the note."""
    note["at"] = len(record.actions)
    if record.notes is None:
        record.notes = []
    record.notes.append(note)
    return note


def clamp(record):
    """After a take-back: a note past the actions now recorded comes after the last of them (no roll
    is ever taken back, so each re-commit keeps the rolls it divides)."""
    n = len(record.actions)
    for note in record.notes or ():
        if note["at"] > n:
            note["at"] = n


def reseed(record, why, seed=None):
    """Close the record's live dice (their seed revealed in a note) and commit to fresh ones: SEED
    (bytes; None draws it from os.urandom). Returns the note, its "next" the new seed's hex (the
    journal keeps it; the record never carries it)."""
    if record.dice is None:
        raise NotationError("record of %r has no live dice to re-commit" % (record.start,))
    old = record.dice.seed_hex()
    record.dice = Dice(seed)
    note = add(record, {"reseed": why, "seed": old, "seed_sha256": record.dice.commitment()})
    return note


def why_reseed(record):
    """STOPPED if the record notes the REPL since its last re-commit, else RESTART."""
    for note in reversed(record.notes or ()):
        if "reseed" in note:
            break
        if "stopped" in note:
            return STOPPED
    return RESTART


def _seats(value, what, i):
    # {"0": text, ...} as a note keeps seats
    where = "record field 'notes'[%d]: %r" % (i, what)
    if not isinstance(value, dict):
        raise NotationError("%s must be an object of seats, got %r" % (where, value))
    for seat in value:
        if not (isinstance(seat, str) and len(seat) == 1 and "0" <= seat <= "5"):
            raise NotationError("%s: %r is not a seat number 0..5" % (where, seat))
        if not isinstance(value[seat], str) or not value[seat]:
            raise NotationError("%s: seat %s must be text" % (where, seat))


def check(notes, count):
    """The notes of a record of COUNT actions, as read from JSON; NotationError naming what is wrong."""
    if not isinstance(notes, list):
        raise NotationError("record field 'notes' must be a list, got %r" % (notes,))
    last = 0
    for i, note in enumerate(notes):
        if not isinstance(note, dict):
            raise NotationError("record field 'notes'[%d] must be an object, got %r" % (i, note))
        found = [k for k in KINDS if k in note]
        if len(found) != 1:
            raise NotationError(
                "record field 'notes'[%d] must have one of %s, got %r" % (i, ", ".join(KINDS), sorted(note))
            )
        k = found[0]
        for key in note:
            if key != "at" and key != k and key not in _MORE[k]:
                raise NotationError("record field 'notes'[%d]: %r is not a key of a %r note" % (i, key, k))
        for key in _MORE[k]:
            if key not in note:
                raise NotationError("record field 'notes'[%d]: a %r note needs %r" % (i, k, key))
        at = note.get("at")
        if not isinstance(at, int) or isinstance(at, bool) or not last <= at <= count:
            raise NotationError(
                "record field 'notes'[%d]: 'at' must be an action index %d..%d, got %r" % (i, last, count, at)
            )
        last = at
        if k == "names" or k == "bots":
            _seats(note[k], k, i)
            _seats(note["was"], "was", i)
        elif k == "reseed":
            for key in ("seed", "seed_sha256"):
                try:
                    seed_from_hex(note[key])
                except NotationError:
                    raise NotationError(
                        "record field 'notes'[%d]: %r must be 64 lower-case hex digits" % (i, key)
                    ) from None
                if note[key] != note[key].lower():
                    raise NotationError(
                        "record field 'notes'[%d]: %r must be 64 lower-case hex digits" % (i, key)
                    )
            if not isinstance(note["reseed"], str):
                raise NotationError("record field 'notes'[%d]: 'reseed' must be text" % (i,))
        elif not isinstance(note[k], str):
            raise NotationError("record field 'notes'[%d]: %r must be text, got %r" % (i, k, note[k]))
    return notes


def verify_segments(record, problems):
    """The dice's segments of a record: [(first action index, Dice or None)] in order, each re-commit
    starting one. Problems found on the way (a revealed seed that does not match its commitment, an
    unrevealed last seed) are added to PROBLEMS."""
    reseeds = [n for n in record.notes or () if "reseed" in n]
    promised = record.seed_sha256
    out = []  # type: list
    at = 0
    for note in reseeds:
        seed = note["seed"]
        got = commitment(seed_from_hex(seed))
        if got != promised:
            problems.append(
                "note at action #%d: the seed revealed at the re-commit does not match its commitment:"
                " sha256(seed) is %s, committed %s" % (note["at"], got, promised)
            )
        out.append((at, Dice(seed_from_hex(seed))))
        at = note["at"]
        promised = note["seed_sha256"]
    if record.seed is None:
        problems.append(
            "seed not revealed: the rolls from action #%d on cannot be checked (commitment %s)"
            % (at, promised)
        )
        out.append((at, None))
    else:
        got = commitment(seed_from_hex(record.seed))
        if got != promised:
            problems.append(
                "seed does not match the last re-commit (action #%d): sha256(seed) is %s, committed %s"
                % (at, got, promised)
            )
        out.append((at, Dice(seed_from_hex(record.seed))))
    return out


def exposed_rolls(record):
    """{action index of a roll: the note at which the REPL had the board}, for the first roll after
    each stop into the REPL that no re-commit came between: a game that went on with a seed anyone
    at the REPL could have read from the journal's flash."""
    from ludus.record.actions import is_roll_action

    out = {}
    notes = record.notes or ()
    k = 0
    stopped = None
    for i, action in enumerate(record.actions):
        while k < len(notes) and notes[k]["at"] <= i:
            if "stopped" in notes[k]:
                stopped = notes[k]["at"]
            elif "reseed" in notes[k]:
                stopped = None
            k += 1
        if stopped is not None and is_roll_action(action):
            out[i] = stopped
            stopped = None
    return out

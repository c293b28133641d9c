"""A game record's notes (ludus.record.notes) in words for people: what `ludus verify`, `ludus season` and
`ludus games` print under a game and under a season's table."""

from collections.abc import Callable
from typing import Any

WHY = {
    "stopped": "the board had been stopped into the REPL",
    "restart": "the board had started again: a power cut, a reset or a crash of its loop",
}


def _seats(now: Any, was: Any, what: Callable[[Any], str]) -> str:
    if not isinstance(now, dict) or not isinstance(was, dict):
        raise TypeError("seats")
    changed = []
    for seat in sorted(set(now) | set(was)):
        if now.get(seat) != was.get(seat):
            changed.append("seat %s %s -> %s" % (seat, what(was.get(seat)), what(now.get(seat))))
    return ", ".join(changed) or "no seat changed"


def _name(name: Any) -> str:
    return "(no name)" if name is None else repr(name)


def _player(level: Any) -> str:
    return "a person" if level is None else "the %s bot" % level


def note_text(note: dict) -> str:
    """One note in words: "after 12 actions: seat 0 renamed 'Anna' -> 'Bo'"."""
    at = note.get("at")
    head = "after %s action%s: " % (at, "" if at == 1 else "s") if isinstance(at, int) else ""
    if "names" in note:
        return head + "renamed: " + _seats(note["names"], note.get("was", {}), _name)
    if "bots" in note:
        return head + "who plays: " + _seats(note["bots"], note.get("was", {}), _player)
    if "stopped" in note:
        return head + (
            "the board was stopped into the REPL (%s): the dice seed on its flash could be read there"
            % note["stopped"]
        )
    if "reseed" in note:
        return (
            head
            + "dice re-committed (%s): seed %s... revealed, the rolls after come from commitment %s..."
            % (
                WHY.get(note["reseed"], note["reseed"]),
                str(note.get("seed"))[:16],
                str(note.get("seed_sha256"))[:16],
            )
        )
    if "ended" in note:
        if note["ended"] == "abandoned":
            players = note.get("players")
            between = " (%s)" % ", ".join(str(p) for p in players) if isinstance(players, list) else ""
            return head + "abandoned: a new game was begun over USB, no result%s" % between
        return head + "ended without a result: %s" % note["ended"]
    return head + "a note of an unknown kind: %s" % ", ".join(sorted(str(k) for k in note))


def notes_lines(notes: list | None, game: bool = False) -> list[str]:
    """The notes of a record (or with GAME, of a season: each note names its game) as lines."""
    out = []
    for note in notes or ():
        if not isinstance(note, dict):
            continue
        try:
            text = note_text(note)
        except (TypeError, AttributeError, ValueError):  # (a board's season is data from outside)
            text = "a note that cannot be read: %s" % ", ".join(sorted(str(k) for k in note))
        if game and note.get("game") is not None:
            text = "game %s: %s" % (note["game"], text)
        out.append("note: " + text)
    return out

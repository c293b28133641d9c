"""The club's season kept on the board: every finished game of the season's rule set is counted into
`season.json` as it ends, by the players' names, so the table survives power cycles (docs/club.md).
ludus.device calls it; the table itself is ludus.ludo.season's.

    kind = count(files, "danish", record, game)   # "game", "playoff", or None (not this season's)
    sync(files, "danish", journal)                # at boot: a game the power cut before it was counted
    load(files, "danish")                         # the season as kept (a new one if there is none)
    report(device, "count", record, game)         # one of those for the device, its outcome said

files: read_file(name) -> text or None, write_file(name, text) (whole or not at all), path(name).
A file that cannot be read, or a season of another rule set, is kept under a name of its own
(season-N.json) and a new season begins: nothing a club counted is overwritten."""

import json

from ludus.ludo.season import KEY_DIGITS, Season, rules_of
from ludus.runtime import const

SEASON_FILE = "season.json"
_KEEP_MOST = const(99)  # season-1.json .. season-99.json
_NOTES_KEPT = const(32)  # the season's newest notes (a game renamed, handed to a bot, abandoned)


def _archive(files, text):
    # the old season under the first free name; that name (None when all are taken: then it is
    # written over the oldest, season-1.json, rather than kept nowhere)
    for k in range(1, _KEEP_MOST + 1):
        name = "season-%d.json" % k
        if files.path(name) is None:
            files.write_file(name, text)
            return name
    files.write_file("season-1.json", text)
    return "season-1.json"


def load(files, rules):
    """(season, note): the season kept in season.json, or a new one of `rules` if there is none, it
    cannot be read or it counts another rule set; note says where an old file was kept (None if
    nothing was moved)."""
    text = files.read_file(SEASON_FILE)
    if text is None:
        return Season(rules), None
    try:
        season = Season.from_json(text)
    except ValueError as exc:
        return Season(rules), "%s could not be read (%s): kept as %s, a new season begins" % (
            SEASON_FILE,
            exc,
            _archive(files, text),
        )
    if season.rules != rules:
        return Season(rules), "the %s season was kept as %s: a %s season begins" % (
            season.rules,
            _archive(files, text),
            rules,
        )
    return season, None


def new_season(files, rules):
    """A new, empty season of `rules`; the one kept before moves to season-N.json (its name, or None)."""
    text = files.read_file(SEASON_FILE)
    kept = _archive(files, text) if text is not None else None
    files.write_file(SEASON_FILE, Season(rules).to_json())
    return kept


def _count(files, rules, start, key, players, result, seats, notes=None, abandoned_at=None):
    # counts one finished game if it is this season's and not counted before (abandoned_at: notes
    # one abandoned after that many actions instead): its kind, the season, and the note of load()
    if (result is None and abandoned_at is None) or rules_of(start) != rules:
        return None, None, None
    season, note = load(files, rules)
    if key in season.seen:
        return None, season, note
    names = {}
    for s in seats:
        names[s] = (players or {}).get(s) or "seat %d" % s
    if result is None:
        season.abandon([names[s] for s in seats], abandoned_at, label=key, key=key)
        kind = "abandoned"
    else:
        kind = season.add(
            [names[s] for s in seats], [names[s] for s in result], label=key, key=key, notes=notes
        )
    if len(season.seen) > 64:  # a game is looked for only as it ends or at the next boot
        season.seen = season.seen[-64:]
    if len(season.notes) > _NOTES_KEPT:
        season.notes = season.notes[-_NOTES_KEPT:]
    files.write_file(SEASON_FILE, season.to_json())
    return kind, season, note


def count(files, rules, record, game):
    """Count a game that has just ended (its record, and the game): (kind, season, note), kind None
    when it is not a game of this season or was counted already."""
    seats = game.seats if isinstance(game.seats, (list, tuple)) else range(game.seats)
    key = record.seed_sha256[:KEY_DIGITS]
    return _count(files, rules, record.start, key, record.players, record.result, seats, record.notes)


def abandoned(files, rules, record, game):
    """Note a game given up half way (the link's new_game) in the season, if it is one of its rule
    set: (kind "abandoned", season, note), or kind None."""
    seats = game.seats if isinstance(game.seats, (list, tuple)) else range(game.seats)
    key = record.seed_sha256[:KEY_DIGITS]
    at = len(record.actions)
    return _count(files, rules, record.start, key, record.players, None, seats, abandoned_at=at)


def sync(files, rules, journal):
    """At boot: the newest finished game in the journal counted, if the power went after the journal
    ended it and before season.json had it. (kind, season, note) as count() gives them."""
    from ludus.record.readback import end_of, seats_of

    games = journal.finished(1, actions=False, notes=True)
    if not games:
        return None, None, None
    start, _, end, notes = games[0]
    try:
        state = json.loads(start)
        if "record" in state:  # (an older start record: the record's whole JSON)
            state = json.loads(state["record"])
        result, players = end_of(end)
        if players is None:
            players = seats_of(state.get("players"))
        if not players:
            return None, None, None  # a game from before names were kept: its seats are not known here
        key = state["seed_sha256"][:KEY_DIGITS]
        seats = sorted(players)
        at = None
        if result is None and notes and notes[-1].get("ended") == "abandoned":  # (new_game's)
            at = notes[-1]["at"]
            notes = None
        return _count(files, rules, state["start"], key, players, result, seats, notes, at)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, None, None


def report(device, how, *args):
    """`how` ("count", "sync" or "abandoned") run for the device (ludus.device) on its files and its
    season's rules, and said as a `season` event; a failure is a fault, never the loop's end (the
    game is in the journal, and `ludus games` fetches it)."""
    rules = device.config["season"]
    try:
        kind, season, note = _COUNTINGS[how](device.platform, rules, *args)
    except Exception as exc:
        device._fault("season", "the game could not be counted in the season: %s" % (exc,))
        return
    if note:
        device._fault("season", note)
    if kind is not None:
        table = season.result()
        top = table["standings"][0] if table["standings"] else None
        device._say(
            {
                "event": "season",
                "rules": rules,
                "counted": kind,
                "games": table["games"],
                "leader": top["player"] if top else None,
                "points": top["points"] if top else 0,
                "champion": table["champion"],
                "ties": table["ties"],
            }
        )


_COUNTINGS = {"count": count, "sync": sync, "abandoned": abandoned}  # type: dict

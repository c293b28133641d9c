"""A board's USB lines in words for people: every event and reply as one line, and a line whose fields
are not what the protocol says shown as it came, never a crash. `ludus monitor`, `ludus games`,
`ludus calibrate` and the simulator's mirror of a board all say the board's events this way."""

import json


def _names(value: object) -> str:
    # a list of names (cell ids, players) the board sent, in words; anything else shown as it came
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    return shown(value)


def shown(value: object, limit: int = 300) -> str:
    try:
        return json.dumps(value, sort_keys=True)[:limit]
    except (TypeError, ValueError, RecursionError):
        return "(unreadable)"


def _self_test(e: dict) -> str:
    found = "".join("; %s: %s" % (k, _names(e[k])) for k in ("stuck", "noisy", "rail") if e.get(k))
    if e.get("error"):
        found += "; %s" % e["error"]
    return "self-test %s: %s LEDs, %s sensors%s" % (
        "passed" if e.get("ok") is True else "FAILED",
        e.get("leds"),
        e.get("channels"),
        found,
    )


_COUNTED = {"playoff": "a play-off counted", "abandoned": "a game abandoned noted (it counts for nothing)"}


def _season(e: dict) -> str:
    ties = e.get("ties")
    tied = "; ".join(_names(g) for g in ties) if isinstance(ties, list) else shown(ties)
    kind = e.get("counted")
    counted = _COUNTED.get(kind, "the game counted") if isinstance(kind, str) else "the game counted"
    return "season (%s): %s, %s game%s; %s%s" % (
        e.get("rules"),
        counted,
        e.get("games"),
        "" if e.get("games") == 1 else "s",
        "%s leads with %s points" % (e.get("leader"), e.get("points")),
        "; tied: " + tied if ties else "",
    )


def _hello(e: dict) -> str:
    dropped = e.get("dropped")
    if isinstance(dropped, int) and not isinstance(dropped, bool):
        return "the board hears this laptop again: %d line%s it could not send meanwhile were dropped" % (
            dropped,
            "" if dropped == 1 else "s",
        )
    return "hello: %s" % shown({k: v for k, v in e.items() if k != "event"})


_WORDS = {
    "boot": lambda e: (
        "board started: firmware %s on MicroPython %s, protocol %s, %s bytes free"
        % (e.get("firmware"), e.get("micropython"), e.get("protocol"), e.get("free"))
    ),
    "self_test": _self_test,
    "journal": lambda e: "game restored from flash: %s actions" % e.get("restored"),
    "fault": lambda e: "FAULT (%s): %s" % (e.get("where"), e.get("error")),
    "safe_mode": lambda e: "SAFE MODE: %s" % e.get("error"),
    "stopped": lambda e: "firmware stopped (%s): %s" % (e.get("why"), e.get("message")),
    "reseed": lambda e: (
        "dice re-committed after %s actions (%s): seed %s... revealed, new commitment %s..."
        % (e.get("actions"), e.get("why"), str(e.get("seed"))[:16], str(e.get("seed_sha256"))[:16])
    ),
    "hello": _hello,
    "new_game": lambda e: (
        "new game: %s (dice commitment %s...)%s"
        % (e.get("start"), str(e.get("seed_sha256"))[:16], _players_text(e.get("players")))
    ),
    "restored": lambda e: "game continues: %s, %s actions" % (e.get("start"), e.get("actions")),
    "roll": lambda e: "seat %s rolled %s" % (e.get("seat"), e.get("value")),
    "move": lambda e: "seat %s moved %s" % (e.get("seat"), e.get("move")),
    "illegal": lambda e: "illegal: %s" % (e.get("reason") or e.get("why") or "not a legal move"),
    "refused": lambda e: "refused: %s" % e.get("reason"),
    "undo": lambda e: "undo: %s" % e.get("move"),
    "pass": lambda e: "seat %s passes" % e.get("seat"),
    "bot": lambda e: (
        "seat %s (%s bot) chose %s: carry it out as lit" % (e.get("seat"), e.get("level"), e.get("move"))
        if e.get("move")
        else "seat %s (%s bot): the board rolls for it" % (e.get("seat"), e.get("level"))
    ),
    "game_over": lambda e: (
        "game over: %s, dice seed revealed %s..."
        % (_places_text(e.get("placements"), e.get("players")), str(e.get("seed"))[:16])
    ),
    "season": _season,
}


def _players_text(players: object) -> str:
    # ": Anna (seat 0), Bo (seat 2)" of an event's players, {"0": "Anna", ...}
    if not isinstance(players, dict) or not players:
        return ""
    return ": " + ", ".join("%s (seat %s)" % (players[k], k) for k in sorted(players))


def _places_text(placements: object, players: object) -> str:
    # "places 1st Anna, 2nd Bo" by name where the event names the players, else the seat numbers
    if not isinstance(placements, list):
        return "places %s" % shown(placements)
    named = players if isinstance(players, dict) else {}
    return "places " + ", ".join(
        "%d. %s" % (k + 1, named.get(str(seat), "seat %s" % shown(seat))) for k, seat in enumerate(placements)
    )


def describe(item: dict) -> str:
    """One line of words for a line the board sent (a dict). A line whose fields are not of the kinds
    the protocol gives them is shown as it came, never a crash."""
    try:
        return _describe(item)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
        return "the board sent a line this tool cannot read: %s" % shown(item)


def _describe(item: dict) -> str:
    if "reply" in item:
        name = item["reply"] if isinstance(item["reply"], str) else shown(item["reply"])
        fields = {k: v for k, v in item.items() if k not in ("reply", "id", "ok")}
        if item.get("ok") is False:
            return "reply %s: ERROR %s" % (name, item.get("error"))
        return "reply %s: %s" % (name, shown(fields, 600))
    event = item.get("event")
    if not isinstance(event, str):
        return "the board sent a line with no event name: %s" % shown(item)
    words = _WORDS.get(event)
    if words is not None:
        return words(item)
    fields = {k: v for k, v in item.items() if k != "event"}
    return "%s: %s" % (event, shown(fields, 600)) if fields else event

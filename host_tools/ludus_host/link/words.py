"""The board's lines in words for people, the one wording of its events: `ludus monitor`, the
simulator's page (its own referee and its mirrors of a board) and `ludus play --words` all say an event
with `describe`. Seats are named by colour where the game is known ("Green threw a 5"), else by number
("Seat 0 threw a 5"); a line whose fields are not what the protocol says is shown as it came, never a
crash."""

import json
from collections.abc import Callable, Iterable
from typing import Any

from ludus.checkers.geometry import adjacent
from ludus.light.palette import COLOUR_NAMES
from ludus.ludo.moves import CHOICE, ORDER


def shown(value: object, limit: int = 300) -> str:
    """A value the board sent, as JSON cut to `limit` characters (never an error)."""
    try:
        return json.dumps(value, sort_keys=True)[:limit]
    except (TypeError, ValueError, RecursionError):
        return "(unreadable)"


def title(colour: str) -> str:
    """A colour or seat name as a sentence begins with it: "green" -> "Green"."""
    return colour[:1].upper() + colour[1:]


def listed(items: Iterable[str]) -> str:
    """Words joined as a sentence lists them: "a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return "%s and %s" % (", ".join(items[:-1]), items[-1])


def _count(n: int, thing: str) -> str:
    return "%d %s%s" % (n, thing, "" if n == 1 else "s")


# ---- seats -----------------------------------------------------------------------------------------------


def seat_colour(adapter: Any, game: Any, seat: int | None) -> str:
    """A seat's colour name ("green"), or "seat N" when it cannot be told (no game at hand, or a Chinese
    Checkers seat, whose colour is its point's, which only the game knows)."""
    if adapter is None or not isinstance(seat, int):
        return "seat %s" % seat
    try:
        return COLOUR_NAMES[adapter.colour(game, seat)]
    except (IndexError, AttributeError, TypeError, KeyError):
        return "seat %s" % seat


def who(adapter: Any, game: Any, seat: int | None, players: dict | None = None) -> str:
    """A seat as a sentence names it: "Green", or "Anna (Green)"."""
    colour = seat_colour(adapter, game, seat)
    name = (players or {}).get(seat)
    return "%s (%s)" % (name, title(colour)) if name and name != colour else title(colour)


def in_rolloff(game: Any) -> bool:
    """True while a Ludo game's seats throw for who starts (the roll-off)."""
    return game is not None and getattr(game, "phase", None) == ORDER


# ---- places and moves ------------------------------------------------------------------------------------


def _place(name: str) -> str:
    """A place as a player says it: a cell by its name ("t5"), a colour's base or home as such
    ("Green's base", not "green.base")."""
    colour, dot, zone = name.partition(".")
    return "%s's %s" % (title(colour), zone) if dot and zone in ("base", "home") else name


def places_at(names: Iterable[str], otherwise: str = "") -> str:
    """Where pieces are or go, after a verb: "on t2", "in Green's base", "on t5 and t9 and in Red's
    home"; `otherwise` when there are none."""
    said = [(n, _place(n)) for n in names]
    on = [n for n, words in said if words == n]
    inside = [words for n, words in said if words != n]
    parts = (["on " + listed(on)] if on else []) + (["in " + listed(inside)] if inside else [])
    return " and ".join(parts) or otherwise


def _victims(parts: list[str]) -> dict[str, int]:
    # "x red.0,red.1,yellow.0" -> {"red": 2, "yellow": 1}, in order of appearance
    if "x" not in parts:
        return {}
    out = {}
    for v in parts[parts.index("x") + 1 :]:
        for token in v.split(","):
            if "." in token:
                colour = token.split(".")[0]
                out[colour] = out.get(colour, 0) + 1
    return out


def _move_parts(text: str, game: Any) -> tuple[str, str, dict[str, int]] | None:
    # (verb, phrase, victims {colour: count}) of a move's text: ("moved", "a token 4 squares: t2 to t6",
    # {"red": 1}); None for a text that is not a move of pieces
    parts = text.split()
    if len(parts) == 1 and "-" in text:  # Chinese Checkers
        frm, _, to = text.partition("-")
        verb = "moved"
        names = getattr(game, "place_names", None)
        if names is not None and frm in names and to in names:
            if not adjacent(names.index(frm), names.index(to)):
                verb = "jumped"
        return verb, "from %s to %s" % (frm, to), {}
    if len(parts) < 3 or "-" not in parts[2]:
        return None
    roll = parts[0].rstrip("e")
    piece = "a wall" if "+" in parts[1] else "a token"
    frm, _, to = parts[2].partition("-")
    rules = getattr(game, "rules", None)
    if frm == "base":
        verb, phrase = "brought", "%s out onto %s" % (piece, to)
    elif to == "base":  # a Danish pair it may not capture: the mover goes back instead
        verb, phrase = "moved", "%s %s onto a pair it cannot capture, so back to its base" % (piece, roll)
    elif to == "home" or (to[:1] == "c" and getattr(rules, "track", 52) == 40):
        verb, phrase = "brought", "%s home" % piece
    else:
        verb, phrase = "moved", "%s %s: %s to %s" % (piece, roll, frm, to)
    if "via" in parts and parts.index("via") + 1 < len(parts):
        phrase += " (jumping on from %s)" % parts[parts.index("via") + 1]
    if "lap" in parts:
        phrase += ", round another lap"
    return verb, phrase, _victims(parts)


_CHOICES = {
    "pass": ("has no move and passes", "no move: pass"),
    "start": ("chose to start", "to start"),
    "colour": ("chose to pick the colour: the next seat starts", "to pick the colour"),
}


def move_words(move_text: object, subject: str, game: Any = None) -> str:
    """A move in words, after `subject` (who made it): "Green moved a token 4: t2 to t6; Red's token is
    captured: put it back in Red's base"."""
    text = str(move_text)
    if text in _CHOICES:
        return "%s %s" % (subject, _CHOICES[text][0])
    parts = _move_parts(text, game)
    if parts is None:
        return "%s played %s" % (subject, text)
    verb, phrase, victims = parts
    out = "%s %s %s" % (subject, verb, phrase)
    for colour, n in victims.items():
        out += "; %s's %s captured: put %s back in %s's base" % (
            title(colour),
            "token is" if n == 1 else "%d tokens are" % n,
            "it" if n == 1 else "them",
            title(colour),
        )
    return out


def choice_words(move_text: object, game: Any = None) -> str:
    """A move chosen for the players to carry out, in words: "a token 4: t28 to t32, capturing Green's
    token"."""
    text = str(move_text)
    if text in _CHOICES:
        return _CHOICES[text][1]
    parts = _move_parts(text, game)
    if parts is None:
        return text
    _, phrase, victims = parts
    for colour, n in victims.items():
        phrase += ", capturing %s's %s" % (title(colour), "token" if n == 1 else "%d tokens" % n)
    return phrase


# ---- the board's own events: starting, faults, the link, the season ---------------------------------------


def _names(value: object) -> str:
    # a list of names (cell ids, players) the board sent, in words; anything else shown as it came
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    return shown(value)


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


_BOARD_WORDS: dict[str, Callable[[dict], str]] = {
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
    "season": _season,
}
BOARD_EVENTS = tuple(_BOARD_WORDS)  # events of the board around the game (no seat, no move)


# ---- the game's events, as the referee makes them ------------------------------------------------------


class _Game:
    """What an event is said against: the game as it is after the event, and its players by seat."""

    def __init__(self, adapter: Any, game: Any, players: dict | None, rolloff: bool) -> None:
        self.adapter = adapter
        self.game = game
        self.players = players
        self.rolloff = rolloff

    def who(self, seat: Any) -> str:
        return who(self.adapter, self.game, seat, self.players)


def _roll(e: dict, g: _Game) -> str:
    out = "%s threw a %s" % (g.who(e.get("seat")), e.get("value"))
    game = g.game
    if game is None or not hasattr(game, "awaiting_roll"):
        return out
    if g.rolloff:
        out += " in the roll-off"
        phase = getattr(game, "phase", None)
        if phase == ORDER:
            if not game.rolls and len(game.group) > 1:
                out += ": a tie, %s throw again" % listed(g.who(s) for s in game.group)
        elif phase == CHOICE:
            out += ": %s won it and chooses" % g.who(game.turn)
        elif not game.is_over():
            out += ": %s starts" % g.who(game.turn)
        return out
    if game.is_over():
        return out
    if game.turn == e.get("seat") and game.awaiting_roll():
        return out + ": roll again"
    if game.turn != e.get("seat"):
        return out + ": no move, the turn passes to %s" % g.who(game.turn)
    if getattr(game, "bonus", 0):
        return out + ": move, then throw again"
    return out


def _reason(event: dict) -> str:
    # the engine's reason without the move text it begins with ("5 green.0 t2-t4: with 5 ...")
    reason = str(event.get("reason") or "not a legal move")
    head, colon, rest = reason.partition(": ")
    return rest if colon and ("-" in head or head[:1].isdigit()) else reason


def _auto(e: dict, g: _Game) -> str:
    subject = g.who(e.get("seat"))
    if e.get("move"):
        return "%s's time ran out: the board chose %s. Carry it out as lit" % (
            subject,
            choice_words(e["move"], g.game),
        )
    return "%s's time ran out: the board throws for %s" % (subject, subject)


def _bot(e: dict, g: _Game) -> str:
    bot = "%s (%s bot)" % (g.who(e.get("seat")), e.get("level", ""))
    if e.get("move"):
        return "%s chose %s. Carry it out as lit" % (bot, choice_words(e["move"], g.game))
    return "%s: the board throws for it" % bot


def _illegal(e: dict, g: _Game) -> str:
    missing = e.get("missing") or []
    unexpected = e.get("unexpected") or []
    one = len(missing) == len(unexpected) == 1
    what = ", %s to %s" % (_place(missing[0]), _place(unexpected[0])) if one else ""
    return "Not allowed%s: %s. Put it back %s" % (what, _reason(e), places_at(missing, "where it was"))


def _mismatch(e: dict, g: _Game) -> str:
    missing = e.get("missing") or []
    unexpected = e.get("unexpected") or []
    parts = []
    if missing:
        parts.append("a piece is missing %s" % places_at(missing))
    if unexpected:
        parts.append("a piece is not expected %s" % places_at(unexpected))
    return "The pieces differ from the game: %s" % "; ".join(parts or ["put them as lit"])


def _undo(e: dict, g: _Game) -> str:
    if e.get("committed"):
        return "Undo: taken back (%s); put the pieces as lit" % choice_words(e.get("move"), g.game)
    return "Undo: %s" % choice_words(e.get("move"), g.game)


def _restored(e: dict, g: _Game) -> str:
    if not e.get("actions"):
        return "Play begins from the position %s" % e.get("start")
    return "The game goes on from what the board kept: %s, %s" % (
        e.get("start"),
        _count(e.get("actions") or 0, "action"),
    )


def _setup_choice(e: dict, g: _Game) -> str:
    starts = e.get("starts") or []
    return "These pieces fit %s: press the die button to start%s" % (
        " or ".join(starts),
        ", hold it for the next" if len(starts) > 1 else "",
    )


def _dice(e: dict, g: _Game, key: str, what: str) -> str:
    # " (dice seed revealed 0001020304050607...)": where the game has dice and the event carries it
    value = e.get(key)
    if not isinstance(value, str) or (g.adapter is not None and not getattr(g.adapter, "has_dice", True)):
        return ""
    return " (%s %s...)" % (what, value[:16])


def _game_over(e: dict, g: _Game) -> str:
    places = e.get("placements") or []
    seed = _dice(e, g, "seed", "dice seed revealed")
    if not places:
        return "Game over: a draw, nobody finished" + seed
    order = ", ".join("%d. %s" % (k + 1, g.who(s)) for k, s in enumerate(places))
    return "%s wins. Places: %s%s" % (g.who(places[0]), order, seed)


_GAME_WORDS: dict[str, Callable[[dict, _Game], str]] = {
    "roll": _roll,
    "move": lambda e, g: move_words(e.get("move", ""), g.who(e.get("seat")), g.game),
    "pass": lambda e, g: "%s has no move: the turn passes" % g.who(e.get("seat")),
    "auto": _auto,
    "bot": _bot,
    "illegal": _illegal,
    "mismatch": _mismatch,
    "refused": lambda e, g: "The die button did nothing (%s)" % e.get("reason"),
    "resume": lambda e, g: "The board matches the game again",
    "pending": lambda e, g: (
        "A move on its way (%s): go on, or press the die button to end it here"
        % choice_words(e.get("move"), g.game)
    ),
    "chain": lambda e, g: "Jumping: touched down on %s" % e.get("at"),
    "confirm": lambda e, g: (
        "The board reads %s: press the die button to confirm, hold it for the next reading"
        % " or ".join(choice_words(m, g.game) for m in e.get("moves") or [])
    ),
    "confirm_next": lambda e, g: "The board's next reading: %s" % choice_words(e.get("move"), g.game),
    "undo": _undo,
    "undo_step": lambda e, g: "Undo: a piece is back",
    "new_game": lambda e, g: (
        "New game: %s%s" % (e.get("start"), _dice(e, g, "seed_sha256", "dice commitment"))
    ),
    "restored": _restored,
    "setup_choice": _setup_choice,
    "setup_next": lambda e, g: "Start chosen: %s (press the die button to begin)" % e.get("start"),
    "game_over": _game_over,
    "power_cut": lambda e, g: "Power cut: the board restarts from what its journal kept",
}


def _players_of(event: dict) -> dict[int, str] | None:
    # the names an event carries ({"0": "Anna"}, as the referee keys them for JSON) by seat number
    players = event.get("players")
    if not isinstance(players, dict):
        return None
    return {
        int(k): v for k, v in players.items() if isinstance(k, str) and k.isdecimal() and isinstance(v, str)
    }


# ---- any line --------------------------------------------------------------------------------------------


def describe(
    item: dict, adapter: Any = None, game: Any = None, players: dict | None = None, rolloff: bool = False
) -> str:
    """One line of words for a line the board sent or an event of the referee (a dict). adapter and
    game: the game's adapter and the game as it is after the event, where they are known (seats are then
    named by colour); players: the game's names, {seat: name} (else the names the event carries);
    rolloff: the event came while the seats threw for who starts. A line whose fields are not of the
    kinds the protocol gives them is shown as it came, never a crash."""
    try:
        return _describe(item, adapter, game, players, rolloff)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
        return "the board sent a line this tool cannot read: %s" % shown(item)


def _describe(item: dict, adapter: Any, game: Any, players: dict | None, rolloff: bool) -> str:
    if "reply" in item:
        name = item["reply"] if isinstance(item["reply"], str) else shown(item["reply"])
        fields = {k: v for k, v in item.items() if k not in ("reply", "id", "ok")}
        if item.get("ok") is False:
            return "reply %s: ERROR %s" % (name, item.get("error"))
        return "reply %s: %s" % (name, shown(fields, 600))
    event = item.get("event")
    if not isinstance(event, str):
        return "the board sent a line with no event name: %s" % shown(item)
    board = _BOARD_WORDS.get(event)
    if board is not None:
        return board(item)
    words = _GAME_WORDS.get(event)
    if words is not None:
        return words(item, _Game(adapter, game, _players_of(item) if players is None else players, rolloff))
    fields = {k: v for k, v in item.items() if k not in ("event", "t", "line")}
    return "%s: %s" % (event, shown(fields, 600)) if fields else event

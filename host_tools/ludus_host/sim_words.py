"""The referee's events in words for the simulator's log, with seats named by their colour: "green
rolled 6", "green moved 3 green.0 t2-t5: red's token captured, put it in red's base", "illegal: a capture
is compulsory". The firmware sends the events as data (docs/usb-protocol.md); the words live here, on the
laptop, as the light meanings' words do (ludus_host.lights)."""

from ludus_host import lights


def seat_colour(adapter, game, seat):
    """A seat's colour name ("green"), or "seat N" when it cannot be told (a Chinese Checkers seat's
    colour is its point's, which only the game knows)."""
    if adapter is None or not isinstance(seat, int):
        return "seat %s" % seat
    try:
        return lights.colour_name(adapter.colour(game, seat))
    except (IndexError, AttributeError, TypeError, KeyError):
        return "seat %s" % seat


def _places(names):
    return ", ".join(names) if names else "nothing"


def _captures(move_text):
    # Ludo moves name their victims after " x ": "3 green.0 t2-t5 x red.0" (docs/ludo.md)
    if " x " not in move_text:
        return []
    victims = move_text.split(" x ", 1)[1].split()
    return [v.split(".")[0] for v in victims if "." in v]


def seat_words(adapter, game, seat, players=None):
    """A seat as the log names it: its colour ("green"), or its player's name with the colour
    ("Anna (green)") where the game's record has one of its own."""
    colour = seat_colour(adapter, game, seat)
    name = (players or {}).get(seat)
    return "%s (%s)" % (name, colour) if name and name != colour else colour


def words(event, adapter=None, game=None, players=None):
    """One line for an event dict of the referee (or of the simulator: power_cut). players: the game
    record's names, {seat: name}."""
    name = event.get("event")
    who = seat_words(adapter, game, event.get("seat"), players)
    if name == "roll":
        return "%s rolled %s" % (who, event.get("value"))
    if name == "move":
        text = "%s moved %s" % (who, event.get("move"))
        victims = _captures(str(event.get("move", "")))
        for colour in victims:
            text += "; %s's token captured: put it in %s's base" % (colour, colour)
        return text
    if name == "pass":
        return "%s has no move and passes" % who
    if name == "auto":
        if event.get("move"):
            return "%s's time ran out: the board chose %s, carry it out" % (who, event["move"])
        return "%s's time ran out: the board rolls" % who
    if name == "bot":
        level = event.get("level", "")
        if event.get("move"):
            return "%s (%s bot) chose %s: carry it out as lit" % (who, level, event["move"])
        return "%s (%s bot): the board rolls for it" % (who, level)
    if name == "illegal":
        reason = event.get("reason") or "not a legal move"
        return "illegal: %s (take it back: from %s)" % (reason, _places(event.get("missing")))
    if name == "mismatch":
        return "pieces and game disagree: missing on %s; unexpected on %s" % (
            _places(event.get("missing")),
            _places(event.get("unexpected")),
        )
    if name == "refused":
        return "refused: %s" % event.get("reason")
    if name == "resume":
        return "the board matches the game again"
    if name == "pending":
        return "a move on its way: %s (finish it, or press the button)" % event.get("move")
    if name == "chain":
        return "jumping: touched down on %s" % event.get("at")
    if name == "confirm":
        moves = event.get("moves") or []
        return "ambiguous: the board reads %s; press to confirm, long press for the next reading" % (
            " or ".join(moves)
        )
    if name == "confirm_next":
        return "the board's next reading: %s" % event.get("move")
    if name == "undo":
        if event.get("committed"):
            return "undo: %s taken back; put the pieces as lit" % event.get("move")
        return "undo: %s" % event.get("move")
    if name == "undo_step":
        return "undo: a piece is back"
    if name == "new_game":
        if adapter is not None and not adapter.has_dice:
            return "new game: %s" % event.get("start")
        return "new game: %s; dice commitment %s" % (event.get("start"), event.get("seed_sha256"))
    if name == "restored":
        return "game continues: %s, %s actions kept" % (event.get("start"), event.get("actions"))
    if name == "setup_choice":
        starts = event.get("starts") or []
        return "these pieces fit %s: press to start%s" % (
            " or ".join(starts),
            ", long press for the next" if len(starts) > 1 else "",
        )
    if name == "setup_next":
        return "start chosen: %s (press to begin)" % event.get("start")
    if name == "game_over":
        places = event.get("placements") or []
        order = ", ".join(
            "%d. %s" % (k + 1, seat_words(adapter, game, seat, players)) for k, seat in enumerate(places)
        )
        return "game over: %s; dice seed revealed %s" % (order or "no placements", event.get("seed"))
    if name == "power_cut":
        return "power cut: the board restarts from what its journal kept"
    fields = {k: v for k, v in event.items() if k not in ("event", "t", "line")}
    return "%s %s" % (name, fields) if fields else str(name)

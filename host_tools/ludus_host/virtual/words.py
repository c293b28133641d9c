"""The simulator's words for people, one source for its page and `ludus play --words`: the referee's events
as sentences, what the players are to do now, a rule set's short rules and what each bot level does."""

from collections.abc import Sequence
from typing import Any

from ludus.checkers.geometry import adjacent
from ludus.ludo.moves import CHOICE, ENTRY_FLAG, ORDER, PLAY
from ludus.ludo.rules import rules_from_spec
from ludus.referee.states import PHASE_NAMES, SITUATION_NAMES

from ludus_host.virtual import colours as lights

# ---- seats -----------------------------------------------------------------------------------------------


def seat_colour(adapter: Any, game: Any, seat: int | None) -> str:
    """A seat's colour name ("green"), or "seat N" when it cannot be told (a Chinese Checkers seat's
    colour is its point's, which only the game knows)."""
    if adapter is None or not isinstance(seat, int):
        return "seat %s" % seat
    try:
        return lights.colour_name(adapter.colour(game, seat))
    except (IndexError, AttributeError, TypeError, KeyError):
        return "seat %s" % seat


def seat_words(adapter: Any, game: Any, seat: int | None, players: dict | None = None) -> str:
    """A seat as the state names it: its colour ("green"), or its player's name with the colour
    ("Anna (green)") where the game's record has one of its own."""
    colour = seat_colour(adapter, game, seat)
    name = (players or {}).get(seat)
    return "%s (%s)" % (name, colour) if name and name != colour else colour


def who(adapter: Any, game: Any, seat: int | None, players: dict | None = None) -> str:
    """A seat as a sentence names it: "Green", or "Anna (Green)"."""
    colour = seat_colour(adapter, game, seat)
    title = colour[:1].upper() + colour[1:]
    name = (players or {}).get(seat)
    return "%s (%s)" % (name, title) if name and name != colour else title


def _title(colour):
    return colour[:1].upper() + colour[1:]


def _listed(items):
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return "%s and %s" % (", ".join(items[:-1]), items[-1])


def _count(n, thing):
    return "%d %s%s" % (n, thing, "" if n == 1 else "s")


# ---- moves -----------------------------------------------------------------------------------------------


def _ludo_place(colour, name):
    # a move text's place ("t5", "c2", "base", "home") as the board names it
    if name in ("base", "home") or name[:1] == "c":
        return "%s.%s" % (colour, name)
    return name


def move_places(move_text: object) -> list[str] | None:
    """The board's places a move's text names, from and to (a Ludo home or base as the colour's zone:
    "green.home"), or None for a move that moves no piece (pass, the Danish start choice)."""
    parts = str(move_text).split()
    if len(parts) == 1 and "-" in parts[0]:  # Chinese Checkers: h7-h16
        frm, _, to = parts[0].partition("-")
        return [frm, to]
    if len(parts) >= 3 and "-" in parts[2]:  # Ludo: 4 green.0 t2-t6 ...
        colour = parts[1].split(".")[0]
        frm, _, to = parts[2].partition("-")
        return [_ludo_place(colour, frm), _ludo_place(colour, to)]
    return None


def _victims(parts):
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


def _move_parts(text, game):
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
            _title(colour),
            "token is" if n == 1 else "%d tokens are" % n,
            "it" if n == 1 else "them",
            _title(colour),
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
        phrase += ", capturing %s's %s" % (_title(colour), "token" if n == 1 else "%d tokens" % n)
    return phrase


# ---- events ----------------------------------------------------------------------------------------------


def in_rolloff(game: Any) -> bool:
    """True while a Ludo game's seats throw for who starts (the roll-off)."""
    return game is not None and getattr(game, "phase", None) == ORDER


def _place(name):
    """A place as a player says it: a cell by its name ("t5"), a colour's base or home as such
    ("Green's base", not "green.base")."""
    colour, dot, zone = name.partition(".")
    return "%s's %s" % (_title(colour), zone) if dot and zone in ("base", "home") else name


def _at(names, otherwise=""):
    """Where pieces are or go, after a verb: "on t2", "in Green's base", "on t5 and t9 and in Red's
    home"; `otherwise` when there are none."""
    said = [(n, _place(n)) for n in names]
    on = [n for n, words in said if words == n]
    inside = [words for n, words in said if words != n]
    parts = (["on " + _listed(on)] if on else []) + (["in " + _listed(inside)] if inside else [])
    return " and ".join(parts) or otherwise


def _reason(event):
    # the engine's reason without the move text it begins with ("5 green.0 t2-t4: with 5 ...")
    reason = str(event.get("reason") or "not a legal move")
    head, colon, rest = reason.partition(": ")
    return rest if colon and ("-" in head or head[:1].isdigit()) else reason


def _roll_words(event, adapter, game, players, rolloff):
    seat = event.get("seat")
    subject = who(adapter, game, seat, players)
    value = event.get("value")
    out = "%s threw a %s" % (subject, value)
    if game is None or not hasattr(game, "awaiting_roll"):
        return out
    if rolloff:
        out += " in the roll-off"
        phase = getattr(game, "phase", None)
        if phase == ORDER:
            if not game.rolls and len(game.group) > 1:
                out += ": a tie, %s throw again" % _listed(who(adapter, game, s, players) for s in game.group)
        elif phase == CHOICE:
            out += ": %s won it and chooses" % who(adapter, game, game.turn, players)
        elif not game.is_over():
            out += ": %s starts" % who(adapter, game, game.turn, players)
        return out
    if game.is_over():
        return out
    if game.turn == seat and game.awaiting_roll():
        return out + ": roll again"
    if game.turn != seat:
        return out + ": no move, the turn passes to %s" % who(adapter, game, game.turn, players)
    if getattr(game, "bonus", 0):
        return out + ": move, then throw again"
    return out


def words(
    event: dict, adapter: Any = None, game: Any = None, players: dict | None = None, rolloff: bool = False
) -> str:
    """One sentence for an event dict of the referee (or of the simulator: power_cut). game: the game as
    it is after the event; players: the game record's names, {seat: name}; rolloff: the event came
    while the seats threw for who starts."""
    name = event.get("event")
    subject = who(adapter, game, event.get("seat"), players)
    if name == "roll":
        return _roll_words(event, adapter, game, players, rolloff)
    if name == "move":
        return move_words(event.get("move", ""), subject, game)
    if name == "pass":
        return "%s has no move: the turn passes" % subject
    if name == "auto":
        if event.get("move"):
            return "%s's time ran out: the board chose %s. Carry it out as lit" % (
                subject,
                choice_words(event["move"], game),
            )
        return "%s's time ran out: the board throws for %s" % (subject, subject)
    if name == "bot":
        bot = "%s (%s bot)" % (subject, event.get("level", ""))
        if event.get("move"):
            return "%s chose %s. Carry it out as lit" % (bot, choice_words(event["move"], game))
        return "%s: the board throws for it" % bot
    if name == "illegal":
        missing = event.get("missing") or []
        unexpected = event.get("unexpected") or []
        one = len(missing) == len(unexpected) == 1
        what = " %s to %s" % (_place(missing[0]), _place(unexpected[0])) if one else ""
        return "Not allowed,%s: %s. Put it back %s" % (what, _reason(event), _at(missing, "where it was"))
    if name == "mismatch":
        missing = event.get("missing") or []
        unexpected = event.get("unexpected") or []
        parts = []
        if missing:
            parts.append("a piece is missing %s" % _at(missing))
        if unexpected:
            parts.append("a piece is not expected %s" % _at(unexpected))
        return "The pieces differ from the game: %s" % "; ".join(parts or ["put them as lit"])
    if name == "refused":
        return "The die button did nothing (%s)" % event.get("reason")
    if name == "resume":
        return "The board matches the game again"
    if name == "pending":
        return "A move on its way (%s): go on, or press the die button to end it here" % choice_words(
            event.get("move"), game
        )
    if name == "chain":
        return "Jumping: touched down on %s" % event.get("at")
    if name == "confirm":
        moves = event.get("moves") or []
        return "The board reads %s: press the die button to confirm, hold it for the next reading" % (
            " or ".join(choice_words(m, game) for m in moves)
        )
    if name == "confirm_next":
        return "The board's next reading: %s" % choice_words(event.get("move"), game)
    if name == "undo":
        if event.get("committed"):
            return "Undo: taken back (%s); put the pieces as lit" % choice_words(event.get("move"), game)
        return "Undo: %s" % choice_words(event.get("move"), game)
    if name == "undo_step":
        return "Undo: a piece is back"
    if name == "new_game":
        return "New game: %s" % event.get("start")
    if name == "restored":
        if not event.get("actions"):
            return "Play begins from the position %s" % event.get("start")
        return "The game goes on from what the board kept: %s, %s" % (
            event.get("start"),
            _count(event.get("actions") or 0, "action"),
        )
    if name == "setup_choice":
        starts = event.get("starts") or []
        return "These pieces fit %s: press the die button to start%s" % (
            " or ".join(starts),
            ", hold it for the next" if len(starts) > 1 else "",
        )
    if name == "setup_next":
        return "Start chosen: %s (press the die button to begin)" % event.get("start")
    if name == "game_over":
        places = event.get("placements") or []
        if not places:
            return "Game over: a draw, nobody finished"
        order = ", ".join("%d. %s" % (k + 1, who(adapter, game, s, players)) for k, s in enumerate(places))
        return "%s wins. Places: %s" % (who(adapter, game, places[0], players), order)
    if name == "power_cut":
        return "Power cut: the board restarts from what its journal kept"
    fields = {k: v for k, v in event.items() if k not in ("event", "t", "line")}
    return "%s %s" % (name, fields) if fields else str(name)


def log_line(t: int, text: str) -> str:
    """A line of the log as the page shows it: the board's time in seconds (tenths, cut, not rounded:
    the page cuts them too), then the words."""
    return "%d.%d s  %s" % (t // 1000, t % 1000 // 100, text)


# ---- what to do now --------------------------------------------------------------------------------------


def _rolls_text(rolls):
    return _listed(str(r) for r in rolls)


def waiting_rolls(game: Any) -> list[int]:
    """The rolls the mover of a Ludo game has to play (values 1..12), [] for none or another game."""
    if game is None or getattr(game, "phase", None) != PLAY or not hasattr(game, "rolls"):
        return []
    return [r & ~ENTRY_FLAG for r in game.rolls]


def prompt(ref: Any, hand: Sequence = (), players: dict | None = None) -> str:
    """What the players are to do now, in a sentence, from the referee's state (a ludus.referee.Referee):
    "Green: throw the die", "Move a token 4", "No move for this piece: put it back on t2", "Red wins"."""

    phase = PHASE_NAMES[ref.phase]
    game = ref.game
    adapter = ref.adapter
    if phase == "setup":
        choices = getattr(ref, "choices", None)
        if choices:
            return "These pieces fit %s: press the die button to begin" % " or ".join(choices)
        return "Put the pieces of a start on the board (Set up: Put the pieces out)"
    if phase == "over" or game is None:
        places = game.placements() if game is not None else []
        if len(places) > 2:
            return "%s wins. Places: %s" % (
                who(adapter, game, places[0], players),
                ", ".join("%d. %s" % (k + 1, who(adapter, game, s, players)) for k, s in enumerate(places)),
            )
        if places:
            return "%s wins" % who(adapter, game, places[0], players)
        return "Game over: a draw"
    situation = SITUATION_NAMES[ref.situation]
    mover = who(adapter, game, game.turn, players)
    names = ref.place_names
    ludo = adapter.family == "ludo"
    bot = ref.bot_move()
    if bot is not None and situation in ("idle", "confirm"):
        return "%s chose %s. Carry it out as lit" % (_bot_name(ref, game, players), choice_words(bot, game))
    auto = getattr(ref, "auto_move", None)
    if auto is not None and situation in ("idle", "confirm"):
        return "%s's time ran out: the board chose %s. Carry it out as lit, or press the die button" % (
            mover,
            choice_words(auto, game),
        )
    if situation == "idle":
        if ref.bot_levels().get(game.turn):
            return "%s is thinking" % _bot_name(ref, game, players)
        if not ludo:
            return "%s: move a piece (lift it to see where it may go)" % mover
        phase_ = getattr(game, "phase", None)
        if phase_ == ORDER:
            return "Roll-off for who starts: %s, throw the die" % mover
        if phase_ == CHOICE:
            return "%s won the roll-off: press the die button to start, hold it to choose the colour" % mover
        rolls = waiting_rolls(game)
        if game.awaiting_roll():
            if rolls:
                return "%s threw %s: roll again" % (mover, _rolls_text("a %d" % r for r in rolls))
            return "%s: throw the die" % mover
        if not rolls:
            return "%s: throw again" % mover
        if len(rolls) == 1:
            moves = game.legal_moves()
            if moves and all(str(m).split()[2].startswith("base-") for m in moves):
                return "Bring a token out with the %d" % rolls[0]
            return "Move a token %d" % rolls[0]
        return "Move a token for each throw: %s, in either order" % _rolls_text(rolls)
    if situation == "moving":
        lit = {lights.meaning_name(m) for _, m, _ in ref.lights()}
        if not lit & {"destination", "jump path", "capture victim", "capture base"}:
            return "No move for this piece: put it back"
        if "capture victim" in lit:
            return "Capture: take the lit token off to its base, and put yours on its square"
        return "Put the %s on a lit %s" % (("token", "square") if ludo else ("piece", "hole"))
    if situation == "pending":
        return "A move on its way: go on, or press the die button to end it here"
    if situation == "chain":
        return "Jumping: jump on, or leave the piece where it is"
    if situation == "confirm":
        return "Press the die button to confirm the lit move (hold it for the next one)"
    if situation == "undo":
        return "Undo: put the pieces back as lit (from the ↑ hole to the ↓ one)"
    missing = [names[p] for p in getattr(ref, "missing", ()) or ()]
    unexpected = [names[p] for p in getattr(ref, "unexpected", ()) or ()]
    if situation == "illegal":
        return "Not allowed: put the piece back %s" % _at(missing, "where it was")
    if situation == "mismatch" and hand and missing and not unexpected and len(missing) <= len(hand):
        return "No move for this piece: put it back %s" % _at(missing)
    parts = []
    if missing:
        parts.append("a piece %s" % _at(missing))
    if unexpected:
        parts.append("none %s" % _at(unexpected))
    return "Put the pieces as the game has them: %s" % "; ".join(parts or ["as lit"])


def _bot_name(ref, game, players):
    level = ref.bot_levels().get(game.turn)
    return "%s (%s bot)" % (who(ref.adapter, game, game.turn, players), level)


def details(ref: Any) -> str:
    """The referee's own words for where it stands, for a details line: "play · idle · seat 0"."""
    d = ref.describe()
    out = [d["phase"]]
    if "situation" in d:
        out.append(d["situation"])
        out.append("seat %d to act" % d["turn"])
    return " · ".join(out)


# ---- the rules at hand -----------------------------------------------------------------------------------

BOT_WORDS = {
    "ludo": {
        "random": "plays any legal move, picked at random",
        "preferred": "plays what the board plays when a turn clock runs out: a token home if it can, else a"
        " capture, else it moves its token furthest along",
        "strong": "weighs each move by the position it leaves: its tokens' progress and safety against the"
        " opponents' progress, and plans several waiting throws together",
    },
    "checkers": {
        "random": "plays any legal move, picked at random",
        "greedy": "plays the move that brings a piece furthest toward its target, looking one move ahead",
        "strong": "opens with a fast line known to reach home in 27 moves, then looks three of its own"
        " moves ahead",
    },
}


def bot_words(family: str) -> dict[str, str]:
    """What each bot level of a game family ("ludo", "checkers") does, {level: words}."""
    return dict(BOT_WORDS[family])


_SAFE = {
    "classic": "Start squares and the star squares are safe: nobody is captured there.",
    "starts": "Start squares are safe: nobody is captured there.",
    "globes": "Globes (the start squares and the squares eight on from them) are safe.",
    "none": "No square is safe.",
}


def ludo_rules(rules: Any) -> list[str]:
    """The short rules of a Ludo rule set (a ludus.ludo.rules.RuleSet), a sentence each."""
    r = rules
    out = []
    if r.finish_tokens == 1:
        out.append("The first player to bring one token home wins.")
    else:
        out.append(
            "Take your four tokens once round the track and up your own column into the home; the first"
            " to bring all four home wins%s."
            % (", and play goes on for the other places" if r.play_on else "")
        )
    if r.start_order == "choice":
        out.append(
            "Who starts: everyone throws once, the highest (after any tie is thrown again) either starts"
            " or chooses the colour, and then the next seat starts."
        )
    else:
        out.append("Who starts: everyone throws once; the highest starts, a tie is thrown again.")
    entry = " or ".join(str(v) for v in r.entry)
    if r.start_tokens:
        out.append("Each player begins with %d tokens already on its start square." % r.start_tokens)
    out.append("A %s brings a token out of the base onto your start square." % entry)
    if r.entry_tries > 1:
        out.append("With no token out, you have %d throws to bring one out." % r.entry_tries)
    if r.six_again:
        if r.roll_first:
            out.append("A 6 earns another throw: throw it first, then play the waiting throws in any order.")
        else:
            out.append("A 6 earns another throw after you have moved.")
    if r.third_six_void:
        out.append("A third 6 in a row is lost and ends the turn.")
    if r.dice == 2:
        out.append(
            "Two dice: %s." % ("move by their sum" if r.dice_sum else "each die is a throw of its own")
        )
    if r.share:
        out.append("Landing on a lone opponent captures it: it goes back to its base.")
    else:
        out.append("One token per square; landing on an opponent captures it: it goes back to its base.")
    if not r.capture_pairs:
        out.append(
            "Two or more tokens of one colour together cannot be captured%s."
            % ("; landing on them sends your token back to its base" if r.blocked_landing == "home" else "")
        )
    if r.must_capture:
        out.append("If you can capture, you must.")
    if r.capture_lap:
        out.append("To capture, a token may pass its column and go round another lap.")
    if r.capture_again:
        out.append("A capture earns another throw.")
    out.append(_SAFE.get(r.safe, "Safe squares: %s." % r.safe))
    if r.stars:
        out.append("Landing on a star jumps the token on to the next star.")
    if r.arrows:
        out.append("Landing on an arrow jumps the token on to the next arrow.")
    if r.walls:
        out.append(
            "Two tokens of one colour on a square make a wall: no opponent may pass or land on it; a wall"
            " moves as one with one throw, and only a wall captures a wall."
        )
    if r.capture_before_home:
        out.append("Capture once before your tokens may turn into your column.")
    if r.teams:
        out.append(
            "Opposite seats are partners: they never capture each other, and a player whose tokens are"
            " all home plays the partner's."
        )
    out.append(
        "Home needs the exact count." if r.exact_home else "A throw past the home bounces back the rest."
    )
    if r.home_again:
        out.append("Bringing a token home earns another throw.")
    if r.points:
        out.append("Season points by place: %s." % ", ".join(str(p) for p in r.points))
    return out


CHECKERS_RULES = [
    "Bring all your pieces across the star into the point opposite your start; the first to fill it"
    " wins, and play goes on for the other places.",
    "One piece a turn: a step to a neighbouring empty hole, or a chain of jumps.",
    "A jump goes over one piece next to yours, of any colour, into the empty hole straight behind it;"
    " the piece jumped over stays. Jumps may chain, changing direction, and stop after any jump.",
]

BOARD_WORDS = [
    "Lift a piece: the board lights where it may go. Put it down there to move.",
    "The die button: press to throw or to confirm; hold it (or press Undo) to take the last move back.",
]


def rules_words(preset: str) -> list[str]:
    """The short rules of a game preset ("ludo/danish/4", "checkers/2"), a sentence each, then how the
    board is played."""
    family, _, rest = preset.partition("/")
    if family == "ludo":
        out = ludo_rules(rules_from_spec(rest.split("/")[0]))
    else:
        out = list(CHECKERS_RULES)
    return out + BOARD_WORDS


def start_words(adapter: Any, name: str, game: Any) -> str:
    """A start in the set-up list, in words: "2 players: Green and Red", "3 players, 2 sets each"."""
    seats = list(adapter.seats_of(game))
    n = len(seats)
    if adapter.family == "ludo":
        colours = _listed(_title(seat_colour(adapter, game, s)) for s in seats)
        return "%d players: %s" % (n, colours)
    sets = len(game.config.seat_points[0]) if seats else 1
    text = "%d players" % n
    if sets > 1:
        text += ", %d sets each" % sets
    if name.endswith("/15"):
        text += ", 15 pieces each"
    return text

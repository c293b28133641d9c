"""The simulator's words for people beyond its events (which are the link's, ludus_host.link.words): what
the players are to do now, a seat as the state names it, a rule set's short rules and what each bot level
does, for its page and `ludus play --words`."""

from collections.abc import Iterable, Sequence
from typing import Any

from ludus.ludo.moves import CHOICE, ENTRY_FLAG, ORDER, PLAY
from ludus.ludo.rules import rules_from_spec
from ludus.referee.botseats import lights_for
from ludus.referee.states import PHASE_NAMES, SITUATION_NAMES

from ludus_host.link.words import choice_words, listed, places_at, seat_colour, title, who
from ludus_host.virtual import colours as lights

# ---- seats and moves -------------------------------------------------------------------------------------


def seat_words(adapter: Any, game: Any, seat: int | None, players: dict | None = None) -> str:
    """A seat as the state names it: its colour ("green"), or its player's name with the colour
    ("Anna (green)") where the game's record has one of its own."""
    colour = seat_colour(adapter, game, seat)
    name = (players or {}).get(seat)
    return "%s (%s)" % (name, colour) if name and name != colour else colour


def _ludo_place(colour: str, name: str) -> str:
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


def log_line(t: int, text: str) -> str:
    """A line of the log as the page shows it: the board's time in seconds (tenths, cut, not rounded:
    the page cuts them too), then the words."""
    return "%d.%d s  %s" % (t // 1000, t % 1000 // 100, text)


# ---- what to do now --------------------------------------------------------------------------------------


def _rolls_text(rolls: Iterable[object]) -> str:
    return listed(str(r) for r in rolls)


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
        return "Not allowed: put the piece back %s" % places_at(missing, "where it was")
    if situation == "mismatch" and hand and missing and not unexpected and len(missing) <= len(hand):
        return "No move for this piece: put it back %s" % places_at(missing)
    parts = []
    if missing:
        parts.append("a piece %s" % places_at(missing))
    if unexpected:
        parts.append("none %s" % places_at(unexpected))
    return "Put the pieces as the game has them: %s" % "; ".join(parts or ["as lit"])


def _bot_name(ref: Any, game: Any, players: dict | None) -> str:
    level = ref.bot_levels().get(game.turn)
    return "%s (%s bot)" % (who(ref.adapter, game, game.turn, players), level)


def level_lights(family: str, level: str) -> str:
    """How the board shows a bot's level on its seat while the seat is to act, in words: "3 lights
    pulse on its base" (ludus.referee.botseats: 1, 2 or 3 by level, weakest first)."""
    n = lights_for(family, level)
    lit = "1 light pulses" if n == 1 else "%d lights pulse" % n
    return "%s on its %s" % (lit, "base" if family == "ludo" else "point")


def bot_turn_words(ref: Any) -> str | None:
    """The words under whose turn it is when the board plays the seat to act: "The board plays this seat
    at strong (3 lights pulse on its base)"; None while a person's seat is to act or no game is in
    play."""
    game = ref.game
    if game is None or PHASE_NAMES[ref.phase] != "play":
        return None
    level = ref.bot_levels().get(game.turn)
    if not level:
        return None
    return "The board plays this seat at %s (%s)" % (level, level_lights(ref.adapter.family, level))


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
        colours = listed(title(seat_colour(adapter, game, s)) for s in seats)
        return "%d players: %s" % (n, colours)
    sets = len(game.config.seat_points[0]) if seats else 1
    text = "%d players" % n
    if sets > 1:
        text += ", %d sets each" % sets
    if name.endswith("/15"):
        text += ", 15 pieces each"
    return text

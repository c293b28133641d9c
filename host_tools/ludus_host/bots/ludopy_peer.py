"""Peer check against LUDOpy (PyPI `ludopy`): plays the same dice and the same choices through our Danish
rules (ludus.ludo) and LUDOpy in lock-step, compares every legal-choice set and position, names each
divergence by kind. docs/ludopy-divergences.md explains the mapping, the kinds and which engine is right.

    >>> report = run(games=2, seed=1)
    >>> report["games"], report["unexplained"]
    (2, 0)
"""

import random
from collections.abc import Sequence
from typing import Any

from ludus.ludo import from_notation, start_position
from ludus.ludo.game import LudoGame
from ludus.ludo.geometry import COLOURS
from ludus.ludo.moves import LudoMove

# Our closest rule set: the Danish preset with green starting (LUDOpy has no roll-off: player 0 starts).
RULES = "danish:start_order=seat0"
# The same rules without compulsory capture (and so without the extra lap it may force): what LUDOpy offers.
FREE_RULES = "danish:start_order=seat0,must_capture=0,capture_lap=0"

L = 52  # track squares
Q = 13  # squares between two start squares
LUDOPY_GOAL = 57  # LUDOpy: 0 base, 1..51 track from its own start, 52..56 home column, 57 goal

# Divergence kinds: one name per rule on which the engines differ (docs/ludopy-divergences.md).
KINDS = (
    "no-compulsory-capture",
    "no-extra-lap",
    "bounce",
    "star-occupant-captured",
    "start-globe-visitor-captured",
    "entry-onto-pair",
    "column-alias",
    "round1-six-no-bonus",
    "round1-fourth-try",
    "tries-first-round-only",
    "finished-player-rolls",
)


# a board as our_position gives it: per seat, the sorted place names of its four tokens
Position = tuple[tuple[str, ...], ...]
# the previous compared roll: (seat, roll, round, the seat has nothing in play after it)
Context = tuple[int, int, int, bool]


class Unrepresentable(Exception):
    """A position of ours that LUDOpy cannot hold (a token on the corner square after an extra lap)."""


# --- mapping ---------------------------------------------------------------------------------------


def ludopy_place(seat: int, q: int) -> str:
    """Our place name of LUDOpy position q of a token of player `seat` (LUDOpy player i = our seat i)."""
    colour = COLOURS[seat]
    if q == 0:
        return colour + ".base"
    if q <= 51:
        return "t%d" % ((seat * Q + q - 1) % L)
    if q < LUDOPY_GOAL:
        return "%s.c%d" % (colour, q - 52)
    return colour + ".home"


def ludopy_code(seat: int, place: str) -> int:
    """LUDOpy position of our place name for a token of `seat`; Unrepresentable for the corner square
    just before the seat's own start (reached only by an extra lap, which LUDOpy does not know)."""
    colour = COLOURS[seat]
    if place == colour + ".base":
        return 0
    if place == colour + ".home":
        return LUDOPY_GOAL
    if place.startswith(colour + ".c"):
        return 52 + int(place[len(colour) + 2 :])
    d = (int(place[1:]) - seat * Q) % L
    if d == L - 1:
        raise Unrepresentable("%s token on %s (after an extra lap)" % (colour, place))
    return d + 1


def our_position(game: LudoGame) -> Position:
    """The board as four sorted tuples of place names, one per seat (tokens of a colour are alike)."""
    return tuple(tuple(sorted(game.token_place(s * 4 + i) for i in range(4))) for s in range(4))


def ludopy_position(lgame: Any) -> Position:
    return tuple(tuple(sorted(ludopy_place(s, int(q)) for q in lgame.players[s].pieces)) for s in range(4))


def set_ludopy_position(lgame: Any, position: Position) -> None:
    """Put LUDOpy's tokens on the places of `position` (as our_position returns it)."""
    for s in range(4):
        lgame.players[s].pieces = [ludopy_code(s, p) for p in position[s]]


def _at(position: Position, place: str) -> dict[int, int]:
    """Seats and counts of tokens on a track place: {seat: n}."""
    out = {}
    for s in range(4):
        n = position[s].count(place)
        if n:
            out[s] = n
    return out


# --- the two engines' choices ----------------------------------------------------------------------


def _probe(notation: str, rules: str, roll: int) -> LudoGame:
    """A copy of our position (awaiting a roll) with `roll` waiting, under `rules`."""
    words = notation.split()
    words[1] = rules
    words = [w for w in words if not w.startswith(("rolls=", "tries=", "owe=", "bonus="))]
    words.insert(3, "rolls=%d" % roll)
    return from_notation(" ".join(words))


def our_choices(notation: str, rules: str, roll: int) -> dict[Position, LudoMove]:
    """{resulting position: move} for every legal move of the roll in our engine."""
    probe = _probe(notation, rules, roll)
    out = {}
    for m in probe.legal_moves():
        after = probe.copy()
        after.push(m)
        out[our_position(after)] = m
    return out


def ludopy_choices(lgame: Any, seat: int, roll: int) -> dict[Position, int]:
    """{resulting position: piece index} for every movable piece of LUDOpy's pending observation."""
    # LUDOpy (and its numpy) come with the dev extras only: imported where the peer is played
    import numpy as np
    from ludopy.player import Player  # type: ignore[import-untyped]

    out = {}
    for piece in lgame.current_move_pieces:
        mover = Player()
        mover.pieces = np.copy(lgame.players[seat].pieces)
        enemies = [np.copy(e) for e in lgame.current_enemys]
        enemies = mover.move_piece(piece, roll, enemies)
        pieces = {seat: mover.pieces}
        for k, e in enumerate(lgame.enemys_order[seat]):
            pieces[e] = enemies[k]
        key = tuple(tuple(sorted(ludopy_place(s, int(q)) for q in pieces[s])) for s in range(4))
        out.setdefault(key, int(piece))
    return out


def ludopy_game(position: Position, seat: int, rnd: int = 2) -> Any:
    """A LUDOpy Game holding `position` (as our_position returns it) with `seat` to roll in round `rnd`
    (LUDOpy's first round has rules of its own), its die left for ludopy_roll to set."""
    import ludopy  # type: ignore[import-untyped]

    lg = ludopy.Game()
    lg._dice_generator = lambda: None
    set_ludopy_position(lg, position)
    lg.current_player = seat
    lg.round = rnd
    return lg


def ludopy_roll(lg: Any, roll: int) -> dict[Position, int]:
    """Roll `roll` in LUDOpy: {outcome position: piece index} of its choices (the observation stays
    pending: answer it with lg.answer_observation(piece))."""
    lg.current_dice = roll
    lg.get_observation()
    return ludopy_choices(lg, lg.current_player, roll)


def _mover_from(seat: int, before: Position, after: Position) -> str | None:
    """The place a token of `seat` left between two positions (None if none left)."""
    b = list(before[seat])
    for p in after[seat]:
        if p in b:
            b.remove(p)
    return b[0] if b else None


def _mover_to(seat: int, before: Position, after: Position) -> str | None:
    """The place a token of `seat` arrived on between two positions (None if none arrived)."""
    return _mover_from(seat, after, before)


# --- classification --------------------------------------------------------------------------------

STAR_STEPS = (4, 11, 17, 24, 30, 37, 43, 50)  # stars, in steps from a colour's own start (Danish board)


def _moved(position: Position, seat: int, frm: str, to: str) -> Position:
    """position with one token of seat moved from place frm to place to."""
    row = list(position[seat])
    row.remove(frm)
    row.append(to)
    out = list(position)
    out[seat] = tuple(sorted(row))
    return tuple(out)


def _to_base(position: Position, seat: int, place: str, n: int = 1) -> Position:
    out = position
    for _ in range(n):
        out = _moved(out, seat, place, COLOURS[seat] + ".base")
    return out


def _first_landing(seat: int, frm: str, roll: int) -> str | None:
    """The track square a token of seat on place frm first lands on with roll (None off the track)."""
    if frm == COLOURS[seat] + ".base":
        return "t%d" % (seat * Q)
    if not frm.startswith("t"):
        return None
    d = (int(frm[1:]) - seat * Q) % L
    if d < 51 and d + roll >= 51:
        return None  # turns into its column (ours offers the extra lap separately)
    return "t%d" % ((int(frm[1:]) + roll) % L)


def _opponents_at(position: Position, seat: int, place: str) -> dict[int, int]:
    return {s: n for s, n in _at(position, place).items() if s != seat}


def _classify_move(
    seat: int, roll: int, before: Position, ours: Position | None, theirs: Position | None, frm: str
) -> str:
    """Name the rule behind one from-place whose outcomes differ (ours, theirs: resulting positions or
    None). Each kind but column-alias predicts LUDOpy's outcome exactly; a wrong prediction is unexplained."""
    colour = COLOURS[seat]
    # LUDOpy sees a colour's first column square as the corner square before that colour's start, and also
    # as its start square: any difference when such a square and such a column token meet.
    first = _first_landing(seat, frm, roll)
    for x in range(4):
        if x != seat and colour_c0(x) in before[x]:
            squares = ("t%d" % ((x * Q - 1) % L), "t%d" % (x * Q))
            if first in squares or (ours is not None and _lands_on(seat, ours, before, squares)):
                return "column-alias"
    corner = "t%d" % ((seat * Q - 1) % L)
    if _opponents_at(before, seat, corner) and (
        (ours is not None and _lands_on(seat, ours, before, (colour + ".c0",)))
        or (theirs is not None and _lands_on(seat, theirs, before, (colour + ".c0",)))
    ):
        return "column-alias"
    if (
        ours is None
        and frm.startswith(colour + ".c")
        and 52 + int(frm[len(colour) + 2 :]) + roll > LUDOPY_GOAL
    ):
        # Danish: home only with the exact count; LUDOpy bounces, to 57 - roll whatever the start
        if theirs == _moved(before, seat, frm, ludopy_place(seat, LUDOPY_GOAL - roll)):
            return "bounce"
        return "unexplained"
    if ours is None or first is None:
        return "unexplained"
    opp = _opponents_at(before, seat, first)
    d = (int(first[1:]) - seat * Q) % L
    if d in STAR_STEPS and opp:
        # LUDOpy also knocks home the token on the star landed on (one token), or sends the mover home (two)
        predicted = ours
        for s, n in opp.items():
            if n == 1:
                predicted = _to_base(predicted, s, first)
            else:
                mover = _mover_to(seat, before, ours)
                assert mover is not None  # (ours is the outcome of a move of seat's)
                predicted = _moved(predicted, seat, mover, colour + ".base")
        return "star-occupant-captured" if theirs == predicted else "unexplained"
    if frm == colour + ".base" and any(n >= 2 for n in opp.values()):
        return "entry-onto-pair" if theirs == before else "unexplained"
    if d % Q == 0 and frm != colour + ".base":
        owner = (seat + d // Q) % 4
        visitors = [s for s, n in opp.items() if s != owner and n == 1]
        if len(opp) == 1 and visitors:
            predicted = _to_base(_moved(before, seat, frm, first), visitors[0], first)
            return "start-globe-visitor-captured" if theirs == predicted else "unexplained"
    return "unexplained"


def colour_c0(seat: int) -> str:
    return COLOURS[seat] + ".c0"


def _lands_on(seat: int, after: Position, before: Position, places: tuple[str, ...]) -> bool:
    return _mover_to(seat, before, after) in places


def compare_choices(
    seat: int,
    roll: int,
    before: Position,
    ours: dict[Position, LudoMove],
    free: dict[Position, LudoMove],
    theirs: dict[Position, int],
) -> list[str]:
    """The divergence kinds explaining how the choice sets differ. ours: {outcome: move} of our legal
    moves; free: the same without compulsory capture; theirs: {outcome: piece} of LUDOpy's."""
    kinds = []
    free_by = {}
    for pos in free:
        free_by[_mover_from(seat, before, pos) or COLOURS[seat] + ".base"] = pos
    their_by = {}
    for pos in theirs:
        # LUDOpy's only outcome that changes nothing: a token entering is sent straight back to base
        their_by[_mover_from(seat, before, pos) or COLOURS[seat] + ".base"] = pos
    for frm in sorted(set(free_by) | set(their_by)):
        f = free_by.get(frm)
        t = their_by.get(frm)
        if f != t:
            kinds.append(_classify_move(seat, roll, before, f, t, frm))
    if set(ours) != set(free):
        if any(pos in theirs and pos not in ours for pos in free):
            kinds.append("no-compulsory-capture")
        if any(m.lap for m in ours.values()):
            kinds.append("no-extra-lap")
    return kinds or ["unexplained"]


def classify_turn(ctx: Context, ours_next: int, theirs_next: int, placed: Sequence[int]) -> str:
    """Name the rule behind a different next roller. ctx: (seat, roll, round, seat has nothing in play)."""
    seat, roll, rnd, idle = ctx
    if theirs_next in placed or seat in placed:
        return "finished-player-rolls"
    if rnd == 1 and roll == 6 and ours_next == seat and theirs_next != seat:
        return "round1-six-no-bonus"
    if rnd == 1 and roll != 6 and idle and theirs_next == seat and ours_next != seat:
        return "round1-fourth-try"
    if rnd > 1 and roll != 6 and idle and ours_next == seat and theirs_next != seat:
        return "tries-first-round-only"
    return "unexplained-turn"


# --- the lock-step driver --------------------------------------------------------------------------


def _on_corner(position: Position) -> bool:
    """True if a token stands on the corner square before its own start (only after an extra lap)."""
    return any("t%d" % ((s * Q - 1) % L) in position[s] for s in range(4))


class PeerGame:
    """One seeded game played through both engines: our LudoGame and a LUDOpy Game whose die we set.

    Each roll goes to both; the outcomes of every choice are compared; a choice both engines offer is
    played in both. When only ours has choices, ours plays and LUDOpy is set to the same position; while
    a token stands where LUDOpy cannot put it (after an extra lap), ours plays alone."""

    def __init__(self, seed: int):
        import ludopy  # type: ignore[import-untyped]

        self.rng = random.Random(seed)
        self.ours = start_position(RULES + "/4")
        self.ours.max_undo = 0
        self.lg = ludopy.Game()
        self.lg._dice_generator = lambda: None  # LUDOpy's die: we set current_dice before each observation
        self.round = 1  # LUDOpy's round counter, kept in step with our turn order
        self.rolls = 0  # rolls compared
        self.alone = 0  # rolls played by ours alone (a token LUDOpy cannot hold)
        self.decisions = 0  # rolls where either engine had a choice
        self.resyncs = 0
        self.same = 0  # rolls where both engines offered exactly the same outcomes
        self.decisions_same = 0  # ... and there was a choice
        self.divergences: list[tuple[str, dict]] = []  # (kind, example)
        self.prev_seat = 0
        self.ctx: Context | None = None  # the previous compared roll: (seat, roll, round, seat idle after)
        self.last: str | None = None

    def _note(self, kind: str, example: dict) -> None:
        self.divergences.append((kind, example))

    def step(self) -> bool:
        """One roll (and the move it allows) in both engines. Returns False when the game is over."""
        ours, lg = self.ours, self.lg
        if ours.is_over():
            return False
        seat = ours.turn
        if seat < self.prev_seat:
            self.round += 1
        self.prev_seat = seat
        if _on_corner(our_position(ours)):
            return self._alone()
        if self.ctx is not None and lg.current_player != seat:
            kind = classify_turn(self.ctx, seat, lg.current_player, ours.placements())
            self._note(
                kind,
                {
                    "before": self.last,
                    "roll": self.ctx[1],
                    "ours_next": COLOURS[seat],
                    "ludopy_next": COLOURS[lg.current_player],
                },
            )
            lg.current_start_attempts = 0
        lg.current_player = seat
        lg.round = self.round
        before = our_position(ours)
        notation = ours.notation()
        roll = self.rng.randint(1, 6)
        self.rolls += 1
        mine = our_choices(notation, RULES, roll)
        free = our_choices(notation, FREE_RULES, roll)
        lg.current_dice = roll
        lg.get_observation()
        theirs = ludopy_choices(lg, seat, roll)
        ours.apply_roll(roll)
        live = ours.legal_moves() if ours.turn == seat and not ours.awaiting_roll() else []
        if sorted(str(m) for m in live) != sorted(str(m) for m in mine.values()):
            # the probe is rebuilt from our notation: a mismatch would be our own bug, not LUDOpy's
            self._note("unexplained-notation", {"before": notation, "roll": roll})
        if mine or theirs:
            self.decisions += 1
        if set(mine) == set(theirs):
            self.same += 1
            if mine:
                self.decisions_same += 1
        else:
            for kind in compare_choices(seat, roll, before, mine, free, theirs):
                self._note(
                    kind,
                    {
                        "before": notation,
                        "roll": roll,
                        "ours": sorted(str(m) for m in mine.values()),
                        "ludopy": sorted(describe(seat, before, p) for p in theirs),
                    },
                )
        agreed = sorted(p for p in mine if p in theirs)
        if agreed:
            pick = self.rng.choice(agreed)
            ours.push(mine[pick])
            lg.answer_observation(theirs[pick])
        else:
            if mine:
                keys = sorted(mine)
                ours.push(mine[self.rng.choice([k for k in keys if not mine[k].lap] or keys)])
            lg.current_move_pieces = []  # LUDOpy passes; its turn rules still run
            lg.answer_observation(-1)
        after = our_position(ours)
        if after != ludopy_position(lg) and not _on_corner(after):
            if agreed or not mine:
                self._note("unexplained-position", {"before": notation, "roll": roll})
            self.resync()
        self.ctx = (seat, roll, self.round, not any(p[0] == "t" or ".c" in p for p in after[seat]))
        self.last = notation
        return not ours.is_over()

    def resync(self) -> None:
        """Put LUDOpy's tokens where ours stand."""
        self.resyncs += 1
        set_ludopy_position(self.lg, our_position(self.ours))

    def _alone(self) -> bool:
        ours = self.ours
        ours.apply_roll(self.rng.randint(1, 6))
        moves = ours.legal_moves()
        if moves and not ours.awaiting_roll():
            ours.push(self.rng.choice(moves))
        self.alone += 1
        self.ctx = None
        if not _on_corner(our_position(ours)):
            self.resync()
        return not ours.is_over()

    def play(self, max_rolls: int = 5000) -> "PeerGame":
        while self.step() and self.rolls + self.alone < max_rolls:
            pass
        return self


def describe(seat: int, before: Position, after: Position) -> str:
    """A LUDOpy outcome as text: from-to and what was knocked home."""
    frm = _mover_from(seat, before, after)
    if frm is None:
        return "(no change)"
    text = "%s-%s" % (frm, _mover_to(seat, before, after))
    caps = []
    for s in range(4):
        if s != seat:
            gone = _mover_from(s, before, after)
            if gone is not None:
                caps.append("%s from %s" % (COLOURS[s], gone))
    return text + (" x " + ", ".join(caps) if caps else "")


def run(games: int = 20, seed: int = 1) -> dict:
    """Play `games` seeded games; a summary dict: games, rolls, decisions, divergences by kind, a first
    example of each kind, rolls ours played alone (a token where LUDOpy cannot put it), the number of
    times LUDOpy was set to our position, and the count of unexplained divergences."""
    counts = {}
    examples = {}
    rolls = decisions = alone = resyncs = same = decisions_same = 0
    for g in range(games):
        pg = PeerGame(seed * 100003 + g).play()
        rolls += pg.rolls
        decisions += pg.decisions
        alone += pg.alone
        resyncs += pg.resyncs
        same += pg.same
        decisions_same += pg.decisions_same
        for kind, ex in pg.divergences:
            counts[kind] = counts.get(kind, 0) + 1
            examples.setdefault(kind, ex)
    unexplained = sum(n for k, n in counts.items() if k not in KINDS)
    return {
        "games": games,
        "rolls": rolls,
        "decisions": decisions,
        "rolls_same_choices": same,
        "decisions_same": decisions_same,
        "rolls_ours_alone": alone,
        "resyncs": resyncs,
        "divergences": dict(sorted(counts.items())),
        "examples": examples,
        "unexplained": unexplained,
    }


if __name__ == "__main__":
    import json
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(json.dumps(run(n), indent=1))

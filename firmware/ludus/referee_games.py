"""What the referee needs to know about each game beyond the shared interface: the starts a board can
be set up for, seat colours, where a move goes (for the lights) and jump-chain continuations."""

from ludus import palette
from ludus.errors import ConfigError


def split_preset(preset):
    """("checkers", options) or ("ludo", rules text) from a preset such as checkers/2, checkers,
    ludo/classic/4 or ludo/teamup+arrow; the player count, if given, is ignored (the board decides)."""
    text = preset.strip()
    family, _, rest = text.partition("/")
    if family == "checkers":
        return family, ""
    if family == "ludo":
        rules, slash, n = rest.rpartition("/")
        if slash and n.isdigit():
            rest = rules
        if not rest:
            raise ConfigError("ludo preset %r: name a rule set, like ludo/classic/4" % preset)
        return family, rest
    raise ConfigError("unknown game preset %r: expected checkers/N or ludo/RULES/N" % preset)


def adapter_for(preset):
    """The game adapter for a preset (see split_preset)."""
    family, rest = split_preset(preset)
    if family == "checkers":
        return CheckersAdapter()
    return LudoAdapter(rest)


class CheckersAdapter:
    family = "checkers"
    has_dice = False

    def starts(self):
        """(start name, game) for every setup a board could be laid out in, one at a time."""
        from ludus import checkers

        for spec in checkers.SETUP_NAMES + ("2/15",):
            yield "checkers/" + spec, checkers.start_position(spec)

    def position(self, start):
        from ludus.games import position

        return position(start)

    def colour(self, game, seat):
        return palette.checkers_colour(game.config.seat_points[seat][0])

    def turn_index(self, game, seat):
        # the board has one turn LED per point: the seat's first point
        return game.config.seat_points[seat][0]

    def areas(self):
        """(colour, places) of each start area, for lighting the setup."""
        from ludus import checkers

        return [(palette.checkers_colour(p), checkers.POINT_HOLES[p]) for p in range(6)]

    def changes(self, game, move):
        return game.move_changes(move)

    def ends(self, game, move):
        """(from place, to place, path places, victims [(place, base place)])."""
        return move.frm, move.to, move.path, ()

    def mover_place(self, game, place):
        return game.seat_at(place) == game.turn

    def continuations(self, game, move):
        """Holes the piece that made jump `move` could jump on to ([] for a step or a finished chain)."""
        if not move.is_jump():
            return ()
        path = move.path
        return [h for h in game.continuations(move.to, move.frm) if h not in path]

    def chain_reach(self, game, frm):
        """Every hole a piece on frm reaches by one or more jumps (ending there legally or not)."""
        seen = {frm: 1}
        todo = [frm]
        while todo:
            at = todo.pop()
            for h in game.continuations(at, frm):
                if h not in seen:
                    seen[h] = 1
                    todo.append(h)
        del seen[frm]
        return seen

    def seats_of(self, game):
        return range(game.seats)


class LudoAdapter:
    family = "ludo"
    has_dice = True

    def __init__(self, rules_text):
        from ludus.ludo_rules import rules_from_spec

        self.rules_text = rules_text
        self.rules = rules_from_spec(rules_text)

    def starts(self):
        from ludus import ludo

        rules = self.rules
        groups = [(0, 2), (1, 3), (0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2, 3)]
        if rules.teams:
            groups = groups[-1:]
        for seats in groups:
            game = ludo.start_position(rules, seats)
            # ludo.start_position seats two players opposite (green, red) and three without blue
            if seats in ((0, 2), (0, 1, 2), (0, 1, 2, 3)):
                name = "ludo/%s/%d" % (self.rules_text, len(seats))
            else:
                name = game.notation()
            yield name, game

    def position(self, start):
        from ludus.games import position

        return position(start)

    def colour(self, game, seat):
        return palette.ludo_colour(seat)

    def turn_index(self, game, seat):
        return seat

    def areas(self):
        return None  # bases are zones: filled in by the referee from the place names

    def changes(self, game, move):
        ch = game.move_changes(move)
        if move.kind >= 3 or not (move.caps or move.via >= 0):
            return ch
        # Capture squares (and a star or arrow landing) read the same before and after; list them
        # with delta 0 so a victim lifted first counts as part of this move.
        row = game.geo.place_of[move.gi >> 2]
        extra = [row[move.to + 1]]
        if move.via >= 0:
            extra.append(row[move.via + 1])
        for c in move.caps:
            extra.append(game.geo.place_of[c >> 2][game.pos[c] + 1])
        out = list(ch)
        for p in extra:
            found = False
            for q, _ in out:
                if q == p:
                    found = True
            if not found:
                out.append((p, 0))
        return out

    def ends(self, game, move):
        if move.kind >= 3:
            return -1, -1, (), ()
        geo = game.geo
        row = geo.place_of[move.gi >> 2]
        frm = row[move.frm + 1]
        to = row[move.to + 1]
        path = (frm, row[move.via + 1], to) if move.via >= 0 else (frm, to)
        victims = []
        for c in move.caps:
            crow = geo.place_of[c >> 2]
            victims.append((crow[game.pos[c] + 1], crow[0]))
        return frm, to, path, victims

    def mover_place(self, game, place):
        s = game.mover()
        for gi in range(s * 4, s * 4 + 4):
            if game.geo.place_of[s][game.pos[gi] + 1] == place:
                return True
        return False

    def continuations(self, game, move):
        return ()

    def chain_reach(self, game, frm):
        return {}

    def seats_of(self, game):
        return game.seats

"""The game adapter base: what the referee asks of every game beyond the shared game interface, with the
generic ways of filling a move table from legal_moves(). ludus.referee.checkers and ludus.referee.ludo
derive from it; ludus.referee.presets finds the one a preset needs."""


class GameAdapter:
    """The adapter interface, with the generic ways of filling a move table from legal_moves().

    A subclass gives: family, has_dice, starts(), position(start), colour(game, seat),
    turn_index(game, seat), areas(), changes(game, move), ends(game, move), mover_place(game, place),
    continuations(game, move), chain_reach(game, frm), seats_of(game). A table's keys are whatever the
    adapter chooses (here the move objects); move() turns a key into the move to play or show."""

    def prepare(self, start):
        """Work towards position(start) that can be done a tick ahead of it (the referee begins a
        game over several ticks, docs/referee.md). The base: none."""

    def load(self, game, table, expected):
        """Fill the move table (ludus.referee.infer.MoveTable) with the legal moves; their number."""
        table.load(expected, game.legal_moves(), lambda m: self.changes(game, m))
        return table.count

    def load_one(self, game, table, expected, move):
        """Fill the move table with this one move (the turn clock chose it)."""
        table.load(expected, [move], lambda m: self.changes(game, m))

    def move(self, game, key):
        """The move a table key names."""
        return key

    def finished(self, game):
        """True if the game is over, as far as can be told without generating moves (a game of dice
        tells all: the rest is seen when its move table is made)."""
        return game.is_over()

    def expect_after(self, move, expected):
        """Update the expected place counts for `move`, just played, if that is cheaper than the game's
        fill_counts(); False leaves them to fill_counts()."""
        return False

    def key_ends(self, game, key):
        """ends() of a table key; its path may be None when finding it costs more (then the lights
        take it from ends() of the move)."""
        return self.ends(game, key)

    def on_the_way(self, game, frm, place):
        """True if place lies on the path of the mover's piece on place frm, short of one of its legal
        destinations (a Ludo token counted out square by square). The base: nothing is on a way."""
        return False

    def revisable(self, game, move):
        """True if move, just matched, ends on the way to another legal move of the same piece: its
        commit waits (a family counting a roll out may be going on). The base: never."""
        return False

    def why(self, game, frm, to):
        """Why the mover's piece may not go from place frm to place to: (the engine's reason, the moves
        a rule forces instead, to be lit). The text of the move is the game's own notation."""
        from ludus.errors import LudusError

        try:
            game.parse_move(self.move_text(game, frm, to))
        except LudusError as exc:
            return str(exc), ()
        return "", ()

    def move_text(self, game, frm, to):
        """The move from place frm to place to, written as the game writes moves."""
        return "%s-%s" % (game.place_names[frm], game.place_names[to])

    def changes(self, game, move):
        """(place, delta) pairs of a move (see ludus.referee.infer.MoveTable)."""
        raise NotImplementedError

    def ends(self, game, move):
        """(from place, to place, path places, victims [(place, base place)]) of a move."""
        raise NotImplementedError

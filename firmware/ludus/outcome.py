"""How a game ended: the seats in finishing order and why it ended. The same value for every game, so
the referee, records, bots and the command line read one shape (game.outcome(); None while it goes on)."""

FINISHED = "finished"  # every seat that could finish did (the last seat placed last), or the rules' goal
MOVE_CAP = "move cap"  # the agreed number of moves was reached first
BLOCKED = "blocked"  # nobody can move


class Outcome:
    """placements: tuple of seats in finishing order (after a move cap or a block, only those that
    finished). reason: FINISHED, MOVE_CAP or BLOCKED. winner: the first placed seat, or None."""

    def __init__(self, placements, reason):
        self.placements = tuple(placements)
        self.reason = reason

    @property
    def winner(self):
        return self.placements[0] if self.placements else None

    def __eq__(self, other):
        return isinstance(other, Outcome) and (self.placements, self.reason) == (
            other.placements,
            other.reason,
        )

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "Outcome(%r, %r)" % (list(self.placements), self.reason)

"""The Danish club's season table: league points by place over many games, ties settled by play-off."""

from ludus.errors import ConfigError


class SeasonTable:
    """A league table across games (Danish club rules: 3/2/1/0 points by place; a tie on points is
    settled by a play-off game between the tied players).

    add_game(placements) takes player names in finishing order; standings() lists (name, points) best
    first; ties() lists the groups still tied; add_playoff(order) settles one group."""

    def __init__(self, points=(3, 2, 1, 0)):
        self.points = tuple(points)
        self.totals = {}
        self.playoff_rank = {}  # name -> rank inside its settled tie (0 best)
        self.games = 0

    def add_game(self, placements):
        if len(placements) > len(self.points):
            raise ConfigError(
                "a game with %d places but only %d point values" % (len(placements), len(self.points))
            )
        for i, name in enumerate(placements):
            self.totals[name] = self.totals.get(name, 0) + self.points[i]
        self.games += 1
        self.playoff_rank = {}  # new points reopen every tie

    def ties(self):
        """Groups (lists of names) with equal points not yet settled by a play-off, best group first."""
        groups = {}
        for name, pts in self.totals.items():
            groups.setdefault(pts, []).append(name)
        out = []
        for pts in sorted(groups, reverse=True):
            g = groups[pts]
            if len(g) > 1 and not all(n in self.playoff_rank for n in g):
                out.append(sorted(g))
        return out

    def add_playoff(self, order):
        """Record a play-off game's finishing order among players tied on points."""
        pts = set(self.totals.get(n) for n in order)
        if len(pts) != 1 or None in pts:
            raise ConfigError(
                "play-off %r: the players must all be in the table and tied on points" % (order,)
            )
        tied = [n for n, p in self.totals.items() if p == self.totals[order[0]]]
        if sorted(tied) != sorted(order):
            raise ConfigError(
                "play-off %r must include every player tied on %s points: %s"
                % (order, list(pts)[0], sorted(tied))
            )
        for i, name in enumerate(order):
            self.playoff_rank[name] = i

    def standings(self):
        """(name, points) best first; tied players in play-off order, else by name."""
        return [
            (n, self.totals[n])
            for n in sorted(self.totals, key=lambda n: (-self.totals[n], self.playoff_rank.get(n, 99), n))
        ]

    def champion(self):
        """The season's winner, or None while the top is tied and unsettled."""
        table = self.standings()
        if not table:
            return None
        top = [n for n, p in table if p == table[0][1]]
        if len(top) > 1 and not all(n in self.playoff_rank for n in top):
            return None
        return table[0][0]

"""The Danish club's season table: league points by place over many games, ties settled by play-off.

    season = Season("danish")
    season.add(["Anna", "Bo", "Cy", "Di"], ["Bo", "Anna", "Di", "Cy"])   # "game"
    season.result()["standings"][0]      # {"rank": 1, "player": "Bo", "points": 3, ...}
    text = season.to_json()              # kept on the board (season.json), Season.from_json(text)

The board keeps one (ludus.device), `ludus season` makes one from record files, and the simulator shows
one: all three count with this code (docs/club.md)."""

import json

from ludus.errors import ConfigError, NotationError

SEASON_FORMAT = "ludus-season/1"
PLACES = 4  # a Ludo game has at most four places
KEY_DIGITS = 16  # of a game's dice commitment: its key in `seen` (a game is never counted twice)


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


def rules_of(start):
    """The rule set a record's start names: "ludo/danish/4" and "ludo danish seats=..." give "danish";
    None for a game that is not Ludo."""
    words = start.split()
    if not words:
        return None
    first = words[0]
    if first.startswith("ludo/"):  # (the rules of ludo/RULES or ludo/RULES/N)
        rules, slash, n = first[5:].rpartition("/")
        return rules if slash and n.isdigit() else first[5:]
    if first == "ludo" and len(words) > 1:
        return words[1]
    return None


def points_of(rules):
    """The league points by place of a rule set (its `points` option; the Danish club's 3, 2, 1, 0 where
    the rule set names none). ConfigError for a rule set that is not one."""
    from ludus.ludo.rules import rules_from_spec

    return tuple(rules_from_spec(rules).points) or (3, 2, 1, 0)


class Season:
    """A club's running season of one Ludo rule set, counted by the players' names.

    add(players, placements) counts a finished game: players are the names at its seats, placements
    the names in finishing order. A game between exactly the players of a group still tied on points,
    not every player of the season, is their play-off and settles the group (playoffs=False: every game
    is a league game). result()
    is the table; to_json()/from_json() keep it."""

    def __init__(self, rules, points=None):
        self.rules = rules
        self.table = SeasonTable(points if points else points_of(rules))
        self.played = {}  # name -> games played
        self.places = {}  # name -> [firsts, seconds, thirds, fourths]
        self.playoffs = []  # the play-off games' labels
        self.seen = []  # the keys of the games counted (and of the games abandoned, noted)
        # what happened in a game besides its play, each a record's note (ludus.record.notes) with
        # "game": its label: a seat renamed or handed to a bot, the REPL, a game abandoned
        self.notes = []

    def add(self, players, placements, label=None, key=None, playoffs=True, notes=None):
        """Count a game: "game" or "playoff". label names it in result()'s play-offs and notes (a file,
        a commitment); key: a game with a key already seen is refused (ConfigError), so one game is
        never counted twice. ConfigError too for placements naming someone who did not play. notes:
        the record's notes (ludus.record.notes); the ones a club should see are kept in `notes`."""
        if key is not None and key in self.seen:
            raise ConfigError("this game is counted already (dice commitment %s...)" % key)
        for name in placements:
            if name not in players:
                raise ConfigError("placement %r did not play in the game" % (name,))
        table = self.table
        kind = "game"
        # a play-off is a game of exactly a tied group, and of some players only: a game of everyone
        # the season has, all level on points (four friends after four rounds), is a league game
        if playoffs and len(placements) == len(players) and len(players) < len(table.totals):
            group = sorted(players)
            for tied in table.ties():
                if tied == group:
                    kind = "playoff"
        if kind == "playoff":
            table.add_playoff(placements)
            self.playoffs.append(label if label is not None else key)
        else:
            table.add_game(placements)
            for name in players:
                self.played[name] = self.played.get(name, 0) + 1
                table.totals.setdefault(name, 0)  # a player with no place still plays
            for k, name in enumerate(placements):
                row = self.places.get(name)
                if row is None:
                    row = self.places[name] = [0] * PLACES
                if k < PLACES:
                    row[k] += 1
        if key is not None:
            self.seen.append(key)
        for note in notes or ():
            if "names" in note or "bots" in note or "stopped" in note:
                note = dict(note)
                note["game"] = label if label is not None else key
                self.notes.append(note)
        return kind

    def abandon(self, players, at, label=None, key=None):
        """Note a game given up without a result (a new game begun over USB), after AT actions,
        between PLAYERS (names): it counts for nothing, and the table shows it. ConfigError for a
        key already seen."""
        if key is not None and key in self.seen:
            raise ConfigError("this game is counted already (dice commitment %s...)" % key)
        if key is not None:
            self.seen.append(key)
        self.notes.append(
            {"game": label if label is not None else key, "at": at, "ended": "abandoned", "players": players}
        )

    def result(self):
        """The table: {"rules", "standings" (rank, player, points, games, places, tied) best first,
        "ties" (the groups still tied, no play-off yet), "champion" (None while the top is tied),
        "games", "playoffs"}."""
        table = self.table
        ties = table.ties()
        tied = {}
        for group in ties:
            for name in group:
                tied[name] = True
        rows = []
        rank = 0
        for name, pts in table.standings():
            rank += 1
            rows.append(
                {
                    "rank": rank,
                    "player": name,
                    "points": pts,
                    "games": self.played.get(name, 0),
                    "places": list(self.places.get(name, [0] * PLACES)),
                    "tied": name in tied,
                }
            )
        return {
            "rules": self.rules,
            "standings": rows,
            "ties": ties,
            "champion": table.champion(),
            "games": table.games,
            "playoffs": list(self.playoffs),
            "notes": list(self.notes),
        }

    def to_json(self):
        t = self.table
        return json.dumps(
            {
                "format": SEASON_FORMAT,
                "rules": self.rules,
                "points": list(t.points),
                "totals": t.totals,
                "playoff_rank": t.playoff_rank,
                "games": t.games,
                "played": self.played,
                "places": self.places,
                "playoffs": self.playoffs,
                "seen": self.seen,
                "notes": self.notes,
            }
        )

    @classmethod
    def from_json(cls, text):
        """A kept season; NotationError naming what is wrong with a damaged or foreign file."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise NotationError("the season is not valid JSON (%s)" % (exc,)) from None
        if not isinstance(data, dict) or data.get("format") != SEASON_FORMAT:
            raise NotationError("the season's format is not %r" % SEASON_FORMAT)
        try:
            season = cls(data["rules"], tuple(data["points"]))
            t = season.table
            for field in ("totals", "playoff_rank", "played", "places"):
                if not isinstance(data[field], dict):
                    raise TypeError(field)
            t.totals = {str(k): int(v) for k, v in data["totals"].items()}
            t.playoff_rank = {str(k): int(v) for k, v in data["playoff_rank"].items()}
            t.games = int(data["games"])
            season.played = {str(k): int(v) for k, v in data["played"].items()}
            season.places = {str(k): [int(n) for n in v][:PLACES] for k, v in data["places"].items()}
            season.playoffs = [str(x) for x in data["playoffs"]]
            season.seen = [str(x) for x in data["seen"]]
            notes = data.get("notes", [])  # (a season kept before notes were: none)
            if not isinstance(notes, list) or [n for n in notes if not isinstance(n, dict)]:
                raise TypeError("notes")
            season.notes = notes
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise NotationError("the season's field %s is missing or wrong" % (exc,)) from None
        return season

"""The club's season cases (see bench/README.md and docs/club.md): what counting a finished game into the
season the board keeps costs, in the tick the game ends. The file is kept in memory here (a dict), so
the figure is the counting itself; the littlefs write of season.json comes on top on a board."""

from ludus.club import count
from ludus.ludo.season import Season
from ludus.record.game import GameRecord

NAMES = ["Anna", "Bo", "Cy", "Søren"]


class _Files:
    def __init__(self):
        self.files = {}

    def read_file(self, name):
        return self.files.get(name)

    def write_file(self, name, text):
        self.files[name] = text

    def path(self, name):
        return name if name in self.files else None


class _Game:
    seats = [0, 1, 2, 3]


def _count_52nd():
    # a season of 51 weekly four-player games, and the 52nd counted into it
    season = Season("danish")
    for k in range(51):
        season.add(NAMES, NAMES[k % 4 :] + NAMES[: k % 4], key="%016x" % k)
    text = season.to_json()
    season = None
    files = _Files()
    record = GameRecord(
        "ludo/danish/4", {}, "ab" * 32, players={0: NAMES[0], 1: NAMES[1], 2: NAMES[2], 3: NAMES[3]}
    )
    record.result = [3, 1, 0, 2]
    game = _Game()

    def work():
        files.files["season.json"] = text  # (the same 51 games each time: the 52nd is new again)
        return count(files, "danish", record, game)[0]

    return work


CASES = [
    ("season.count", _count_52nd, 20),
]

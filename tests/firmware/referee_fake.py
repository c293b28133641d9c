"""A tiny dice-less race game for exercising the referee in situations the real rules reach rarely:
twelve track squares t0..t11 in a ring and two bases; each seat has two tokens; a token enters on its
start square (a: t0, b: t6) or moves one or two squares on; landing on a lone opponent token captures
it (back to its base), two opponent tokens block; a seat's own tokens may stack. It has the shared game
interface and the adapter the referee needs, so stacks, invisible moves, ambiguous readings and
captures in any order all occur."""

from ludus.referee.adapter import GameAdapter

TRACK = 12
START = (0, 6)
NAMES = tuple(["t%d" % i for i in range(TRACK)] + ["a.base", "b.base"])


class FakeMove:
    def __init__(self, seat, token, frm, to, victims):
        self.seat = seat
        self.token = token
        self.frm = frm
        self.to = to
        self.victims = victims

    def text(self):
        out = "%s-t%d" % ("base" if self.frm < 0 else "t%d" % self.frm, self.to)
        if self.victims:
            out += " x"
        return out

    def __str__(self):
        return self.text()


class FakeGame:
    place_names = NAMES

    def __init__(self):
        self.pos = [[-1, -1], [-1, -1]]
        self.turn = 0
        self.stack = []

    def place(self, seat, p):
        return TRACK + seat if p < 0 else p

    def fill_counts(self, buf):
        for i in range(len(buf)):
            buf[i] = 0
        for s in (0, 1):
            for p in self.pos[s]:
                buf[self.place(s, p)] += 1

    def legal_moves(self):
        s = self.turn
        o = 1 - s
        out = []
        seen = []
        for t in (0, 1):
            p = self.pos[s][t]
            steps = (0,) if p < 0 else (1, 2)
            for step in steps:
                to = START[s] if p < 0 else (p + step) % TRACK
                if (p, to) in seen:
                    continue
                there = [k for k in (0, 1) if self.pos[o][k] == to]
                if len(there) > 1:
                    continue
                seen.append((p, to))
                out.append(FakeMove(s, t, p, to, tuple(there)))
        return out

    def move_changes(self, m):
        s = m.seat
        out = [(self.place(s, m.frm), -1), (m.to, 1)]
        for _ in m.victims:
            out.append((m.to, -1))
            out.append((TRACK + 1 - s, 1))
        return out

    def push(self, m):
        self.stack.append(([self.pos[0][:], self.pos[1][:]], self.turn))
        self.pos[m.seat][m.token] = m.to
        for k in m.victims:
            self.pos[1 - m.seat][k] = -1
        self.turn = 1 - self.turn

    def pop(self):
        pos, turn = self.stack.pop()
        self.pos = pos
        self.turn = turn

    def parse_move(self, text):
        for m in self.legal_moves():
            if str(m) == text:
                return m
        raise ValueError("not legal: " + text)

    def is_over(self):
        return False

    def placements(self):
        return []

    def outcome(self):
        return None

    def notation(self):
        return "fake turn=%d a=%s b=%s" % (self.turn, sorted(self.pos[0]), sorted(self.pos[1]))


class FakeAdapter(GameAdapter):
    family = "fake"
    has_dice = False

    def starts(self):
        yield "fake", FakeGame()

    def position(self, start):
        return FakeGame()

    def colour(self, game, seat):
        return 3 + seat

    def turn_index(self, game, seat):
        return seat

    def areas(self):
        return [(3, (TRACK,)), (4, (TRACK + 1,))]

    def changes(self, game, move):
        ch = game.move_changes(move)
        if move.victims:
            ch.append((move.to, 0))
        return ch

    def ends(self, game, move):
        victims = [(move.to, TRACK + 1 - move.seat) for _ in move.victims]
        return game.place(move.seat, move.frm), move.to, (), victims

    def mover_place(self, game, place):
        s = game.turn
        return place in [game.place(s, p) for p in game.pos[s]]

    def continuations(self, game, move):
        return ()

    def chain_reach(self, game, frm):
        return {}

    def seats_of(self, game):
        return (0, 1)

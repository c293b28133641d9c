"""Random Ludo play for self-play, benchmarks and property tests: a small seeded die source and a
driver that plays one game with random legal choices. Runs on MicroPython and CPython alike."""

from ludus.ludo.game import start_position

MWC_MUL = 18000


class SeededDie:
    """A reproducible die for self-play and tests: Marsaglia's 16-bit multiply-with-carry generator,
    whose state stays a small int on every runtime. Real games take their rolls from the committed dice
    of ludus.dice; the rules core never rolls by itself."""

    def __init__(self, seed=1):
        self.state = 1 + (seed * 40503 + 12345) % (MWC_MUL * 65536 - 2)

    def next(self):
        x = self.state = MWC_MUL * (self.state & 0xFFFF) + (self.state >> 16)
        return x & 0xFFFF

    def below(self, n):
        """A number 0..n-1."""
        x = self.state = MWC_MUL * (self.state & 0xFFFF) + (self.state >> 16)
        return (x & 0xFFFF) % n

    def roll(self):
        """A die value 1..6."""
        x = self.state = MWC_MUL * (self.state & 0xFFFF) + (self.state >> 16)
        return (x & 0xFFFF) % 6 + 1


class GameStats:
    """What one random game did: turns (turns started in play), actions, captures (tokens sent back to
    base), placements (seats in finishing order)."""

    def __init__(self):
        self.turns = 0
        self.actions = 0
        self.captures = 0
        self.placements = []


def play_random(game, die, chooser=None, first_winner=False, max_actions=100000, on_action=None):
    """Play game to its end (or to its first placement with first_winner=True) with rolls from die
    and moves picked by chooser(game, moves) (default: uniformly at random with die, one draw per
    move). Returns GameStats. on_action(game), if given, is called after every roll and move."""
    if die.__class__ is SeededDie and chooser is None and on_action is None:
        return _play_fast(game, die, first_winner, max_actions)
    stats = GameStats()
    turns0 = game.turn_count
    actions = captures = 0
    while actions < max_actions:
        phase = game.phase
        if phase == 3:
            break
        actions += 1
        if phase == 1 or (phase == 0 and game.owe):
            game.apply_roll(die.roll())
        else:
            moves = game.legal_moves()
            m = chooser(game, moves) if chooser is not None else moves[die.below(len(moves))]
            captures += len(m.caps)
            game.push(m)
        if on_action is not None:
            on_action(game)
        if first_winner and game.placed:
            break
    stats.turns = game.turn_count - turns0
    stats.actions = actions
    stats.captures = captures
    stats.placements = game.placements()
    return stats


def _play_fast(game, die, first_winner, max_actions):
    """play_random's loop on the engine's move tuples with the die's generator inlined (the benchmark
    path); it plays the same games."""
    stats = GameStats()
    actions = captures = 0
    turns0 = game.turn_count
    x = die.state
    apply_roll = game.apply_roll
    apply_move = game._apply
    record = game._keep if game.max_undo else None
    while actions < max_actions:
        phase = game.phase
        if phase == 3:
            break
        x = 18000 * (x & 0xFFFF) + (x >> 16)
        actions += 1
        if phase == 0:
            if game.owe:
                apply_roll((x & 0xFFFF) % 6 + 1)
                continue
            moves = game._cache
            if moves is None:
                moves = game._cache = game._legal()
            m = moves[(x & 0xFFFF) % len(moves)]
            if m[5]:
                captures += len(m[5])
            if record is not None:
                record(m)
            apply_move(m)
            if first_winner and game.placed:
                break
        elif phase == 1:
            apply_roll((x & 0xFFFF) % 6 + 1)
        else:  # the Danish choice after the roll-off
            m = game._legal()[(x & 0xFFFF) % 2]
            if record is not None:
                record(m)
            apply_move(m)
    die.state = x
    stats.turns = game.turn_count - turns0
    stats.actions = actions
    stats.captures = captures
    stats.placements = game.placements()
    return stats


def random_game(spec, seed, first_winner=False):
    """Play one random game from a named start ("danish/4") with a seed; returns (game, GameStats)."""
    game = start_position(spec)
    game.max_undo = 0
    stats = play_random(game, SeededDie(seed), first_winner=first_winner)
    return game, stats

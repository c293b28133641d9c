"""Benchmark cases for the referee (see bench/README.md and docs/referee.md): one tick with nothing
changed; a settled change to a new LED frame (a piece lifted or put back, and a move committed) in a
crowded six-player Chinese Checkers position and a crowded Ludo position; a full simulated game (for
the peak heap). A case that does not fit the heap raises MemoryError: `ludus bench` reports that and
finds the heap it needs."""

import gc

from ludus.runtime import forget
from ludus.sensing.instant import InstantOccupancy

# Six players, 60 plies into a bot game: all 60 pieces out, seat 0 has 85 legal moves, 59 of them jump
# chains (the position of bench/cases_checkers.py).
CHECKERS_CROWDED = (
    "checkers 6 - 0 1/da/a2/d3/5af1a1b2/1ffca1a1ce1b/3debacb2/1af3cacb/1fffcb1cb/e4e1d2/2effe1bd1c"
    "/e1bf1b6/2e1dedec2c1/d2a/3/dd/1 - 60"
)
# Four players, every token on the track, two waiting rolls: green's tokens can each go two ways, some
# onto opponents (captures).
LUDO_CROWDED = (
    "ludo classic seats=gyrb turn=g rolls=6,5 g=t3,t9,t14,t20 y=t15,t19,t25,t30 "
    "r=t28,t34,t38,t45 b=t41,t47,t50,t1"
)
SEED = "00" * 32


def _board(name):
    from ludus.board.definition import BoardDefinition

    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    return BoardDefinition.load(here + "/../hardware/boards/%s.json" % name)


def _levels_of(referee, board, game=None):
    # sensor levels for the pieces of the referee's game (or of another game of the same kind)
    counts = bytearray(referee.place_count)
    (game or referee.game).fill_counts(counts)
    levels = bytearray(board.channel_count)
    binding = referee.places
    for g in range(len(counts)):
        cells = binding.cells(g)
        for k in range(counts[g]):
            levels[board.channel_of_cell[cells[k % len(cells)]]] = 1
    return levels


def _referee_at(board_name, preset, start, instant):
    from ludus.record.game import GameRecord
    from ludus.referee.core import Referee

    board = _board(board_name)
    occ = InstantOccupancy(board.channel_count) if instant else None
    ref = Referee(board, preset, occupancy=occ, seed=SEED)
    record = GameRecord(start, {}, "0" * 64)
    ref.restore({"record": record.to_json(), "seed": SEED, "dice_used": 0})
    levels = _levels_of(ref, board)
    ref.tick(levels, 0)
    for t in range(1, 60):
        ref.tick(levels, t * 5)
    ref.take_events()
    return ref, board, levels


def idle_tick():
    ref, board, levels = _referee_at("checkers", "checkers", "checkers/2", False)
    now = [1000]

    def work():
        now[0] += 5
        return ref.tick(levels, now[0], 0)

    return work


def _change_case(board_name, preset, start, lifted_place):
    ref, board, levels = _referee_at(board_name, preset, start, True)
    frame = bytearray(3 * board.led_count)
    binding = ref.places
    channel = board.channel_of_cell[binding.cells(lifted_place)[0]]
    state = [1000]

    def work():
        # lift the piece (its destinations light) or put it back: one settled change, one new frame
        levels[channel] ^= 1
        state[0] += 5
        ref.tick(levels, state[0], 0)
        ref.render(state[0], frame)
        return ref.situation

    return work


def _most_moves_place(start, names):
    from ludus.games import position

    game = position(start)
    best = None
    count = {}
    for m in game.legal_moves():
        frm = getattr(m, "frm", None)
        if not isinstance(frm, int) or frm < 0:
            continue
        if hasattr(m, "gi"):
            frm = game.place_names.index(game.token_place(m.gi))
        count[frm] = count.get(frm, 0) + 1
        if best is None or count[frm] > count[best]:
            best = frm
    return best


def cc_change():
    place = _most_moves_place(CHECKERS_CROWDED, None)
    return _change_case("checkers", "checkers", CHECKERS_CROWDED, place)


def ludo_change():
    place = _most_moves_place(LUDO_CROWDED, None)
    return _change_case("ludo52", "ludo/classic", LUDO_CROWDED, place)


def _commit_case(board_name, preset, start, pick, rewind_only=False, next_tick=False):
    # One settled change that completes a move (the piece already carried: lifted and put down within
    # the settle time), committed, the next position's move table built, the frame composed and
    # rendered. Then the position is wound back for the next call, by no referee logic: a copy of the
    # game made beforehand takes the played one's place (COPIES calls; game.pop() after that), the
    # record's last action goes, and the referee's buffers and move table are copied back. That
    # wind-back is no work of the board's: rewind_only=True gives a case doing only it (on the position
    # as it stands), which `ludus bench` measures too and subtracts. The move's text and record entry,
    # written after the frame (GameRecord.defer_move: the firmware's loop takes the events once the
    # frame is out), are done in the wind-back too, so they are subtracted with it: the figure is the
    # time from the settled change to the frame.
    ref, board, levels = _referee_at(board_name, preset, start, True)
    frame = bytearray(3 * board.led_count)
    before = bytearray(levels)
    move = pick(ref)
    after = _after(ref, board, move)
    event = {"seat": 0, "move": None, "event": "move"}  # (the rewind's stand-in for the commit's event)
    snap = _Snapshot(ref)
    copies = []
    for _ in range(COPIES + 1):
        game = ref.game.copy()
        game.legal_moves()  # as the referee's own game: its legal moves worked out for the table
        copies.append(game)
    _as_loaded(ref)
    state = [1000]

    def work():
        levels[:] = after
        state[0] += 5
        ref.tick(levels, state[0], 0)
        ref.render(state[0], frame)
        if next_tick:  # the next tick, which makes the new position's move table (after the
            ref.take_events()  # bookkeeping, as in the firmware's loop)
            state[0] += 5
            ref.tick(levels, state[0], 0)
        moved = len(ref.record.actions)  # (the move's text written here, if not yet)
        if copies:
            ref.game = copies.pop()
        else:
            ref.game.pop()
        ref.record.actions.truncate(moved - 1)
        ref.take_events()
        levels[:] = before
        snap.restore(ref)
        _as_loaded(ref)
        return moved

    kept = copies[-1]

    def rewind():
        # work()'s wind-back alone, on the position as it stands, with the move's deferred text
        ref.record._due = (move, event)  # (as defer_move leaves it: its call is the commit's alone)
        moved = len(ref.record.actions)
        ref.game = kept
        ref.record.actions.truncate(moved - 1)
        ref.take_events()
        levels[:] = before
        snap.restore(ref)
        _as_loaded(ref)
        return moved

    work()  # checks the move commits at once and leaves the referee as it found it
    if ref.take_events() or ref.situation != 0 or ref.table is None:
        raise RuntimeError("the commit case did not wind back")
    return rewind if rewind_only else work


def _as_loaded(ref):
    # A checkers referee made its move table with the game's search noted (legal_move_codes(True)), and
    # a commit reads the chain from it while no other search has run: so does the game put in place by
    # the wind-back (its search part of the wind-back, subtracted with it).
    if ref.adapter.family == "checkers":
        ref.game.legal_move_codes(True)


COPIES = 10  # the default repetitions of the commit cases (as many as ludus bench's callgrind runs)


def _after(ref, board, move):
    ref.game.push(move)
    levels = _levels_of(ref, board)
    ref.game.pop()
    return levels


class _Snapshot:
    # what a commit changes in the referee and its move table, kept to be copied back
    NAMES = ("expected", "exp_sat", "sensed", "seen")
    TABLE = ("place", "delta", "owner", "start", "head", "link")

    def __init__(self, ref):
        t = ref.table
        self.bufs = [getattr(ref, name)[:] for name in self.NAMES]
        self.sense = [ref._sense_bufs[0][:], ref._sense_bufs[3][:]]  # the channels last read, raw counts
        self.settled = ref.occ.settled[:]
        self.arrays = [getattr(t, name)[:] for name in self.TABLE]
        self.keys = t.keys

    def restore(self, ref):
        for k in range(len(self.NAMES)):
            getattr(ref, self.NAMES[k])[:] = self.bufs[k]
        ref._sense_bufs[0][:] = self.sense[0]
        ref._sense_bufs[3][:] = self.sense[1]
        ref.occ.settled[:] = self.settled
        t = ref.table = ref._table
        for k in range(len(self.TABLE)):
            getattr(t, self.TABLE[k])[:] = self.arrays[k]
        t.keys = self.keys
        t.count = len(self.keys)
        t.expected = t.exp_sat = ref.expected
        t.ends = None
        ref.situation = 0
        ref.pending = ref.choices = ref.partials = None
        ref._dirty = True


def _step_of_seat_0(ref):
    # a step (a jump could go on and wait as pending): committed as soon as the board settles
    from ludus.checkers.geometry import adjacent

    for m in ref.game.legal_moves():
        if m.frm >= 0 and adjacent(m.frm, m.to):
            return m
    raise RuntimeError("no step in the crowded position")


def _chain_of_seat_0(ref):
    # the longest jump chain that ends where no jump goes on (committed as soon as the board settles,
    # not held as pending): its path is found for the commit (CheckersGame.move_to)
    game = ref.game
    best = None
    for m in game.legal_moves():
        if len(m.path) > 2 and not ref.adapter.continuations(game, m):
            if best is None or len(m.path) > len(best.path):
                best = m
    if best is None:
        raise RuntimeError("no finished jump chain in the crowded position")
    return best


def _six_of_green(ref):
    # the first move with the 6 onto an empty square (seen arriving: committed at once); the 5 still
    # waits, so the next position has a move table
    game = ref.game
    for m in game.legal_moves():
        if m.roll == 6 and not m.caps:
            game.push(m)
            counts = bytearray(len(game.place_names))
            game.fill_counts(counts)
            alone = counts[game.place_names.index(game.token_place(m.gi))] == 1
            game.pop()
            if alone:
                return m
    raise RuntimeError("no move with the 6 in the crowded position")


def cc_commit():
    return _commit_case("checkers", "checkers", CHECKERS_CROWDED, _step_of_seat_0)


def ludo_commit():
    return _commit_case("ludo52", "ludo/classic", LUDO_CROWDED, _six_of_green)


def cc_jump_commit():
    return _commit_case("checkers", "checkers", CHECKERS_CROWDED, _chain_of_seat_0)


def cc_jump_commit_rewind():
    return _commit_case("checkers", "checkers", CHECKERS_CROWDED, _chain_of_seat_0, True)


def cc_commit_next_tick():
    return _commit_case("checkers", "checkers", CHECKERS_CROWDED, _step_of_seat_0, next_tick=True)


def ludo_commit_next_tick():
    return _commit_case("ludo52", "ludo/classic", LUDO_CROWDED, _six_of_green, next_tick=True)


def cc_commit_rewind():
    return _commit_case("checkers", "checkers", CHECKERS_CROWDED, _step_of_seat_0, True)


def ludo_commit_rewind():
    return _commit_case("ludo52", "ludo/classic", LUDO_CROWDED, _six_of_green, True)


def full_game():
    # Two-player Chinese Checkers from the setup on the board to the end, every move carried out as a
    # lift and a placement through the referee (instant settling), with the real board file, the lights
    # and the game record: what the firmware holds during a game. The players' moves are the bot's
    # (ludus.bots.checkers), worked out before the referee starts (the bot is not firmware: its move
    # lists and scores would crowd the referee's heap).
    return _full_game


def _empty_board_referee(board_name, preset):
    # As the firmware starts: the board definition read first (reading the file is the largest
    # transient work, done before the referee is imported), the heap collected, then the referee,
    # its first tick on an empty board.
    gc.collect()
    board = _board(board_name)
    gc.collect()
    from ludus.referee.core import Referee

    ref = Referee(board, preset, occupancy=InstantOccupancy(board.channel_count), seed=SEED)
    levels = bytearray(board.channel_count)
    ref.tick(levels, 0)
    return board, ref, levels


def _bot_game():
    # the bot's moves for a whole game, as (from, to) hole pairs; the bot module dropped again (from
    # sys.modules and from its package, or the package would keep it alive)
    from ludus.bots.checkers import Lcg, choose_move
    from ludus.checkers.game import start_position

    game = start_position("2")
    rng = Lcg(1)
    out = bytearray()
    while len(out) < 2000:
        m = choose_move(game, rng)
        if m is None or m.frm < 0:
            break
        out.append(m.frm)
        out.append(m.to)
        game.push(m)
    forget("ludus.bots.checkers")
    return out


_heap_used = getattr(gc, "mem_alloc", lambda: 0)  # (CPython has no heap to count: 0)


def _live(heap_at_start, peak):
    # the heap the game holds right after a collection, from the case's start: the live peak is the
    # largest of these (the smallest heap a game fits in also depends on fragmentation)
    gc.collect()
    now = _heap_used() - heap_at_start
    return now if now > peak else peak


def _full_game():
    # Started as the firmware starts (_empty_board_referee); the main loop collects once per committed
    # move (gc.collect() when the board is still, so a collection's pause never falls inside a move).
    # docs/referee.md, "Memory".
    gc.collect()
    heap_at_start = _heap_used()
    moves = _bot_game()
    board, ref, levels = _empty_board_referee("checkers", "checkers")
    now = 0
    from ludus.checkers.game import start_position

    start = start_position("2")
    counts = bytearray(121)
    start.fill_counts(counts)
    start = None
    for h in range(121):
        levels[board.channel_of_cell[h]] = counts[h]
    for _ in range(4):  # the start seen, prepared, its position made, the game begun: a tick each
        now += 5
        ref.tick(levels, now)
    plies = peak = 0
    while ref.phase == 1 and 2 * plies < len(moves):
        levels[board.channel_of_cell[moves[2 * plies]]] = 0
        now += 5
        ref.tick(levels, now)
        levels[board.channel_of_cell[moves[2 * plies + 1]]] = 1
        now += 5
        ref.tick(levels, now)
        if ref.situation == 2:  # a jump chain that could go on: press to end it
            now += 5
            ref.tick(levels, now, 1)
        ref.take_events()
        plies += 1
        peak = _live(heap_at_start, peak)
        if ref.over_due:  # the last move: the game's end comes at the next tick
            now += 5
            ref.tick(levels, now)
    return "%d plies, %d actions, placements %s, live heap peak %d B" % (
        plies,
        len(ref.record.actions),
        ref.record.result,
        peak,
    )


def ludo_full_game():
    # Four-player classic Ludo on the ludo52 board from the start to the last placement: every roll a
    # button press, every move the pieces put where the move leaves them (one settled change; a
    # capture's victims back in their base at once), a press where the sensors cannot tell two moves
    # apart or cannot see the move (a token leaving a stack). Real board file, lights, record.
    return _ludo_full_game


def _ludo_full_game():
    gc.collect()
    heap_at_start = _heap_used()
    board, ref, levels = _empty_board_referee("ludo52", "ludo/classic")
    now = 0
    from ludus.ludo.game import start_position

    levels[:] = _levels_of(ref, board, start_position("classic/4"))  # the referee sees them: a game
    for _ in range(4):  # the start seen, prepared, its position made, the game begun: a tick each
        now += 5
        ref.tick(levels, now)
    ref.take_events()
    x = 12345  # the players' choices: a small LCG
    actions = peak = 0
    while ref.phase == 1 and actions < 5000:
        game = ref.game
        if game.awaiting_roll():
            now += 5
            ref.tick(levels, now, 1)
        else:
            legal = game.legal_moves()
            x = (x * 1103515245 + 12345) & 0x3FFFFFFF
            move = legal[(x >> 8) % len(legal)]
            legal = None
            text = str(move)
            levels[:] = _after(ref, board, move)
            move = None
            now += 5
            ref.tick(levels, now)
            for _ in range(8):  # a move the sensors alone cannot settle: confirm the one made
                if len(ref.record.actions) > actions:
                    break
                if ref.situation == 3 and str(ref.choices[ref.choice]) != text:
                    now += 5
                    ref.tick(levels, now, 2)
                else:
                    now += 5
                    ref.tick(levels, now, 1)
        if len(ref.record.actions) <= actions:
            raise RuntimeError("the referee took no action at #%d (situation %d)" % (actions, ref.situation))
        actions = len(ref.record.actions)
        if ref.over_due:  # the last move: the game's end comes at the next tick
            now += 5
            ref.tick(levels, now)
        ref.take_events()
        game = None
        peak = _live(heap_at_start, peak)
    return "%d actions, placements %s, live heap peak %d B" % (actions, ref.record.result, peak)


CASES = [
    ("referee.idle_tick", idle_tick, 2000),
    ("referee.cc_change", cc_change, 100),
    ("referee.ludo_change", ludo_change, 100),
    ("referee.cc_commit", cc_commit, COPIES),
    ("referee.ludo_commit", ludo_commit, COPIES),
    ("referee.cc_jump_commit", cc_jump_commit, COPIES),
    ("referee.cc_commit_next_tick", cc_commit_next_tick, COPIES),
    ("referee.ludo_commit_next_tick", ludo_commit_next_tick, COPIES),
    ("referee.cc_commit_rewind", cc_commit_rewind, COPIES),
    ("referee.ludo_commit_rewind", ludo_commit_rewind, COPIES),
    ("referee.cc_jump_commit_rewind", cc_jump_commit_rewind, COPIES),
    ("referee.full_game", full_game, 1),
    ("referee.ludo_full_game", ludo_full_game, 1),
]

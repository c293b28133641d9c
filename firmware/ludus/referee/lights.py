"""The referee's light scene: what every LED shows in each phase and situation, in ludus.light.palette
meanings. A part of ludus.referee, loaded only by a referee that drives LEDs: compose(referee)
rebuilds its scene."""

from array import array

import ludus.light.palette as palette
from ludus.light.scene import clear, ink, put, put_many
from ludus.runtime import const

# ludus.referee.states' values, inlined (hot path: docs/architecture.md; a test checks they agree)
_OVER = const(2)
_S_CHAIN = const(7)
_S_CONFIRM = const(3)
_S_ILLEGAL = const(5)
_S_MISMATCH = const(4)
_S_MOVING = const(1)
_S_PENDING = const(2)
_S_UNDO = const(6)
_SETUP = const(0)

PATHS_SHOWN = 3  # a lifted piece's jump paths are lit when it has at most this many destinations


def _cells_of(r, p):
    return r.places.cells(p)


def _mark(r, p, meaning, colour=0):
    led = r._led_of_place[p]
    if led != 0xFFFF:  # a single-cell place: the common case, one lookup
        return r.scene.set(led, meaning, colour)
    _mark_zone(r, p, meaning, colour)


def _mark_zone(r, p, meaning, colour):
    sc = r.scene
    leds = r.board.led_of_cell
    for c in _cells_of(r, p):
        sc.set(leds[c], meaning, colour)


def _mark_some(r, p, meaning, occupied, count):
    # Mark `count` cells of place p that hold (occupied) or lack pieces: the slots of a zone to fill
    # or empty; a single-cell place is marked whatever it reads.
    cells = _cells_of(r, p)
    led = r.board.led_of_cell
    if len(cells) == 1:
        r.scene.set(led[cells[0]], meaning)
        return
    for c in cells:
        if count <= 0:
            return
        if (r._cell_count(c) > 0) == occupied:
            r.scene.set(led[c], meaning)
            count -= 1


def _turn_led_of(r, game, seat, meaning, colour):
    k = r.adapter.turn_index(game, seat)
    if k < len(r.board.turn_leds):
        r.scene.set(r.board.turn_leds[k], meaning, colour)


def _ends(r, i):
    # adapter.key_ends of the table's move i, kept with the table: lifting and putting back a piece
    # recomposes the same destinations without allocating again
    table = r.table
    cache = table.ends
    if cache is None:
        cache = table.ends = [None] * table.count
    e = cache[i]
    if e is None:
        e = cache[i] = r.adapter.key_ends(r.game, table.keys[i])
    return e


def compose(r):
    """Rebuild the referee's scene for its phase and situation."""
    sc = r.scene
    clear(sc)
    phase = r.phase
    if phase == _SETUP:
        _compose_setup(r)
    elif phase == _OVER:
        _compose_over(r)
    else:
        _compose_play(r, sc)


class _Seats:
    # What composing the play phase needs of each seat (its turn LED, its inks), worked out once per game
    # and kept with the scene (an ink stays valid for the scene's life): after a move only the turn LEDs
    # and the die change, and this leaves the adapter out of it.

    def __init__(self, r, sc, game):
        self.record = r.record  # the game these are for (a new game, a new record; one referee's)
        self.led = array("H", b"\xff\xff" * _SEATS)  # 0xFFFF: none
        self.turn = bytearray(_SEATS)  # TURN ink
        # FINISHED ink, 0 until the seat finishes: every ink defined costs a little in every frame
        self.finished = bytearray(_SEATS)
        self.colour = bytearray(_SEATS)
        self.dice = r.adapter.has_dice
        self.waiting_leds = r.board.waiting_leds
        self.waiting = ink(sc, palette.WAITING_ROLL) if self.dice else 0
        leds = r.board.turn_leds
        for seat in r.adapter.seats_of(game):
            c = self.colour[seat] = r.adapter.colour(game, seat)
            k = r.adapter.turn_index(game, seat)
            if k < len(leds):
                self.led[seat] = leds[k]
            self.turn[seat] = ink(sc, palette.TURN, c)


_SEATS = 8  # more than any game has


def _compose_play(r, sc):
    game = r.game
    seats = sc.composer
    if seats is None or seats.record is not r.record:
        seats = sc.composer = _Seats(r, sc, game)
    led = seats.led[game.turn]
    if led != 0xFFFF:
        if r.cue:  # a press refused: the turn LED flashes "illegal" a moment (ludus.referee.core)
            sc.set(led, palette.ILLEGAL)
        else:
            put(sc, led, seats.turn[game.turn])
    placed = game.placements()
    if placed:
        _show_finished(sc, seats, placed)
    if seats.dice:
        _compose_die(r, sc, game, seats)
    if r.situation:  # S_IDLE: nothing more to show
        _compose_situation(r, r.situation)


def _show_finished(sc, seats, placed):
    k = 0
    while k < len(placed):
        seat = placed[k]
        if not seats.finished[seat]:
            seats.finished[seat] = ink(sc, palette.FINISHED, seats.colour[seat])
        if seats.led[seat] != 0xFFFF:
            put(sc, seats.led[seat], seats.finished[seat])
        k += 1


def _compose_situation(r, sit):
    # (a move under way, the common case, on its own: the others need a larger frame)
    if sit == _S_MOVING:
        _compose_moves(r, r.partials)
    else:
        _compose_other(r, sit)


def _compose_other(r, sit):
    if sit == _S_PENDING:
        frm, to, path, victims = r.adapter.ends(r.game, r.pending)
        _mark(r, to, palette.CONFIRM)
        for h in r.chain_next:
            _mark(r, h, palette.DESTINATION)
        for h in path[1:-1]:
            _mark(r, h, palette.JUMP_PATH)
        if r.partials:
            _compose_moves(r, r.partials)
    elif sit == _S_CHAIN:
        _mark(r, r.chain_at, palette.JUMP_PATH)
        for h in r.chain_next:
            _mark(r, h, palette.DESTINATION)
    elif sit == _S_CONFIRM:
        move = r.choices[r.choice]
        frm, to, path, victims = r.adapter.ends(r.game, move)
        if (
            r.bots is not None and move is r.bots[3]
        ):  # a bot's move, for a person to carry out: from here to there
            _mark(r, frm, palette.MOVE_FROM)
            _mark(r, to, palette.MOVE_TO)
            for h in path[1:-1]:
                _mark(r, h, palette.JUMP_PATH)
        elif frm >= 0:
            _mark(r, frm, palette.CONFIRM)
            _mark(r, to, palette.CONFIRM)
        for v, _base in victims:
            _mark(r, v, palette.CAPTURE_VICTIM)
    elif sit == _S_ILLEGAL:
        _mark_some(r, r.unexpected[0], palette.ILLEGAL, True, 1)
        _mark_some(r, r.missing[0], palette.WAY_BACK, False, 1)
        for key in r.choices or ():  # the captures a rule makes compulsory: their victims
            for v, _base in r.adapter.key_ends(r.game, key)[3]:
                _mark(r, v, palette.CAPTURE_VICTIM)
    elif sit == _S_MISMATCH or sit == _S_UNDO:
        _compose_difference(r)


def _compose_die(r, sc, game, seats):
    # The die shows the rolls still to play (after a power cut too, and an undo brings a roll back);
    # with none waiting, the last roll until a move uses it (a roll with no move shows what it was).
    # (Few locals: a small frame stays on the C stack.)
    if _waiting_rolls(game):
        _show_rolls(sc, game.rolls, seats.colour[game.turn])
    elif r.die_value:
        sc.set_die(r.die_value, (), seats.colour[r.die_seat if r.die_seat >= 0 else game.turn])
    if game.phase == 0:
        put_many(sc, seats.waiting_leds, len(game.rolls), seats.waiting)


def _show_rolls(sc, rolls, colour):
    sc.set_die(rolls[0], rolls if len(rolls) > 1 else (), colour)


def _waiting_rolls(game):
    # True if die values wait to be used in the play phase (a roll-off's rolls are the last roll's)
    if game.phase != 0 or not game.rolls:
        return False
    for v in game.rolls:
        if not 1 <= v <= 6:
            return False
    return True


def _compose_moves(r, partials):
    # The destinations of the moves under way; their jump paths (when few) and captures in a second
    # pass.
    sc = r.scene
    dest = ink(sc, palette.DESTINATION)
    k = len(partials)
    more = k <= PATHS_SHOWN  # with many destinations the paths would cover the board
    while k:  # (last to first: the same destination light either way)
        k -= 1
        led = _destination(r, partials[k])
        if led > 0xFFFF:
            more = True  # captures
            led &= 0xFFFF
        if led != 0xFFFF:
            put(sc, led, dest)
    if more:
        _compose_paths_and_captures(r, partials)


def _destination(r, i):
    # The LED of move i's destination, plus 0x10000 when the move captures; 0xFFFF when there is none to
    # light (no destination) or it is a zone, lit here.
    cache = r.table.ends
    e = cache[i] if cache is not None else None
    if e is None:
        e = _ends(r, i)
    to = e[1]
    if to < 0:
        return 0xFFFF
    led = r._led_of_place[to]
    if led == 0xFFFF:  # a zone (a Ludo home): its free slots, where the token can go
        _mark_some(r, to, palette.DESTINATION, False, 0xFF)
    return led | 0x10000 if e[3] else led


def _compose_paths_and_captures(r, partials):
    bases = None
    paths = len(partials) <= PATHS_SHOWN
    for i in partials:
        frm, to, path, victims = _ends(r, i)
        if to < 0:
            continue
        if paths:
            if path is None:  # worked out once, kept with the table's other ends of move i
                path = r.adapter.ends(r.game, r._move(i))[2]
                r.table.ends[i] = (frm, to, path, victims)
            for k in range(1, len(path) - 1):
                _mark(r, path[k], palette.JUMP_PATH)
        if victims:
            if bases is None:
                bases = {}
            for v, base in victims:
                # once a piece is off the victim's square, it is the destination again, not "take it off"
                if r.sensed[v] >= r.exp_sat[v]:
                    _mark(r, v, palette.CAPTURE_VICTIM)
                bases[base] = bases.get(base, 0) + 1
    if bases:
        for base in bases:
            # the slots still empty beyond those the base should already fill
            _mark_some(r, base, palette.CAPTURE_BASE, False, bases[base])


def _compose_difference(r):
    paired_u = {}
    paired_m = {}
    for u, m in r.pairs:
        _mark_some(r, u, palette.MOVE_FROM, True, 1)
        _mark_some(r, m, palette.MOVE_TO, False, 1)
        paired_u[u] = paired_u.get(u, 0) + 1
        paired_m[m] = paired_m.get(m, 0) + 1
    for p in r.unexpected:
        if paired_u.get(p, 0):
            paired_u[p] -= 1
        else:
            _mark_some(r, p, palette.UNEXPECTED, True, 1)
    for p in r.missing:
        if paired_m.get(p, 0):
            paired_m[p] -= 1
        else:
            _mark_some(r, p, palette.MISSING, False, 1)


def _areas(r):
    areas = r.adapter.areas()
    if areas is not None:
        return areas
    out = []
    from ludus.ludo.geometry import COLOURS

    for s in range(4):
        p = r.place_names.index(COLOURS[s] + ".base")
        out.append((palette.ludo_colour(s), (p,)))
    return out


def _compose_setup(r):
    if r.choices:
        # each seat of the start shown lights the turn LEDs of its points in its colour
        start = r.choices[r.choice]
        if r.adapter.family == "checkers":
            leds = r.board.turn_leds
            for colour, points in r.adapter.start_seats(start):
                for p in points:
                    if p < len(leds):
                        r.scene.set(leds[p], palette.PLAYER, colour)
            return
        game = r.adapter.position(start)
        for seat in r.adapter.seats_of(game):
            _turn_led_of(r, game, seat, palette.PLAYER, r.adapter.colour(game, seat))
        return
    if r.pairs:  # as many pieces as a start, on the wrong places: the nearest start's moves
        _compose_difference(r)
        return
    # (the tick that takes a whole board set up: each area's ink found once, and put() on the LEDs,
    # which the board definition keeps in range; with scene.set() and the referee's cell count called
    # for each of six players' 60 holes it took 12.6 ms on the emulated RP2040)
    s = r.sensed
    sc = r.scene
    board = r.board
    leds = board.led_of_cell
    channels = board.channel_of_cell
    settled = r.occ.settled
    one_led = r._led_of_place
    missing = ink(sc, palette.MISSING)
    inside = bytearray(r.place_count)
    for colour, places in _areas(r):
        filled = False
        for p in places:
            inside[p] = 1
            if s[p]:
                filled = True
        if not filled:
            continue
        player = ink(sc, palette.PLAYER, colour)
        for p in places:
            led = one_led[p]
            if led != 0xFFFF:  # a hole or square: its one cell's count is the place's
                put(sc, led, player if s[p] else missing)
                continue
            for c in _cells_of(r, p):  # a zone: each slot lit for itself
                put(sc, leds[c], player if settled[channels[c]] else missing)
    for p in range(r.place_count):
        if s[p] and not inside[p]:
            _mark(r, p, palette.UNEXPECTED)


def _compose_over(r):
    game = r.game
    ad = r.adapter
    placements = game.placements()
    for k in range(len(placements)):
        seat = placements[k]
        meaning = palette.WINNER if k == 0 else palette.FINISHED
        colour = ad.colour(game, seat)
        _turn_led_of(r, game, seat, meaning, colour)
        if k == 0:
            for p in _places_of_seat(r, seat):
                _mark(r, p, meaning, colour)


def _places_of_seat(r, seat):
    game = r.game
    if r.adapter.family == "checkers":
        return game.pieces(seat)
    out = []
    for gi in range(seat * 4, seat * 4 + 4):
        p = r.place_names.index(game.token_place(gi))
        if p not in out:
            out.append(p)
    return out

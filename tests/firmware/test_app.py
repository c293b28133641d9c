"""The firmware's loop (ludus.app) on fake hardware: sensors on a fake 74HC165 chain, the button on a
fake pin, the LEDs on a fake strip, the journal on fake NOR flash. A checkers game set up, played, and
cut off in the middle of a journal write; the board starts again from the journal and goes on. Runs on
both runtimes."""

import gc
import json

from ludus.config import defaults
from ludus.hw.button import Button
from ludus.hw.fake import FakeFlash, FakePin, FakeShiftChain, FakeStrip, PowerCut
from ludus.hw.pixels import Pixels
from ludus.hw.shift import ShiftScanner
from ludus.record.journal import Journal

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True

SEED = bytes(range(32))


class Table:
    """The physical board: pieces per cell drive the fake sensor lines; the button; the clock."""

    def __init__(self, board):
        self.board = board
        self.chain = FakeShiftChain((board.channel_count + 7) // 8)
        self.pin = FakePin()
        self.strip = FakeStrip(board.led_count)
        self.now = 0

    def put(self, cell, on):
        self.chain.lines[self.board.channel_of_cell[cell]] = 0 if on else 1  # a magnet pulls it low

    def app(self, flash, out):
        from ludus.app import App

        config = defaults()
        config["game"] = "checkers"
        sensors = ShiftScanner(self.board.channel_count, self.chain.load, spi=self.chain.spi)
        pixels = Pixels(None, self.board.led_count, send=self.strip.send)
        return App(
            config,
            self.board,
            sensors,
            Button(self.pin),
            pixels,
            Journal(flash),
            out=out.append,
            seed=SEED,
        )

    def run(self, app, ms):
        end = self.now + ms
        while self.now < end:
            app.step(self.now)
            self.now += 10


def _board():
    import referee_rig

    return referee_rig.load_board("checkers")


def _events(out, name):
    return [e for e in (json.loads(line) for line in out) if e.get("event") == name]


_CUT = {}  # the flash and the table as the power cut left them, for the second half


def _set_up():
    # a board on fake hardware with the two-player start (the referee's own) put on it
    flash = FakeFlash(3, block_size=1024)  # (first, while the heap is whole)
    table = Table(_board())
    out = []
    app = table.app(flash, out)
    from ludus.games import position

    game = position("checkers/2")
    binding = app.referee.places
    for seat in (0, 1):
        for h in game.pieces(seat):
            table.put(binding.cells(h)[0], True)
    return flash, table, out, app, game, binding


def _play_until_the_cut():
    flash, table, out, app, game, binding = _set_up()
    table.run(app, 600)
    assert _events(out, "new_game"), out
    names = game.place_names
    table.put(binding.cells(names.index("h7"))[0], False)  # lift h7 ...
    table.run(app, 100)
    table.put(binding.cells(names.index("h16"))[0], True)  # ... and put it on h16
    table.run(app, 500)
    assert [e["move"] for e in _events(out, "move")] == ["h7-h16"]
    assert table.strip.frames > 10  # the LEDs were sent, frame by frame
    # the next move, with the power cut in the middle of its journal write
    flash.cut_after = 2  # (the first two bytes of the page written: the record is torn or not begun)
    table.put(binding.cells(names.index("h112"))[0], False)
    table.put(binding.cells(names.index("h104"))[0], True)
    try:
        table.run(app, 500)
        raise AssertionError("the journal write should have been cut")
    except PowerCut:
        pass
    flash.cut_after = None
    _CUT["flash"] = flash  # (the chip itself: it keeps what was written)
    _CUT["lines"] = bytes(table.chain.lines)
    _CUT["now"] = table.now


def test_a_game_on_fake_hardware_is_journalled_until_the_power_cut():
    _play_until_the_cut()


def test_b_after_the_cut_the_board_goes_on_from_the_journal():
    # RAM is lost: only the flash and the pieces on the table remain (a test of its own, so that the
    # first board's heap is gone before the second is built)
    if not _CUT:
        _play_until_the_cut()
        gc.collect()
    flash = _CUT["flash"]
    table = Table(_board())
    table.chain.lines[:] = _CUT["lines"]
    table.now = _CUT["now"]
    out = []
    app = table.app(flash, out)  # the journal holds the first move (the second was torn)
    assert _events(out, "journal")[0]["restored"] == 1
    assert app.referee.record.actions[0] == "h7-h16"
    table.run(app, 600)  # the board read: h112 moved to h104 is seen again, and played
    assert [e["move"] for e in _events(out, "move")] == ["h112-h104"], out
    app = None
    gc.collect()
    assert list(table.app(flash, []).referee.record.actions) == ["h7-h16", "h112-h104"]


def test_c_a_game_s_start_reaches_the_journal_at_the_tick_after_it_begins():
    # the tick that begins a game is the busiest: its start state is taken then, and written to the
    # journal by the next tick (with any action taken meanwhile); a power cut in between keeps the
    # pieces on the board, which show the start again
    flash, table, out, app, _game, _binding = _set_up()
    while not _events(out, "new_game"):
        assert table.now < 2000, out
        table.run(app, 10)
    assert app.start_due is not None and not app.journal.unfinished()
    assert Journal(flash).state() is None  # (as a reboot now would find it)
    table.run(app, 10)
    assert app.start_due is None and app.journal.unfinished()
    state = Journal(flash).state()
    assert state is not None and json.loads(state["record"])["start"] == "checkers/2"


def _lift_h7_to_h16(table, app, game, binding):
    # h7 lifted and put on h16, the steps run up to the one whose referee commits the move: the
    # journal's bytes written and the frames sent before that step are returned
    names = game.place_names
    table.put(binding.cells(names.index("h7"))[0], False)
    table.run(app, 100)
    table.put(binding.cells(names.index("h16"))[0], True)
    written = frames = 0
    while not app.referee.record.actions:
        assert table.now < 5000, "the move was never committed"
        written = app.journal.programmed
        frames = table.strip.frames
        app.step(table.now)
        table.now += 10
    return written, frames


def test_d_a_move_s_tick_shows_it_and_the_next_tick_books_it():
    # the tick that commits a move sends its frame; the journal's write and the events wait for the
    # next tick, so that no tick holds both the referee's commit and the flash's write
    flash, table, out, app, game, binding = _set_up()
    table.run(app, 600)
    assert app.journal.unfinished()
    written, frames = _lift_h7_to_h16(table, app, game, binding)
    assert table.strip.frames == frames + 1  # the move's lights, in its own tick
    assert app.journal.programmed == written and not _events(out, "move")
    assert app.referee.events and app.referee.events[-1]["event"] == "move"
    app.step(table.now)
    assert app.journal.programmed > written
    assert [e["move"] for e in _events(out, "move")] == ["h7-h16"]
    assert not app.referee.events
    app = None
    gc.collect()
    assert list(table.app(flash, []).referee.record.actions) == ["h7-h16"]  # (as a reboot finds it)


def test_e_flush_books_at_once_and_the_next_tick_books_nothing_again():
    # what the device does before a link command: the command sees the journal and the events as
    # the game stands (a `new_game` command ends the journal's game, which must hold every move)
    flash, table, out, app, game, binding = _set_up()
    table.run(app, 600)
    written, _frames = _lift_h7_to_h16(table, app, game, binding)
    app.flush(table.now)
    assert app.journal.programmed > written and len(_events(out, "move")) == 1
    written = app.journal.programmed
    table.run(app, 100)
    assert app.journal.programmed == written and len(_events(out, "move")) == 1


def test_f_a_step_times_its_parts_by_the_clock_it_is_given():
    # the bookkeeping, the referee (the sensors' reading in it), the frame and the reading alone (the
    # device's `stats` report the worst tick's; a late collection leaves the reading out of its room)
    flash, table, out, app, game, binding = _set_up()
    calls = [0]

    def clock():  # 100 us a reading
        calls[0] += 100
        return calls[0]

    app.clock = clock
    table.run(app, 600)  # (the game begins: events, frames)
    assert list(app.parts) == [100, 200, 100, 100]
    app.clock = None
    app.step(table.now)
    assert list(app.parts) == [0, 0, 0, 0]

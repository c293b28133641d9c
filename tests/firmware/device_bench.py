"""A device (ludus.device) on the fake platform, with a script of things done at given times: shared by
tests/firmware/test_device*.py. MicroPython-compatible."""

import gc
import json

from ludus.device import Device
from ludus.hw.fake import FakeFlash, FakePlatform, FakeReset, Finished

SEED = bytes(range(32))


def _paths(*names):
    from support import root

    return {"boards/%s.json" % n: root() + "/hardware/boards/%s.json" % n for n in names}


def _config(**fields):
    c = {"board": "checkers", "game": "checkers"}
    c.update(fields)
    return json.dumps(c)


_KEPT_MODULES = ("ludus", "ludus.device", "ludus.hw", "ludus.hw.fake", "ludus.runtime")


def _forget_modules():
    # what a reset clears of the package (MicroPython only: ludus.runtime.forget does nothing on CPython)
    import sys

    from ludus.runtime import forget

    for name in [n for n in sys.modules if n.startswith("ludus") and n not in _KEPT_MODULES]:
        forget(name)


class Bench:
    """A device on the fake platform, with a script of things done at given times."""

    def __init__(self, config=None, files=None, flash=None, paths=None):
        if files is None:
            files = {"config.json": config if config is not None else _config()}
        if paths is None:
            paths = _paths("checkers")
        self.flash = flash if flash is not None else FakeFlash(2, 1024)
        self.out = []
        self.todo = []  # (time, function), in time order
        self.start = None
        self.platform = FakePlatform(files, paths, flash=self.flash, each_ms=self._each)
        self.booted = False
        self.device = Device(self.platform, out=self._out, seed=SEED)

    def _out(self, line):
        if '"self_test"' in line or '"safe_mode"' in line:
            self.booted = True
        self.keep(line)

    def keep(self, line):
        """Every line the device sends, as it comes (kept in `out`; a test may keep less)."""
        self.out.append(line)

    def at(self, t, fn):
        self.todo.append((t, fn))
        self.todo.sort(key=lambda x: x[0])

    def _each(self, now):
        # times count from the end of boot (the self-test's report, or safe mode)
        if self.start is None:
            if not self.booted:
                return
            self.start = now
        while self.todo and self.todo[0][0] <= now - self.start:
            self.todo.pop(0)[1]()

    def run(self, until):
        self.platform.until = until + 2000  # (boot's self-test takes its time first)
        self.resets = 0
        while True:
            try:
                self.device.run()
            except Finished:
                return
            except FakeReset:  # machine.reset(): the board starts again from its files and flash
                self.resets += 1
                # a reset frees the whole heap: the old device and its drivers go, and the modules it
                # imported (on the unix port some 75 KB of a Ludo board's classes and tables: kept,
                # they left the boot after the reset short of heap, depending on the heap's layout).
                # The bench's own stay: the platform lives on, as the board's flash and files do.
                p = self.platform
                self.device = p.board = p.chain = p.strip = p.bank = None
                _forget_modules()
                gc.collect()
                self.device = Device(self.platform, out=self._out, seed=SEED)

    def events(self, name=None, key="event"):
        found = []
        for line in self.out:
            e = json.loads(line)
            if key in e and (name is None or e[key] == name):
                found.append(e)
        return found

    def send(self, cmd):
        self.platform.serial.feed((json.dumps(cmd) + "\n").encode())

    def setup_checkers(self):
        # the two-player start on the board, read at the first tick
        from ludus.games import position

        game = position("checkers/2")
        binding = self.device.app.referee.places
        for seat in (0, 1):
            for h in game.pieces(seat):
                self.platform.put(binding.cells(h)[0], 1)
        self.names = game.place_names
        self.binding = binding

    def cell(self, name):
        return self.binding.cells(self.names.index(name))[0]

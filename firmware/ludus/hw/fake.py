"""Fakes of the hardware the drivers take, with the same small interfaces, for CPython, the unix port and
the simulator: a pin (value()), driven by a test or a script."""


class FakePin:
    """A pin-like object: value() reads it, value(v) sets it (as a test or a script drives the line).
    Starts at `level` (1: a pulled-up input with nothing pressing it)."""

    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0
        return None

"""Occupancy that settles at once: its settled levels follow the sensor levels on every tick, with no
debounce and no settle time. For benchmarks (one call, one settled change), tests and scripted play;
a board reads its sensors through ludus.sensing.occupancy.Occupancy."""


class InstantOccupancy:
    """The interface of Occupancy (analog, settled, reset, update) without its filtering."""

    def __init__(self, channel_count, analog=False):
        self.analog = analog
        self.settled = bytearray(channel_count)

    def reset(self, levels, now_ms):
        self.settled[:] = levels

    def update(self, levels, now_ms):
        """Take the levels as settled; True if they differ from the last ones."""
        if levels == self.settled:
            return False
        self.settled[:] = levels
        return True

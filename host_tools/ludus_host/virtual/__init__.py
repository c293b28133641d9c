"""The virtual board: simulated sensors, button and LEDs around the real referee, play scripts and
the runner that plays them, and the tape of a run."""

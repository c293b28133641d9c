"""Entry point on the Pico. The main loop that wires drivers, referee and journal arrives with the
firmware issue; until then this reports the firmware version so a flashed board shows it is alive."""

import ludus

print("Ludus firmware", ludus.__version__, "for MicroPython", ludus.MICROPYTHON_VERSION)

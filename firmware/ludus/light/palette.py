"""The one table of what the board's lights mean: a colour, a blink pattern and a priority per meaning,
chosen so that no two meanings shown together differ only in hue (usable by colour-blind players).

A *meaning* is a small int (``DESTINATION``, ``MISSING``...). Its entries in the ``MEANING_*`` tables give:

- ``colour``: a colour id (``WHITE``, ``RED``...) or ``PLAYER_COLOUR`` when the caller supplies the colour
  of a player (``ludo_colour(seat)``, ``checkers_colour(point)``);
- ``pattern``: how the light changes with time (``SOLID``, ``SLOW_BLINK``...), see ``pattern_level``;
- ``priority``: when two meanings fall on one LED the higher one is shown;
- ``domains``: where it can appear (``ON_CELL`` beside a hole or square, ``ON_DIE`` on the die display);
- ``phases``: when the referee uses it (``SETUP``, ``PLAY``, ``OVER``).

The names of meanings, patterns and colours and what each meaning tells the player are host-side only
(``ludus_host.virtual.colours``, which also writes the docs table): the board never shows text.

Patterns group meanings by what the player must do: SOLID "you may go here", SLOW_BLINK "put a piece
here", FAST_BLINK "take this piece away", DOUBLE_FLASH "look here / press the button", RELAY_FROM then
RELAY_TO "move the piece from here to there", PULSE "whose turn", WINK "finished". Inside a group
meanings differ in luminance (bright white against dark red or blue), never in hue alone. docs/lights.md
holds the same table; tests/host/test_lights.py checks that they agree.
"""

from ludus.runtime import const

# ---- Patterns: brightness over time, 0..255, from now_ms with integer maths ----------------------------

SOLID = const(0)
SLOW_BLINK = const(1)  # 1 Hz, half on
FAST_BLINK = const(2)  # 2.5 Hz, half on (below the 3 flashes/s photosensitivity guideline)
DOUBLE_FLASH = const(3)  # two 120 ms flashes every 1.2 s
PULSE = const(4)  # breathing, 2 s, never fully dark
WINK = const(5)  # on, dark for 200 ms every 1.2 s
RELAY_FROM = const(6)  # lit in the first half of a 1.2 s cycle...
RELAY_TO = const(7)  # ...and this one in the second half: the light hops from -> to
PATTERN_COUNT = const(8)

# Cycle length of each pattern in ms (SOLID has none): a test samples every phase from these.
PATTERN_PERIOD_MS = (0, 1000, 400, 1200, 2000, 1200, 1200, 1200)


def pattern_level(pattern, now_ms):
    """Brightness 0..255 of a pattern at time now_ms (any non-negative int, e.g. time.ticks_ms())."""
    if pattern == SOLID:
        return 255
    if pattern == SLOW_BLINK:
        return 255 if now_ms % 1000 < 500 else 0
    if pattern == FAST_BLINK:
        return 255 if now_ms % 400 < 200 else 0
    if pattern == PULSE:
        p = now_ms % 2000
        if p >= 1000:
            p = 2000 - p
        return 26 + p * 229 // 1000
    p = now_ms % 1200
    if pattern == DOUBLE_FLASH:
        return 255 if p < 120 or 240 <= p < 360 else 0
    if pattern == WINK:
        return 255 if p < 1000 else 0
    if pattern == RELAY_FROM:
        return 255 if p < 500 else 0
    if pattern == RELAY_TO:
        return 255 if 600 <= p < 1100 else 0
    return 0


# ---- Colours: linear drive values (r, g, b) at full brightness ----------------------------------------

PLAYER_COLOUR = const(0)  # in a meaning's row: "the caller gives the player's colour"
WHITE = const(1)
RED = const(2)
GREEN = const(3)
YELLOW = const(4)
BLUE = const(5)
PURPLE = const(6)
COLOUR_COUNT = const(7)
# what each colour id is called: a seat's name until its player gives one (ludus.record.players)
COLOUR_NAMES = ("player", "white", "red", "green", "yellow", "blue", "purple")

# Bytes r, g, b per colour id. Blue and purple carry some green so they stay visible next to white;
# yellow is a warm yellow so it does not read as white.
COLOUR_RGB = bytes(
    (
        0, 0, 0,  # PLAYER_COLOUR: never rendered as such
        255, 255, 255,  # WHITE
        255, 0, 0,  # RED
        0, 255, 0,  # GREEN
        255, 170, 0,  # YELLOW
        0, 40, 255,  # BLUE
        150, 0, 255,  # PURPLE
    )
)  # fmt: skip

# Ludo seats in the order of docs/architecture.md (green, yellow, red, blue).
LUDO_SEAT_COLOURS = (GREEN, YELLOW, RED, BLUE)
# Chinese Checkers points 0..5 clockwise from the top. Opposite points (two-player games) differ
# strongly in luminance: red/yellow, purple/green, blue/white.
CHECKERS_POINT_COLOURS = (RED, PURPLE, BLUE, YELLOW, GREEN, WHITE)


def ludo_colour(seat):
    """The colour id of a Ludo seat (0 green, 1 yellow, 2 red, 3 blue)."""
    return LUDO_SEAT_COLOURS[seat]


def checkers_colour(point):
    """The colour id of a Chinese Checkers point (0 top, clockwise)."""
    return CHECKERS_POINT_COLOURS[point]


def rgb(colour):
    """(r, g, b) of a colour id."""
    i = 3 * colour
    return COLOUR_RGB[i], COLOUR_RGB[i + 1], COLOUR_RGB[i + 2]


# ---- Meanings ---------------------------------------------------------------------------------------

ON_CELL = const(1)  # an LED beside a hole or square
ON_DIE = const(2)  # an LED of the die display

SETUP = const(1)  # before the first move: placing pieces, choosing who plays
PLAY = const(2)  # during a game
OVER = const(4)  # after the game: placements shown

NONE = const(0)
PLAYER = const(1)
TURN = const(2)
FINISHED = const(3)
WINNER = const(4)
DESTINATION = const(5)
JUMP_PATH = const(6)
CAPTURE_VICTIM = const(7)
CAPTURE_BASE = const(8)
MISSING = const(9)
UNEXPECTED = const(10)
MOVE_FROM = const(11)
MOVE_TO = const(12)
ILLEGAL = const(13)
WAY_BACK = const(14)
CONFIRM = const(15)
DIE_PIP = const(16)
WAITING_ROLL = const(17)
MEANING_COUNT = const(18)

_ALL = const(SETUP | PLAY | OVER)

# colour, pattern, priority, domains, phases of each meaning; names and what each tells the player are in
# ludus_host.virtual.colours (host side: docs/lights.md and the simulator's output).
_ROWS = (
    (PLAYER_COLOUR, SOLID, 0, ON_CELL | ON_DIE, _ALL),  # none
    (PLAYER_COLOUR, SOLID, 10, ON_CELL | ON_DIE, SETUP),  # player
    (PLAYER_COLOUR, PULSE, 15, ON_CELL | ON_DIE, PLAY),  # turn
    (PLAYER_COLOUR, WINK, 20, ON_CELL, PLAY | OVER),  # finished
    (PLAYER_COLOUR, PULSE, 25, ON_CELL | ON_DIE, OVER),  # winner
    (WHITE, SOLID, 40, ON_CELL, PLAY),  # destination
    (BLUE, SOLID, 35, ON_CELL, PLAY),  # jump path
    (RED, DOUBLE_FLASH, 80, ON_CELL, PLAY),  # capture victim
    (RED, SLOW_BLINK, 50, ON_CELL, PLAY),  # capture base
    (WHITE, SLOW_BLINK, 60, ON_CELL, _ALL),  # missing
    (WHITE, FAST_BLINK, 75, ON_CELL, _ALL),  # unexpected
    (YELLOW, RELAY_FROM, 70, ON_CELL, _ALL),  # move from
    (YELLOW, RELAY_TO, 55, ON_CELL, _ALL),  # move to
    (RED, FAST_BLINK, 90, ON_CELL, PLAY),  # illegal
    (BLUE, RELAY_TO, 45, ON_CELL, PLAY),  # way back
    (WHITE, DOUBLE_FLASH, 65, ON_CELL | ON_DIE, PLAY),  # confirm
    (WHITE, SOLID, 30, ON_DIE, PLAY),  # die pip
    (WHITE, WINK, 30, ON_DIE, PLAY),  # waiting roll
)

# One bytes per column, indexed by meaning (the renderer's inner loop reads these).
MEANING_COLOUR = bytes(row[0] for row in _ROWS)
MEANING_PATTERN = bytes(row[1] for row in _ROWS)
MEANING_PRIORITY = bytes(row[2] for row in _ROWS)
MEANING_DOMAINS = bytes(row[3] for row in _ROWS)
MEANING_PHASES = bytes(row[4] for row in _ROWS)
del _ROWS


def is_player_coloured(meaning):
    """True when the meaning takes its colour from a player."""
    return MEANING_COLOUR[meaning] == PLAYER_COLOUR

"""The referee's phases, situations and button events, shared by its modules."""

from ludus.runtime import const

# Button events passed to Referee.tick().
NO_PRESS = const(0)
SHORT_PRESS = const(1)
LONG_PRESS = const(2)

# Phases.
SETUP = const(0)  # waiting for the pieces of a start position
PLAY = const(1)
OVER = const(2)  # placements shown; the pieces put back to a start begin a new game
PHASE_NAMES = ("setup", "play", "over")

# What the board shows during play (Referee.situation).
S_IDLE = const(0)  # the board matches the game
S_MOVING = const(1)  # a move is part done (a piece lifted, a victim taken off...)
S_PENDING = const(2)  # a move is done but may go on (jump chain) or may be the start of another
S_CONFIRM = const(3)  # two legal moves look the same: press to confirm the one shown, long press: next
S_MISMATCH = const(4)  # the board differs from the game: put it right
S_ILLEGAL = const(5)  # the mover's piece stands where it may not: take it back
S_UNDO = const(6)  # a move was taken back: put the pieces back as shown
S_CHAIN = const(7)  # a jumping piece touched down where the chain may not end: jump on
SITUATION_NAMES = ("idle", "moving", "pending", "confirm", "mismatch", "illegal", "undo", "chain")

CUE_MS = const(600)  # how long the turn LED flashes "illegal" when a press is refused
# how long a token counted out square by square may rest on a square of its way before the board judges
# it there (an error, or the commit of the roll that ends there)
HOLD_MS = const(2000)

PASS_TEXT = "pass"  # the move text of a Chinese Checkers pass

# Referee.table while the position's move table is due to be made (ludus.referee.judge.table_of)
TABLE_DUE = object()

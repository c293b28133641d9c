"""Bots away from the board: the arena that plays them against each other, its figures, the Chinese
Checkers opening book, and the LUDOpy cross-check."""

"""Shorthands shared by the Ludo rule tests: a position from notation, its legal moves as text, playing
a move by its text, and one field of the notation."""

from ludus.ludo.game import from_notation


def game(text):
    return from_notation("ludo " + text)


def moves(g):
    return sorted(str(m) for m in g.legal_moves())


def play(g, text):
    g.push(g.parse_move(text))
    return g


def field(g, key):
    for w in g.notation().split():
        if w.startswith(key + "="):
            return w[len(key) + 1 :]
    return None

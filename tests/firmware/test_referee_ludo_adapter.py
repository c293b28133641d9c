"""The referee's Ludo adapter: a move's place changes are the game's net changes plus the squares it
touches (captures, landings, stars and arrows), and the presets it reads."""

import ludus.ludo.game as ludo
from ludus.bots.selfplay import SeededDie
from ludus.games import position
from ludus.referee.ludo import LudoAdapter


def test_adapter_lists_capture_squares_as_touched():
    game = ludo.from_notation("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,base,base,base")
    ad = LudoAdapter("classic")
    (move,) = game.legal_moves()
    changes = sorted(ad.changes(game, move))
    names = game.place_names
    assert [(names[p], d) for p, d in changes] == sorted(
        [("t5", -1), ("t9", 0), ("red.base", 1)], key=lambda x: names.index(x[0])
    ), changes
    frm, to, path, victims = ad.ends(game, move)
    assert (
        names[frm] == "t5"
        and names[to] == "t9"
        and [(names[v], names[b]) for v, b in victims] == [("t9", "red.base")]
    )


def test_adapter_changes_are_the_games_net_changes_plus_the_touched_squares():
    # LudoAdapter.changes works the net changes out from the move's fields (no dict): they must be
    # game.move_changes(move), in its order, then the landing and star/arrow squares with delta 0 where
    # not listed, and the capture squares with delta 0 even where listed
    checked = 0
    for rules in ("classic", "master", "danish", "arrow", "teamup"):
        ad = LudoAdapter(rules)
        game = position("ludo/%s/4" % rules)
        die = SeededDie(7)
        for _ in range(300):
            if game.is_over():
                break
            if game.awaiting_roll():
                game.apply_roll(die.roll())
                continue
            moves = game.legal_moves()
            for m in moves:
                want = list(game.move_changes(m))
                touched = []
                if m.kind < 3 and (m.caps or m.via >= 0):
                    row = game.geo.place_of[m.gi >> 2]
                    touched = [row[m.to + 1]] + ([row[m.via + 1]] if m.via >= 0 else [])
                for p in touched:
                    if p not in [q for q, _ in want]:
                        want.append((p, 0))
                # a capture square is listed as touched even beside its net change (MIXED)
                for c in m.caps if m.kind < 3 else ():
                    p = game.geo.place_of[c >> 2][game.pos[c] + 1]
                    if (p, 0) not in want:
                        want.append((p, 0))
                assert list(ad.changes(game, m)) == want, (rules, str(m))
                checked += 1
            game.push(moves[die.below(len(moves))])
    assert checked > 500


def test_adapter_presets():
    from ludus.referee.presets import split_preset

    assert split_preset("ludo/classic/4") == ("ludo", "classic")
    assert split_preset("ludo/teamup+arrow") == ("ludo", "teamup+arrow")
    assert split_preset("checkers/2") == ("checkers", "")
    from ludus.errors import ConfigError
    from support import raises

    assert "unknown game preset" in str(raises(ConfigError, split_preset, "chess/2"))

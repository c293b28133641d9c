"""Blitz's capture-before-home in positions, and Team Up combined with Blitz (docs/ludo.md, rules 7 and 8).
Runs on both runtimes."""

import ludus.ludo.game as ludo
import support
from ludus.errors import NotationError


def test_blitz_refuses_a_token_past_its_turn_off_before_a_capture():
    text = "ludo blitz seats=gr turn=g rolls=1 g=c4,t0,base,base r=t26,t26,base,base"
    msg = support.message_of(support.raises(NotationError, ludo.from_notation, text))
    assert "green.0" in msg and "captured" in msg, msg
    # once green has captured, the same token may go home
    game = ludo.from_notation(text.replace("rolls=1", "rolls=1 captured=g"))
    assert "1 green.0 c4-home" in [str(m) for m in game.legal_moves()]


def test_blitz_a_token_without_a_capture_goes_round_not_home():
    game = ludo.from_notation("ludo blitz seats=gr turn=g rolls=3 g=t49,t0,base,base r=t26,base,base,base")
    moves = [str(m) for m in game.legal_moves()]
    assert "3 green.0 t49-t0 lap" in moves, moves


def _finish(game, text):
    game.push(game.parse_move(text))


def test_teamup_blitz_ends_when_each_partner_has_one_token_home():
    # green (partner red) brings its first token home: green has finished and plays red's tokens;
    # the pair wins when red's first token is home too, with six of its eight tokens still out
    game = ludo.from_notation(
        "ludo teamup+blitz seats=gyrb turn=g rolls=2 captured=gr g=c3,t5,base,base y=t14,t15,base,base"
        " r=c4,t30,base,base b=t40,t41,base,base"
    )
    _finish(game, "2 green.0 c3-home")
    assert not game.is_over()
    assert game.turn == 0 and game.mover() == 2  # a token home earns a roll, played with red's tokens
    game.apply_roll(1)
    assert "1 green.1 t5-t6" not in [str(m) for m in game.legal_moves()]
    _finish(game, "1 red.0 c4-home")
    assert game.is_over()
    assert sorted(game.placements()[:2]) == [0, 2], game.placements()

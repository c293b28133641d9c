"""Ludo movement rules, one scenario per rule, written from the rule text: a position and its waiting
rolls -> the exact set of legal moves, and the position after playing one. Board facts used below
(docs/ludo.md): green starts on t0, yellow t13, red t26, blue t39; green turns into its column from t50;
classic stars (safe) and Danish neutral globes are t8, t21, t34, t47; Danish stars are t4, t11, t17,
t24, t30, t37, t43, t50."""

from ludo_helpers import field, game, moves, play
from ludus.errors import IllegalMoveError, NotationError
from ludus.ludo import from_notation
from support import message_of, raises


def tokens(g):
    """The token part of the notation (from the first colour key on)."""
    words = g.notation().split()
    return " ".join(w for w in words if w[:2] in ("g=", "y=", "r=", "b="))


# --- entering ---------------------------------------------------------------------------------------


def test_entry_needs_a_six_in_classic():
    g = game("classic seats=gr turn=g rolls=5,6 owe=0 g=base,base,base,base r=base,base,base,base")
    assert moves(g) == ["6 green.0 base-t0"]  # the 5 cannot bring a token out


def test_entry_with_five_or_six_when_the_rule_set_says_so():
    g = game("classic:entry=5.6 seats=gr turn=g rolls=5 g=base,base,base,base r=base,base,base,base")
    assert moves(g) == ["5 green.0 base-t0"]


def test_capture_on_a_start_square_hebrew():
    # 000: the exit square is part of the shared track; arriving on an opponent's token eats it
    g = game("hebrew-40 seats=gr turn=g rolls=6 g=base,base,base,base r=t0,base,base,base")
    assert moves(g) == ["6 green.0 base-t0 x red.0"]
    play(g, "6 green.0 base-t0")
    assert tokens(g) == "g=t0,base,base,base r=base,base,base,base"


def test_capture_on_a_start_square_by_moving_hebrew():
    g = game("hebrew-56 seats=gr turn=g rolls=4 g=t24,base,base,base r=t28,base,base,base")
    assert moves(g) == ["4 green.0 t24-t28 x red.0"]  # t28 is red's start square on the 56 track


def test_start_square_is_safe_in_classic():
    g = game("classic seats=gr turn=g rolls=4 g=t22,base,base,base r=t26,base,base,base")
    assert moves(g) == ["4 green.0 t22-t26"]  # shares red's start, captures nothing
    play(g, "4 green.0 t22-t26")
    assert tokens(g) == "g=t26,base,base,base r=t26,base,base,base"


# --- captures and sharing -----------------------------------------------------------------------------


def test_classic_captures_every_opponent_token_on_an_ordinary_square():
    g = game("classic seats=gyr turn=g rolls=3 g=t2,base,base,base y=t5,base,base,base r=t5,t5,base,base")
    assert moves(g) == ["3 green.0 t2-t5 x yellow.0,red.0,red.1"]
    play(g, "3 green.0 t2-t5")
    assert tokens(g) == "g=t5,base,base,base y=base,base,base,base r=base,base,base,base"
    assert g.awaiting_roll() and g.turn == 0  # a capture earns another roll


def test_classic_safe_star_cannot_be_captured_on():
    g = game("classic seats=gr turn=g rolls=3 g=t5,base,base,base r=t8,base,base,base")
    assert moves(g) == ["3 green.0 t5-t8"]
    play(g, "3 green.0 t5-t8")
    assert tokens(g) == "g=t8,base,base,base r=t8,base,base,base"
    assert g.turn == 2  # no capture, no extra roll


def test_passing_over_an_opponent_does_nothing():
    g = game("classic seats=gr turn=g rolls=5 g=t2,base,base,base r=t4,base,base,base")
    assert moves(g) == ["5 green.0 t2-t7"]


def test_two_tokens_share_a_square_in_classic_and_are_offered_once():
    # tokens on one square are interchangeable: one move for the pair; a third token lands on them too
    g = game("classic seats=gr turn=g rolls=4 g=t5,t5,t1,base r=base,base,base,base")
    assert moves(g) == ["4 green.0 t5-t9", "4 green.2 t1-t5"]
    play(g, "4 green.2 t1-t5")
    assert tokens(g) == "g=t5,t5,t5,base r=base,base,base,base"


def test_a_named_token_on_a_shared_square_is_accepted():
    g = game("classic seats=gr turn=g rolls=4 g=t5,t5,t1,base r=base,base,base,base")
    assert str(g.parse_move("4 green.1 t5-t9")) == "4 green.0 t5-t9"


def test_danish_pair_cannot_be_captured_mover_goes_home():
    g = game("danish seats=gr turn=g rolls=3 g=t2,t3,base,base r=t5,t5,base,base")
    assert moves(g) == ["3 green.0 t2-base via t5", "3 green.1 t3-t6"]
    play(g, "3 green.0 t2-base via t5")
    assert tokens(g) == "g=base,t3,base,base r=t5,t5,base,base"


def test_danish_pair_with_landing_forbidden():
    g = game(
        "custom:base=danish,blocked_landing=forbid seats=gr turn=g rolls=3"
        " g=t2,t3,base,base r=t5,t5,base,base"
    )
    assert moves(g) == ["3 green.1 t3-t6"]
    err = raises(IllegalMoveError, g.parse_move, "3 green.0 t2-t5")
    assert "protected" in message_of(err)


def test_danish_single_opponent_is_captured():
    g = game("danish seats=gr turn=g rolls=3 g=t2,base,base,base r=t5,base,base,base")
    assert moves(g) == ["3 green.0 t2-t5 x red.0"]
    play(g, "3 green.0 t2-t5")
    assert g.turn == 2  # Danish: no extra roll for a capture


def test_one_token_per_square_hebrew_own_token_blocks():
    g = game("hebrew-40 seats=gr turn=g rolls=3 g=t2,t5,base,base r=base,base,base,base")
    assert moves(g) == ["3 green.1 t5-t8"]
    err = raises(IllegalMoveError, g.parse_move, "3 green.0 t2-t5")
    assert "one token per square" in message_of(err)


def test_hebrew_two_tokens_only_in_base_or_goal():
    # two or more tokens on one place: only base (and home on the 56 board) hold more than one
    g = game("hebrew-56 seats=gr turn=g rolls=6 g=home,home,t0,base r=base,base,base,base")
    assert moves(g) == ["6 green.2 t0-t6"]  # the start square is taken by green's own token


# --- compulsory capture -----------------------------------------------------------------------------


def test_compulsory_capture_danish():
    g = game("danish seats=gr turn=g rolls=3 g=t2,t20,base,base r=t23,base,base,base")
    assert moves(g) == ["3 green.1 t20-t23 x red.0"]
    err = raises(IllegalMoveError, g.parse_move, "3 green.0 t2-t5")
    assert "compulsory capture" in message_of(err)


def test_compulsory_capture_with_an_extra_lap():
    # green on t48: a 5 would turn into its column (c2), but red on t1 can be captured by going on past
    # green's own entry, so the capture is compulsory and costs green another lap
    g = game("danish seats=gr turn=g rolls=5 g=t48,t20,base,base r=t1,base,base,base")
    assert moves(g) == ["5 green.0 t48-t1 lap x red.0"]
    play(g, "5 green.0 t48-t1 lap x red.0")
    assert tokens(g) == "g=t1,t20,base,base r=base,base,base,base"
    # now t1 is one step from green's start again: 49 more squares to its entry


def test_extra_lap_is_offered_only_to_capture():
    g = game("danish seats=gr turn=g rolls=5 g=t48,base,base,base r=t30,base,base,base")
    assert moves(g) == ["5 green.0 t48-c2"]
    err = raises(IllegalMoveError, g.parse_move, "5 green.0 t48-t1")
    assert "extra lap" in message_of(err)


# --- globes and stars (Danish) --------------------------------------------------------------------------


def test_globe_capture_by_bringing_a_token_out():
    g = game("danish seats=gr turn=g rolls=6 g=t5,base,base,base r=t0,base,base,base")
    # the six could move t5 -> t11 (a star: on to t17) or bring a token out onto green's globe t0,
    # capturing red there; capturing is compulsory, so only the entry is legal
    assert moves(g) == ["6 green.1 base-t0 x red.0"]
    play(g, "6 green.1 base-t0")
    assert tokens(g) == "g=t5,t0,base,base r=base,base,base,base"


def test_two_tokens_on_an_opponents_globe_are_safe():
    g = game("danish seats=gr turn=g rolls=6 g=base,base,base,base r=t0,t0,base,base")
    assert moves(g) == ["6 green.0 base-t0"]
    play(g, "6 green.0 base-t0")
    assert tokens(g) == "g=t0,base,base,base r=t0,t0,base,base"


def test_globe_is_safe_and_the_mover_goes_home():
    g = game("danish seats=gr turn=g rolls=3 g=t5,t1,base,base r=t8,base,base,base")
    # t8 is a neutral globe: red is safe there; landing on it sends green home (t1 + 3 = t4 is a star)
    assert moves(g) == ["3 green.0 t5-base via t8", "3 green.1 t1-t11 via t4"]


def test_star_chain_with_capture():
    # t4 is a star: green jumps on to the next star, t11, capturing red there; the blue token standing
    # on the first star is untouched
    g = game("danish seats=grb turn=g rolls=3 g=t1,base,base,base r=t11,base,base,base b=t4,base,base,base")
    assert moves(g) == ["3 green.0 t1-t11 via t4 x red.0"]
    play(g, "3 green.0 t1-t11 via t4 x red.0")
    assert tokens(g) == "g=t11,base,base,base r=base,base,base,base b=t4,base,base,base"


def test_star_on_the_own_entry_goes_home():
    g = game("danish seats=gr turn=g rolls=3 g=t47,t30,base,base r=base,base,base,base")
    assert moves(g) == ["3 green.0 t47-home via t50", "3 green.1 t30-t33"]


def test_star_jumps_once():
    g = game("danish seats=gr turn=g rolls=2 g=t41,base,base,base r=base,base,base,base")
    assert moves(g) == ["2 green.0 t41-t50 via t43"]  # t43 -> t50 (a star itself, but no second jump)


# --- arrows -----------------------------------------------------------------------------------------------


def test_arrow_jumps_to_the_next_arrow_and_captures_there():
    g = game("arrow seats=gr turn=g rolls=3 g=t5,base,base,base r=t21,base,base,base")
    assert moves(g) == ["3 green.0 t5-t21 via t8 x red.0"]
    play(g, "3 green.0 t5-t21 via t8 x red.0")
    assert g.awaiting_roll() and g.turn == 0  # the capture earns the roll, not the arrow


def test_arrow_gives_no_extra_roll():
    g = game("arrow seats=gr turn=g rolls=3 g=t5,base,base,base r=base,base,base,base")
    play(g, "3 green.0 t5-t21 via t8")
    assert g.turn == 2


def test_arrow_square_is_not_safe():
    g = game("arrow seats=gr turn=g rolls=3 g=t18,base,base,base r=t21,base,base,base")
    # landing on the arrow t21 passes on to t34: red on t21 is jumped from, not captured
    assert moves(g) == ["3 green.0 t18-t34 via t21"]
    # and a token standing on an arrow it jumped to is captured there (arrows are not safe)
    g = game("arrow seats=gr turn=g rolls=3 g=t18,base,base,base r=t34,base,base,base")
    assert moves(g) == ["3 green.0 t18-t34 via t21 x red.0"]


def test_arrow_start_squares_stay_safe():
    g = game("arrow seats=gr turn=g rolls=4 g=t22,base,base,base r=t26,base,base,base")
    assert moves(g) == ["4 green.0 t22-t26"]


# --- walls (Master) -------------------------------------------------------------------------------------


def test_wall_blocks_passing_and_landing():
    g = game("master seats=gr turn=g rolls=4 g=t2,t4,base,base r=t5,t5,base,base")
    # red's wall on t5: neither t2 -> t6 nor t4 -> t8 may pass it
    assert moves(g) == []
    assert g.turn == 2  # the 4 had no legal move: discarded, turn passed


def test_wall_moves_as_one_unit_and_captures_a_wall():
    g = game("master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t5,t5,base,base")
    assert moves(g) == ["3 green.0+green.1 t2-t5 x red.0,red.1"]
    play(g, "3 green.0+green.1 t2-t5")
    assert tokens(g) == "g=t5,t5,base,base r=base,base,base,base"


def test_wall_unit_and_single_moves_both_offered():
    g = game("master seats=gr turn=g rolls=3 g=t2,t2,base,base r=t9,base,base,base")
    assert moves(g) == ["3 green.0 t2-t5", "3 green.0+green.1 t2-t5"]
    play(g, "3 green.0+green.1 t2-t5")
    assert tokens(g) == "g=t5,t5,base,base r=t9,base,base,base"


def test_single_token_cannot_land_on_a_wall():
    g = game("master seats=gr turn=g rolls=3 g=t2,t20,base,base r=t5,t5,base,base")
    assert moves(g) == ["3 green.1 t20-t23"]
    err = raises(IllegalMoveError, g.parse_move, "3 green.0 t2-t5")
    assert "wall" in message_of(err)


def test_own_wall_does_not_block_its_owner():
    g = game("master seats=gr turn=g rolls=4 g=t2,t4,t4,base r=base,base,base,base")
    assert moves(g) == ["4 green.0 t2-t6", "4 green.1 t4-t8", "4 green.1+green.2 t4-t8"]


# --- home column ---------------------------------------------------------------------------------------


def test_turning_into_the_column_and_exact_home():
    g = game("classic seats=gr turn=g rolls=4 g=t49,c3,base,base r=base,base,base,base")
    # t49 + 4: t50, then c0 c1 c2; c3 + 4 overshoots home (two steps away) and is not offered
    assert moves(g) == ["4 green.0 t49-c2"]
    g = game("classic seats=gr turn=g rolls=2 g=t49,c3,base,base r=base,base,base,base")
    assert moves(g) == ["2 green.0 t49-c0", "2 green.1 c3-home"]
    play(g, "2 green.1 c3-home")
    assert g.awaiting_roll() and g.turn == 0  # reaching home earns another roll


def test_bounce_back_from_home():
    g = game("classic:exact_home=0 seats=gr turn=g rolls=5 g=c3,base,base,base r=base,base,base,base")
    assert moves(g) == ["5 green.0 c3-c2"]  # two steps to home (c4, home), then three back
    g = game("classic seats=gr turn=g rolls=5 g=c3,t9,base,base r=base,base,base,base")
    assert moves(g) == ["5 green.1 t9-t14"]
    err = raises(IllegalMoveError, g.parse_move, "5 green.0 c3-c2")
    assert "exact" in message_of(err)


def test_forty_track_corridor_slots_are_the_goal():
    g = game("hebrew-40 seats=gr turn=g rolls=3 g=t38,c2,base,base r=base,base,base,base")
    # t38 + 3: t39, then c0, c1; slots hold one token each; tokens in the corridor are home
    assert moves(g) == ["3 green.0 t38-c1"]
    g = game("hebrew-40 seats=gr turn=g rolls=4 g=t38,c2,base,base r=base,base,base,base")
    assert moves(g) == []  # c2 is taken


def test_fifty_six_track_has_six_column_squares_and_a_goal():
    g = game("hebrew-56 seats=gr turn=g rolls=6 g=t55,c0,home,home r=base,base,base,base")
    assert moves(g) == ["6 green.0 t55-c5", "6 green.1 c0-home"]


# --- Blitz ---------------------------------------------------------------------------------------------


def test_blitz_capture_before_home():
    # 002 l.92: no token may enter home before its player has captured once. Until then a token that
    # reaches its turn-off square goes on round the track (t49 + 3: t50, t51, t0) instead of waiting
    # there, so a game in which nobody captures cannot stall.
    g = game("blitz seats=gr turn=g rolls=3 g=t49,t0,t0,base r=t20,t26,base,base")
    assert moves(g) == ["3 green.0 t49-t0 lap", "3 green.1 t0-t3"]
    err = raises(IllegalMoveError, g.parse_move, "3 green.0 t49-c1")
    assert "capture before home" in message_of(err)
    play(g, "3 green.0 t49-t0 lap")
    assert tokens(g) == "g=t0,t0,t0,base r=t20,t26,base,base"
    g = game("blitz seats=gr turn=g rolls=3 captured=g g=t49,t0,t0,base r=t20,t26,base,base")
    assert moves(g) == ["3 green.0 t49-c1", "3 green.1 t0-t3"]


def test_blitz_first_capture_opens_the_column():
    g = game("blitz seats=gr turn=g rolls=4 g=t44,t0,t0,base r=t48,t26,base,base")
    assert moves(g) == ["4 green.0 t44-t48 x red.0", "4 green.1 t0-t4"]
    play(g, "4 green.0 t44-t48 x red.0")
    assert field(g, "captured") == "g" and g.awaiting_roll() and g.turn == 0  # and a roll for it
    g.apply_roll(5)
    assert moves(g) == ["5 green.0 t48-c2", "5 green.1 t0-t5"]  # t48 + 5 turns into the column now


def test_blitz_first_token_home_wins():
    g = game("blitz seats=gr turn=g rolls=2 captured=g g=c3,t0,t0,base r=t20,t26,base,base")
    play(g, "2 green.0 c3-home")
    assert g.is_over() and g.placements() == [0]


# --- Team Up ------------------------------------------------------------------------------------------


def test_team_up_no_friendly_capture():
    # red is green's partner: green lands beside it; yellow is an opponent and is captured
    g = game(
        "teamup seats=gyrb turn=g rolls=3"
        " g=t2,t10,base,base y=t13,base,base,base r=t5,base,base,base b=base,base,base,base"
    )
    assert moves(g) == ["3 green.0 t2-t5", "3 green.1 t10-t13"]  # t13 is yellow's (safe) start
    play(g, "3 green.0 t2-t5")
    assert tokens(g).startswith("g=t5,t10,base,base y=t13,base,base,base r=t5,base,base,base")


def test_team_up_finished_player_moves_its_partners_tokens():
    g = game(
        "teamup seats=gyrb turn=g rolls=3"
        " g=home,home,home,home y=base,base,base,base r=t5,base,base,base b=base,base,base,base"
    )
    assert moves(g) == ["3 red.0 t5-t8"]


def test_team_up_pair_wins_with_all_eight_home():
    g = game(
        "teamup seats=gyrb turn=g rolls=2"
        " g=home,home,home,home y=base,base,base,base r=home,home,home,c3 b=base,base,base,base"
    )
    play(g, "2 red.3 c3-home")
    assert g.is_over() and g.placements() == [0, 2, 1, 3]


def test_two_tokens_of_one_colour_on_a_square_in_every_preset():
    # green lands with a 3 on t5, where two red tokens stand (yellow is red's opponent too)
    def landing(rules):
        g = game(
            rules + " seats=gyrb turn=g rolls=3 g=t2,t30,base,base y=t45,base,base,base"
            " r=t5,t5,base,base b=base,base,base,base"
        )
        return sorted(str(m) for m in g.legal_moves() if m.frm == 2)

    pair = ["3 green.0 t2-t5 x red.0,red.1"]
    assert landing("classic") == pair  # captured together (002 l.56)
    assert landing("arrow") == pair
    assert landing("blitz") == pair
    assert landing("master") == []  # a wall: no single token lands on it (002 l.91)
    assert landing("danish") == ["3 green.0 t2-base via t5"]  # a Danish pair is safe (001)
    assert landing("teamup") == ["3 green.0 t2-t5"]  # red is green's partner: they share
    assert landing("custom:base=teamup,teams=0") == pair
    # one token per square (000 l.21): two on a track square cannot even be written down
    for rules in ("hebrew-40", "hebrew-56"):
        text = "ludo %s seats=gr turn=g rolls=3 g=t2,base,base,base r=t5,t5,base,base" % rules
        assert "one per square" in message_of(raises(NotationError, from_notation, text))
    # ... but base and home hold any number
    g = game("hebrew-56 seats=gr turn=g rolls=3 g=t2,home,home,base r=t5,base,base,base")
    assert sorted(str(m) for m in g.legal_moves()) == ["3 green.0 t2-t5 x red.0"]


ALL_PRESETS = (
    "classic",
    "master",
    "blitz",
    "arrow",
    "teamup",
    "danish",
    "hebrew-40",
    "hebrew-56",
    "custom",
    "teamup+master",
    "teamup+blitz",
    "teamup+arrow",
    "teamup+danish",
    "teamup+hebrew-40",
    "teamup+hebrew-56",
    "teamup+custom",
)


def test_own_tokens_on_one_square_in_every_preset():
    # green.0 on t2 moves 3 onto t5, where green.1 stands; yellow (an opponent in every preset) is
    # far away on t35, red (green's partner under Team Up) on t30
    for rules in ALL_PRESETS:
        g = game(
            rules + " seats=gyrb turn=g rolls=3 g=t2,t5,base,base y=t35,base,base,base"
            " r=t30,base,base,base b=base,base,base,base"
        )
        if "hebrew" in rules:
            # 000 l.21: one token per square; your own token blocks you
            assert moves(g) == ["3 green.1 t5-t8"], rules
            err = raises(IllegalMoveError, g.parse_move, "3 green.0 t2-t5")
            assert "one token per square" in message_of(err), rules
            continue
        assert "3 green.0 t2-t5" in moves(g), rules  # 002 l.60 and 001: own tokens may share
        play(g, "3 green.0 t2-t5")
        assert tokens(g).startswith("g=t5,t5,base,base"), rules
        if "master" in rules:
            # two of one colour on a track square are a wall: yellow may neither land on it ...
            g = game(
                rules + " seats=gyrb turn=y rolls=3 g=t5,t5,base,base y=t2,base,base,base"
                " r=t30,base,base,base b=base,base,base,base"
            )
            assert moves(g) == [], rules
            # ... while the partner (Team Up) may
            if "teamup" in rules:
                g = game(
                    rules + " seats=gyrb turn=r rolls=3 g=t5,t5,base,base y=t45,base,base,base"
                    " r=t2,base,base,base b=base,base,base,base"
                )
                assert moves(g) == ["3 red.0 t2-t5"], rules


def test_an_opponent_pair_on_one_square_in_every_preset():
    # green.0 on t2 moves 3 onto t5, where two yellow tokens (an opponent in every preset) stand
    def landing(rules):
        g = game(
            rules + " seats=gyrb turn=g rolls=3 g=t2,t30,base,base y=t5,t5,base,base"
            " r=t45,base,base,base b=base,base,base,base"
        )
        return sorted(str(m) for m in g.legal_moves() if m.frm == 2), g

    for rules in ALL_PRESETS:
        if "hebrew" in rules:
            text = "ludo %s seats=gyrb turn=g g=t2,base,base,base y=t5,t5,base,base" % rules
            text += " r=base,base,base,base b=base,base,base,base"
            assert "one per square" in message_of(raises(NotationError, from_notation, text)), rules
            continue
        found, g = landing(rules)
        if "master" in rules:
            assert found == [], rules  # a wall: no single token lands on it (002 l.91)
        elif "danish" in rules:
            assert found == ["3 green.0 t2-base via t5"], rules  # protected pair (001), mover home
            play(g, found[0])
            assert tokens(g).startswith("g=base,t30,base,base y=t5,t5,base,base"), rules
        else:
            assert found == ["3 green.0 t2-t5 x yellow.0,yellow.1"], rules  # captured together (002 l.56)
            play(g, found[0])
            assert tokens(g).startswith("g=t5,t30,base,base y=base,base,base,base"), rules
            assert g.awaiting_roll() and g.turn == 0  # 002 l.37: a capture earns a roll

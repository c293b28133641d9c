"""The Classic pair-capture scenario, shared by the presence-sensor and analog Ludo referee tests. Its own
module so the two test files share it."""


def capture_a_pair_in_either_order(at):
    """Classic: a green token captures a red pair, carried out mover first and victims first, on the rig
    that `at` makes (presence or analog sensors)."""
    rig = None
    for order in ("mover first", "victims first"):
        rig = None  # one referee at a time, as on the board
        rig = at("ludo classic seats=gr turn=g rolls=4 g=t5,base,base,base r=t9,t9,base,base")
        if order == "mover first":
            rig.move("t5", "t9")
            assert rig.situation() == "moving", order
        rig.move("t9", "red.base")
        rig.move("t9", "red.base")  # victims first: t9 is empty until the green token lands
        seen = rig.take()
        # victims first, t9 reads empty for a moment, below what it holds after the move: a capture
        # square may read anything on the way, so this is a move under way, not a difference
        assert [e for e in seen if e["event"] == "mismatch"] == [], order
        if order == "victims first":
            assert rig.situation() == "moving"
            rig.move("t5", "t9")
            seen = rig.take()
            assert [e for e in seen if e["event"] == "mismatch"] == []
        assert [e["move"] for e in seen if e["event"] == "move"] == ["4 green.0 t5-t9 x red.0,red.1"], order

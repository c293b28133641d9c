"""The exact tree `ludus flash` copies (staged with --march x64, the unix port's bytecode) runs on the
MicroPython unix port with the fake drivers (tests/unix_board.py): every example script, recorded tick
by tick from `ludus play`, gives the same referee events and the same LED frames (after the gamma the
LED driver applies) as `ludus play` on CPython, through power cuts; and a power cut in the middle of a
journal write loses only the move being written, which the board then sees again and plays."""

import json
import os
import subprocess

import pytest
from ludus.hw.pixels import gamma_table
from ludus_host.commands.play import DEVICE_EVENTS  # the device's own lines, beside the referee's events
from ludus_host.virtual import tape
from tools import ROOT, ludus, tool

# The tree keeps its bytecode on the heap (files mode: .mpy on the file system), and the unix port is
# 64-bit: every object is about 1.6 times its size on a Pico. 512K is the cap the longest example
# (ludo-at-the-table) runs in; docs/firmware.md gives the figures per mode.
HEAP_FILES = "512K"
EXAMPLES = {
    "checkers-jump-chain": ("checkers", "checkers/2"),
    "quiet-evening": ("checkers", "checkers/2"),
    "ludo-capture": ("ludo52", "ludo/classic/2"),
    "ludo-six-and-power-cut": ("ludo52", "ludo/classic/2"),
    "ludo-at-the-table": ("ludo52", "ludo/classic/2"),
}


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    out = {}
    for board, game in {("checkers", "checkers/2"), ("ludo52", "ludo/classic/2")}:
        root = tmp_path_factory.mktemp("tree-" + board)
        config = root / "config.json"
        config.write_text(json.dumps({"board": board, "game": game}))
        proc = ludus("flash", "--stage", str(root / "tree"), "--march", "x64", "--config", str(config))
        assert proc.returncode == 0, proc.stderr
        assert "lib/ludus/device.mpy" in proc.stdout and "main.py" in proc.stdout
        out[board] = str(root / "tree")
    return out


def _device(tree, ticks, board, game, tmp_path):
    path = str(tmp_path / "session.tape")
    tape.write(path, ticks, board, game)
    proc = subprocess.run(
        [
            tool("micropython"),
            "-X",
            "heapsize=" + HEAP_FILES,
            os.path.join("tests", "unix_board.py"),
            tree,
            "--tape",
            path,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines and lines[-1].get("end"), proc.stdout[-3000:] + proc.stderr[-2000:]
    faults = [e for e in lines if e.get("event") in ("fault", "safe_mode")]
    assert not faults, faults[:2]
    return lines


def _lit(grb):
    # the channels of a frame that are on
    return [i for i, b in enumerate(bytes.fromhex(grb)) if b]


def _clean(e):
    e = dict(e)
    e.pop("t", None)
    e.pop("line", None)
    return e


def _referee_events(items):
    return [_clean(e) for e in items if "event" in e and e["event"] not in DEVICE_EVENTS]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_flashed_tree_plays_each_example_as_ludus_play_does(name, trees, tmp_path):
    board, game = EXAMPLES[name]
    with open(os.path.join(ROOT, "examples", name + ".play"), encoding="utf-8") as f:
        items, ticks = tape.record(f.read(), board, game)
    out = _device(trees[board], ticks, board, game, tmp_path)
    assert _referee_events(out) == _referee_events(items)
    assert len(_referee_events(items)) >= 3
    # every frame ludus play shows is on the LEDs at the same tick, or at the next frame the board
    # sends within 40 ms (a scene the board composes later can wait behind a tick that books the
    # journal and the events: docs/firmware.md, "A tick's budget"), gamma-corrected by the driver
    table = gamma_table(2.2)
    sent = {o["t"]: o["grb"] for o in out if "grb" in o}
    times = sorted(sent)
    shown = [i for i in items if "grb" in i]
    assert shown
    wants = [bytes(table[b] for b in bytes.fromhex(i["grb"])).hex() for i in shown]
    late = 0
    for k, item in enumerate(shown):
        if sent.get(item["t"]) == wants[k]:
            continue
        # late: the same LEDs lit (a breathing light's level follows the clock), or those of the
        # scene after it, which ludus play showed for a tick the board, a tick behind, went past
        later = [t for t in times if item["t"] < t <= item["t"] + 40]
        assert later and _lit(sent[later[0]]) in [_lit(w) for w in wants[k : k + 2]], item["t"]
        late += 1
    assert late <= len(shown) // 10, (late, len(shown))  # (the exception, not the rule)
    if any(t.get("power") for t in ticks):
        assert [e for e in out if e.get("event") == "journal"], "the game came back from the journal"


TORN = """setup
move h7 h16
move h112 h104
power
move h8 h7
wait 1000
move h111 h103
wait 3000
"""


def _cut(tear, trees, tmp_path):
    """How many actions the board restored after the cut."""
    # `power` here cuts the power in the middle of the next journal write, after `tear` bytes of its
    # 256-byte page: the write of the move h8-h7. Events go out after the journal has them, so the
    # move is never announced before the cut. Either its record was torn (or not begun): the board,
    # booted from the flash, has the two moves before it, sees h8 on h7 and plays it again; or the
    # cut came after the record's last byte (in the page's padding): the move is kept. Either way the
    # game goes on to the same end as ludus play's.
    items, ticks = tape.record(TORN, "checkers", "checkers/2", tear=tear)
    out = _device(trees["checkers"], ticks, "checkers", "checkers/2", tmp_path)
    played = [e["move"] for e in items if e.get("event") == "move"]
    assert played == ["h7-h16", "h112-h104", "h8-h7", "h111-h103"]
    cut = [k for k, e in enumerate(out) if e.get("event") == "power_cut"]
    assert len(cut) == 1
    restored = [e["restored"] for e in out[cut[0] :] if e.get("event") == "journal"]
    moves = [e["move"] for e in out if e.get("event") == "move"]
    if restored == [2]:  # torn: the move seen again on the board and played
        assert moves == played, moves
    else:  # kept whole: the cut fell in the padding after it
        assert restored == [3] and moves == ["h7-h16", "h112-h104", "h111-h103"], (restored, moves)
    assert out[-1]["actions"] == played == next(e for e in items if "end" in e)["actions"]
    return restored[0]


@pytest.mark.parametrize("tear", [0, 1, 3, 7, 12, 100, 255])
def test_a_power_cut_in_a_journal_write_loses_at_most_that_move(tear, trees, tmp_path):
    _cut(tear, trees, tmp_path)


def test_both_outcomes_of_a_cut_write_are_met(trees, tmp_path):
    # (the byte offsets above reach both: a torn record, and one kept whole)
    seen = set()
    for tear in (3, 255):
        seen.add(_cut(tear, trees, tmp_path))
    assert seen == {2, 3}

"""Bad command-line input (issue 10): every subcommand refuses bad arguments and bad files with one line
naming the fault and exit status 2 (never a traceback, never a hang), and no interrupted or refused
command leaves a partial or empty file behind."""

import os
import signal
import subprocess
import sys
import time

import pytest
from tools import ROOT, ctrl_c_as_at_a_terminal, ludus

pytestmark = pytest.mark.cpython_only

BOARD = os.path.join(ROOT, "hardware", "boards", "ludo52.json")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    (d / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (d / "latin1.txt").write_bytes("start checkers/2\nmove h7 h16 # caf\xe9\n".encode("latin-1"))
    (d / "afile").write_text("x")
    return d


# (argv, words the one line must hold); {d} is the fixture's folder
BAD = [
    (["perft", "checkers/2", "999"], ["DEPTH", "0..20"]),
    (["perft", "checkers/2", "\u00b2"], ["DEPTH", "digits 0-9"]),
    (["perft", "ludo/classic/4", "3"], ["a roll is owed"]),
    (["perft", "checkers/2"], ["DEPTH"]),
    (["demo", "--delay", "inf"], ["--delay", "'inf'"]),
    (["demo", "--delay", "nan"], ["--delay", "'nan'"]),
    (["demo", "--delay", "-1"], ["--delay", "'-1'"]),
    (["demo", "--delay", "61"], ["--delay", "at most 60"]),
    (["demo", "--seed", "\u0663"], ["--seed", "digits 0-9"]),
    (["demo", "--max-moves", "1e3"], ["--max-moves"]),
    (["demo", "--record", ""], ["--record", "empty"]),
    (["demo", "--record", "{d}"], ["--record", "is a folder"]),
    (["demo", "--record", "{d}/no/such/game.json"], ["--record", "does not exist"]),
    (["selfplay", "classic", "--games", "0"], ["--games", "1..1000000"]),
    (["selfplay", "classic", "--games", "\u0664"], ["--games", "digits 0-9"]),
    (["selfplay", "classic", "--players", "5"], ["--players", "2..4"]),
    (["boards", "generate", "--pitch", "inf", "--out", "{d}/b"], ["--pitch", "'inf'"]),
    (["boards", "generate", "--pitch", "0", "--out", "{d}/b"], ["--pitch", "at least 5"]),
    (["boards", "generate", "--ma-per-channel", "nan", "--out", "{d}/b"], ["--ma-per-channel", "'nan'"]),
    (["boards", "generate", "--bank-size", "1000000000", "--out", "{d}/b"], ["--bank-size", "1..256"]),
    (["boards", "generate", "--out", "{d}/afile"], ["--out", "is a file"]),
    (["boards", "generate", "--out", "/proc/ludus-cannot-be-here"], ["cannot write board definitions"]),
    (["boards", "draw", BOARD, "--svg", "{d}"], ["--svg", "is a folder"]),
    (["boards", "validate", "{d}/binary.bin"], ["not UTF-8"]),
    (["boards", "draw", "{d}/binary.bin"], ["not UTF-8"]),
    (["boards", "nope"], ["invalid choice"]),
    (["play", "{d}/binary.bin", "--board", "checkers", "--game", "checkers/2"], ["script", "not UTF-8"]),
    (["play", "{d}/latin1.txt", "--board", "checkers", "--game", "checkers/2"], ["not UTF-8", "byte"]),
    (["play", "-", "--board", "checkers", "--game", "checkers/2", "--settle-ms", "\u00b2"], ["--settle-ms"]),
    (
        ["play", "-", "--board", "checkers", "--game", "ludo/classic/4"],
        ["is a checkers board", "none of the game's 80 places"],
    ),
    (["verify", "/dev/zero"], ["it is a device", "not a file"]),
    (["verify", "{d}/binary.bin"], ["not UTF-8"]),
    (["monitor", "exec:true", "--for", "nan"], ["--for", "'nan'"]),
    (["monitor", "exec:true", "--for", "-5"], ["--for", "'-5'"]),
    (["monitor", "exec:true", "--for", "0"], ["--for", "above 0"]),
    (["nosuch"], ["invalid choice"]),
    (["moves", "ludo/classic/\u00b2"], ["classic/\u00b2"]),
    (["fuzz", "--cases", "0"], ["--cases", "1..10000000"]),
    (["fuzz", "--save-corpus", "{d}/no/such/corpus.json"], ["--save-corpus", "does not exist"]),
    (["bench", "--json", "{d}"], ["--json", "is a folder"]),
    (["bench", "--ludopy-games", "\u0664"], ["--ludopy-games", "digits 0-9"]),
]


@pytest.mark.parametrize("argv, words", BAD, ids=[" ".join(a)[:60] for a, _ in BAD])
def test_bad_arguments_get_one_line_and_exit_2(files, argv, words):
    argv = [a.replace("{d}", str(files)) for a in argv]
    proc = ludus(*argv, stdin="press\n")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("ludus"), proc.stderr
    for word in words:
        assert word in proc.stderr, (word, proc.stderr)


def test_script_numbers_are_ascii_digits_with_a_bound(tmp_path):
    for line, word in (
        ("wait \u00b2", "not a number of milliseconds"),
        ("wait 1000000000", "at most 999999999"),
        ("lift h7 @\u0664", "a pause is @"),
        ("flicker h7 \u00b3", "not a number of milliseconds"),
    ):
        proc = ludus("play", "-", "--board", "checkers", "--game", "checkers/2", stdin=line + "\n")
        assert proc.returncode == 2 and word in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


def test_a_long_quiet_wait_costs_no_time_and_keeps_the_events():
    script = "start checkers/2\nwait 999999999\nmove h7 h16\n"
    started = time.monotonic()
    proc = ludus("play", "-", "--board", "checkers", "--game", "checkers/2", stdin=script, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 20  # 11.5 days of simulated time, ticked, would take hours
    assert '"move": "h7-h16"' in proc.stdout or "h7-h16" in proc.stdout
    # the same script with a short wait gives the same events (time stamps aside)
    short = ludus(
        "play", "-", "--board", "checkers", "--game", "checkers/2", stdin=script.replace("999999999", "3000")
    )

    def events(out):
        import json

        items = [json.loads(line) for line in out.splitlines()]
        return [{k: v for k, v in item.items() if k != "t"} for item in items if "event" in item]

    assert events(proc.stdout) == events(short.stdout)


def test_a_script_with_a_byte_order_mark_reads_as_text(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfstart checkers/2\nmove h7 h16\n")
    proc = ludus("play", str(path), "--board", "checkers", "--game", "checkers/2")
    assert proc.returncode == 0, proc.stderr
    assert "h7-h16" in proc.stdout


def test_an_interrupted_demo_leaves_an_earlier_record_as_it_was(tmp_path):
    record = tmp_path / "g.json"
    record.write_text("precious\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludus_host.cli", "demo", "--delay", "1", "--record", str(record)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    time.sleep(2.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    assert record.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]  # no temporary file left


def test_a_finished_demo_writes_the_whole_record(tmp_path):
    record = tmp_path / "g.json"
    record.write_text("old\n")
    proc = ludus("demo", "--quiet", "--record", str(record))
    assert proc.returncode == 0, proc.stderr
    verified = ludus("verify", str(record))
    assert verified.returncode == 0 and verified.stdout.startswith("verified"), verified.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_refused_generation_writes_nothing(tmp_path):
    out = tmp_path / "boards"
    proc = ludus("boards", "generate", "--supply-ma", "200", "--out", str(out))
    # 200 mA less the 100 reserved cannot light the LEDs' idle draw: the light scene would refuse it
    assert proc.returncode == 2 and "idle draw" in proc.stderr and proc.stderr.count("\n") >= 1
    assert not out.exists() or list(out.iterdir()) == []


def test_help_texts_say_what_the_tools_are(tmp_path):
    top = ludus("--help")
    assert top.returncode == 0 and "referee Ludo and Chinese Checkers" in top.stdout
    boards = ludus("boards", "--help")
    assert boards.returncode == 0
    for action in ("generate", "validate", "draw"):
        assert "ludus boards %s" % action in boards.stdout
    perft = ludus("perft", "--help")
    assert "POSITION [POSITION ...] DEPTH" in perft.stdout


@pytest.fixture(scope="module")
def json_files(tmp_path_factory):
    import json

    d = tmp_path_factory.mktemp("json")
    board = json.loads(open(BOARD, encoding="utf-8").read())
    (d / "board_dup.json").write_text(json.dumps(board)[:-1] + ', "name": "again"}')
    (d / "board_deep.json").write_text("[" * 100000 + "]" * 100000)
    for key, value in (("x", float("nan")), ("x", float("inf")), ("y", 1e308)):
        bad = json.loads(json.dumps(board))
        bad["cells"][0][key] = value
        (d / ("board_%s_%s.json" % (key, value))).write_text(json.dumps(bad))
    record = {"format": "ludus-record/1", "start": "checkers/2", "options": {}, "seed_sha256": "0" * 64}
    (d / "record_dup.json").write_text(json.dumps(record)[:-1] + ', "seed_sha256": "%s"}' % ("1" * 64))
    return d


def test_a_key_given_twice_is_refused_in_every_json_file_read(json_files):
    for argv, word in (
        (["boards", "validate", "{d}/board_dup.json"], "key 'name' appears twice"),
        (["boards", "draw", "{d}/board_dup.json"], "key 'name' appears twice"),
        (
            ["play", "-", "--board", "{d}/board_dup.json", "--game", "ludo/classic/2"],
            "key 'name' appears twice",
        ),
        (["verify", "{d}/record_dup.json"], "key 'seed_sha256' appears twice"),
        (["boards", "validate", "{d}/board_deep.json"], "nested too deeply"),
    ):
        proc = ludus(*[a.replace("{d}", str(json_files)) for a in argv], stdin="press\n")
        assert proc.returncode == 2 and word in proc.stderr, (argv, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_numbers_a_board_cannot_have_are_refused(json_files):
    for name in os.listdir(json_files):
        if name.startswith("board_x_") or name.startswith("board_y_"):
            proc = ludus("boards", "validate", str(json_files / name))
            assert proc.returncode == 2 and "must be a number (millimetres)" in proc.stderr, proc.stderr


def test_named_pipes_devices_and_folders_are_refused_by_every_command_that_reads_a_file(tmp_path):
    # a named pipe with no writer used to hang each of these for ever; /dev/zero read to a MemoryError
    # and a non-UTF-8 file raised UnicodeDecodeError in `ludus emulate --config`, which bypassed the
    # checked reader
    pipe = str(tmp_path / "p")
    os.mkfifo(pipe)
    (tmp_path / "latin1.json").write_bytes('{"board": "caf\xe9"}'.encode("latin-1"))
    script = ["play", "-", "--board", "checkers", "--game", "checkers/2"]
    cases = [
        (["verify", "{f}"], "record"),
        (["play", "{f}", "--board", "checkers", "--game", "checkers/2"], "script"),
        (["play", "-", "--board", "{f}", "--game", "checkers/2"], "board definition"),
        ([*script, "--wiring", "{f}"], "wiring map"),
        (["boards", "validate", "{f}"], "board definition"),
        (["boards", "draw", "{f}"], "board definition"),
        (["config", "--check", "{f}"], "config"),
        (["config", "--from", "{f}"], "config"),
        (["emulate", "--config", "{f}", "--no-input"], "config"),
        (["emulate", "--board", "checkers", "--wiring", "{f}", "--no-input"], "wiring map"),
        (["flash", "--dry-run", "--config", "{f}"], "config"),
        (["season", "{f}"], "record"),
    ]
    tried = [(pipe, "a named pipe", case) for case in cases]
    tried += [
        (f, kind, case)
        for f, kind in ((str(tmp_path), "a folder"), ("/dev/zero", "a device"))
        for case in cases[:2] + [c for c in cases if c[0][:2] == ["emulate", "--config"]]
    ]
    for f, kind, (argv, what) in tried:
        began = time.monotonic()
        proc = ludus(*[a.replace("{f}", f) for a in argv], stdin="press\n", timeout=30)
        said = proc.stderr
        assert proc.returncode == 2 and said.count("\n") == 1 and "Traceback" not in said, (argv, said)
        assert "cannot read %s %s: it is %s, not a file" % (what, f, kind) in said, (argv, said)
        assert time.monotonic() - began < 20
    proc = ludus("emulate", "--config", str(tmp_path / "latin1.json"), "--no-input")
    assert proc.returncode == 2 and "is not UTF-8 text (byte 14" in proc.stderr, proc.stderr


def test_a_file_or_folder_named_like_a_shipped_board_never_stands_in_for_it(tmp_path, monkeypatch):
    # a folder `checkers` and a file `ludo52` where the command runs: the names still mean the shipped
    # boards (before: "Is a directory", and `ludus sim --game ludo/classic/4` did not start); a path
    # names the file (./ludo52)
    (tmp_path / "checkers").mkdir()
    (tmp_path / "ludo52").write_text("x\n")
    (tmp_path / "s.play").write_text("start checkers/2\nmove h7 h16\n")
    proc = ludus("play", "s.play", "--board", "checkers", "--game", "checkers/2", cwd=str(tmp_path))
    assert proc.returncode == 0 and "h7-h16" in proc.stdout, proc.stderr
    proc = ludus(
        "play", "-", "--board", "ludo52", "--game", "ludo/classic/2", stdin="press\n", cwd=str(tmp_path)
    )
    assert proc.returncode == 0, proc.stderr
    proc = ludus(
        "play", "-", "--board", "./ludo52", "--game", "ludo/classic/2", stdin="press\n", cwd=str(tmp_path)
    )
    assert proc.returncode == 2 and "./ludo52" in proc.stderr and "Traceback" not in proc.stderr
    proc = ludus("play", "-", "--board", "./checkers", "--game", "checkers/2", stdin="", cwd=str(tmp_path))
    assert proc.returncode == 2 and "it is a folder" in proc.stderr
    proc = ludus("play", "-", "--board", "nosuch", "--game", "checkers/2", stdin="", cwd=str(tmp_path))
    assert proc.returncode == 2 and "not a shipped board (checkers, ludo40, ludo52, ludo56)" in proc.stderr
    from ludus_host.sim.server import Hub, Settings

    monkeypatch.chdir(tmp_path)
    hello = Hub(Settings("ludo/classic/4")).hello()  # the simulator's table and the page's board
    assert hello["board_name"] == "ludo52" and hello["board"]["game"] == "ludo52"


def test_an_output_never_replaces_an_input(tmp_path):
    # refused before any work, the input as it was (before: `boards draw B --svg B` put the drawing
    # over the board definition; the emulator's flash over its config)
    board = tmp_path / "b.json"
    board.write_text(open(BOARD, encoding="utf-8").read())
    config = tmp_path / "config.json"
    config.write_text('{"board": "checkers"}')
    stage = tmp_path / "stage"
    stage.mkdir()
    (stage / "config.json").write_text('{"board": "checkers"}')
    cases = [
        (["boards", "draw", str(board), "--svg", str(board)], "--svg %s is the board definition" % board),
        (
            ["emulate", "--config", str(config), "--flash-image", str(config), "--no-input"],
            "--flash-image %s is the config" % config,
        ),
        (
            ["flash", "--stage", str(stage), "--config", str(stage / "config.json")],
            "is inside --stage %s, which is emptied first" % stage,
        ),
    ]
    for argv, words in cases:
        proc = ludus(*argv)
        assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert board.read_text() == open(BOARD, encoding="utf-8").read()
    assert config.read_text() == '{"board": "checkers"}' and os.listdir(stage) == ["config.json"]
    link = tmp_path / "link"
    os.symlink(config, link)  # (the same file by another name)
    proc = ludus("emulate", "--config", str(link), "--flash-image", str(config), "--no-input")
    assert proc.returncode == 2 and "is the config" in proc.stderr

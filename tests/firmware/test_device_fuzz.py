"""The USB link under attack: random bytes, mutated and malformed command lines, floods and
half-lines fed to a device in the middle of a game never change the game, never crash the loop, and
never starve the watchdog; every line is answered or counted. Runs on both runtimes (seeded)."""

import json

from device_bench import Bench

# whole games through the loop: the 64-bit unix port's 1,280-name pool is grown first, inside the
# 160K budget, so that it is not asked for mid-game in a broken-up heap (tests/mpy_runner.py)
GROW_NAMES = True

GOOD = (
    b'{"cmd": "hello", "id": 1}',
    b'{"cmd": "state"}',
    b'{"cmd": "stats", "id": [1, 2]}',
    b'{"cmd": "levels"}',
    b'{"cmd": "games", "last": 2}',
    b'{"cmd": "journal"}',
    b'{"cmd": "light"}',
    b'{"cmd": "config"}',
)
# commands that would change things on purpose: never sent whole by the fuzzer, only as fragments
CHANGING = (
    b'{"cmd": "new_game"}',
    b'{"cmd": "set_config", "config": {}}',
    b'{"cmd": "stop"}',
    b'{"cmd": "reset"}',
)
# the over-long line, made once at import: a fresh 1 KB block per case is what failed first at 160K,
# in the test's own generator, after a game had broken the heap up (the device itself needs none)
LONG = b"7" * 1060 + b"\n"


class Rand:
    """A small linear congruential generator: the same cases on both runtimes."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _mutate(rand, line):
    b = bytes(line)
    for _ in range(1 + rand.below(4)):
        op = rand.below(4)
        at = rand.below(len(b) + 1)
        if op == 0 and b:
            at %= len(b)
            b = b[:at] + b[at + 1 :]
        elif op == 1:
            b = b[:at] + bytes((rand.below(256),)) + b[at:]
        elif op == 2 and b:
            at %= len(b)
            b = b[:at] + bytes((rand.below(256),)) + b[at + 1 :]
        else:
            b = b[:at] + b[: rand.below(len(b) + 1)] + b[at:]
    return b.replace(b"\n", b" ").replace(b"\r", b" ")


def _case(rand):
    kind = rand.below(6)
    if kind == 0:
        return bytes(rand.below(256) for _ in range(rand.below(80))).replace(b"\x03", b"") + b"\n"
    if kind == 1:
        return _mutate(rand, GOOD[rand.below(len(GOOD))]) + b"\n"
    if kind == 2:
        line = CHANGING[rand.below(len(CHANGING))]
        return _mutate(rand, line)[: max(1, len(line) - 2)] + b"\n"  # never whole: its end cut off
    if kind == 3:  # just below and past the line limit (1,024)
        return memoryview(LONG)[60 - rand.below(60) :]
    if kind == 4:
        return b"\n" * rand.below(5) + b'{"cmd": ' + b"[" * rand.below(64) + b"\n"
    return GOOD[rand.below(len(GOOD))] + b"\n"


def test_random_command_lines_never_change_the_game_or_stop_the_loop():
    b = Bench()
    b.at(100, b.setup_checkers)
    b.at(1000, lambda: b.platform.put(b.cell("h7"), 0))
    b.at(1100, lambda: b.platform.put(b.cell("h16"), 1))
    rand = Rand(2026)
    sent = [0]  # lines sent, counted (a list of 300 counts is itself a 2 KB block on the 64-bit port)

    seen = {"lines": 0, "replies": 0, "faults": 0, "events": 0}

    def keep(line):  # (every line checked as it comes, not kept: a long run would fill the heap)
        seen["lines"] += 1
        item = json.loads(line)
        assert isinstance(item, dict), line
        if "reply" in item:
            seen["replies"] += 1
        elif item.get("event") == "fault":
            seen["faults"] += 1
            print(line)
        else:
            seen["events"] += 1

    b.keep = keep

    def flood():  # (two lines every 40 ms: about the most USB brings in that time, ~18 KB/s)
        for _ in range(2):  # (each fed alone: not joined into one 2 KB piece of a fragmented heap)
            data = _case(rand)
            sent[0] += 1 if isinstance(data, memoryview) else data.count(b"\n")
            b.platform.serial.feed(data)

    for t in range(2000, 5000, 40):
        b.at(t, flood)
    b.run(6000)
    ref = b.device.app.referee
    assert list(ref.record.actions) == ["h7-h16"]  # the game as it was: nothing the fuzz sent moved it
    assert seen["faults"] == 0 and seen["events"] > 0, seen
    assert b.platform.watchdog.starved == 0
    link = b.device.link
    assert link.received + link.refused >= sent[0] // 2 and seen["replies"] > 50, (seen, sent[0])
    assert b.device.stats["late"] < b.device.stats["ticks"] // 10

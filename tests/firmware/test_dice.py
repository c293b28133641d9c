"""Dice: the seeded stream, rejection of biased bytes, commit-reveal, and a chi-square fairness guard
that is shown to catch a modulo-biased die."""

import hashlib

import support
from ludus.dice import CHI_SQUARE_CRITICAL_5DF, Dice, chi_square, commitment, hex_of, seed_from_hex
from ludus.errors import ConfigError, NotationError

SEED = bytes(range(32))
# Computed once on CPython; the MicroPython runner asserts the same values, so both runtimes agree.
FIRST_ROLLS = [5, 5, 1, 2, 5, 3, 2, 4, 3, 2, 5, 4, 2, 6, 6, 3, 2, 3, 5, 1, 3, 2, 2, 2, 3, 6, 1, 1, 1, 4]
SEED_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
ZERO_ROLLS = [2, 3, 6, 4, 4, 2, 3, 1, 1, 2, 5, 4]
COUNTS_60K = [10023, 10217, 9824, 9985, 9831, 10120]


def reference_rolls(seed, n):
    """The documented stream written out longhand: sha256(seed + counter, 4 bytes big-endian), each
    byte below 252 gives byte % 6 + 1."""
    out = []
    counter = 0
    while len(out) < n:
        block = hashlib.sha256(
            seed + bytes([counter >> 24, (counter >> 16) & 255, (counter >> 8) & 255, counter & 255])
        )
        for b in block.digest():
            if b < 252 and len(out) < n:
                out.append(b % 6 + 1)
        counter += 1
    return out


def face_counts(dice, n):
    counts = [0] * 6
    roll = dice.roll
    for _ in range(n):
        counts[roll() - 1] += 1
    return counts


class ModuloBiasedDice(Dice):
    """The mistake the rejection step prevents: every byte used, byte % 6 + 1. Faces 1-4 then come from
    43 byte values each and faces 5-6 from 42."""

    def roll(self):
        if self._pos >= len(self._block):
            self._block = self._next_block()
            self._pos = 0
        b = self._block[self._pos]
        self._pos += 1
        return b % 6 + 1


class ScriptedDice(Dice):
    """Dice whose byte blocks are given, to check how each byte value is used."""

    def __init__(self, blocks):
        Dice.__init__(self, SEED)
        self.blocks = list(blocks)

    def _next_block(self):
        return self.blocks.pop(0)


def test_seeded_rolls_are_pinned():
    dice = Dice(SEED)
    assert [dice.roll() for _ in range(30)] == FIRST_ROLLS
    dice = Dice(bytes(32))
    assert [dice.roll() for _ in range(12)] == ZERO_ROLLS


def test_stream_matches_the_documented_construction():
    for seed in (SEED, bytes(32), bytes([255]) * 32, bytes([7 * i & 255 for i in range(32)])):
        dice = Dice(seed)
        assert [dice.roll() for _ in range(500)] == reference_rolls(seed, 500)


def test_bytes_from_252_up_are_skipped_and_the_rest_map_to_faces():
    dice = ScriptedDice([bytes([252, 253, 254, 255, 0, 5, 6, 251]), bytes([255, 3]), bytes([17])])
    # 0 -> 1, 5 -> 6, 6 -> 1, 251 -> 6; 255 skipped across the block boundary; 3 -> 4; 17 -> 6
    assert [dice.roll() for _ in range(6)] == [1, 6, 1, 6, 4, 6]
    assert dice.count == 6
    assert dice.blocks == []


def test_long_stream_fingerprint_is_pinned():
    # 60,000 rolls span about 1,900 hash blocks: any drift between runtimes shows up here
    assert face_counts(Dice(SEED), 60000) == COUNTS_60K


def test_two_dice_are_consecutive_draws_of_one_stream():
    dice = Dice(SEED)
    pairs = [dice.roll_two() for _ in range(15)]
    assert pairs == [(FIRST_ROLLS[2 * i], FIRST_ROLLS[2 * i + 1]) for i in range(15)]
    assert dice.count == 30


def test_seed_as_hex_text_is_the_same_die():
    a = Dice(SEED)
    b = Dice(hex_of(SEED))
    assert b.seed == SEED
    assert [a.roll() for _ in range(100)] == [b.roll() for _ in range(100)]
    assert b.seed_hex() == "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def test_commitment_is_sha256_of_the_seed():
    assert Dice(SEED).commitment() == SEED_COMMITMENT
    assert commitment(SEED) == hex_of(hashlib.sha256(SEED).digest())
    assert commitment(bytes(32)) != commitment(bytes(31) + b"\x01")


def test_entropy_source_supplies_the_seed():
    asked = []

    def entropy(n):
        asked.append(n)
        return bytes([9]) * n

    dice = Dice(entropy=entropy)
    assert asked == [32]
    assert dice.seed == bytes([9]) * 32
    assert dice.commitment() == commitment(bytes([9]) * 32)


def test_default_entropy_gives_fresh_32_byte_seeds():
    a, b = Dice(), Dice()
    assert len(a.seed) == 32 and len(b.seed) == 32
    assert a.seed != b.seed
    assert 1 <= a.roll() <= 6


def test_bad_seeds_are_refused_with_a_message():
    exc = support.raises(ConfigError, Dice, bytes(31))
    assert "32 bytes" in support.message_of(exc)
    exc = support.raises(ConfigError, Dice, entropy=lambda n: bytes(n - 1))
    assert "32 bytes" in support.message_of(exc)
    exc = support.raises(NotationError, Dice, "zz" * 32)
    assert "zzzz" in support.message_of(exc) and "not hex" in support.message_of(exc)
    exc = support.raises(NotationError, seed_from_hex, "abc")
    assert "'abc'" in support.message_of(exc) and "64 hex digits" in support.message_of(exc)


def test_chi_square_of_known_counts():
    assert chi_square([10, 10, 10, 10, 10, 10]) == 0
    # (20-10)^2/10 + 5 * (8-10)^2/10 = 10 + 2
    assert abs(chi_square([20, 8, 8, 8, 8, 8]) - 12.0) < 1e-9
    support.raises(ConfigError, chi_square, [0] * 6)


def test_fair_die_passes_chi_square():
    stat = chi_square(face_counts(Dice(SEED), 60000))
    assert stat < CHI_SQUARE_CRITICAL_5DF, stat
    stat = chi_square(face_counts(Dice(bytes(32)), 600000))
    assert stat < CHI_SQUARE_CRITICAL_5DF, stat


def test_chi_square_catches_a_modulo_biased_die():
    # Same seed and number of rolls as the fair run above: only the rejection step differs.
    biased = face_counts(ModuloBiasedDice(bytes(32)), 600000)
    stat = chi_square(biased)
    assert stat > CHI_SQUARE_CRITICAL_5DF, stat
    # and the bias has the predicted shape: faces 5 and 6 are the rarer ones
    assert max(biased[4], biased[5]) < min(biased[:4])


@support.cpython_only
def test_micropython_gives_the_same_rolls_as_cpython():
    """Cross-check beyond the pinned values: several seeds, 2,000 rolls each, on both runtimes."""
    import os
    import shutil
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    micropython = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(micropython):
        micropython = shutil.which("micropython")
    assert micropython, "micropython not found: install the dev extras"
    seeds = [bytes([i * 37 + j & 255 for j in range(32)]) for i in range(5)]
    script = (
        "import sys\nsys.path.insert(0, %r)\nfrom ludus.dice import Dice\n"
        "for h in %r:\n    d = Dice(h)\n    print(''.join([str(d.roll()) for _ in range(2000)]))\n"
    ) % (os.path.join(root, "firmware"), [hex_of(s) for s in seeds])
    proc = subprocess.run([micropython, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split()
    expected = ["".join(str(v) for v in reference_rolls(s, 2000)) for s in seeds]
    assert lines == expected


def test_roll_reuses_its_buffers_and_allocates_nothing_within_a_block():
    dice = Dice(SEED)
    buf = dice._input
    for _ in range(100):  # several blocks
        dice.roll()
    assert dice._input is buf and dice._counter >= 3
    if not support.IS_MICROPYTHON:
        return  # only MicroPython can lock its heap
    import micropython

    rolled = 0
    micropython.heap_lock()
    try:
        # stop 8 bytes short of the block's end so that no refill (which allocates a digest) happens
        while dice._pos < len(dice._block) - 8:
            dice.roll()
            rolled += 1
    finally:
        micropython.heap_unlock()
    assert rolled > 0

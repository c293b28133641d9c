"""Benchmark cases for the journal (docs/journal.md): one action appended (the journal's own work: the
flash is a RAM stand-in whose program is a plain copy, as rp2.Flash's is C code; on a Pico the page
program time of the chip comes on top), and a whole 830-action Ludo game journalled on the fake NOR
flash of 16 blocks of 4 KiB, its erases and bytes programmed as the result. See bench/README.md."""

from ludus.hw.fake import FakeFlash
from ludus.record.journal import Journal

BLOCKS = 16
GAME_ACTIONS = 830  # a four-player Ludo game (docs/benchmarks.md)
START = '{"record": "{}", "seed": null, "dice_used": 0}'


def _texts():
    # the actions of a Ludo game as records write them, rolls and moves alternating
    out = []
    for k in range(GAME_ACTIONS):
        if k % 2 == 0:
            out.append("roll %d" % (1 + k % 6))
        else:
            out.append(
                "%d %s.%d t%d-t%d"
                % (1 + k % 6, ("green", "yellow", "red", "blue")[k % 4], k % 4, k % 52, (k + 5) % 52)
            )
    return out


class _RamFlash:
    # the block device interface over RAM, programs copied (no emulation of NOR bits)
    def __init__(self, blocks, size=4096):
        self.size = size
        self.blocks = blocks
        self.data = bytearray(blocks * size)

    def readblocks(self, n, buf, offset=0):
        at = n * self.size + offset
        buf[:] = self.data[at : at + len(buf)]

    def writeblocks(self, n, buf, offset=0):
        at = n * self.size + offset
        self.data[at : at + len(buf)] = buf

    def ioctl(self, op, arg):
        return self.blocks if op == 4 else self.size if op == 5 else 0


def append():
    journal = Journal(_RamFlash(BLOCKS))
    journal.begin(START)
    texts = _texts()
    state = [0]

    def work():
        k = state[0]
        if k == GAME_ACTIONS:  # a game's end: the next begins
            journal.end("[0, 1, 2, 3]")
            journal.begin(START)
            k = 0
        journal.add(texts[k])
        state[0] = k + 1
        return journal.at

    return work


def game():
    texts = _texts()

    def work():
        flash = FakeFlash(BLOCKS)
        journal = Journal(flash)
        journal.begin(START)
        for text in texts:
            journal.add(text)
        journal.end("[0, 1, 2, 3]")
        return "erases %d, programmed %d B, records %d B" % (flash.erases, flash.programmed, _used(journal))

    return work


def _used(journal):
    return journal.sector * journal.size + journal.at


CASES = [
    ("journal.append", append, 200),
    ("journal.game", game, 1),
]

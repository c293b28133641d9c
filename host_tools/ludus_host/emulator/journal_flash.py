"""Games as the board's journal holds them, made on the laptop: a game played from its committed dice,
cut short or to its end, written with the firmware's own Journal into the bytes of the Pico's
journal flash (docs/journal.md). The emulated Pico boots from them to show that a long game is
restored after a power cut and that a long finished one is handed out whole
(tests/host/test_pico_restore.py, `ludus bench --pico --pico-part restore`).

    game = journal_game("ludo/classic/4", 900, seed=1)           # cut short after 900 actions
    image = journal_image([game], blocks=12)                     # 48 KiB, as journal_kb: 48
    offset = journal_offset(48, romfs=False)                     # where it sits in the Pico's flash
    finished = journal_game("ludo/classic/4", None, seed=2)      # played to its end
"""

import hashlib
import json

from ludus.games import position
from ludus.hw.fake import FakeFlash
from ludus.record.game import GameRecord
from ludus.record.journal import Journal

FS_OFFSET = 0xA0000  # the RPI_PICO build's littlefs: the journal's blocks sit just below it
ROMFS_BYTES = 256 * 1024  # the ROMFS build's partition, just below littlefs: the journal below that
BLOCK = 4096


class JournalGame:
    """A game as the journal keeps it: its record (the actions; the seed revealed once it ended), the
    seed (hex) and the journal's writes in the order the board made them (("A", text) an action,
    ("U", "") an undo), and whether it ended."""

    def __init__(self, record: GameRecord, seed_hex: str, writes: list[tuple[str, str]], ended: bool):
        self.record = record
        self.seed_hex = seed_hex
        self.writes = writes
        self.ended = ended

    def start_state(self) -> dict:
        """The journal's start record, as Referee.start_state() makes it at the game's start."""
        rec = self.record
        return {
            "start": rec.start,
            "options": rec.options,
            "players": None,
            "seed_sha256": rec.seed_sha256,
            "seed": self.seed_hex,
            "dice_used": 0,
        }


def journal_game(start: str, actions: int | None, seed: int = 1, undo_every: int = 150) -> JournalGame:
    """START (a named start) played with its own committed dice and a fixed walk through the legal
    moves: for ACTIONS actions and still unfinished, or (ACTIONS None) to its end. Every UNDO_EVERY
    actions a move is taken back and made again (the journal's U records). ValueError if no seed
    tried gives such a game."""
    for attempt in range(50):
        key = hashlib.sha256(b"ludus journal game %d %d" % (seed, attempt)).digest()
        found = _play(start, actions, key, undo_every)
        if found is not None:
            return found
    raise ValueError("%s: no game of %s actions stayed unfinished" % (start, actions))


def _play(start: str, actions: int | None, key: bytes, undo_every: int) -> JournalGame | None:
    record = GameRecord.new(start, seed=key)
    game = position(start)
    writes: list[tuple[str, str]] = []
    k = 0
    while actions is None or len(record.actions) < actions:
        if game.is_over():
            if actions is not None:
                return None
            record.finish(game.placements())
            return JournalGame(record, record.dice.seed_hex(), writes, True)
        if getattr(game, "awaiting_roll", None) is not None and game.awaiting_roll():
            game.apply_roll(record.roll())
        else:
            moves = game.legal_moves()
            move = moves[(k * 7919) % len(moves)]
            k += 1
            record.record_move(move)
            game.push(move)
            if undo_every and len(record.actions) % undo_every == 0:
                writes.append(("A", record.actions[-1]))
                record.actions.pop()
                game.pop()
                writes.append(("U", ""))
                record.record_move(move)
                game.push(move)
        writes.append(("A", record.actions[-1]))
    if game.is_over():
        return None
    return JournalGame(record, record.dice.seed_hex(), writes, False)


def journal_image(games: list[JournalGame], blocks: int = 12) -> bytes:
    """The journal's flash (BLOCKS blocks of 4 KiB) holding GAMES as the board wrote them, in turn:
    each one's start, its actions and undos, and its end if it ended."""
    flash = FakeFlash(blocks, BLOCK)
    journal = Journal(flash)
    for game in games:
        kept = journal.begin(game.start_state())
        for kind, text in game.writes:
            kept = (journal.add(text) if kind == "A" else journal.undo()) and kept
        if game.ended:
            end = {"result": game.record.result, "players": None}
            kept = journal.end(json.dumps(end)) and kept
        if not kept:
            raise ValueError("a journal of %d blocks does not hold these games" % blocks)
    return bytes(flash.data)


def journal_offset(journal_kb: int, romfs: bool = False) -> int:
    """Where a journal of JOURNAL_KB KiB starts in the Pico's flash (ludus.hw.pico.FlashRange): below
    the file system, or on the ROMFS build below its 256 KiB partition."""
    return FS_OFFSET - (ROMFS_BYTES if romfs else 0) - journal_kb * 1024

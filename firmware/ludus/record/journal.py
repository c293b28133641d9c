"""The journal: a game that survives power cuts, as an append-only log of its actions on a raw flash
range (docs/journal.md).

    journal = Journal(flash)                  # rp2.Flash(start=..., len=...), or ludus.hw.fake.FakeFlash
    state = journal.state()                   # the unfinished game to restore (Referee.restore), or None
    journal.begin(referee.start_state())      # a new game: its start, dice seed and commitment
    journal.add("6 green.0 base-t0")          # every action as the record keeps it
    journal.undo()                            # the last action taken back
    journal.note('{"stopped": "Ctrl-C"}')       # a note on the game (ludus.record.notes), as JSON
    journal.end(placements)                   # finished: kept until its sectors are reused

Each record is self-delimiting and checksummed: b"R", its length (2 bytes), its kind (S begin, A
action, U undo, N note, E end), the payload, and a CRC-16 of length, kind and payload. Records are programmed
into whole 256-byte pages padded with 0xFF, which leaves the bytes before them as they were (flash bits
only go from 1 to 0), so a cut at any byte of a write loses at most the record being written: reading
stops at the first record whose checksum fails, and the next write starts a fresh sector. A sector
begins with a header (b"LJ1", a 32-bit sequence number, CRC-16), written after its erase: sectors are
read in sequence order, and the oldest is erased and reused when the newest is full, unless it still
holds the unfinished game (then the journal is full: `full` is set and actions are no longer kept).
Blocks erased ahead of need (prepare) get their header only when writing reaches them: an erased block
is found again after a reboot, so a power cut wastes none of them."""

import json
from array import array

from ludus.errors import StateError
from ludus.runtime import CODE_IN_RAM, const, transient
from ludus.runtime import NATIVE as _NATIVE

PAGE = const(256)
_HEADER = const(16)  # bytes reserved at the start of a sector for its header
PREPARE_ROOM = const(1024)  # prepare() erases ahead once fewer bytes than this are left in a block
READY_MAX = const(8)  # erased blocks found again after a reboot, at most
FEED_EVERY = const(64)  # records read between two calls of a scan's feed()
_MAGIC = b"LJ1"
_BLANK = b"\xff" * PAGE  # an erased page: what a page is padded with


def _crc_table():
    table = array("H", bytes(512))
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table[i] = crc
    return table


_CRC = _crc_table()  # 512 bytes: a byte at a time, eight times faster than bit by bit


def _readback():
    # the reading of a game back from flash: at boot and for the link's `games` and `journal`, never
    # in a game's ticks. Where the code sits in the heap (`.mpy` files) it is loaded for the use and
    # dropped, or it would hold some KB of the game's heap; where it is read in place it is kept
    # (ludus.runtime.CODE_IN_RAM)
    if CODE_IN_RAM:
        return transient("ludus.record.readback")
    return __import__("ludus.record.readback", None, None, ("_",))


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of data (bytes), continuing from crc."""
    if _native_crc16 is not None:
        return _native_crc16(data, crc, _CRC)
    return _crc16_py(data, crc)


def _crc16_py(data, crc):
    # (ludus.record.native has this loop as viper code)
    table = _CRC
    for b in data:
        crc = (crc << 8 & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


_native_crc16 = None
NATIVE = False  # whether crc16 runs the viper kernel of ludus.record.native
if _NATIVE:
    from ludus.record.native import crc16 as _native_crc16  # type: ignore[assignment]

    NATIVE = True


class Journal:
    """An append-only journal on `flash`, a block device with the extended interface of rp2.Flash
    (readblocks(n, buf, offset), writeblocks(n, buf, offset) programming without erasing, ioctl(4) the
    block count, ioctl(5) the block size, ioctl(6, n) erasing block n). At least two blocks."""

    def __init__(self, flash):
        self.flash = flash
        self.count = flash.ioctl(4, 0)
        self.size = flash.ioctl(5, 0)
        if self.count < 2 or self.size % PAGE or self.size < 2 * PAGE:
            raise StateError("a journal needs 2 or more flash blocks of a multiple of %d bytes" % PAGE)
        self.erases = 0  # blocks erased and bytes programmed by this journal since it was opened
        self.programmed = 0
        self.full = False
        self._page = bytearray(PAGE)
        self._load()

    # ---- reading ----------------------------------------------------------------------------------

    def _load(self):
        self.game = None  # the last game read or written: [its start record's checksum and length,
        # end payload or None, the sequence number of the block its start is in]; the start itself
        # and the actions stay on flash, read when asked for
        self.sector = -1  # the block being written and where (at the end of a block: a new one next)
        self.at = self.size
        self.seq = self.top = 0  # the block written's sequence number, and the highest header's
        self.ready = []  # blocks erased ahead (prepare), the ones after `sector` in the ring, no header yet
        self.blocked_at = -1  # where prepare() last found the next block holding the unfinished game
        self._scan(self._find, True)
        n = (self.sector + 1) % self.count
        while len(self.ready) < READY_MAX and n != self.sector and n not in self.ready and self._blank(n):
            self.ready.append(n)
            n = (n + 1) % self.count

    def _blank(self, n):
        # True if every byte of block n is erased (a block prepared before a reboot; not one whose erase
        # a cut left half done)
        page = self._page
        for at in range(0, self.size, PAGE):
            self.flash.readblocks(n, page, at)
            if page != _BLANK:
                return False
        return True

    def _blocks(self):
        # (sequence number, block) of every block with a valid header, oldest first
        order = []
        for n in range(self.count):
            seq = self._seq_of(n)
            if seq >= 0:
                order.append((seq, n))
        order.sort()
        return order

    def _scan(self, visit, position=False, since=-1, feed=None, start=_HEADER):
        # every valid record, oldest first, to visit(kind, payload, seq) (self.where holds where it
        # begins in its block; a visit that returns True ends the scan); with position, the newest
        # block becomes the one written, from the end of its valid records (none after a torn one);
        # since: only the blocks from that sequence number on, the first of them from offset start;
        # feed() after every FEED_EVERY records. Reads a record at a time into one buffer (no
        # block-sized one: the heap is the game's); the payload given to visit is a memoryview into
        # it, valid until visit returns.
        order = self._blocks()
        head = bytearray(3)
        body = self._page  # (a record that fits a page, as an action does, is read into the page's buffer)
        view = memoryview(body)
        records = 0
        for seq, n in order:
            at = start if seq == since else _HEADER
            while seq >= since and at + 6 <= self.size:
                self.flash.readblocks(n, head, at)
                length = head[1] | head[2] << 8
                end = at + 3 + length + 2
                if head[0] != 0x52 or length < 1 or end > self.size:  # b"R"
                    break
                if length + 4 > len(body):
                    body = bytearray(length + 4)
                    view = memoryview(body)
                part = view[: length + 4]
                self.flash.readblocks(n, part, at + 1)
                if crc16(view[: length + 2]) != body[length + 2] | body[length + 3] << 8:
                    break  # torn: the rest of this block is not used again
                self.where = at
                if visit(body[2], view[3 : length + 2], seq):
                    return
                at = end
                records += 1
                if feed is not None and records % FEED_EVERY == 0:
                    feed()
            if position and seq == order[-1][0]:
                self.seq = self.top = seq
                self.sector = n
                self.at = at if at + 1 <= self.size and self._erased(n, at) else self.size

    def _erased(self, n, at):
        # True if the byte at `at` of block n is erased (where the next record may go)
        one = bytearray(1)
        self.flash.readblocks(n, one, at)
        return one[0] == 0xFF

    def _find(self, kind, payload, seq):
        # the last game's start and end
        if kind == 0x53:  # S
            self.game = [crc16(payload), len(payload), None, seq]
        elif kind == 0x45 and self.game is not None and self.game[2] is None:  # E
            self.game[2] = bytes(payload)

    def is_start(self, payload, seq):
        """True if PAYLOAD, read in the block of sequence number SEQ, is the unfinished game's start."""
        game = self.game
        return game is not None and seq == game[3] and len(payload) == game[1] and crc16(payload) == game[0]

    def unfinished(self):
        """True if a game was begun and not ended (without reading its actions)."""
        return self.game is not None and self.game[2] is None

    # ---- reading a game back (ludus.record.readback: loaded only for it) ---------------------------

    def actions(self, log, feed=None):
        """ludus.record.readback.actions: the unfinished game's actions into LOG, and its notes."""
        return _readback().actions(self, log, feed)

    def current(self):
        """(start payload, actions as a list of texts) of the unfinished game, or None."""
        return _readback().current(self)

    def resume(self, feed=None):
        """The unfinished game as Referee.restore takes it, or None (ludus.record.readback.resume)."""
        return _readback().resume(self, feed)

    def state(self):
        """resume() with the record as JSON text, or None (ludus.record.readback.state)."""
        return _readback().state(self)

    def finished(self, last=None, actions=True, notes=False):
        """The finished games still in flash (ludus.record.readback.finished)."""
        return _readback().finished(self, last, actions, notes)

    def finished_games(self, last=None):
        """Where each finished game still in flash begins (ludus.record.readback.finished_games)."""
        return _readback().finished_games(self, last)

    def record_at(self, where, feed=None):
        """A finished game as a GameRecord (ludus.record.readback.record_at)."""
        return _readback().record_at(self, where, feed)

    def records(self, last=None):
        """The finished games as game records' JSON (ludus.record.readback.records)."""
        return _readback().records(self, last)

    # ---- writing ----------------------------------------------------------------------------------

    def begin(self, state):
        """A new game: state is Referee.start_state() or Referee.state() at its start (a dict), or its
        JSON text."""
        if not isinstance(state, (str, bytes)):
            state = json.dumps(state)
        self.full = False
        self.blocked_at = -1
        self.game = None  # an unfinished game before it is given up: its blocks may be reused
        return self._append(0x53, state.encode() if isinstance(state, str) else state)

    def add(self, action):
        """An action of the game (a roll or a move, as the record writes it). False if not kept."""
        return self._append(0x41, action.encode())

    def undo(self):
        """The last action taken back."""
        return self._append(0x55, b"")

    def note(self, note):
        """A note on the game (JSON text of a ludus.record.notes note, without its "at": the actions
        before it say where it comes). False if not kept."""
        return self._append(0x4E, note.encode())

    def end(self, result):
        """The game finished; result: its placements or any text (kept with it)."""
        return self._append(0x45, str(result).encode())

    def _append(self, kind, payload):
        if self.full:
            return False
        length = 1 + len(payload)
        need = 3 + length + 2
        if need > self.size - _HEADER:
            raise StateError("a journal record of %d bytes does not fit a %d-byte block" % (need, self.size))
        if self.at + need > self.size:
            if not self._next_sector():
                return False
        record = bytearray(need)
        record[0] = 0x52
        record[1] = length & 255
        record[2] = length >> 8
        record[3] = kind
        record[4 : 4 + len(payload)] = payload
        crc = crc16(record[1 : 3 + length])
        record[need - 2] = crc & 255
        record[need - 1] = crc >> 8
        self._program(self.sector, self.at, record)
        self.at += need
        if kind == 0x53:  # S: the game written now (it stays on flash, see actions())
            self.game = [crc16(payload), len(payload), None, self.seq]
        elif kind == 0x45 and self.game is not None:  # E
            self.game[2] = bytes(payload)
            self.blocked_at = -1  # (its blocks may now be erased ahead)
        return True

    def prepare(self, ahead=0, room=PREPARE_ROOM):
        """Erase a block ahead of need, at most one per call (the firmware calls it while nobody is
        playing): until `ahead` blocks are erased and waiting, and in any case the next one once fewer
        than `room` bytes are left in the block being written. Then the writes that fill this block
        and the next ones never wait for an erase (45 ms typical, up to 400 ms, with the CPU stalled).
        A block that still holds the unfinished game is never taken. True if it erased a block."""
        ready = self.ready
        want = ahead
        if not want and self.at + room > self.size:
            want = 1
        if self.full or len(ready) >= want or self.at == self.blocked_at:
            return False
        n = ((ready[-1] if ready else self.sector) + 1) % self.count
        if n == self.sector or n in ready or self._holds_game(n):
            self.blocked_at = self.at  # (not asked again until a write or a new game)
            return False
        self.flash.ioctl(6, n)
        self.erases += 1
        ready.append(n)
        return True

    def _holds_game(self, n):
        # True if block n holds part of the unfinished game (its start's block or a later one)
        game = self.game
        return game is not None and game[2] is None and game[3] <= self._seq_of(n)

    def _next_sector(self):
        # the block after the one written, erased (or the one prepare() made ready) and given a new
        # header; False if it still holds the unfinished game (the journal is full)
        self.blocked_at = -1
        if self.ready:
            n = self.ready.pop(0)
        else:
            n = (self.sector + 1) % self.count
            if self._holds_game(n):
                self.full = True
                return False
            self.flash.ioctl(6, n)
            self.erases += 1
        self.seq = self._header(n)
        self.sector = n
        self.at = _HEADER
        return True

    def _header(self, n):
        # block n's header (the block erased), one sequence number above every other block
        seq = self.top = self.top + 1
        head = bytearray(9)
        head[:3] = _MAGIC
        for k in range(4):
            head[3 + k] = seq >> (8 * k) & 255
        crc = crc16(head[:7])
        head[7] = crc & 255
        head[8] = crc >> 8
        self._program(n, 0, head)
        return seq

    def _seq_of(self, n):
        # the sequence number in block n's header (-1: none, an erased or torn header)
        head = bytearray(9)
        self.flash.readblocks(n, head, 0)
        if bytes(head[:3]) != _MAGIC or crc16(head[:7]) != head[7] | head[8] << 8:
            return -1
        return head[3] | head[4] << 8 | head[5] << 16 | head[6] << 24

    def _program(self, n, at, data):
        # data at offset `at` of block n, by whole pages padded with 0xFF (earlier bytes kept)
        page = self._page
        view = memoryview(data)
        first = at - at % PAGE
        end = at + len(data)
        while first < end:
            page[:] = _BLANK
            a = at if at > first else first  # the part of data in this page: [a, b) of the block
            b = end if end < first + PAGE else first + PAGE
            page[a - first : b - first] = view[a - at : b - at]
            self.flash.writeblocks(n, page, first)
            self.programmed += PAGE
            first += PAGE

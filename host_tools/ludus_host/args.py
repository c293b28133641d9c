"""Command-line values read strictly, for every `ludus` subcommand: whole numbers in ASCII digits within
a named range, finite decimal numbers within a range, and output paths that can be written. A bad value
is an argparse error: `ludus CMD: argument --x: ...` on one line, exit 2."""

import argparse
import math
import os
from collections.abc import Callable
from typing import NoReturn

from ludus.errors import LudusError
from ludus.scan import ascii_digits


def is_digits(text: str, max_digits: int = 9) -> bool:
    """True if text is 1..max_digits ASCII digits (str.isdigit() also takes '²' and '٤'): the
    firmware's own check, ludus.scan.ascii_digits."""
    return ascii_digits(text, max_digits)


def whole(low: int = 0, high: int = 10**9) -> Callable[[str], int]:
    """An argparse type: a whole number low..high in digits 0-9 (no '²', '٤' or '1e3')."""

    def parse(text: str) -> int:
        if not is_digits(text) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(
                "%r: expected a whole number %d..%d in digits 0-9" % (text, low, high)
            )
        return int(text)

    return parse


def decimal(low: float, high: float, low_open: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite decimal number in low..high (above low when low_open), written with
    ASCII digits (no 'inf', 'nan' or '1e308')."""

    def parse(text: str) -> float:
        allowed = set("0123456789.")
        if not text or len(text) > 20 or not set(text) <= allowed or text.count(".") > 1 or text == ".":
            raise argparse.ArgumentTypeError("%r: expected a number written in digits, like 2.5" % (text,))
        value = float(text)
        if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
            bound = "above %g" % low if low_open else "at least %g" % low
            raise argparse.ArgumentTypeError("%r: expected a number %s and at most %g" % (text, bound, high))
        return value

    return parse


def output_file(text: str) -> str:
    """An argparse type: a path a file can be written to (its folder exists; it is not a folder)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError("%s is a folder: name a file" % text)
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError("%s: folder %s does not exist" % (text, folder))
    return text


def output_folder(text: str) -> str:
    """An argparse type: a folder to write into (made if missing; not an existing file)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty folder name")
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError("%s is a file, not a folder" % text)
    return text


class OverwriteError(LudusError):
    """An output that names an input of the same command (writing it would destroy what was read), or
    two outputs that name one file."""


def same_file(a: str, b: str) -> bool:
    """True when the paths a and b name one file: the same file through any links, or, where either
    does not exist yet, the same place once links are followed."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def inside(path: str, folder: str) -> bool:
    """True when path is in folder or below it (links followed)."""
    return os.path.commonpath([os.path.realpath(path), os.path.realpath(folder)]) == os.path.realpath(folder)


def refuse_overwriting(outputs: list[tuple[str, str | None]], inputs: list[tuple[str, str | None]]) -> None:
    """OverwriteError, before any work, if an output (option, path) names one of the inputs (words,
    path) or another output. '-' (standard input or output) and None (not given) are no file."""
    outs = [(opt, path) for opt, path in outputs if path and path != "-"]
    for opt, path in outs:
        for what, source in inputs:
            if source and source != "-" and same_file(path, source):
                raise OverwriteError(
                    "%s %s is %s, which this command reads: name another file (writing it would"
                    " destroy it)" % (opt, path, what)
                )
    for k, (opt, path) in enumerate(outs):
        for other, second in outs[k + 1 :]:
            if same_file(path, second):
                raise OverwriteError("%s and %s both name %s: name two files" % (opt, other, path))


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (`ludus demo: argument --delay: ...`), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, "%s: %s (see %s --help)\n" % (self.prog, message, self.prog))

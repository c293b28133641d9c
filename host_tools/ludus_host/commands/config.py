"""Write a board's config.json, checked by the firmware's own reader (ludus.config): the defaults, or
an existing file, with fields set from the command line. A configuration with any fault is refused,
each fault named, and nothing is written. docs/config.md.

    ludus config --set board=checkers --set game=checkers --set brightness=40 --out config.json
    ludus config --from config.json --set pins.buzzer=null      # change one field of a file
    ludus config --check config.json                             # only check it"""

import argparse
import json
import sys

from ludus.config import defaults, read_config
from ludus.errors import LudusError

from ludus_host.paths import read_text, write_atomically


class ConfigError(LudusError):
    """A configuration that is refused."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", default=None, help="start from this config.json")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a field (dotted for pins: pins.leds=15); VALUE is JSON, or a bare word for text",
    )
    parser.add_argument("--out", default="-", help="the file to write ('-': standard output, the default)")
    parser.add_argument("--check", default=None, metavar="FILE", help="check FILE, write nothing")


def _value(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text  # a bare word: board=checkers


def run(args: argparse.Namespace) -> int:
    if args.check:
        _config, faults = read_config(read_text(args.check, "config"))
        if faults:
            raise ConfigError("%s is refused:\n  %s" % (args.check, "\n  ".join(faults)))
        print("%s: a valid configuration" % args.check)
        return 0
    if args.source:
        text = read_text(args.source, "config")
        _config, faults = read_config(text)
        if faults:
            raise ConfigError("%s is refused:\n  %s" % (args.source, "\n  ".join(faults)))
        data = json.loads(text)
    else:
        data = defaults()
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError("--set %r: write KEY=VALUE, like brightness=40" % item)
        path = key.split(".")
        node = data
        for part in path[:-1]:
            if not isinstance(node.get(part), dict):
                node[part] = {}
            node = node[part]
        node[path[-1]] = _value(value)
    text = json.dumps(data, indent=2) + "\n"
    _config, faults = read_config(text)
    if faults:
        raise ConfigError("the configuration is refused, nothing written:\n  %s" % "\n  ".join(faults))
    if args.out == "-":
        sys.stdout.write(text)
    else:
        write_atomically(args.out, text)
        print("wrote %s" % args.out, file=sys.stderr)
    return 0

"""Fuzz every parser (notations, move texts, rule sets, records, board definitions, calibration files,
play scripts) with mutated and random inputs: each must give a result or a named error, in bounded
time. Prints the cases tried per entry point and any failure; exit 1 if there is one.

    ludus fuzz --cases 2000 --seed 1      # per entry point; prints one line each, and the failures
    ludus fuzz --seconds 600              # as many as fit
    ludus fuzz --save-corpus FILE         # the device-side inputs, for the MicroPython replay test"""

import argparse
import json
import sys

from ludus_host.args import output_file, whole
from ludus_host.bench import fuzz
from ludus_host.paths import write_atomically


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cases", type=whole(1, 10**7), default=500, help="inputs per entry point (500)")
    parser.add_argument("--seconds", type=whole(1, 10**6), help="fuzz for this long instead")
    parser.add_argument("--seed", type=whole(0, 2**31 - 1), default=1, help="the random seed (1)")
    parser.add_argument(
        "--save-corpus",
        metavar="FILE",
        type=output_file,
        help="write the device-side corpus to FILE and stop",
    )


def run(args: argparse.Namespace) -> int:
    if args.save_corpus:
        write_atomically(
            args.save_corpus, json.dumps(fuzz.corpus(seed=args.seed), indent=0, ensure_ascii=True) + "\n"
        )
        print(args.save_corpus)
        return 0
    tried, failures = fuzz.run(args.cases, args.seconds, args.seed)
    for name, n in tried.items():
        print("%-16s %7d cases" % (name, n))
    for name, text, error in failures[:50]:
        print("FAIL %s: %s on %r" % (name, error, text[:200]), file=sys.stderr)
    print("%d cases, %d failures" % (sum(tried.values()), len(failures)))
    return 1 if failures else 0

"""Fuzz every parser (notations, move texts, rule sets, records, board definitions, calibration files,
play scripts) with mutated and random inputs: each must give a result or a named error, in bounded
time. Prints the cases tried per entry point and any failure; exit 1 if there is one."""

from ludus_host import fuzz


def add_arguments(parser):
    fuzz.add_arguments(parser)


def run(args):
    return fuzz.main(args)

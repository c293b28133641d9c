"""Measurements and stress: the benchmark engine on CPython and the unix port, the emulated Pico's
figures, the simulator's, the collector replay, and the parsers' fuzzer."""

"""Laptop-side tools for Ludus: the `ludus` command, simulator, benchmarks and board generators."""

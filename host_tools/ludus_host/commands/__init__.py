"""The `ludus` subcommands, one module each: its arguments and a call into the part that does the work.
Nothing here is shared: only ludus_host.cli imports these modules, and only the one chosen."""

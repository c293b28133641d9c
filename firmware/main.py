"""Runs at every power-up of the Pico (after boot.py): the Ludus firmware (docs/firmware.md).

Whatever goes wrong is said on USB; the firmware never falls silently into the REPL. Ctrl-C (mpremote
does it) stops it and leaves the REPL to you."""

try:
    from ludus.device import Device
    from ludus.hw.pico import Platform
except Exception as exc:  # a missing or damaged file: say what, and how to mend it
    import sys

    print(
        '{"event": "fault", "where": "main", "error": "the firmware cannot load (%s): run ludus flash"}'
        % (repr(exc).replace('"', "'"),)
    )
    sys.print_exception(exc)
else:
    Device(Platform()).run()

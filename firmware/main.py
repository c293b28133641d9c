"""Runs at every power-up of the Pico (after boot.py): the Ludus firmware (docs/firmware.md).

Whatever goes wrong is said on USB; the firmware never falls silently into the REPL. Ctrl-C (mpremote
does it) stops it and leaves the REPL to you; so does holding the die button down at power-up, when
the firmware is not started at all (no watchdog runs)."""

try:
    from ludus.runtime import transient

    _held = transient("ludus.hw.pico_boot").held_at_power_up()  # (not kept: boot-time code)
except Exception:  # (a missing or damaged file: said below)
    _held = False

if _held:
    print(
        '{"event": "stopped", "why": "the die button was held at power-up", "message": "the REPL has'
        ' the board; machine.reset() starts the firmware again"}'
    )
else:
    try:
        from ludus import heap
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

        def _run():
            Device(Platform()).run()

        # The loop runs inside exec() with a dict of its own. Every collection, MicroPython's own too
        # (gc.threshold, an allocation that finds no room), then marks that dict first, and through
        # it ludus.heap's chain of the modules (docs/firmware.md, "A collection's order").
        exec("run()", {"run": _run, "heap": heap})

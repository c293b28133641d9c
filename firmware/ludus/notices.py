"""What the app says when the board's hardware changes under a game: the sensor chain broken or mended,
the external supply come or gone. Rare, so loaded for each use and not kept on the heap while a game
runs (ludus.app calls it)."""


def chain_changed(app, broken):
    """The sensor chain went broken (or mended): said once each way."""
    app.cut = broken
    if broken:
        app._say(
            {
                "event": "fault",
                "where": "sensors",
                "error": "the sensor chain reads nothing past its last chip: its data line or a"
                " chip is broken (the game waits until the chain reads again)",
            }
        )
    else:
        app._say({"event": "sensors", "ok": True})


def power(app, external):
    """The supply came or went: the LEDs' budget follows. True if it changed (the app then renders the
    next frame under it at once)."""
    app.external = 1 if external else 0
    budget = app._budget()
    scene = app.referee.scene
    changed = scene is not None and scene.budget_ma != budget
    if changed:
        scene.set_budget(budget)
    app._say({"event": "power", "supply": "external" if external else "usb", "budget_ma": budget})
    return changed

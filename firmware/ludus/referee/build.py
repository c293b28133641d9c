"""What a new Referee is made of: the places bound to the board's cells, the occupancy, the light
scene, the sensing buffers. Used once per referee (ludus.referee.core), so loaded for the call and not
kept on the heap while a game runs. A part of ludus.referee."""

from ludus.referee.infer import MoveTable, saturate
from ludus.runtime import transient


def default_scene(board, budget_ma=None):
    """The light scene the referee makes for a board when it is given none (also what the host's board
    validator tries, so it refuses what the referee would). budget_ma: the LEDs' current budget, if not
    the board's own (a config's). ConfigError if the LEDs cannot be driven."""
    from ludus.light.scene import LightScene

    scene = LightScene(
        board.led_count,
        budget_ma=board.led_budget_ma() if budget_ma is None else budget_ma,
        die_faces=board.die_faces,
        ma_per_channel=board.ma_per_channel,
        idle_ma_per_led=int(board.idle_ma + 0.5),
    )
    if len(board.die_pip_leds):
        scene.set_die_leds(board.die_pip_leds)
    return scene


def parts(board, preset, scene, occupancy, settle_ms, calibration, adapter, turn_clock):
    """A referee's parts, in the order Referee.__init__ stores them: adapter, places, place count,
    place names, occupancy, compose, scene, caps, LED of place, starts, the sensing buffers, the move
    table, the turn clock (docs of each in ludus.referee.core)."""
    if adapter is None:  # the preset reader is needed once: not kept on the heap
        adapter = transient("ludus.referee.presets").adapter_for(preset)
    names = ()
    fills = []
    for name, game in adapter.starts():
        if not names:
            names = game.place_names
        fill = bytearray(len(names))
        game.fill_counts(fill)
        fills.append((name, fill))
        game = None
    places = board.bind(names)
    n = len(names)
    analog = board.sensor_kind == "analog" if occupancy is None else occupancy.analog
    if occupancy is None:
        from ludus.sensing.occupancy import Occupancy

        occupancy = Occupancy(
            board.channel_count, settle_ms=settle_ms, analog=analog, calibration=calibration
        )
    if scene is None:
        scene = default_scene(board)
    compose = None
    if scene is not False:
        import ludus.referee.lights

        compose = ludus.referee.lights.compose
    else:
        scene = None  # no LEDs: a referee for tests on a tight heap, or a headless tool
    per_cell = 2 if analog else 1
    cap = bytearray(n)  # the most pieces the sensors can tell apart on each place
    for p in range(n):
        cap[p] = per_cell * places.cell_count[p]
    for _, fill in fills:
        saturate(fill, cap)
    sensed = bytearray(n)
    # what sense_changes() updates from a settled change, in one tuple (one lookup per change): the
    # settled channels last read, cell of channel, place of cell, the sensed counts before
    # saturation, the sensed counts, the caps, the cell count. (Kept only here: every attribute of
    # the referee makes each lookup in its instance dictionary slower, docs/architecture.md.)
    bufs = (
        bytearray(board.channel_count),
        board.cell_of_channel,
        places.place_of_cell,
        bytearray(n),
        sensed,
        cap,
        board.cell_count,
    )
    # the turn clock, None when off: [its length in ms, the tick it runs from, the seat and the turn
    # count it runs for]. (No property for its length: a class with a property makes MicroPython
    # look every attribute stored on its instances up in the class first, a cost on every tick.)
    clock = None
    if turn_clock is not False and adapter.family == "ludo":
        ms = 1000 * (adapter.rules.clock if turn_clock is True else int(turn_clock))
        if ms:
            clock = [ms, 0, -1, -1]
    return (
        adapter,
        places,
        n,
        names,
        occupancy,
        compose,
        scene,
        cap,
        places.led,
        fills,
        sensed,
        bufs,
        MoveTable(cap),
        clock,
    )

"""From sensor levels to settled occupancy: debouncing, the settle time, analog levels and their
calibration. `ludus.sensing.Occupancy` and the rest load their module on first use."""


def __getattr__(attr):
    from ludus.lazy import attribute

    return attribute("ludus.sensing", attr, {"Calibration": "calibration"}, "occupancy")

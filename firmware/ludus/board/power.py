"""The power arithmetic of a board on USB: what current is left for the LEDs once the Pico, the sensors and
a margin are paid. Hardware data, kept with the board; the light scene only takes the budget it is given
(docs/lights.md, "Current budget")."""

from ludus.errors import ConfigError
from ludus.runtime import const

SUPPLY_MA = const(500)  # USB 2.0 port
PICO_MA = const(25)  # RP2040 + regulator, running, no peripherals
SENSOR_UA = const(10)  # per hall sensor: DRV5032-class micropower switch (~2 uA), rounded up
SENSOR_COUNT = const(121)  # the largest board (Chinese Checkers)
MARGIN_PCT = const(10)  # kept in reserve for the die button, inrush and estimation error


def led_budget_ma(
    supply_ma=SUPPLY_MA,
    pico_ma=PICO_MA,
    sensor_count=SENSOR_COUNT,
    sensor_ua=SENSOR_UA,
    margin_pct=MARGIN_PCT,
):
    """mA left for the LEDs (idle draw included) once the Pico, the sensors and a margin are paid.

    With the defaults: 500 - 25 - 121 * 0.010 (rounded up to 2) - 50 = 423 mA. Analog boards with
    DRV5055-class sensors (~6 mA each) must power only a group of sensors at a time; pass the number
    powered at once as sensor_count. Raises ConfigError when nothing is left."""
    sensors_ma = (sensor_count * sensor_ua + 999) // 1000
    left = supply_ma - pico_ma - sensors_ma - supply_ma * margin_pct // 100
    if left <= 0:
        raise ConfigError(
            "no current left for the LEDs: supply %d mA - Pico %d mA - %d sensors x %d uA - %d%% margin"
            % (supply_ma, pico_ma, sensor_count, sensor_ua, margin_pct)
        )
    return left


DEFAULT_BUDGET_MA = led_budget_ma()

"""Track widths for a current, by IPC-2221's conductor-sizing formula (the chart of IPC-2221 section 6.2
fitted as I = k * dT^0.44 * A^0.725, A the cross-section in square mils, k 0.048 for an outer layer and
0.024 for an inner one), and the supply's figures the board's power nets are sized for. Stdlib only:
the pcbnew side and the tests both use it."""

import math

OZ_MIL = 1.378  # the thickness of 1 oz/ft^2 copper, in mils (35 um)
MM_PER_MIL = 0.0254
RISE_C = 10.0  # the temperature rise the tracks are sized for
SUPPLY_A = 4.0  # F1's hold current: the most the jack's path carries for long (hardware/README.md)
USB_A = 0.5  # F2's hold current on USB's VBUS
# a plated via of 0.3 mm drill with IPC class 2's 25 um (about 1 mil) of plating
VIA_DRILL_MM = 0.3
PLATING_MM = 0.025


def area_mil2(current: float, rise: float = RISE_C, outer: bool = True) -> float:
    """The cross-section (square mils) IPC-2221 asks of a conductor carrying CURRENT amps at a RISE of
    degrees Celsius, on an outer layer or an inner one."""
    k = 0.048 if outer else 0.024
    return (current / (k * rise**0.44)) ** (1 / 0.725)


def width_mm(current: float, rise: float = RISE_C, outer: bool = True, oz: float = 1.0) -> float:
    """The track width (mm) for CURRENT amps in OZ copper, by IPC-2221."""
    return area_mil2(current, rise, outer) / (OZ_MIL * oz) * MM_PER_MIL


def rounded_up(value: float, step: float = 0.05) -> float:
    """VALUE rounded up to the next STEP (the width drawn on the board)."""
    return round(math.ceil(value / step - 1e-9) * step, 6)


def via_amps(rise: float = RISE_C) -> float:
    """What one via's plated barrel carries, sized as an inner conductor of the barrel's cross-section."""
    d = VIA_DRILL_MM / MM_PER_MIL
    t = PLATING_MM / MM_PER_MIL
    area = math.pi * (d + t) * t
    return 0.024 * rise**0.44 * area**0.725


SUPPLY_TRACK_MM = rounded_up(width_mm(SUPPLY_A))
RAIL_VIAS = math.ceil(SUPPLY_A / via_amps()) + 1  # the LED rail's feed into its plane, one spare

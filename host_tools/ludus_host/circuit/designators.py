"""The one set of reference designators: the circuit, the BOM, the parts lists, wiring.md and the drawings
all take their names from here. A cell's parts carry the firmware's numbers: the sensor of channel 20 is
H20 (the layout's c20), with its pull-up R120 and capacitor C120; LED index 20 is LED20 (L20) with C320.
Sensor chip k of the chain (k = channel // 8, chip 0 nearest the Pico) is U(10 + k)."""

PICO = "U1"
LEVEL_SHIFTER = "U2"
POWER_MUX = "U3"
SENSOR_REGULATOR = "U4"  # the analog build's 3.3 V buck

CHIP_BASE = 10  # U10, U11, ... the sensor chain's 74HC165s (or the analog build's multiplexers)


def chip(k: int) -> str:
    """Shift register (or multiplexer) number k of the chain."""
    return "U%d" % (CHIP_BASE + k)


def chip_capacitor(k: int) -> str:
    return "C%d" % (50 + k)


def chip_series(k: int) -> str:
    """The series resistor at chip k's serial output QH."""
    return "R%d" % (50 + k)


def sensor(channel: int) -> str:
    return "H%d" % channel


def sensor_capacitor(channel: int) -> str:
    return "C%d" % (100 + channel)


def pull_up(channel: int) -> str:
    return "R%d" % (100 + channel)


def led(index: int) -> str:
    return "LED%d" % index


def led_capacitor(index: int) -> str:
    return "C%d" % (300 + index)


def feed_in(segment: int) -> str:
    """The power terminal at the start of LED segment `segment`."""
    return "J%d" % (10 + segment)


def feed_out(segment: int) -> str:
    """Its mate on the power board, where the segment's 5 V pair starts."""
    return "J%d" % (20 + segment)


def feed_capacitor(segment: int) -> str:
    return "C%d" % (30 + segment)


def chip_input(channel: int) -> str:
    """'U12.C': the chip and input letter that reads CHANNEL (channel = 8 x chip + input, A = 0)."""
    return "%s.%s" % (chip(channel // 8), "ABCDEFGH"[channel % 8])


def ref_range(refs: list[str]) -> str:
    """'H0..H3, H5': REFS (one prefix) written as runs of consecutive numbers."""
    if not refs:
        return ""
    prefix = refs[0].rstrip("0123456789")
    numbers = sorted(int(r[len(prefix) :]) for r in refs)
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    parts = []
    for a, b in runs:
        if a == b:
            parts.append("%s%d" % (prefix, a))
        elif b == a + 1:
            parts.append("%s%d, %s%d" % (prefix, a, prefix, b))
        else:
            parts.append("%s%d..%s%d" % (prefix, a, prefix, b))
    return ", ".join(parts)


def natural_key(ref: str) -> tuple[str, int]:
    """Sort key: U2 before U10, then by prefix."""
    prefix = ref.rstrip("0123456789")
    digits = ref[len(prefix) :]
    return prefix, int(digits) if digits else -1

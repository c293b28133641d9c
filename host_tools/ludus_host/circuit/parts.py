"""Every part the boards use, defined here with its pins, KiCad footprint and manufacturer part number, so
the circuit needs no KiCad symbol library. Pin numbers are the package's (the footprint's pad numbers);
each entry names the datasheet figure its pin map comes from."""

from dataclasses import dataclass

# SKiDL's pin functions, by the names KiCad uses in netlists
PASSIVE = "passive"
INPUT = "input"
OUTPUT = "output"
BIDIR = "bidirectional"
OPEN_DRAIN = "open_collector"
POWER_IN = "power_in"
POWER_OUT = "power_out"
NO_CONNECT = "no_connect"

# footprints not in KiCad 6's library: drawn for the PCBs (issue 37), named here once
PROJECT_FOOTPRINTS = {
    "Ludus:RaspberryPi_Pico": "the Pico module soldered flat: two rows of 20 castellated pads 17.78 mm apart",
    "Ludus:Texas_RUX0012A_VQFN-HR-12_2x2.5mm_P0.5mm": "TPS2121 package, TI drawing RUX0012A",
}


@dataclass(frozen=True)
class PartSpec:
    """A part: its library name, reference prefix, footprint, maker and number, a description for the
    BOM, and its pins as (number, name, function)."""

    name: str
    prefix: str
    footprint: str
    manufacturer: str
    mpn: str
    description: str
    pins: tuple[tuple[str, str, str], ...]
    datasheet: str = ""

    def pin(self, name: str) -> str:
        """The number of the (first) pin called NAME."""
        for number, pin_name, _ in self.pins:
            if pin_name == name:
                return number
        raise KeyError("%s has no pin %r" % (self.name, name))


def _two(a: str = "1", b: str = "2", kind: str = PASSIVE) -> tuple[tuple[str, str, str], ...]:
    return (("1", a, kind), ("2", b, kind))


def _yageo_code(value: str) -> str:
    # Yageo writes 4.7k as 4K7, 10k as 10K and 47 ohm as 47R
    unit = "K" if value.endswith("k") else "R"
    digits = value[:-1] if value.endswith("k") else value
    whole, _, frac = digits.partition(".")
    return whole + unit + frac if frac else whole + unit


def resistor(value: str, size: str = "0603") -> PartSpec:
    """A 1 % thick-film resistor of VALUE ("10k", "4.7k", "47") in SIZE (0603 or 1206, 1/4 W)."""
    metric = {"0603": "1608", "1206": "3216"}[size]
    return PartSpec(
        "R",
        "R",
        "Resistor_SMD:R_%s_%sMetric" % (size, metric),
        "Yageo",
        "RC%sFR-07%sL" % (size, _yageo_code(value)),
        "resistor %s ohm, 1 %%, %s" % (value, size),
        _two(),
    )


CAPACITORS = {
    # value: (description, footprint, manufacturer, mpn)
    "100n": ("100 nF 50 V X7R, 0603", "Capacitor_SMD:C_0603_1608Metric", "Samsung", "CL10B104KB8NNNC"),
    "1u": ("1 uF 25 V X7R, 0603", "Capacitor_SMD:C_0603_1608Metric", "Samsung", "CL10B105KA8NNNC"),
    "10u": ("10 uF 25 V X5R, 0805", "Capacitor_SMD:C_0805_2012Metric", "Samsung", "CL21A106KAYNNNE"),
    "22u": ("22 uF 10 V X5R, 0805", "Capacitor_SMD:C_0805_2012Metric", "Samsung", "CL21A226MPQNNNE"),
    "47n": ("47 nF 50 V X7R, 0603", "Capacitor_SMD:C_0603_1608Metric", "Samsung", "CL10B473KB8NNNC"),
    "100u": (
        "100 uF 10 V aluminium electrolytic, 6.3 x 7.7 mm",
        "Capacitor_SMD:CP_Elec_6.3x7.7",
        "Panasonic",
        "EEE-FK1A101P",
    ),
    "470u": (
        "470 uF 10 V aluminium electrolytic, 8 x 10.2 mm",
        "Capacitor_SMD:CP_Elec_8x10.5",
        "Panasonic",
        "EEE-FK1A471P",
    ),
}


def capacitor(value: str) -> PartSpec:
    """A capacitor of VALUE from CAPACITORS (electrolytics: pin 1 is +)."""
    description, footprint, maker, mpn = CAPACITORS[value]
    pins = _two("+", "-") if "Elec" in footprint else _two()
    return PartSpec(
        "C_Polarized" if "Elec" in footprint else "C", "C", footprint, maker, mpn, description, pins
    )


# The Raspberry Pi Pico's 40 header pins (Raspberry Pi Pico datasheet, "Pinout"): GPIOs are
# bidirectional, VBUS is the USB 5 V it passes out, 3V3(OUT) its regulator's output.
_PICO = [
    ("1", "GP0"),
    ("2", "GP1"),
    ("3", "GND"),
    ("4", "GP2"),
    ("5", "GP3"),
    ("6", "GP4"),
    ("7", "GP5"),
    ("8", "GND"),
    ("9", "GP6"),
    ("10", "GP7"),
    ("11", "GP8"),
    ("12", "GP9"),
    ("13", "GND"),
    ("14", "GP10"),
    ("15", "GP11"),
    ("16", "GP12"),
    ("17", "GP13"),
    ("18", "GND"),
    ("19", "GP14"),
    ("20", "GP15"),
    ("21", "GP16"),
    ("22", "GP17"),
    ("23", "GND"),
    ("24", "GP18"),
    ("25", "GP19"),
    ("26", "GP20"),
    ("27", "GP21"),
    ("28", "GND"),
    ("29", "GP22"),
    ("30", "RUN"),
    ("31", "GP26"),
    ("32", "GP27"),
    ("33", "AGND"),
    ("34", "GP28"),
    ("35", "ADC_VREF"),
    ("36", "3V3_OUT"),
    ("37", "3V3_EN"),
    ("38", "GND"),
    ("39", "VSYS"),
    ("40", "VBUS"),
]


def _pico_kind(name: str) -> str:
    if name in ("GND", "AGND"):
        return POWER_IN
    if name in ("3V3_OUT", "VBUS"):
        return POWER_OUT
    if name == "VSYS":
        return POWER_IN
    if name in ("RUN", "3V3_EN", "ADC_VREF"):
        return PASSIVE
    return BIDIR


PICO = PartSpec(
    "RaspberryPi_Pico",
    "U",
    "Ludus:RaspberryPi_Pico",
    "Raspberry Pi",
    "SC0915",
    "Raspberry Pi Pico (RP2040), soldered as a module",
    tuple((n, name, _pico_kind(name)) for n, name in _PICO),
)

# 74HC165 in SO-16 (Nexperia 74HC165 datasheet, Fig. 3 pin configuration): parallel inputs A..H on
# pins 11-14 and 3-6
HC165 = PartSpec(
    "74HC165",
    "U",
    "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "Nexperia",
    "74HC165D,653",
    "8-bit parallel-in serial-out shift register, SO-16",
    (
        ("1", "SH/LD", INPUT),
        ("2", "CLK", INPUT),
        ("3", "E", INPUT),
        ("4", "F", INPUT),
        ("5", "G", INPUT),
        ("6", "H", INPUT),
        ("7", "QH'", OUTPUT),
        ("8", "GND", POWER_IN),
        ("9", "QH", OUTPUT),
        ("10", "SER", INPUT),
        ("11", "A", INPUT),
        ("12", "B", INPUT),
        ("13", "C", INPUT),
        ("14", "D", INPUT),
        ("15", "CLK_INH", INPUT),
        ("16", "VCC", POWER_IN),
    ),
)
HC165_INPUTS = "ABCDEFGH"

# SN74AHCT125 in SOIC-14 (TI SCLS264, pin configuration): four buffers, active-low output enables
AHCT125 = PartSpec(
    "74AHCT125",
    "U",
    "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    "Texas Instruments",
    "SN74AHCT125DR",
    "quad buffer, TTL-level inputs, 5 V (LED data level shifter), SOIC-14",
    (
        ("1", "1OE", INPUT),
        ("2", "1A", INPUT),
        ("3", "1Y", OUTPUT),
        ("4", "2OE", INPUT),
        ("5", "2A", INPUT),
        ("6", "2Y", OUTPUT),
        ("7", "GND", POWER_IN),
        ("8", "3Y", OUTPUT),
        ("9", "3A", INPUT),
        ("10", "3OE", INPUT),
        ("11", "4Y", OUTPUT),
        ("12", "4A", INPUT),
        ("13", "4OE", INPUT),
        ("14", "VCC", POWER_IN),
    ),
)

# CD74HC4067 in SOIC-24W (TI SCHS209, pin configuration; KiCad's 74xx:CD74HC4067M agrees)
_MUX_INPUT_PINS = ("9", "8", "7", "6", "5", "4", "3", "2", "23", "22", "21", "20", "19", "18", "17", "16")
CD74HC4067 = PartSpec(
    "CD74HC4067",
    "U",
    "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "Texas Instruments",
    "CD74HC4067M96",
    "16-channel analog multiplexer, at 3.3 V, SOIC-24W",
    (("1", "COM", PASSIVE),)
    + tuple((_MUX_INPUT_PINS[i], "I%d" % i, PASSIVE) for i in range(16))
    + (("10", "S0", INPUT), ("11", "S1", INPUT), ("14", "S2", INPUT), ("13", "S3", INPUT))
    + (("12", "GND", POWER_IN), ("15", "~E", INPUT), ("24", "VCC", POWER_IN)),
)

# DRV5032DU in SOT-23 (TI SLVSDC7, device comparison and DBZ pin configuration: 1 VCC, 2 OUT, 3 GND);
# unipolar, push-pull, 20 Hz, BOP at most 3.9 mT
DRV5032DU = PartSpec(
    "DRV5032DU",
    "H",
    "Package_TO_SOT_SMD:SOT-23",
    "Texas Instruments",
    "DRV5032DUDBZR",
    "hall switch, unipolar, push-pull, 20 Hz, BOP <= 3.9 mT, SOT-23",
    (("1", "VCC", POWER_IN), ("2", "OUT", OUTPUT), ("3", "GND", POWER_IN)),
)
# DRV5055A3 in SOT-23 (TI SBAS640, pin configuration: 1 VCC, 2 OUT, 3 GND)
DRV5055A3 = PartSpec(
    "DRV5055A3",
    "H",
    "Package_TO_SOT_SMD:SOT-23",
    "Texas Instruments",
    "DRV5055A3QDBZR",
    "linear hall sensor, about 15 mV/mT at 3.3 V, SOT-23",
    (("1", "VCC", POWER_IN), ("2", "OUT", OUTPUT), ("3", "GND", POWER_IN)),
)
# WS2812B 5050 (Worldsemi WS2812B datasheet, pin function: 1 VDD, 2 DOUT, 3 VSS, 4 DIN)
WS2812B = PartSpec(
    "WS2812B",
    "LED",
    "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    "Worldsemi",
    "WS2812B",
    "RGB LED with controller, 5050",
    (("1", "VDD", POWER_IN), ("2", "DOUT", OUTPUT), ("3", "VSS", POWER_IN), ("4", "DIN", INPUT)),
)
# TPS2121 in VQFN-HR-12 (TI SLVSEA3, Figure 6-2 and pin functions); its two OUT pins are one switch,
# typed passive so that they do not clash as two power outputs (the rail carries a power flag instead)
TPS2121 = PartSpec(
    "TPS2121",
    "U",
    "Ludus:Texas_RUX0012A_VQFN-HR-12_2x2.5mm_P0.5mm",
    "Texas Instruments",
    "TPS2121RUXR",
    "2-input priority power mux, 2.8-22 V, 4.5 A, reverse blocking, VQFN-HR-12",
    (
        ("1", "OUT", PASSIVE),
        ("2", "IN2", POWER_IN),
        ("3", "CP2", INPUT),
        ("4", "OV2", INPUT),
        ("5", "OV1", INPUT),
        ("6", "PR1", INPUT),
        ("7", "IN1", POWER_IN),
        ("8", "OUT", PASSIVE),
        ("9", "ST", OPEN_DRAIN),
        ("10", "ILM", PASSIVE),
        ("11", "SS", PASSIVE),
        ("12", "GND", POWER_IN),
    ),
)
# TPS563201 in SOT-23-6 (TI SLVSDA5, pin configuration: 1 GND, 2 SW, 3 VIN, 4 VFB, 5 EN, 6 VBST)
TPS563201 = PartSpec(
    "TPS563201",
    "U",
    "Package_TO_SOT_SMD:SOT-23-6",
    "Texas Instruments",
    "TPS563201DDCR",
    "3 A synchronous buck converter, 4.5-17 V in, SOT-23-6",
    (
        ("1", "GND", POWER_IN),
        ("2", "SW", OUTPUT),
        ("3", "VIN", POWER_IN),
        ("4", "VFB", INPUT),
        ("5", "EN", INPUT),
        ("6", "VBST", PASSIVE),
    ),
)
# AO4435 P-MOSFET in SOIC-8 (AOS AO4435 datasheet: 1-3 S, 4 G, 5-8 D)
AO4435 = PartSpec(
    "AO4435",
    "Q",
    "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm",
    "Alpha & Omega",
    "AO4435",
    "P-MOSFET -30 V -10.5 A, RDS(on) < 36 mOhm at VGS -5 V (reverse-polarity guard), SOIC-8",
    (
        ("1", "S", PASSIVE),
        ("2", "S", PASSIVE),
        ("3", "S", PASSIVE),
        ("4", "G", INPUT),
        ("5", "D", PASSIVE),
        ("6", "D", PASSIVE),
        ("7", "D", PASSIVE),
        ("8", "D", PASSIVE),
    ),
)
# 2N7002 in SOT-23 (onsemi 2N7002: 1 G, 2 S, 3 D)
N7002 = PartSpec(
    "2N7002",
    "Q",
    "Package_TO_SOT_SMD:SOT-23",
    "onsemi",
    "2N7002LT1G",
    "N-MOSFET 60 V 115 mA (buzzer driver), SOT-23",
    (("1", "G", INPUT), ("2", "S", PASSIVE), ("3", "D", PASSIVE)),
)
# diodes: pin 1 is the cathode (KiCad's diode footprints mark pad 1 as K)
SMAJ12A = PartSpec(
    "SMAJ12A",
    "D",
    "Diode_SMD:D_SMA",
    "Littelfuse",
    "SMAJ12A",
    "TVS 400 W, 12 V stand-off, 13.3 V breakdown (min), unidirectional, SMA",
    _two("K", "A"),
)
MBR0520 = PartSpec(
    "MBR0520",
    "D",
    "Diode_SMD:D_SOD-123",
    "onsemi",
    "MBR0520LT1G",
    "Schottky 20 V 0.5 A (LED rail into the Pico's VSYS), SOD-123",
    _two("K", "A"),
)
BAT54WS = PartSpec(
    "BAT54WS",
    "D",
    "Diode_SMD:D_SOD-323",
    "Diodes Inc.",
    "BAT54WS-7-F",
    "Schottky 30 V 0.2 A (supply-sense clamp), SOD-323",
    _two("K", "A"),
)
N4148W = PartSpec(
    "1N4148W",
    "D",
    "Diode_SMD:D_SOD-123",
    "Diodes Inc.",
    "1N4148W-7-F",
    "switching diode 75 V 0.3 A (buzzer flyback), SOD-123",
    _two("K", "A"),
)
PTC_4A = PartSpec(
    "Polyfuse",
    "F",
    "Fuse:Fuse_2920_7451Metric",
    "Bourns",
    "MF-LSMF400/16X-2",
    "resettable fuse, 4 A hold, 8 A trip, 16 V, 2920",
    _two(),
)
PTC_05A = PartSpec(
    "Polyfuse",
    "F",
    "Fuse:Fuse_1812_4532Metric",
    "Bourns",
    "MF-MSMF050-2",
    "resettable fuse, 0.5 A hold, 1 A trip, 15 V, 1812",
    _two(),
)
# CUI PJ-102AH (KiCad's footprint of the same name: 1 centre pin, 2 sleeve, 3 switch)
JACK = PartSpec(
    "Barrel_Jack_Switch",
    "J",
    "Connector_BarrelJack:BarrelJack_CUI_PJ-102AH_Horizontal",
    "CUI Devices",
    "PJ-102AH",
    "DC jack 5.5 mm, 2.1 mm centre pin, 5 A (external 5 V, centre positive)",
    (("1", "+", PASSIVE), ("2", "-", PASSIVE), ("3", "SW", NO_CONNECT)),
)
TERMINAL = PartSpec(
    "Screw_Terminal_01x02",
    "J",
    "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal",
    "Phoenix Contact",
    "1715721",
    "screw terminal 2 x 5.08 mm, 13.5 A (LED power feed)",
    _two("5V", "GND"),
)
# the CMT-8503/8504 family's pads: 1 +, 2 -, 3 and 4 mechanical only
BUZZER = PartSpec(
    "Buzzer",
    "BZ",
    "Buzzer_Beeper:MagneticBuzzer_CUI_CMT-8504-100-SMT",
    "CUI Devices",
    "CMT-8504-100-SMT-TR",
    "magnetic transducer, externally driven, 5 V, 4 kHz rated, 100 dB at 10 cm",
    (("1", "+", PASSIVE), ("2", "-", PASSIVE), ("3", "MNT", NO_CONNECT), ("4", "MNT", NO_CONNECT)),
)
BUTTON = PartSpec(
    "SW_Push",
    "SW",
    "Button_Switch_THT:SW_PUSH-12mm",
    "Omron",
    "B3F-4055",
    "12 mm tactile switch (the die button)",
    _two(),
)
INDUCTOR = PartSpec(
    "L",
    "L",
    "Inductor_SMD:L_Taiyo-Yuden_NR-40xx",
    "Taiyo Yuden",
    "NR4018T3R3M",
    "inductor 3.3 uH 1.9 A, 4 x 4 mm",
    _two(),
)

"""The two footprints KiCad 6's library lacks, drawn here and written as the library Ludus.pretty
(hardware/footprints/): the Raspberry Pi Pico soldered flat by its castellations, and the TPS2121's
VQFN-HR package, each from the figures its maker publishes. Stdlib only: the pcbnew side loads the
written files."""

import os

LIBRARY = "Ludus"
PICO = "RaspberryPi_Pico"
TPS2121 = "Texas_RUX0012A_VQFN-HR-12_2x2.5mm_P0.5mm"

# Raspberry Pi Pico datasheet (build-date 2023), chapter 2, Figure 3 "dimensions of the Raspberry Pi Pico
# Rev3 board": a 21 x 51 mm module, its 40 pins on a 2.54 mm pitch in two rows 17.78 mm apart (48.26 mm
# from the first pin to the last), castellations 1.6 mm wide; the micro-USB connector overhangs the top
# edge by 1.3 mm. Pin 1 is top left seen from the top, 1-20 down the left side, 21-40 up the right.
PICO_W, PICO_H = 21.0, 51.0
PICO_ROW_X = 8.89
PICO_PITCH = 2.54
# the pads of Raspberry Pi's own surface-mount footprint for the module (RPi_Pico_SMD_TH, shipped with the
# Pico's KiCad files, the datasheet's Figure 5): 3.5 x 1.7 mm centred on the header holes' rows, so each
# reaches from inside the hole's position to 0.14 mm past the module's edge, where the castellation's
# solder fillet forms
PICO_PAD = (3.5, 1.7)
PICO_PAD_X = PICO_ROW_X
USB_OVERHANG = 1.3

# TPS2121 in TI's RUX0012A (VQFN-HR, 2.0 x 2.5 mm body, 12 pins at 0.5 mm): TI's land pattern (package
# drawing MPQF508, "example board layout"), as KiCad's own library draws it for
# Texas_VQFN-HR-12_2x2.5mm_P0.5mm: the four power pins (1 OUT, 2 IN2, 7 IN1, 8 OUT) are 1.05 x 0.4 mm pads
# at x = -/+0.675, y = -/+0.35; the eight signal pins 0.2 x 0.6 mm pads at 0.5 mm pitch, four along each
# short side at y = +/-1.15 (3-6 along the bottom, 9-12 along the top, left to right 3..6 and 12..9).
RUX_BODY = (2.0, 2.5)
RUX_POWER_PAD = (1.05, 0.4)
RUX_POWER_X, RUX_POWER_Y = 0.675, 0.35
RUX_SIGNAL_PAD = (0.2, 0.6)
RUX_SIGNAL_Y = 1.15


def pico_pads() -> list[tuple[str, float, float]]:
    """(number, x, y) of the Pico's 40 pads, seen from the top, USB up."""
    pads = []
    for i in range(20):
        y = -PICO_PITCH * 9.5 + PICO_PITCH * i
        pads.append((str(i + 1), -PICO_PAD_X, y))
        pads.append((str(40 - i), PICO_PAD_X, y))
    return sorted(pads, key=lambda p: int(p[0]))


def rux_pads() -> list[tuple[str, float, float, float, float]]:
    """(number, x, y, width, height) of the TPS2121's 12 pads."""
    pw, ph = RUX_POWER_PAD
    sw, sh = RUX_SIGNAL_PAD
    pads = [
        ("1", -RUX_POWER_X, -RUX_POWER_Y, pw, ph),
        ("2", -RUX_POWER_X, RUX_POWER_Y, pw, ph),
        ("7", RUX_POWER_X, RUX_POWER_Y, pw, ph),
        ("8", RUX_POWER_X, -RUX_POWER_Y, pw, ph),
    ]
    for k in range(4):
        x = -0.75 + 0.5 * k
        pads.append((str(3 + k), x, RUX_SIGNAL_Y, sw, sh))
        pads.append((str(12 - k), x, -RUX_SIGNAL_Y, sw, sh))
    return sorted(pads, key=lambda p: int(p[0]))


def _rect(x0: float, y0: float, x1: float, y1: float, layer: str, width: float) -> list[str]:
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return [
        '  (fp_line (start %g %g) (end %g %g) (layer "%s") (width %g))' % (*a, *b, layer, width)
        for a, b in zip(corners, corners[1:] + corners[:1])
    ]


def _text(kind: str, value: str, y: float, layer: str) -> str:
    return '  (fp_text %s "%s" (at 0 %g) (layer "%s")\n    (effects (font (size 1 1) (thickness 0.15))))' % (
        kind,
        value,
        y,
        layer,
    )


def pico_mod() -> str:
    """The Pico's footprint (KiCad 6 s-expression)."""
    w, h = PICO_W / 2, PICO_H / 2
    lines = [
        '(footprint "%s" (version 20211014) (generator ludus_host)' % PICO,
        '  (layer "F.Cu")',
        '  (descr "Raspberry Pi Pico, reflowed flat by its castellated pins (Pico datasheet, mechanical)")',
        "  (attr smd)",
        _text("reference", "REF**", -h - 3, "F.SilkS"),
        _text("value", PICO, 0, "F.Fab"),
    ]
    lines += _rect(-w, -h, w, h, "F.Fab", 0.1)
    lines += _rect(-4.0, -h - USB_OVERHANG, 4.0, -h + 4.5, "F.Fab", 0.1)  # the USB connector
    reach = PICO_PAD_X + PICO_PAD[0] / 2  # the pads' outer ends
    lines += _rect(-reach - 0.25, -h - USB_OVERHANG - 0.25, reach + 0.25, h + 0.25, "F.CrtYd", 0.05)
    lines += _rect(-w - 0.12, -h - 0.12, w + 0.12, h + 0.12, "F.SilkS", 0.12)
    lines.append(
        '  (fp_circle (center %g %g) (end %g %g) (layer "F.SilkS") (width 0.12))'
        % (-w - 1.2, -h + 1.27, -w - 0.9, -h + 1.27)
    )
    for number, x, y in pico_pads():
        lines.append(
            '  (pad "%s" smd %s (at %g %g) (size %g %g) (layers "F.Cu" "F.Paste" "F.Mask"))'
            % (number, "rect", x, y, *PICO_PAD)
        )
    return "\n".join(lines) + "\n)\n"


def rux_mod() -> str:
    """The TPS2121's footprint (KiCad 6 s-expression)."""
    w, h = RUX_BODY[0] / 2, RUX_BODY[1] / 2
    lines = [
        '(footprint "%s" (version 20211014) (generator ludus_host)' % TPS2121,
        '  (layer "F.Cu")',
        '  (descr "TI RUX0012A VQFN-HR 2 x 2.5 mm, 12 pins at 0.5 mm (TPS2121)")',
        "  (attr smd)",
        _text("reference", "REF**", -h - 1.2, "F.SilkS"),
        _text("value", TPS2121, h + 1.2, "F.Fab"),
    ]
    lines += _rect(-w, -h, w, h, "F.Fab", 0.1)
    lines += _rect(-1.62, -1.88, 1.62, 1.88, "F.CrtYd", 0.05)
    lines.append(
        '  (fp_circle (center %g %g) (end %g %g) (layer "F.SilkS") (width 0.12))' % (-1.4, -1.55, -1.3, -1.55)
    )
    for number, x, y, pw, ph in rux_pads():
        lines.append(
            '  (pad "%s" smd roundrect (at %g %g) (size %g %g) (layers "F.Cu" "F.Paste" "F.Mask")'
            " (roundrect_rratio 0.25))" % (number, x, y, pw, ph)
        )
    return "\n".join(lines) + "\n)\n"


def library() -> dict[str, str]:
    """File name: text of every footprint of the Ludus library."""
    return {PICO + ".kicad_mod": pico_mod(), TPS2121 + ".kicad_mod": rux_mod()}


def write_library(folder: str) -> list[str]:
    """The Ludus library written as FOLDER/Ludus.pretty/; the paths written."""
    path = os.path.join(folder, LIBRARY + ".pretty")
    os.makedirs(path, exist_ok=True)
    written = []
    for name, text in library().items():
        with open(os.path.join(path, name), "w", encoding="utf-8") as f:
            f.write(text)
        written.append(os.path.join(path, name))
    return written

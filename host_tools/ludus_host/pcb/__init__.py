"""The boards' PCBs: each board's circuit placed at its cells and routed with KiCad's pcbnew, checked by
its design rules, and written as a KiCad board, Gerbers, drill files, a position file, a BOM and pictures."""

# the boards whose PCB is routed whole and DRC clean, and committed under hardware/BOARD/pcb/; the others
# are left out until the router finishes them (hardware/README.md, "The PCBs": what is left), and
# `ludus boards pcb --board NAME` tries one
FINISHED = ("checkers", "ludo52", "ludo40", "ludo56", "ludo40-analog")

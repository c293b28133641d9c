"""The boards' PCBs: each board's circuit placed at its cells and routed with KiCad's pcbnew, checked by
its design rules, and written as a KiCad board, Gerbers, drill files, a position file, a BOM and pictures."""

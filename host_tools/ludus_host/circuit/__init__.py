"""The boards' electronics as code: each board's circuit described with SKiDL from its definition and the
firmware's pins, checked, and written as a KiCad netlist, a schematic drawing and a BOM (hardware/BOARD/)."""

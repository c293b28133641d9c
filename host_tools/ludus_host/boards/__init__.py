"""Board definition files and the documents made from them: parts lists, drawings, magnetics (the
circuit and the PCB are the sibling packages ludus_host.circuit and ludus_host.pcb)."""

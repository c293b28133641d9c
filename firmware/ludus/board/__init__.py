"""Board definitions: the place vocabulary every board shares, the definition tables (cells, sensor
channels, LEDs) loaded from hardware/boards/*.json, their checks, and the board's power arithmetic."""

"""The lights: the colour and pattern table (colour-blind safe), the LED frame with its current budget,
and the frame loop's native kernel."""

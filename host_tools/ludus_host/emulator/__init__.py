"""The emulated Pico: the Node.js harness driven from Python, a table played on its pins, and the
journal written into its flash."""

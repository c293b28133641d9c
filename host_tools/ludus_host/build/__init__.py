"""What goes on the Pico: the compiled firmware image, the tree `ludus flash` copies, and the
freezing manifest and mip package written from one file list."""

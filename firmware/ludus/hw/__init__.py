"""Hardware drivers (hall-effect sensors, NeoPixels, the die button). The only package that imports
machine, neopixel or rp2; everything else takes objects with the same small interface."""

"""Makes the firmware tests' helper module importable under pytest, as the MicroPython runner does."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "firmware"))

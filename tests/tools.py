"""What the host-side tests share: the checkout's root, the MicroPython heap budget, and the tool chain
(ludus_host.paths, the one place the host tools look these up)."""

from ludus_host.paths import ROOT, tool  # noqa: F401 (re-exported for the tests)

HEAP = "160K"

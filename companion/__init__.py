"""The game-night table companion: sessions over the rules engines, and the Kivy app."""

import os

# Before anything imports numpy: one BLAS thread. A scan is many small matrix products (the
# recogniser correlates each card's shortlist through them); OpenBLAS's workers gain nothing there,
# and while the other cores are busy (the camera thread, Kivy) they spin waiting for each other: a
# scan of 30 cards took 700 ms instead of 210 ms with the second core of the development machine
# loaded. The app and every subcommand start in this package; the environment can override it.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

__version__ = "0.1.0"

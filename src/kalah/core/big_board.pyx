# cython: language_level=3, boundscheck=False, wraparound=False
# The big build of the compiled board: board.pyx compiled with KALAH_BIG (csrc/board.h: 16-bit
# cells, up to 12 pits; setup.py), for the boards the byte build cannot hold. kalah.core picks it.
include "board.pyx"

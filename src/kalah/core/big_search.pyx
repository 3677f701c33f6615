# cython: language_level=3, boundscheck=False, wraparound=False
# The big build of the compiled search: search.pyx over csrc/big.c (search.c, smp.c, mcts.c and
# reference.c with KALAH_BIG: 16-bit cells, up to 12 pits; setup.py). kalah.core picks it by board.
include "search.pyx"

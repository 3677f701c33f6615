/* The big build of the search (kalah.core.big_search, setup.py): search.c, smp.c, mcts.c and
 * reference.c again, compiled with KALAH_BIG (16-bit cells, up to 12 pits: board.h). One file, so
 * that its object never takes the place of the byte build's search.o in the build directory. */
#ifndef KALAH_BIG
#error "big.c is the big build: compile it with -DKALAH_BIG"
#endif
#include "search.c"
#include "smp.c"
#include "mcts.c"
#include "reference.c"

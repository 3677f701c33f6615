/* UCT compiled with its trace hooks (mcts.h): part of the kalah.core.trace extension.
 * A file of its own so that its object does not replace the release build's mcts.o. */
#ifndef KALAH_TRACE
#error "mcts_traced.c is the trace build: compile it with -DKALAH_TRACE"
#endif
#include "mcts.c"

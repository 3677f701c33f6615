/* The one clock of the core: deadlines and timings of the search, lazy SMP,
 * MCTS and the solver, in seconds on CLOCK_MONOTONIC (never set back). */
#ifndef KALAH_CLOCK_H
#define KALAH_CLOCK_H

#include <time.h>

static inline double kalah_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif

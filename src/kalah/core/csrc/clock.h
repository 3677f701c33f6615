/* The one clock of the core: deadlines and timings of the search, lazy SMP,
 * MCTS and the solver, in seconds on CLOCK_MONOTONIC (never set back). */
#ifndef KALAH_CLOCK_H
#define KALAH_CLOCK_H

#include <time.h>

/* Not inlined: the searches read the clock once in a thousand nodes, and a call keeps the node
 * functions as small as when the clock lived in a .c file (inlined, alpha-beta took 0.4% more
 * instructions, bench_instructions.py). */
static __attribute__((noinline, unused)) double kalah_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif

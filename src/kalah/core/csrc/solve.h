/* The exact solver: fail-soft alpha-beta null-window tests (driven as MTD(f)
 * by kalah.solve) over the seeds in the pits, with a large shared
 * transposition table, endgame-database probes through kalah_oracle, and
 * several threads (ABDADA: they search the same tree, each leaving children
 * that another thread is busy with for later, and share what they prove
 * through the table). Moves are played on 128-bit pits-only words
 * (kalah_pits_play in endgame.h).
 *
 * Values are "pits values": the best final margin the side to move can still
 * get from the seeds in the pits, stores excluded. A position is given as its
 * pits from the mover's view (the mover's m pits, then the opponent's m).
 * Because the stores never matter, every entry of the table stays true for
 * the lifetime of the solver, whatever root it is asked about next.
 */
#ifndef KALAH_SOLVE_H
#define KALAH_SOLVE_H

#include <stdint.h>

#include "board.h"
#include "clock.h"

typedef struct kalah_solver kalah_solver;

/* The solver's threads at most (kalah.core.solver.MAX_THREADS: Python reads this one). */
#define KALAH_MAX_THREADS 16

/* Bytes of one table entry (a 64-bit slot, see solve.c). */
#define KALAH_SOLVER_ENTRY_BYTES 8

/* A solver for m pits and the capture rule, with a table of 2^tt_log2 entries. */
kalah_solver *kalah_solver_new(int pits, int empty_capture, int tt_log2);
void kalah_solver_free(kalah_solver *solver);

/* The oracle stays owned by the caller and must outlive its use (NULL: none). */
void kalah_solver_set_oracle(kalah_solver *solver, const kalah_oracle *oracle);

/* Forget the table. */
void kalah_solver_clear(kalah_solver *solver);

/* A fail-soft alpha-beta search of `pits` with window (alpha, beta) on `threads`
 * threads. Returns the value g: g <= alpha means the value is at most g,
 * g >= beta at least g, otherwise exactly g. When deadline (a CLOCK_MONOTONIC
 * time in seconds, 0 for none) passes or *stop becomes nonzero, *aborted is set
 * and the result means nothing. *nodes receives the nodes visited. */
int kalah_solver_search(kalah_solver *solver, const uint8_t *pits, int alpha, int beta, int threads, double deadline,
                        volatile int *stop, int *aborted, uint64_t *nodes);

/* Ask the search given `stop` to end (from any thread; the search reads the flag atomically). */
static inline void kalah_solver_request_stop(volatile int *stop)
{ __atomic_store_n(stop, 1, __ATOMIC_RELAXED); }

/* What the table knows of a position: returns 1 and the bounds (and the best
 * move, or -1) when it holds an entry. */
int kalah_solver_lookup(kalah_solver *solver, const uint8_t *pits, int *lower, int *upper, int *best);

#endif

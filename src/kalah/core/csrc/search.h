/* The search engine: Minimax, AlphaBeta, Scout, PVS and MTD(f) on the flat board
 * (search.c, with the table in table.h and the move ordering in order.h); UCT
 * is in mcts.h, the benchmarks' yardstick in reference.c.
 *
 * Conventions shared by every algorithm:
 * - negamax values from the point of view of the side to move, in the units of
 *   evaluate.h (KALAH_UNIT per seed); a finished game is its exact margin;
 * - depth counts moves (sowings): a move that earns an extra turn uses one
 *   unit of depth and keeps the same side to move, so its value is not negated;
 * - the swap of the pie rule is a move like any other;
 * - the root's best move is the legal move of highest value, ties going to
 *   the lowest move code (pits ascending, the swap last), whatever order the
 *   moves were searched in.
 */
#ifndef KALAH_SEARCH_H
#define KALAH_SEARCH_H

#include "board.h"
#include "clock.h"
#include "evaluate.h"

#define KS_INF        1000000
#define KS_MAX_DEPTH  120
#define KS_NO_MOVE    254
#define KS_ASPIRATION KALAH_UNIT /* a seed each side of the last value: 2-6 % fewer nodes than a full window */
/* A pvs search to a fixed depth d (no deadline) iterates at d - 8, d - 4 and d only: the table
 * of an iteration four plies shorter orders the moves about as well as that of the one just
 * before, and the iterations in between cost more than they save. From the start of Kalah(6,4),
 * best move only: depth 20 in 1.84 million nodes instead of 3.21, depth 24 in 9.2 instead of
 * 23.0; 20 middle-game positions at depth 20, 12.5 instead of 23.5 (steps of 2, 3 and 5, and
 * one or three preparatory iterations, did worse overall). The values are those of depth d
 * whatever the iterations before: only the order of the moves changes. */
#define KS_PREPARE_STEP       4
#define KS_PREPARE_ITERATIONS 2
/* Shallower searches deepen one ply at a time: they take milliseconds, and a trace of one
 * (kalah.trace, the lab page: depth 12 at most) shows every iteration. */
#define KS_PREPARE_MIN_DEPTH 13

enum { KS_MINIMAX = 0, KS_ALPHABETA = 1, KS_SCOUT = 2, KS_PVS = 3, KS_MTDF = 4 };
/* What a value is: exact, a lower bound (the seeds' '≥') or an upper bound ('≤'). */
enum { KS_EXACT = 0, KS_LOWER = 1, KS_UPPER = 2, KS_UNKNOWN = 3 };

/* One transposition-table entry (16 bytes; the table's code is in table.h). */
typedef struct {
    uint64_t key;   /* in the table: the key XORed with `data` (table.h) */
    union {
        struct {
            int32_t value;
            int8_t depth;
            uint8_t flag;   /* KS_EXACT, KS_LOWER, KS_UPPER */
            uint8_t move;   /* best or refuting move, KS_NO_MOVE if none */
            uint8_t proven; /* bit 0: no heuristic leaf contributed, the bound holds at any depth >= depth */
        };
        uint64_t data;  /* the fields above as one word, read and written atomically */
    };
} ks_entry;

/* What a search counts as it goes (the counters Python reports, and two of its own). */
typedef struct {
    uint64_t nodes;         /* every position the search entered, leaves included */
    uint64_t leaves;        /* leaf evaluations: finished games, depth-limit heuristics, oracle probes */
    uint64_t tt_probes;     /* transposition-table look-ups */
    uint64_t tt_hits;       /* look-ups that found a usable entry */
    uint64_t cutoffs;       /* beta cut-offs (TEST successes for Scout) */
    uint64_t researches;    /* PVS re-searches, Scout EVALs after a TEST, extra MTD(f) passes */
    uint64_t oracle_probes; /* exact values from the endgame oracle */
    uint64_t heuristic;     /* heuristic leaves seen (and heuristic table values used): 0 means proven */
    uint64_t busiest_nodes; /* ks_iterate_threads: the most nodes one thread searched (its wall-clock share) */
} ks_stats;

/* What a search is asked to do: set by ks_init and the caller before a search, only read during it. */
typedef struct {
    kalah_rules rules;
    int eval;                   /* KALAH_EVAL_* */
    const kalah_oracle *oracle; /* optional exact endgame values */
    int use_table; /* look values up (memoization); entries are still written for move ordering and the PV */
    int deeper_entries; /* entries of deeper searches answer too (tournament engines' rule); 0: only at their
                         * own depth (or when proven), so that values are those of depth-limited minimax */
    int ordering;       /* order moves (table move, extra turns, captures); 0: pits in order */
    int all_values;     /* root: the exact value of every move, not just the best */
    int aspiration;     /* pvs: search the root's first move in a window around the last iteration's value (on) */
    double deadline;      /* seconds on the monotonic clock; 0: none */
    double soft_deadline; /* past it, stop after an iteration once the best move is settled; 0: none */
} ks_settings;

/* What the context shares with other threads (smp.c) or keeps from one search to the next: the table. */
typedef struct {
    ks_entry *table;           /* NULL: no table */
    uint64_t mask;             /* table size - 1 (a power of two) */
    uint64_t generation, salt; /* ks_clear starts a new generation of keys */
    const int *stop;           /* set by another thread: the search stops; NULL: none */
    const int *answered; /* smp.c: set when a helper has completed the last depth asked, so the
                          * main thread stops and takes the helper's answer; NULL: none */
    uint64_t *busy;      /* keys of the nodes the threads are searching (ABDADA); NULL: one thread */
} ks_shared;

/* What the last completed iteration found at the root: written whole when an iteration completes (an
 * iteration the deadline stops writes nothing), and copied whole from a helper thread (smp.c). */
typedef struct {
    int n;                              /* legal moves; 0: the game is over, or nothing completed */
    uint8_t moves[KALAH_MAX_MOVES];     /* the legal moves, ascending codes */
    int values[KALAH_MAX_MOVES];
    uint8_t flags[KALAH_MAX_MOVES]; /* KS_EXACT, KS_UPPER (the move is no better than this) or KS_UNKNOWN */
    uint8_t order[KALAH_MAX_MOVES]; /* the search order of the next iteration */
    int best_move;
    int value;
    int depth; /* depth of the last completed iteration */
    int exact; /* the value is proven */
} ks_root_result;

typedef struct {
    ks_settings settings;
    ks_shared shared;
    ks_stats stats;
    int aborted;         /* the deadline or a stop cut the search short */
    int clock_countdown; /* nodes until the next look at the clock */
    ks_root_result root;
    /* The trace build only (trace.h): where the nodes go; NULL: none. Declared in
     * both builds so that the context (inside kalah.core.search.Engine, which the
     * trace build cimports) has one layout. */
    struct ks_trace *trace;
} ks_context;

void ks_init(ks_context *c, const kalah_rules *r, int eval, ks_entry *table, uint64_t table_size);
void ks_clear(ks_context *c);

/* One iteration at a fixed depth from the root: fills the root results.
 * Returns 1 when it completed, 0 when the deadline stopped it. */
int ks_root(ks_context *c, int algorithm, const kalah_state *s, int depth);

/* Progressive deepening from depth `first` to `last` (first == last: a single
 * fixed-depth search); stops early once the value is proven. Pvs without a
 * deadline to `last` >= KS_PREPARE_MIN_DEPTH deepens in steps of
 * KS_PREPARE_STEP and starts at most KS_PREPARE_ITERATIONS steps short of `last`. With a soft
 * deadline it also stops after an iteration when the move is forced, or the
 * soft deadline has passed and the best move has stayed the same for two
 * iterations, or the next iteration (at least twice as long as the last)
 * could not finish before the deadline. Returns the
 * number of completed iterations; the root results are those of the last one. */
int ks_iterate(ks_context *c, int algorithm, const kalah_state *s, int first, int last);

/* The search's threads at most (kalah.core.search.MAX_THREADS: Python reads this one). */
#define KS_MAX_THREADS 64

/* ks_iterate on `threads` threads sharing the table (lazy SMP with ABDADA's
 * deferral, smp.c): the threads split the tree; the answer is the deepest
 * completed iteration, with exact-depth entries the same values and best
 * moves as one thread at that depth. The statistics count the nodes of every thread. */
int ks_iterate_threads(ks_context *c, int algorithm, const kalah_state *s, int first, int last, int threads);

/* Another thread asks a search whose context's `stop` points to `flag` to stop
 * (it does so at its next look at the clock); ks_clear_stop rearms the flag. */
static inline void ks_request_stop(int *flag)
{ __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }
static inline void ks_clear_stop(int *flag)
{ __atomic_store_n(flag, 0, __ATOMIC_RELAXED); }

/* The principal variation from the table: up to `max` moves, returns how many. */
int ks_pv(ks_context *c, const kalah_state *s, int depth, uint8_t *pv, int max);

/* The plainest alpha-beta (store difference, pits in order): a yardstick for benchmarks (reference.c). */
int ks_reference_alphabeta(const kalah_rules *r, const kalah_state *s, int depth, uint64_t *nodes);

#endif

/* Lazy SMP with ABDADA's deferral: one search on several cores
 * (ks_iterate_threads in search.h).
 *
 * Every thread runs the ordinary iterative search from the same root on its
 * own context; they share the transposition table (lockless, table.h) and a
 * small array of the nodes each is busy with. At every node a thread puts off
 * the later children another thread is searching (simplified ABDADA, table.h),
 * so the threads split the tree instead of walking it side by side, and each
 * finds the other's results in the table. At a fixed depth, where an entry
 * answers only at its own depth, half the helpers search the same iteration as
 * the main thread (their entries are the ones it needs) and half one iteration
 * ahead (pvs to depth KS_PREPARE_MIN_DEPTH or more: all of them the same
 * iterations, which ks_iterate then chooses whatever the first); a timed search lets deeper entries answer, and its helpers run one or
 * two iterations ahead. The answer is the deepest completed iteration of any
 * thread (a helper's only when just the best move was asked). With exact-depth
 * entries the value and best move at a depth are those of one thread: only the
 * order of the moves changes, never what a node's value is.
 *
 * Why ABDADA and not young brothers wait (YBWC) or split root moves: YBWC
 * needs split points (threads that wait for a sibling, node state copied to
 * another thread) in every node function of search.c, and splitting root
 * moves leaves the second thread idle while the first root move, most of an
 * iteration with good ordering, is searched. ABDADA splits at every depth
 * with a mark per node being searched and a second pass over the deferred
 * moves, keeps each node function as it reads, and cannot change a value.
 * Measured by benchmarks/bench_threads.py: at a fixed depth the busiest of two
 * threads searches 0.53-0.60 of one thread's nodes (the median over the start
 * and middle-game positions), so two free cores take about that share of the time.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "table.h"

typedef struct {
    ks_context ctx;
    int algorithm;
    kalah_state root;
    int first, last;
    int *answered; /* the main thread's: set when this helper has the answer; NULL: not wanted */
} ks_helper;

static void *ks_helper_run(void *arg)
{
    ks_helper *h = arg;
    ks_iterate(&h->ctx, h->algorithm, &h->root, h->first, h->last);
    /* At a fixed depth the helper that completes it first has the answer (the value and
     * best move at a depth do not depend on who searched): the main thread need not finish. */
    if (h->answered && h->ctx.root.n > 0 && h->ctx.root.depth == h->last)
        __atomic_store_n(h->answered, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* One thread: the plain search. */
static int ks_iterate_alone(ks_context *c, int algorithm, const kalah_state *s, int first, int last)
{
    uint64_t before = c->stats.nodes;
    int done = ks_iterate(c, algorithm, s, first, last);
    c->stats.busiest_nodes = c->stats.nodes - before;
    return done;
}

int ks_iterate_threads(ks_context *c, int algorithm, const kalah_state *s, int first, int last, int threads)
{
    if (threads > KS_MAX_THREADS) threads = KS_MAX_THREADS;
    if (threads <= 1 || c->shared.table == NULL) return ks_iterate_alone(c, algorithm, s, first, last);

    /* Contexts are large (kilobytes): on the heap, for this search only. */
    ks_helper *helpers = calloc((size_t)(threads - 1), sizeof *helpers);
    if (helpers == NULL) return ks_iterate_alone(c, algorithm, s, first, last);
    uint64_t *busy = calloc(KS_BUSY_SLOTS, sizeof *busy);
    if (busy == NULL) {
        free(helpers);
        return ks_iterate_alone(c, algorithm, s, first, last);
    }
    uint64_t main_before = c->stats.nodes;
    c->shared.busy = busy;
    pthread_t ids[KS_MAX_THREADS - 1];
    int started = 0, stop = 0, answered = 0;
    for (int i = 0; i < threads - 1; i++) {
        ks_helper *h = &helpers[i];
        h->ctx = *c;
        memset(&h->ctx.stats, 0, sizeof h->ctx.stats);
        h->ctx.settings.all_values = 0;  /* the best move is what moves the table along */
        h->ctx.settings.soft_deadline = 0; /* the main thread decides when to stop */
        h->ctx.shared.stop = &stop;
        h->ctx.shared.answered = NULL;
        h->answered = c->settings.all_values ? NULL : &answered; /* helpers find the best move only */
        h->algorithm = algorithm;
        h->root = *s;
        /* Where a helper starts. With entries that answer only at their own depth (a fixed depth), a
         * helper's entries serve the others only when it searches the same iteration, so every other
         * helper does, and ABDADA's deferral splits each iteration between them; the rest run one
         * iteration ahead. Timed searches (deeper_entries) let deeper entries answer: there helpers run
         * one or two iterations ahead (lazy SMP), and what they find cuts the main thread's tree. */
        h->first = c->settings.deeper_entries ? first + 1 + (i & 1) : first + (i & 1);
        h->last = last;
        if (h->first > h->last) h->first = h->last;
        if (pthread_create(&ids[i], NULL, ks_helper_run, h) != 0) break;
        started++;
    }
    c->shared.answered = &answered;
    int done = ks_iterate(c, algorithm, s, first, last);
    c->shared.answered = NULL;
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    c->stats.busiest_nodes = c->stats.nodes - main_before;
    for (int i = 0; i < started; i++) {
        pthread_join(ids[i], NULL);
        const ks_stats *t = &helpers[i].ctx.stats;
        if (t->nodes > c->stats.busiest_nodes) c->stats.busiest_nodes = t->nodes;
        c->stats.nodes += t->nodes;
        c->stats.leaves += t->leaves;
        c->stats.tt_probes += t->tt_probes;
        c->stats.tt_hits += t->tt_hits;
        c->stats.cutoffs += t->cutoffs;
        c->stats.researches += t->researches;
        c->stats.oracle_probes += t->oracle_probes;
        /* A helper that completed a deeper iteration than the main thread has that
         * depth's answer (values depend on the depth alone, not on who searched):
         * take it. Helpers find the best move only, so not when every root value was asked. */
        const ks_context *hc = &helpers[i].ctx;
        if (!c->settings.all_values && hc->root.n > 0 && hc->root.depth > c->root.depth) {
            c->root = hc->root;
            if (!done) done = 1;
        }
    }
    /* Stopped only because a helper had completed the search: it was not cut short. */
    if (__atomic_load_n(&answered, __ATOMIC_RELAXED) && c->root.depth == last) c->aborted = 0;
    c->shared.busy = NULL;
    free(busy);
    free(helpers);
    return done;
}

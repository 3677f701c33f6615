/* A ThreadSanitizer run of the threaded searches (.ci/tsan-smp builds and runs it).
 *
 * Lazy SMP with ABDADA's deferral (smp.c, table.h) and the solver's ABDADA
 * (solve.c) share memory between threads on purpose: the table slots and the
 * busy marks through relaxed atomics. TSan sees every other shared access, so
 * a plain read or write that races is reported and fails the run. Besides,
 * fixed-depth answers on 2 and 4 threads must equal one thread's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "board.h"
#include "search.h"
#include "solve.h"

static int failures = 0;

/* One of two solver searches side by side on one table (kalah.solve.parallel). */
typedef struct {
    kalah_solver *solver;
    const uint8_t *pits;
    int beta, threads, value, aborted;
    volatile int stop;
} side_test;

static void *run_side_test(void *arg)
{
    side_test *t = arg;
    uint64_t nodes = 0;
    t->value = kalah_solver_search(t->solver, t->pits, t->beta - 1, t->beta, t->threads, 0, &t->stop, &t->aborted, &nodes);
    return NULL;
}

static void random_position(const kalah_rules *r, kalah_state *s, kalah_rng *g, int plies)
{
    kalah_start(r, s);
    uint8_t moves[KALAH_MAX_MOVES];
    for (int i = 0; i < plies && !kalah_is_over(r, s); i++) {
        int n = kalah_legal_moves(r, s, moves);
        kalah_play(r, s, moves[kalah_rng_below(g, n)]);
    }
}

static void search_case(const kalah_rules *r, const kalah_state *s, int algorithm, int depth, int deeper, double seconds)
{
    enum { BITS = 16 };
    ks_entry *table = calloc((size_t)1 << BITS, sizeof *table);
    ks_context one, many;
    int value = 0, best = 0;
    for (int threads = 1; threads <= 4; threads *= 2) {
        ks_context *c = threads == 1 ? &one : &many;
        ks_init(c, r, 2 /* strong */, table, (uint64_t)1 << BITS);
        ks_clear(c);
        c->settings.deeper_entries = deeper;
        c->settings.deadline = seconds > 0 ? kalah_now() + seconds : 0;
        ks_iterate_threads(c, algorithm, s, 1, depth, threads);
        if (threads == 1) {
            value = c->root.value, best = c->root.best_move;
        } else if (seconds == 0 && !deeper && (c->root.value != value || c->root.best_move != best)) {
            fprintf(stderr, "tsan-smp: %d threads gave %d (move %d), one thread %d (move %d)\n",
                    threads, c->root.value, c->root.best_move, value, best);
            failures++;
        }
    }
    free(table);
}

int main(void)
{
    kalah_rng g = {0x5eed};
    const int variants[][3] = {{6, 4, 0}, {6, 6, 0}, {4, 3, 1}};
    for (int v = 0; v < 3; v++) {
        kalah_rules r;
        kalah_rules_init(&r, variants[v][0], variants[v][1], variants[v][2], 0);
        for (int i = 0; i < 6; i++) {
            kalah_state s;
            random_position(&r, &s, &g, 2 * i);
            if (kalah_is_over(&r, &s)) continue;
            search_case(&r, &s, KS_PVS, 10, 0, 0);
            search_case(&r, &s, KS_MTDF, 9, 0, 0);
            search_case(&r, &s, KS_PVS, 60, 1, 0.05); /* timed, deeper entries: the players' search */
            if (v == 0 && i < 2) search_case(&r, &s, KS_PVS, KS_PREPARE_MIN_DEPTH + 1, 0, 0); /* prepared iterations */
        }
    }
    /* The solver's threads on a small variant. */
    kalah_solver *solver = kalah_solver_new(4, 0, 16);
    uint8_t pits[8] = {3, 3, 3, 3, 3, 3, 3, 3};
    int aborted = 0;
    uint64_t nodes = 0;
    for (int threads = 1; threads <= 2; threads++) {
        kalah_solver_clear(solver);
        int low = kalah_solver_search(solver, pits, -1, 0, threads, 0, NULL, &aborted, &nodes);
        int high = kalah_solver_search(solver, pits, 0, 1, threads, 0, NULL, &aborted, &nodes);
        printf("tsan-smp: solver on %d threads: tests %d %d\n", threads, low, high);
        /* The same two tests side by side on one table, each on `threads` threads (their ABDADA
         * marks share the busy table): the same answers. */
        kalah_solver_clear(solver);
        side_test tests[2] = {{solver, pits, 0, threads, 0, 0, 0}, {solver, pits, 1, threads, 0, 0, 0}};
        pthread_t tid[2];
        for (int i = 0; i < 2; i++) pthread_create(&tid[i], NULL, run_side_test, &tests[i]);
        for (int i = 0; i < 2; i++) pthread_join(tid[i], NULL);
        if (tests[0].aborted || tests[1].aborted || (tests[0].value >= 0) != (low >= 0) || (tests[1].value >= 1) != (high >= 1)) {
            printf("tsan-smp: side by side on %d threads answered %d %d\n", threads, tests[0].value, tests[1].value);
            failures++;
        }
    }
    kalah_solver_free(solver);
    /* A long search (Kalah(6,4)'s start, no database) stopped from another thread by its flag. */
    kalah_solver *big = kalah_solver_new(6, 0, 16);
    uint8_t start[12] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    side_test stopped = {big, start, 10, 2, 0, 0, 0};
    pthread_t runner;
    pthread_create(&runner, NULL, run_side_test, &stopped);
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    kalah_solver_request_stop(&stopped.stop);
    pthread_join(runner, NULL);
    printf("tsan-smp: a search stopped by its flag: %s\n", stopped.aborted ? "aborted" : "finished first");
    if (!stopped.aborted) failures++;
    kalah_solver_free(big);
    if (failures) return 1;
    printf("tsan-smp: no data race, threaded answers equal one thread's\n");
    return 0;
}

/* The exact solver (see solve.h). */
#define _GNU_SOURCE
#include "solve.h"
#include "endgame.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

/* A table slot: check = key ^ data, so that a slot torn by two threads writing
 * at once is seen as a miss rather than as wrong data (lock-free hashing). */
typedef struct {
    uint64_t check;
    uint64_t data; /* bits 0-7 lower+128, 8-15 upper+128, 16-23 best move (255 none), 24-31 work */
} tt_slot;

#define BUCKET 4

struct kalah_solver {
    kalah_rules rules;
    int pits, places;
    tt_slot *table;
    uint64_t bucket_mask;
    size_t table_bytes;
    const kalah_oracle *oracle;
    int oracle_seeds;
    const kalah_egdb *egdb; /* the oracle's database when it is ours: probed directly, with prefetching */
};

typedef struct {
    kalah_solver *solver;
    int id;
    uint64_t nodes;
    double deadline;
    volatile int *stop;    /* the caller's */
    volatile int *done;    /* set when one thread has the answer */
    int aborted;
    int result;
    const uint8_t *root;
    int alpha, beta;
} worker;

double kalah_solver_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

kalah_solver *kalah_solver_new(int pits, int empty_capture, int tt_log2)
{
    if (pits < 1 || pits > KALAH_MAX_PITS) return NULL;
    if (tt_log2 < 10) tt_log2 = 10;
    if (tt_log2 > 34) tt_log2 = 34;
    kalah_solver *solver = calloc(1, sizeof *solver);
    if (!solver) return NULL;
    kalah_rules_init(&solver->rules, pits, 1, empty_capture, 0);
    solver->pits = pits;
    solver->places = 2 * pits;
    uint64_t buckets = (1ull << tt_log2) / BUCKET;
    solver->table_bytes = buckets * BUCKET * sizeof(tt_slot);
    /* Anonymous pages come zeroed; huge pages spare the TLB on random probes. */
    void *table = mmap(NULL, solver->table_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) {
        free(solver);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    madvise(table, solver->table_bytes, MADV_HUGEPAGE);
#endif
    solver->table = table;
    solver->bucket_mask = buckets - 1;
    return solver;
}

void kalah_solver_free(kalah_solver *solver)
{
    if (!solver) return;
    munmap(solver->table, solver->table_bytes);
    free(solver);
}

void kalah_solver_set_oracle(kalah_solver *solver, const kalah_oracle *oracle)
{
    solver->oracle = oracle;
    solver->oracle_seeds = oracle ? oracle->max_seeds : -1;
    solver->egdb = oracle && oracle->probe == kalah_egdb_probe ? (const kalah_egdb *)oracle->db : NULL;
    if (solver->egdb && (solver->egdb->pits != solver->pits || solver->egdb->empty_capture != solver->rules.empty_capture)) {
        solver->oracle = NULL;
        solver->oracle_seeds = -1;
        solver->egdb = NULL;
    }
}

void kalah_solver_clear(kalah_solver *solver)
{
    memset(solver->table, 0, solver->table_bytes);
}

static inline uint64_t hash_pits(const uint8_t *pits16)
{
    uint64_t a, b;
    memcpy(&a, pits16, 8);
    memcpy(&b, pits16 + 8, 8);
    uint64_t h = (a ^ 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    h ^= b + (h >> 29);
    h *= 0x94D049BB133111EBull;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h | 1; /* never 0: an empty slot must not match */
}

static inline int tt_probe(const kalah_solver *solver, uint64_t key, int *lower, int *upper, int *best)
{
    const tt_slot *bucket = solver->table + (key & solver->bucket_mask) * BUCKET;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t check = __atomic_load_n(&bucket[i].check, __ATOMIC_RELAXED);
        uint64_t data = __atomic_load_n(&bucket[i].data, __ATOMIC_RELAXED);
        if ((check ^ data) == key) {
            *lower = (int)(data & 0xFF) - 128;
            *upper = (int)((data >> 8) & 0xFF) - 128;
            int move = (int)((data >> 16) & 0xFF);
            *best = move == 255 ? -1 : move;
            return 1;
        }
    }
    return 0;
}

static inline void tt_store(kalah_solver *solver, uint64_t key, int lower, int upper, int best, int work)
{
    tt_slot *bucket = solver->table + (key & solver->bucket_mask) * BUCKET;
    int victim = 0, victim_work = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t check = __atomic_load_n(&bucket[i].check, __ATOMIC_RELAXED);
        uint64_t data = __atomic_load_n(&bucket[i].data, __ATOMIC_RELAXED);
        if ((check ^ data) == key) { /* merge what is known */
            int lo = (int)(data & 0xFF) - 128, hi = (int)((data >> 8) & 0xFF) - 128;
            if (lo > lower) lower = lo;
            if (hi < upper) upper = hi;
            if (best < 0) {
                int move = (int)((data >> 16) & 0xFF);
                best = move == 255 ? -1 : move;
            }
            int w = (int)((data >> 24) & 0xFF);
            if (w > work) work = w;
            victim = i;
            break;
        }
        int w = (check | data) ? (int)((data >> 24) & 0xFF) : -1;
        if (w < victim_work) {
            victim_work = w;
            victim = i;
        }
    }
    if (lower > upper) lower = upper; /* a torn read merged with new bounds; keep them consistent */
    uint64_t data = (uint64_t)(lower + 128) | ((uint64_t)(upper + 128) << 8) |
                    ((uint64_t)(best < 0 ? 255 : best) << 16) | ((uint64_t)(work > 255 ? 255 : work) << 24);
    __atomic_store_n(&bucket[victim].check, key ^ data, __ATOMIC_RELAXED);
    __atomic_store_n(&bucket[victim].data, data, __ATOMIC_RELAXED);
}

static inline int log2_work(uint64_t nodes)
{
    return nodes ? 64 - __builtin_clzll(nodes) : 0;
}

typedef struct {
    uint8_t pits[16];
    uint64_t key;           /* table key, for children that need a search */
    const int8_t *slot;     /* database entry, for children the database covers */
    int seeds;
    int gain;
    int extra;
    int move;
    int order;
} child;

static int search(worker *w, const uint8_t *pits, int seeds, int alpha, int beta, uint64_t key);

/* Expand a position into its children; returns how many. Exact children
 * (game over, or covered by the oracle) get exact = 1 and their value in *value. */
static inline int expand(worker *w, const uint8_t *pits, child *kids)
{
    const kalah_solver *solver = w->solver;
    const kalah_rules *r = &solver->rules;
    const int m = solver->pits;
    kalah_state start;
    memset(&start, 0, sizeof start);
    memcpy(start.cell, pits, m);
    memcpy(start.cell + m + 1, pits + m, m);
    int n = 0;
    for (int i = m - 1; i >= 0; i--) {
        if (!pits[i]) continue;
        kalah_state s = start;
        child *c = &kids[n++];
        c->extra = kalah_play(r, &s, i);
        c->gain = s.cell[m] - s.cell[2 * m + 1];
        c->move = i;
        memset(c->pits, 0, 16);
        if (kalah_is_over(r, &s)) {
            c->seeds = 0;
            c->extra = 1; /* nothing left: the value is the gain */
        } else {
            int mover = c->extra ? 0 : 1;
            memcpy(c->pits, s.cell + mover * (m + 1), m);
            memcpy(c->pits + m, s.cell + (1 - mover) * (m + 1), m);
            c->seeds = kalah_side_seeds(r, &s, 0) + kalah_side_seeds(r, &s, 1);
            c->slot = NULL;
            if (c->seeds <= solver->oracle_seeds && solver->egdb) {
                const kalah_egdb *db = solver->egdb;
                c->slot = db->values + db->layer_offset[c->seeds] + kalah_egdb_index(db, c->pits, c->seeds);
                __builtin_prefetch(c->slot);
            } else {
                c->key = hash_pits(c->pits);
                __builtin_prefetch(solver->table + (c->key & solver->bucket_mask) * BUCKET);
            }
        }
        /* Ordering: extra turns first, then by what the move gains now, then pits near the store. */
        c->order = (c->extra ? 1000 : 0) + 16 * c->gain + i;
    }
    return n;
}

static inline int exact_value(worker *w, const child *c, int *value)
{
    if (c->seeds == 0) {
        *value = c->gain;
        return 1;
    }
    if (c->slot) {
        int v = *c->slot;
        *value = c->extra ? c->gain + v : c->gain - v;
        return 1;
    }
    if (c->seeds <= w->solver->oracle_seeds) {
        const kalah_solver *solver = w->solver;
        kalah_state s;
        memset(&s, 0, sizeof s);
        int m = solver->pits;
        memcpy(s.cell, c->pits, m);
        memcpy(s.cell + m + 1, c->pits + m, m);
        int v;
        if (solver->oracle->probe(solver->oracle->db, &solver->rules, &s, &v)) {
            *value = c->extra ? c->gain + v : c->gain - v;
            return 1;
        }
    }
    return 0;
}

static int search(worker *w, const uint8_t *pits, int seeds, int alpha, int beta, uint64_t key)
{
    kalah_solver *solver = w->solver;
    uint64_t start_nodes = ++w->nodes;
    if ((start_nodes & 0x3FFF) == 0) {
        if ((w->stop && *w->stop) || *w->done || (w->deadline > 0 && kalah_solver_now() > w->deadline))
            w->aborted = 1;
    }
    if (w->aborted) return 0;
    if (seeds <= alpha) return seeds;
    if (-seeds >= beta) return -seeds;

    int lower = -seeds, upper = seeds, tt_move = -1;
    if (tt_probe(solver, key, &lower, &upper, &tt_move)) {
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower == upper) return lower;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    }

    child kids[KALAH_MAX_PITS];
    int n = expand(w, pits, kids);
    int best = -1000, best_move = -1;
    int pending = 0;
    child *todo[KALAH_MAX_PITS];
    for (int i = 0; i < n; i++) {
        int v;
        if (exact_value(w, &kids[i], &v)) {
            if (v > best) {
                best = v;
                best_move = kids[i].move;
                if (v >= beta) {
                    tt_store(solver, key, v, seeds, best_move, 1);
                    return v;
                }
            }
        } else {
            if (kids[i].move == tt_move) kids[i].order += 100000;
            todo[pending++] = &kids[i];
        }
    }
    /* Enhanced transposition cutoff: a child whose table bounds already refute the window. */
    for (int i = 0; i < pending; i++) {
        child *c = todo[i];
        int lo, hi, mv;
        if (!tt_probe(solver, c->key, &lo, &hi, &mv)) continue;
        int v = c->extra ? c->gain + lo : c->gain - hi; /* a lower bound on this move's value */
        if (v >= beta) {
            tt_store(solver, key, v, seeds, c->move, 1);
            return v;
        }
    }
    /* insertion sort, best order first */
    for (int i = 1; i < pending; i++) {
        child *c = todo[i];
        int j = i;
        while (j > 0 && todo[j - 1]->order < c->order) {
            todo[j] = todo[j - 1];
            j--;
        }
        todo[j] = c;
    }
    if (w->id > 0 && pending > 1 && (key >> 40) % (unsigned)(w->id + 2) == 0) {
        /* lazy SMP: helpers sometimes try the second move first */
        child *t = todo[0];
        todo[0] = todo[1];
        todo[1] = t;
    }
    int a = best > alpha ? best : alpha;
    for (int i = 0; i < pending && a < beta; i++) {
        child *c = todo[i];
        int v;
        if (c->extra)
            v = c->gain + search(w, c->pits, c->seeds, a - c->gain, beta - c->gain, c->key);
        else
            v = c->gain - search(w, c->pits, c->seeds, c->gain - beta, c->gain - a, c->key);
        if (w->aborted) return 0;
        if (v > best) {
            best = v;
            best_move = c->move;
            if (v > a) a = v;
        }
    }
    int work = log2_work(w->nodes - start_nodes + 1);
    if (best >= beta)
        tt_store(solver, key, best, seeds, best_move, work);
    else if (best <= alpha)
        tt_store(solver, key, -seeds, best, best_move, work);
    else
        tt_store(solver, key, best, best, best_move, work);
    return best;
}

static void *run_worker(void *arg)
{
    worker *w = arg;
    kalah_solver *solver = w->solver;
    uint8_t pits[16] = {0};
    memcpy(pits, w->root, solver->places);
    int seeds = 0;
    for (int i = 0; i < solver->places; i++) seeds += pits[i];
    int v;
    if (seeds <= solver->oracle_seeds) {
        kalah_state s;
        memset(&s, 0, sizeof s);
        int m = solver->pits;
        memcpy(s.cell, pits, m);
        memcpy(s.cell + m + 1, pits + m, m);
        if (!solver->oracle->probe(solver->oracle->db, &solver->rules, &s, &v)) v = search(w, pits, seeds, w->alpha, w->beta, hash_pits(pits));
    } else {
        kalah_state s;
        memset(&s, 0, sizeof s);
        int m = solver->pits;
        memcpy(s.cell, pits, m);
        memcpy(s.cell + m + 1, pits + m, m);
        if (kalah_is_over(&solver->rules, &s))
            v = kalah_final_margin(&solver->rules, &s);
        else
            v = search(w, pits, seeds, w->alpha, w->beta, hash_pits(pits));
    }
    if (!w->aborted) {
        w->result = v;
        *w->done = 1;
    }
    return NULL;
}

int kalah_solver_search(kalah_solver *solver, const uint8_t *pits, int alpha, int beta, int threads,
                        double deadline, volatile int *stop, int *aborted, uint64_t *nodes)
{
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    worker workers[16];
    volatile int done = 0;
    pthread_t tid[16];
    int started[16] = {0};
    for (int t = 0; t < threads; t++) {
        workers[t] = (worker){solver, t, 0, deadline, stop, &done, 0, 0, pits, alpha, beta};
    }
    for (int t = 1; t < threads; t++) started[t] = pthread_create(&tid[t], NULL, run_worker, &workers[t]) == 0;
    run_worker(&workers[0]);
    for (int t = 1; t < threads; t++)
        if (started[t]) pthread_join(tid[t], NULL);
    uint64_t total = 0;
    int result = 0, found = 0;
    for (int t = 0; t < threads; t++) {
        total += workers[t].nodes;
        if (!found && !workers[t].aborted && (t == 0 || started[t])) {
            result = workers[t].result;
            found = 1;
        }
    }
    *nodes = total;
    *aborted = !found;
    return result;
}

int kalah_solver_lookup(kalah_solver *solver, const uint8_t *pits, int *lower, int *upper, int *best)
{
    uint8_t buf[16] = {0};
    memcpy(buf, pits, solver->places);
    return tt_probe(solver, hash_pits(buf), lower, upper, best);
}

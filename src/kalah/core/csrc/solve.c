/* The exact solver (see solve.h). */
#define _GNU_SOURCE
#include "solve.h"
#include "endgame.h"
#include "memory.h"
#include "moves.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* A table slot is one 64-bit word, written and read with single atomic
 * stores and loads, so two threads never tear one: bits 0-7 and 8-15 the
 * lower and upper bounds as (v + seeds) / 2 (a value has the parity of the
 * seeds in the pits, and a board holds fewer than 256 seeds), bits 16-18 the
 * best move, 19-23 the work (log2 of the nodes searched, at most 31), 24-63
 * the check: 40 bits of a second hash of the position, independent of the
 * key that chose the bucket. A probe of a position the table does not hold
 * matches one of a bucket's 4 slots with odds of 4 in 2^40; the 16-byte
 * slots before this held a 64-bit key, of which the bucket's bits told
 * nothing new, so the odds were 4 in 2^37 on an 8 GiB table. An entry's work
 * is at least 1, so a slot in use is never 0. (Were a bound ever of the
 * other parity, packing rounds the lower bound down and the upper up: both
 * stay true.) */
typedef uint64_t tt_slot;
_Static_assert(sizeof(tt_slot) == KALAH_SOLVER_ENTRY_BYTES, "solve.h states the entry size");
_Static_assert(KALAH_MAX_PITS <= 8, "a slot keeps the best move in 3 bits");

#define SLOT_CHECK_SHIFT 24
static inline uint64_t slot_pack(uint64_t check, int seeds, int lower, int upper, int best, int work)
{
    KALAH_ASSERT(-seeds <= lower && lower <= upper && upper <= seeds && seeds < 256);
    KALAH_ASSERT(((lower + seeds) & 1) == 0 && ((upper + seeds) & 1) == 0);
    KALAH_ASSERT(0 <= best && best < KALAH_MAX_PITS && work >= 1);
    return (uint64_t)((lower + seeds) >> 1) | ((uint64_t)((upper + seeds + 1) >> 1) << 8) | ((uint64_t)best << 16) |
           ((uint64_t)(work > 31 ? 31 : work) << 19) | (check << SLOT_CHECK_SHIFT);
}
static inline int slot_lower(uint64_t slot, int seeds) { return 2 * (int)(slot & 0xFF) - seeds; }
static inline int slot_upper(uint64_t slot, int seeds) { return 2 * (int)((slot >> 8) & 0xFF) - seeds; }
static inline int slot_best(uint64_t slot) { return (int)((slot >> 16) & 7); }
static inline int slot_work(uint64_t slot) { return (int)((slot >> 19) & 31); }
static inline uint64_t slot_check(uint64_t slot) { return slot >> SLOT_CHECK_SHIFT; }

#define BUCKET 4 /* slots: half a cache line (8-way buckets replaced worse, measured on Kalah(6,4)) */
#define BUSY_SIZE (1 << 16)
#define BUSY_MASK (BUSY_SIZE - 1)
#define ETC_ABOVE_DATABASE 14
/* A proof refutes every reply of the opponent, so among moves that hand over the turn those that
 * leave fewer replies come first: each costs half a seed of gain (a seed is 16). On one thread the
 * value of Kalah(6,5) took 305 million nodes against 586 million without; a quarter of a seed did
 * less, 3/8 about the same, and from 5/8 on (two replies outweigh a seed stored) twice the nodes
 * of none on Kalah(6,4) (docs/solve.md). */
#define REPLY_COST 8
#define BUSY_ABOVE_DATABASE 6

struct kalah_solver {
    kalah_rules rules;
    int pits, places;
    tt_slot *table;
    uint64_t bucket_mask;
    size_t table_bytes;
    const kalah_oracle *oracle;
    int oracle_seeds;
    const kalah_egdb *egdb; /* the oracle's database when it is ours: probed directly */
    kalah_pits_rules moves; /* the rules on pits-only words (endgame.h) */
    int etc_seeds;          /* enhanced transposition cutoffs at nodes with at least this many seeds */
    int busy_seeds;         /* ABDADA marks at nodes with at least this many seeds */
    uint64_t busy[BUSY_SIZE]; /* keys of nodes some thread is searching (0: free) */
};

typedef struct {
    kalah_solver *solver;
    int id;
    int threads;
    uint64_t nodes;
    double deadline;
    volatile int *stop;    /* the caller's */
    int *done;             /* set when one thread has the answer (atomic: every thread reads it) */
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
    kalah_pits_rules_init(&solver->moves, pits, empty_capture);
    solver->pits = pits;
    solver->places = 2 * pits;
    uint64_t buckets = (1ull << tt_log2) / BUCKET;
    solver->table_bytes = buckets * BUCKET * sizeof(tt_slot);
    tt_slot *table = kalah_table_alloc(solver->table_bytes);
    if (!table) {
        free(solver);
        return NULL;
    }
    solver->table = table;
    solver->bucket_mask = buckets - 1;
    solver->etc_seeds = ETC_ABOVE_DATABASE;
    solver->busy_seeds = BUSY_ABOVE_DATABASE;
    return solver;
}

void kalah_solver_free(kalah_solver *solver)
{
    if (!solver) return;
    kalah_table_free(solver->table, solver->table_bytes);
    free(solver);
}

void kalah_solver_set_oracle(kalah_solver *solver, const kalah_oracle *oracle)
{
    solver->oracle = oracle;
    solver->oracle_seeds = oracle ? oracle->max_seeds : -1;
    /* Measured on Kalah(6,4): transposition cutoffs pay only well above the
     * database (close to it they cost more table reads than the nodes they save),
     * and ABDADA marks only on subtrees large enough to be worth sharing. */
    int base = oracle ? oracle->max_seeds : 0;
    solver->etc_seeds = base + ETC_ABOVE_DATABASE;
    solver->busy_seeds = base + BUSY_ABOVE_DATABASE;
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

static inline uint64_t hash_word(kalah_u128 b)
{
    uint64_t a = (uint64_t)b, c = (uint64_t)(b >> 64);
    uint64_t h = (a ^ 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    h ^= c + (h >> 29);
    h *= 0x94D049BB133111EBull;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h | 1; /* never 0: an empty slot must not match */
}

/* The 40 bits of the check: a hash of the position independent of hash_word's. */
static inline uint64_t hash_check(kalah_u128 b)
{
    uint64_t a = (uint64_t)b, c = (uint64_t)(b >> 64);
    uint64_t h = a * 0xD1B54A32D192ED03ull ^ (c + 0x8CB92BA72F3D8DD7ull) * 0xABC98388FB8FAC03ull;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 29;
    return h >> SLOT_CHECK_SHIFT;
}

/* key picks the bucket, check (hash_check) finds the slot in it. */
static inline int tt_probe(const kalah_solver *solver, uint64_t key, uint64_t check, int seeds, int *lower, int *upper, int *best)
{
    const tt_slot *bucket = solver->table + (key & solver->bucket_mask) * BUCKET;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t slot = __atomic_load_n(&bucket[i], __ATOMIC_RELAXED);
        if (slot && slot_check(slot) == check) {
            *lower = slot_lower(slot, seeds);
            *upper = slot_upper(slot, seeds);
            *best = slot_best(slot);
            return 1;
        }
    }
    return 0;
}

static inline void tt_store(kalah_solver *solver, uint64_t key, uint64_t check, int seeds, int lower, int upper, int best, int work)
{
    tt_slot *bucket = solver->table + (key & solver->bucket_mask) * BUCKET;
    int victim = 0, victim_work = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t slot = __atomic_load_n(&bucket[i], __ATOMIC_RELAXED);
        if (slot && slot_check(slot) == check) { /* merge what is known */
            int lo = slot_lower(slot, seeds), hi = slot_upper(slot, seeds);
            if (lo > lower) lower = lo;
            if (hi < upper) upper = hi;
            int w = slot_work(slot);
            if (w > work) work = w;
            victim = i;
            break;
        }
        int w = slot ? slot_work(slot) : -1;
        if (w < victim_work) {
            victim_work = w;
            victim = i;
        }
    }
    /* True bounds never cross: they could only if two positions shared the
     * bucket and the check. Keep the entry consistent even then. */
    KALAH_ASSERT(lower <= upper);
    if (lower > upper) lower = upper;
    __atomic_store_n(&bucket[victim], slot_pack(check, seeds, lower, upper, best, work), __ATOMIC_RELAXED);
}

static inline int log2_work(uint64_t nodes)
{
    return nodes ? 64 - __builtin_clzll(nodes) : 0;
}

/* The moves the mover of `pits` has: its nonempty pits, the low m bytes (m <= 8). */
static inline int mover_moves(kalah_u128 pits, int m)
{
    uint64_t row = (uint64_t)pits;
    if (m < 8) row &= (1ull << (8 * m)) - 1;
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    /* the top bit of each nonzero byte: the low seven bits carry into it, or it was set */
    int moves = __builtin_popcountll((((row & low7) + low7) | row) & ~low7);
#ifdef KALAH_DEBUG
    int counted = 0;
    for (int j = 0; j < m; j++) counted += kalah_u128_byte(pits, j) != 0;
    KALAH_ASSERT(moves == counted);
#endif
    return moves;
}

/* A child of a node: one move played on the pits-only word. */
typedef struct {
    kalah_u128 pits;        /* from the child's mover's view */
    uint64_t key;           /* table key, for children that need a search */
    int seeds;              /* seeds left in the pits (0: the game ended) */
    int gain;
    int extra;
    int move;
} child;

static int search(worker *w, kalah_u128 pits, int seeds, int alpha, int beta, uint64_t key);

/* Frees the ABDADA mark of a node: only the thread that set it does, so it still holds the node's key. */
static inline void release_busy(uint64_t *busy, uint64_t key)
{
    KALAH_ASSERT(__atomic_load_n(busy, __ATOMIC_RELAXED) == key);
    __atomic_store_n(busy, 0, __ATOMIC_RELAXED);
}

/* The value of an exact child (game over, or covered by the database) for the
 * parent's mover; returns 0 when the child needs a search. */
static inline int exact_value(const kalah_solver *solver, const child *c, int *value)
{
    if (c->seeds == 0) {
        *value = c->gain;
        return 1;
    }
    if (c->seeds <= solver->oracle_seeds) {
        int v;
        if (solver->egdb) {
            v = kalah_egdb_value(solver->egdb, c->pits, c->seeds);
        } else {
            kalah_state s;
            memset(&s, 0, sizeof s);
            int m = solver->pits;
            memcpy(s.cell, &c->pits, m);
            memcpy(s.cell + m + 1, (const uint8_t *)&c->pits + m, m);
            if (!solver->oracle->probe(solver->oracle->db, &solver->rules, &s, &v)) return 0;
        }
        *value = c->extra ? c->gain + v : c->gain - v;
        return 1;
    }
    return 0;
}

/* The node's search, with m the pit count (a constant where inlined). */
static inline __attribute__((always_inline)) int
search_m(worker *w, const int m, kalah_u128 pits, int seeds, int alpha, int beta, uint64_t key)
{
    kalah_solver *solver = w->solver;
    KALAH_ASSERT(alpha < beta);
    KALAH_ASSERT(kalah_pits_sane(pits, m, seeds) && seeds > 0 && key == hash_word(pits));
    /* Step 1. Count the node, look at the clock now and then; the seeds left bound the value. */
    uint64_t start_nodes = ++w->nodes;
    if ((start_nodes & 0x3FFF) == 0) {
        if ((w->stop && __atomic_load_n(w->stop, __ATOMIC_RELAXED)) || __atomic_load_n(w->done, __ATOMIC_RELAXED) || (w->deadline > 0 && kalah_solver_now() > w->deadline))
            w->aborted = 1;
    }
    if (w->aborted) return 0;
    if (seeds <= alpha) return seeds;
    if (-seeds >= beta) return -seeds;

    /* Step 2. The table's bounds answer, or narrow the window. */
    int lower = -seeds, upper = seeds, tt_move = -1;
    const uint64_t check = hash_check(pits);
    if (tt_probe(solver, key, check, seeds, &lower, &upper, &tt_move)) {
        KALAH_ASSERT(-seeds <= lower && lower <= upper && upper <= seeds);
        KALAH_ASSERT(tt_move == -1 || (0 <= tt_move && tt_move < m && kalah_u128_byte(pits, tt_move) > 0));
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower == upper) return lower;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    }

    /* Step 3. Expand: play every move first, prefetching where each child's
     * value lives (its database entry or its table bucket), so that the misses
     * overlap; then settle the exact children (game over, or in the database). */
    const kalah_pits_rules *pr = &solver->moves;
    uint8_t bytes[16];
    memcpy(bytes, &pits, 16);
    child kids[KALAH_MAX_PITS];
    uint8_t todo[KALAH_MAX_PITS]; /* the children left to search (indices into kids), */
    int order[KALAH_MAX_PITS];    /* and their ordering scores */
    kalah_egdb_ref slot[KALAH_MAX_PITS]; /* where the database holds a child's value (seeds 0: not there) */
    int n = 0, pending = 0, best = -1000, best_move = -1;
    for (int i = m - 1; i >= 0; i--) {
        if (!bytes[i]) continue;
        kalah_pits_move mv;
        kalah_pits_play(pr, m, pits, seeds, i, bytes[i], &mv);
        child *c = &kids[n];
        c->pits = mv.pits;
        c->seeds = mv.left;
        c->gain = mv.gain;
        c->extra = mv.extra;
        c->move = i;
        slot[n].seeds = 0;
        if (mv.left && mv.left <= solver->oracle_seeds && solver->egdb) {
            slot[n] = kalah_egdb_find(solver->egdb, mv.pits, mv.left);
            __builtin_prefetch(slot[n].byte);
        } else if (mv.left) { /* may need a search (an oracle other than our database can fail) */
            c->key = hash_word(c->pits);
            __builtin_prefetch(solver->table + (c->key & solver->bucket_mask) * BUCKET);
        }
        n++;
    }
    KALAH_ASSERT(n > 0); /* the game is not over */
    for (int k = 0; k < n; k++) {
        child *c = &kids[k];
        int v;
        if (slot[k].seeds) {
            int cv = kalah_egdb_read(solver->egdb, slot[k]);
            KALAH_ASSERT(-c->seeds <= cv && cv <= c->seeds);
            v = c->extra ? c->gain + cv : c->gain - cv;
        } else if (!exact_value(solver, c, &v)) {
            /* Ordering: the table's move, extra turns, then what the move gains now less half a seed
             * for each reply it leaves the opponent, then pits near the store (a history of cutoffs
             * did not beat this on test positions). The moves were played, so this needs no
             * prediction of what they do (moves.h). */
            order[pending] = (c->move == tt_move ? 100000 : 0) + (c->extra ? 1000 : 0) + 16 * c->gain + c->move;
            if (!c->extra) order[pending] -= REPLY_COST * mover_moves(c->pits, m);
            todo[pending++] = (uint8_t)k;
            continue;
        }
        if (v > best) {
            best = v;
            best_move = c->move;
            if (v >= beta) {
                tt_store(solver, key, check, seeds, v, seeds, best_move, 1);
                return v;
            }
        }
    }
    /* Step 4. Enhanced transposition cutoff (Plaat et al., 1996): a child whose
     * table bounds already refute the window. Only where much is left: near the
     * database the subtrees are small and the extra table reads cost more than
     * they save. */
    for (int i = 0; i < pending && seeds >= solver->etc_seeds; i++) {
        child *c = &kids[todo[i]];
        int lo, hi, mv;
        if (!tt_probe(solver, c->key, hash_check(c->pits), c->seeds, &lo, &hi, &mv)) continue;
        int v = c->extra ? c->gain + lo : c->gain - hi; /* a lower bound on this move's value */
        if (v >= beta) {
            tt_store(solver, key, check, seeds, v, seeds, c->move, 1);
            return v;
        }
    }
    /* Step 5. Search the other children, best order first, with the window
     * (a, beta), a rising with the best value so far. */
    kalah_sort_by_key(order, todo, pending);
    int a = best > alpha ? best : alpha;
    /* Several threads share the work by ABDADA (Weill, 1996): a node being searched is marked
     * busy (in a small table, only where subtrees are large), and the other
     * threads, at a node whose first child is done, leave busy children for a
     * second pass, searching their other children meanwhile. Each thread still
     * searches its whole tree (the second pass mostly finds the other thread's
     * results in the table), so every value stays exact. */
    uint64_t *busy = NULL;
    if (w->threads > 1 && seeds >= solver->busy_seeds) {
        uint64_t *entry = &solver->busy[key & BUSY_MASK];
        uint64_t expected = 0;
        if (__atomic_compare_exchange_n(entry, &expected, key, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) busy = entry;
    }
    int deferred = 0;
    child *later[KALAH_MAX_PITS];
    for (int pass = 0; pass < 2 && a < beta; pass++) {
        int count = pass == 0 ? pending : deferred;
        for (int i = 0; i < count && a < beta; i++) {
            child *c = pass == 0 ? &kids[todo[i]] : later[i];
            if (pass == 0 && i > 0 && w->threads > 1 && c->seeds >= solver->busy_seeds &&
                __atomic_load_n(&solver->busy[c->key & BUSY_MASK], __ATOMIC_RELAXED) == c->key) {
                later[deferred++] = c;
                continue;
            }
            int v;
            if (c->extra)
                v = c->gain + search(w, c->pits, c->seeds, a - c->gain, beta - c->gain, c->key);
            else
                v = c->gain - search(w, c->pits, c->seeds, c->gain - beta, c->gain - a, c->key);
            if (w->aborted) {
                if (busy) release_busy(busy, key);
                return 0;
            }
            if (v > best) {
                best = v;
                best_move = c->move;
                if (v > a) a = v;
            }
        }
    }
    if (busy) release_busy(busy, key);
    /* Step 6. Store what was proven: a lower bound, an upper bound, or the value. */
    KALAH_ASSERT(-seeds <= best && best <= seeds && best_move >= 0);
    int work = log2_work(w->nodes - start_nodes + 1);
    if (best >= beta)
        tt_store(solver, key, check, seeds, best, seeds, best_move, work);
    else if (best <= alpha)
        tt_store(solver, key, check, seeds, -seeds, best, best_move, work);
    else
        tt_store(solver, key, check, seeds, best, best, best_move, work);
    return best;
}

static int search(worker *w, kalah_u128 pits, int seeds, int alpha, int beta, uint64_t key)
{
    if (w->solver->pits == 6) /* standard Kalah's board, with its shifts and loops fixed at compile time */
        return search_m(w, 6, pits, seeds, alpha, beta, key);
    return search_m(w, w->solver->pits, pits, seeds, alpha, beta, key);
}

/* Do two fail-soft answers of a search with the window (alpha, beta) say the same? */
static inline int same_answer(int a, int b, int alpha, int beta)
{
    if (a <= alpha || b <= alpha) return a <= alpha && b <= alpha;
    if (a >= beta || b >= beta) return a >= beta && b >= beta;
    return a == b;
}

static void *run_worker(void *arg)
{
    worker *w = arg;
    kalah_solver *solver = w->solver;
    uint8_t pits[16] = {0};
    memcpy(pits, w->root, solver->places);
    int seeds = 0;
    for (int i = 0; i < solver->places; i++) seeds += pits[i];
    kalah_state s;
    memset(&s, 0, sizeof s);
    int m = solver->pits;
    memcpy(s.cell, pits, m);
    memcpy(s.cell + m + 1, pits + m, m);
    kalah_u128 word;
    memcpy(&word, pits, 16);
    int v;
    if (kalah_is_over(&solver->rules, &s))
        v = kalah_final_margin(&solver->rules, &s);
    else if (seeds > solver->oracle_seeds || !solver->oracle->probe(solver->oracle->db, &solver->rules, &s, &v))
        v = search(w, word, seeds, w->alpha, w->beta, hash_word(word));
    if (!w->aborted) {
        w->result = v;
        __atomic_store_n(w->done, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

int kalah_solver_search(kalah_solver *solver, const uint8_t *pits, int alpha, int beta, int threads,
                        double deadline, volatile int *stop, int *aborted, uint64_t *nodes)
{
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    worker workers[16];
    int done = 0;
    pthread_t tid[16];
    int started[16] = {0};
    for (int t = 0; t < threads; t++) {
        workers[t] = (worker){solver, t, threads, 0, deadline, stop, &done, 0, 0, pits, alpha, beta};
    }
    for (int t = 1; t < threads; t++) started[t] = pthread_create(&tid[t], NULL, run_worker, &workers[t]) == 0;
    run_worker(&workers[0]);
    for (int t = 1; t < threads; t++)
        if (started[t]) pthread_join(tid[t], NULL);
    uint64_t total = 0;
    int result = 0, found = 0;
    for (int t = 0; t < threads; t++) {
        total += workers[t].nodes;
        if (!workers[t].aborted && (t == 0 || started[t])) {
            /* Threads that both finished searched the same tree exactly: their
             * fail-soft answers may differ only as bounds on the same side of the window. */
            KALAH_ASSERT(!found || same_answer(result, workers[t].result, alpha, beta));
            if (!found) result = workers[t].result;
            found = 1;
        }
    }
    *nodes = total;
    *aborted = !found;
    return result;
}

int kalah_solver_lookup(kalah_solver *solver, const uint8_t *pits, int *lower, int *upper, int *best)
{
    kalah_u128 word = kalah_u128_from_pits(pits, solver->places);
    return tt_probe(solver, hash_word(word), hash_check(word), kalah_u128_sum(word), lower, upper, best);
}

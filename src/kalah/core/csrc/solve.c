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

/* The fields of a slot: shift and mask of each. */
#define SLOT_LOWER_SHIFT 0  /* (lower + seeds) / 2 */
#define SLOT_UPPER_SHIFT 8  /* (upper + seeds) / 2, rounded up */
#define SLOT_BOUND_MASK  0xFFu
#define SLOT_MOVE_SHIFT  16
#define SLOT_MOVE_MASK   7u
#define SLOT_WORK_SHIFT  19
#define SLOT_WORK_MASK   31u
#define SLOT_CHECK_SHIFT 24 /* the check takes the 40 bits above */
_Static_assert(SLOT_UPPER_SHIFT - SLOT_LOWER_SHIFT == 8 && SLOT_MOVE_SHIFT - SLOT_UPPER_SHIFT == 8 &&
                   SLOT_WORK_SHIFT - SLOT_MOVE_SHIFT == 3 && SLOT_CHECK_SHIFT - SLOT_WORK_SHIFT == 5,
               "the fields of a slot do not overlap");

/* The table's functions pass a tt_data by value; left to itself GCC kept some of them out of line,
 * the struct going through memory (0.2% more instructions on a solve than the pointers before them,
 * bench_instructions.py); inlined, 0.6% fewer. */
#define TT_INLINE __attribute__((always_inline))

/* What the table holds on a position (as Stockfish's TTData): a slot decoded. */
typedef struct {
    int found;        /* 0: nothing on the position (the other fields are then meaningless) */
    int lower, upper; /* bounds on its pits value */
    int move;         /* the move that proved the lower bound, or the first one searched */
    int work;         /* log2 of the nodes its search took (at most SLOT_WORK_MASK): replacement keeps the most */
} tt_data;

static inline uint64_t slot_check(uint64_t slot)
{ return slot >> SLOT_CHECK_SHIFT; }

static inline TT_INLINE uint64_t slot_encode(uint64_t check, int seeds, tt_data d)
{
    KALAH_ASSERT(-seeds <= d.lower && d.lower <= d.upper && d.upper <= seeds && seeds < 256);
    KALAH_ASSERT(((d.lower + seeds) & 1) == 0 && ((d.upper + seeds) & 1) == 0);
    KALAH_ASSERT(0 <= d.move && d.move < KALAH_MAX_PITS && d.work >= 1);
    uint64_t work = (uint64_t)d.work > SLOT_WORK_MASK ? SLOT_WORK_MASK : (uint64_t)d.work;
    return (uint64_t)((d.lower + seeds) >> 1) << SLOT_LOWER_SHIFT |
           (uint64_t)((d.upper + seeds + 1) >> 1) << SLOT_UPPER_SHIFT | (uint64_t)d.move << SLOT_MOVE_SHIFT |
           work << SLOT_WORK_SHIFT | check << SLOT_CHECK_SHIFT;
}

static inline TT_INLINE tt_data slot_decode(uint64_t slot, int seeds)
{
    return (tt_data){
        .found = 1,
        .lower = 2 * (int)((slot >> SLOT_LOWER_SHIFT) & SLOT_BOUND_MASK) - seeds,
        .upper = 2 * (int)((slot >> SLOT_UPPER_SHIFT) & SLOT_BOUND_MASK) - seeds,
        .move = (int)((slot >> SLOT_MOVE_SHIFT) & SLOT_MOVE_MASK),
        .work = (int)((slot >> SLOT_WORK_SHIFT) & SLOT_WORK_MASK),
    };
}

#define BUCKET             4 /* slots: half a cache line (8-way buckets replaced worse, measured on Kalah(6,4)) */
#define BUSY_SIZE          (1 << 16)
#define BUSY_MASK          (BUSY_SIZE - 1)
#define ETC_ABOVE_DATABASE 14
/* A proof refutes every reply of the opponent, so among moves that hand over the turn those that
 * leave fewer replies come first: each costs half a seed of gain (a seed is 16). On one thread the
 * value of Kalah(6,5) took 305 million nodes against 586 million without; a quarter of a seed did
 * less, 3/8 about the same, and from 5/8 on (two replies outweigh a seed stored) twice the nodes
 * of none on Kalah(6,4) (docs/solve.md). */
#define REPLY_COST          8
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
    if (solver->egdb &&
        (solver->egdb->pits != solver->pits || solver->egdb->empty_capture != solver->rules.empty_capture)) {
        solver->oracle = NULL;
        solver->oracle_seeds = -1;
        solver->egdb = NULL;
    }
}

void kalah_solver_clear(kalah_solver *solver)
{ memset(solver->table, 0, solver->table_bytes); }

/* The solver's own two hashes of a pits-only word, on purpose: the key picks the bucket (and the ABDADA
 * mark), the check, independent of it, finds the slot, so that a false match needs 64 + 40 bits to agree
 * whatever the table's size. Built as the core's one hash (kalah_hash2 in board.h, two mixes from a seed)
 * they cost the solver 4% more instructions (bench_instructions.py: 2,541 million against 2,437 on the
 * Kalah(6,3) solve), so each is a shorter multiply-xorshift of its own. */
static inline uint64_t hash_word(kalah_u128 b)
{
    uint64_t a = (uint64_t)b, c = (uint64_t)(b >> 64);
    uint64_t h = (a ^ KALAH_GOLDEN) * 0xBF58476D1CE4E5B9ull;
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

/* The one read of the table: key picks the bucket, check (hash_check) finds the slot in it. */
static inline TT_INLINE tt_data tt_read(const kalah_solver *solver, uint64_t key, uint64_t check, int seeds)
{
    const tt_slot *bucket = solver->table + (key & solver->bucket_mask) * BUCKET;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t slot = __atomic_load_n(&bucket[i], __ATOMIC_RELAXED);
        if (slot && slot_check(slot) == check) return slot_decode(slot, seeds);
    }
    return (tt_data){.found = 0};
}

/* The one write: merges with what the slot of the position knows, else replaces the bucket's least work. */
static inline TT_INLINE void tt_write(kalah_solver *solver, uint64_t key, uint64_t check, int seeds, tt_data d)
{
    tt_slot *bucket = solver->table + (key & solver->bucket_mask) * BUCKET;
    int victim = 0, victim_work = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t slot = __atomic_load_n(&bucket[i], __ATOMIC_RELAXED);
        if (slot && slot_check(slot) == check) { /* merge what is known */
            tt_data known = slot_decode(slot, seeds);
            if (known.lower > d.lower) d.lower = known.lower;
            if (known.upper < d.upper) d.upper = known.upper;
            if (known.work > d.work) d.work = known.work;
            victim = i;
            break;
        }
        int w = slot ? slot_decode(slot, seeds).work : -1;
        if (w < victim_work) {
            victim_work = w;
            victim = i;
        }
    }
    /* True bounds never cross: they could only if two positions shared the
     * bucket and the check. Keep the entry consistent even then. */
    KALAH_ASSERT(d.lower <= d.upper);
    if (d.lower > d.upper) d.lower = d.upper;
    __atomic_store_n(&bucket[victim], slot_encode(check, seeds, d), __ATOMIC_RELAXED);
}

/* A write of bounds found by a search of this work. */
static inline TT_INLINE void tt_write_bounds(kalah_solver *solver, uint64_t key, uint64_t check, int seeds, int lower,
                                             int upper, int move, int work)
{
    tt_write(solver, key, check, seeds,
             (tt_data){.found = 1, .lower = lower, .upper = upper, .move = move, .work = work});
}

static inline int log2_work(uint64_t nodes)
{ return nodes ? 64 - __builtin_clzll(nodes) : 0; }

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

/* The node's search, with m the pit count (a constant where inlined).
 *
 * One function of six numbered steps, 160 lines: the solver's node, where a solve spends its time. The
 * steps share a dozen locals (the window, the table's bounds and move, the children played, their order
 * and database slots); functions for the steps would take them all by pointer and be inlined back, so
 * they would scatter the node's reading without changing its code. */
static inline __attribute__((always_inline)) int search_m(worker *w, const int m, kalah_u128 pits, int seeds, int alpha,
                                                          int beta, uint64_t key)
{
    kalah_solver *solver = w->solver;
    KALAH_ASSERT(alpha < beta);
    KALAH_ASSERT(kalah_pits_sane(pits, m, seeds) && seeds > 0 && key == hash_word(pits));
    /* Step 1. Count the node, look at the stop flags and now and then the clock; the seeds left bound the
     * value. On a cold table nearly every node faults in a fresh huge page (1,024 nodes took 0.04-0.4 s
     * here), so the flags are read every 64 nodes (two loads) and the clock every 1,024. */
    uint64_t start_nodes = ++w->nodes;
    if ((start_nodes & 0x3F) == 0) {
        if ((w->stop && __atomic_load_n(w->stop, __ATOMIC_RELAXED)) || __atomic_load_n(w->done, __ATOMIC_RELAXED) ||
            ((start_nodes & 0x3FF) == 0 && w->deadline > 0 && kalah_now() > w->deadline))
            w->aborted = 1;
    }
    if (w->aborted) return 0;
    if (seeds <= alpha) return seeds;
    if (-seeds >= beta) return -seeds;

    /* Step 2. The table's bounds answer, or narrow the window. */
    int lower = -seeds, upper = seeds, tt_move = -1;
    const uint64_t check = hash_check(pits);
    const tt_data known = tt_read(solver, key, check, seeds);
    if (known.found) {
        lower = known.lower;
        upper = known.upper;
        tt_move = known.move;
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
                tt_write_bounds(solver, key, check, seeds, v, seeds, best_move, 1);
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
        const tt_data bounds = tt_read(solver, c->key, hash_check(c->pits), c->seeds);
        if (!bounds.found) continue;
        int v = c->extra ? c->gain + bounds.lower : c->gain - bounds.upper; /* a lower bound on this move's value */
        if (v >= beta) {
            tt_write_bounds(solver, key, check, seeds, v, seeds, c->move, 1);
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
        tt_write_bounds(solver, key, check, seeds, best, seeds, best_move, work);
    else if (best <= alpha)
        tt_write_bounds(solver, key, check, seeds, -seeds, best, best_move, work);
    else
        tt_write_bounds(solver, key, check, seeds, best, best, best_move, work);
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
    /* Stopped before it began (a solve stopped while this test was being set up): no node at all,
     * since on a cold table even the first few can take a while. */
    if (w->stop && __atomic_load_n(w->stop, __ATOMIC_RELAXED)) {
        w->aborted = 1;
        return NULL;
    }
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

int kalah_solver_search(kalah_solver *solver, const uint8_t *pits, int alpha, int beta, int threads, double deadline,
                        volatile int *stop, int *aborted, uint64_t *nodes)
{
    if (threads < 1) threads = 1;
    if (threads > KALAH_MAX_THREADS) threads = KALAH_MAX_THREADS;
    worker workers[KALAH_MAX_THREADS];
    int done = 0;
    pthread_t tid[KALAH_MAX_THREADS];
    int started[KALAH_MAX_THREADS] = {0};
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
    tt_data known = tt_read(solver, hash_word(word), hash_check(word), kalah_u128_sum(word));
    if (known.found) {
        *lower = known.lower;
        *upper = known.upper;
        *best = known.move;
    }
    return known.found;
}

/* Endgame databases: see endgame.h for the layout.
 *
 * Build order. A move either sends seeds into a store (a sowing that reaches
 * the store, a capture, the final sweep), which lowers the seeds in the pits,
 * or moves seeds forward inside the mover's own row, which keeps them. Those
 * same-layer moves always raise P = sum over both rows of (pit index x seeds),
 * which the mirroring to the mover's view does not change, so the same-layer
 * successors form a DAG. Each entry is computed from the layers below and, for
 * a same-layer successor not done yet, by a memoised recursion into it.
 * Two threads may compute the same entry at once; both write the same value,
 * through relaxed atomics, so the race is harmless.
 */
#include "endgame.h"

#include <pthread.h>
#include <stdlib.h>

static inline int8_t load_value(const int8_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void store_value(int8_t *p, int8_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

int kalah_egdb_init(kalah_egdb *db, int pits, int empty_capture, int max_seeds)
{
    if (pits < 1 || pits > KALAH_MAX_PITS || max_seeds < 0 || max_seeds > KALAH_EGDB_MAX_SEEDS) return -1;
    memset(db, 0, sizeof *db);
    db->pits = pits;
    db->empty_capture = empty_capture != 0;
    db->max_seeds = max_seeds;
    db->places = 2 * pits;
    int rows = KALAH_EGDB_MAX_SEEDS + 2 * KALAH_MAX_PITS + 2;
    for (int a = 0; a < rows; a++) {
        db->binom[a][0] = 1;
        for (int b = 1; b <= 2 * KALAH_MAX_PITS; b++)
            db->binom[a][b] = a == 0 ? 0 : db->binom[a - 1][b - 1] + db->binom[a - 1][b];
    }
    int n = db->places;
    for (int s = 0; s <= max_seeds + 1; s++) db->layer_offset[s] = db->binom[s + n - 1][n];
    for (int k = 0; k < n; k++)
        for (int p = 0; p <= KALAH_EGDB_MAX_SEEDS; p++) db->rank_term[k][p] = db->binom[p + k][k + 1];
    kalah_rules_init(&db->rules, pits, 1, empty_capture, 0);
    kalah_pits_rules_init(&db->moves, pits, empty_capture);
    return 0;
}

uint64_t kalah_egdb_size(const kalah_egdb *db) { return db->layer_offset[db->max_seeds + 1]; }

uint64_t kalah_egdb_layer_size(const kalah_egdb *db, int seeds)
{
    return db->binom[seeds + db->places - 1][db->places - 1];
}

uint64_t kalah_egdb_index(const kalah_egdb *db, const uint8_t *pits, int seeds)
{
    (void)seeds;
    uint64_t rank = 0;
    int prefix = 0, n = db->places;
    for (int k = 0; k < n - 1; k++) {
        prefix += pits[k];
        rank += db->binom[prefix + k][k + 1];
    }
    return rank;
}

int kalah_egdb_probe(const void *opaque, const kalah_rules *r, const kalah_state *s, int *value)
{
    const kalah_egdb *db = opaque;
    if (r->pits != db->pits || r->empty_capture != db->empty_capture) return 0;
    int seeds = kalah_side_seeds(r, s, 0) + kalah_side_seeds(r, s, 1);
    if (seeds > db->max_seeds) return 0;
    int m = r->pits;
    uint8_t pits[2 * KALAH_MAX_PITS];
    memcpy(pits, s->cell + s->to_move * (m + 1), m);
    memcpy(pits + m, s->cell + (1 - s->to_move) * (m + 1), m);
    *value = *kalah_egdb_slot(db, kalah_u128_from_pits(pits, 2 * m), seeds);
    KALAH_ASSERT(-seeds <= *value && *value <= seeds); /* probed only once complete: no KALAH_EGDB_UNKNOWN */
    return 1;
}

/* One move of a position being computed: where its successor's value lives. */
typedef struct {
    int8_t *slot;     /* NULL when the move ends the game */
    kalah_u128 pits;  /* the successor from its mover's view */
    int left;         /* seeds left in the pits */
    int gain;         /* seeds the move puts into the mover's store minus the opponent's */
    int extra;        /* the mover moves again */
} successor;

/* The successors of `b` (mover's view, `seeds` seeds), with their slots
 * prefetched. Returns their number, or -1 when the position is over
 * (*over_value set). m is the pit count: a constant where it is inlined. */
static inline __attribute__((always_inline)) int
expand(kalah_egdb *db, const int m, kalah_u128 b, int seeds, successor *out, int *over_value)
{
    const kalah_pits_rules *pr = &db->moves;
    uint8_t pits[16];
    memcpy(pits, &b, 16);
    uint64_t own = (uint64_t)b & (uint64_t)pr->own_mask;
    if (own == 0 || (b & pr->opp_mask) == 0) {
        int mine = (int)((own * 0x0101010101010101ull) >> 56);
        *over_value = mine - (seeds - mine);
        return -1;
    }
    int n = 0;
    for (int i = 0; i < m; i++) {
        if (!pits[i]) continue;
        kalah_pits_move mv;
        kalah_pits_play(pr, m, b, seeds, i, pits[i], &mv);
        successor *c = &out[n++];
        c->gain = mv.gain;
        c->extra = mv.extra;
        c->left = mv.left;
        c->pits = mv.pits;
        c->slot = NULL;
        if (mv.left) {
            c->slot = (int8_t *)kalah_egdb_slot(db, mv.pits, mv.left);
            __builtin_prefetch(c->slot);
        }
    }
    return n;
}

static int compute(kalah_egdb *db, kalah_u128 b, int seeds, int8_t *slot);

/* The build order's measure: the sum over both rows of pit index x seeds (the
 * same from either mover's view). A move that keeps the seeds in the pits
 * raises it, which is why the recursion into same-layer successors ends. */
static inline int build_measure(const kalah_egdb *db, kalah_u128 b)
{
    int p = 0;
    for (int j = 0; j < db->places; j++) p += (j % db->pits) * kalah_u128_byte(b, j);
    return p;
}

/* The best value over the successors of `b` (`seeds` seeds), computing
 * same-layer ones not done yet. */
static inline int combine(kalah_egdb *db, kalah_u128 b, int seeds, successor *kids, int n)
{
    int best = -1000;
    for (int i = 0; i < n; i++) {
        successor *c = &kids[i];
        int value = c->gain;
        if (c->slot) {
            int cv = load_value(c->slot);
            if (cv == KALAH_EGDB_UNKNOWN) {
                /* Only this layer can be unfinished, and its successors come later in build order. */
                KALAH_ASSERT(c->left == seeds && build_measure(db, c->pits) > build_measure(db, b));
                cv = compute(db, c->pits, c->left, c->slot);
            }
            KALAH_ASSERT(-c->left <= cv && cv <= c->left);
            value = c->extra ? c->gain + cv : c->gain - cv;
        }
        if (value > best) best = value;
    }
    KALAH_ASSERT(n > 0 && -seeds <= best && best <= seeds);
    return best;
}

/* The value of the position `b` (mover's view, `seeds` seeds), written to its slot. */
static int compute(kalah_egdb *db, kalah_u128 b, int seeds, int8_t *slot)
{
    successor kids[KALAH_MAX_PITS];
    int best = 0;
    int n = db->pits == 6 ? expand(db, 6, b, seeds, kids, &best) : expand(db, db->pits, b, seeds, kids, &best);
    if (n >= 0) best = combine(db, b, seeds, kids, n);
    store_value(slot, (int8_t)best);
    return best;
}

/* The composition of `seeds` seeds over `places` places with colex rank `rank`, as a word. */
static kalah_u128 unrank(const kalah_egdb *db, int seeds, uint64_t rank, int places)
{
    int n = places, bar[2 * KALAH_MAX_PITS];
    if (n == 1) return (kalah_u128)seeds;
    int top = seeds + n - 2;
    for (int k = n - 2; k >= 0; k--) {
        int p = top;
        while (db->binom[p][k + 1] > rank) p--;
        KALAH_ASSERT(p >= k);
        bar[k] = p;
        rank -= db->binom[p][k + 1];
        top = p - 1;
    }
    uint8_t pits[2 * KALAH_MAX_PITS];
    int prev = -1;
    for (int k = 0; k < n - 1; k++) {
        pits[k] = (uint8_t)(bar[k] - prev - 1);
        prev = bar[k];
    }
    pits[n - 1] = (uint8_t)(seeds + n - 2 - prev);
    return kalah_u128_from_pits(pits, n);
}

/* The composition of the next colex rank (b must not be the last of its layer).
 * With k the first place after 0 that is not empty, minus one: places 1..k are
 * empty; the next composition moves one seed from place k + 1 down to place k
 * and gathers the seeds of place 0 there too (the bars below k reset). */
static inline kalah_u128 next_composition(kalah_u128 b)
{
    kalah_u128 rest = b >> 8;
    KALAH_ASSERT(rest != 0); /* not the last composition: some seed lies beyond place 0 */
    uint64_t low = (uint64_t)rest;
    int k = low ? __builtin_ctzll(low) >> 3 : 8 + (__builtin_ctzll((uint64_t)(rest >> 64)) >> 3);
    int first = (uint8_t)b;
    b &= ~(kalah_u128)0xFF;                  /* place 0 empties (k > 0) or is rewritten (k = 0) */
    b -= kalah_u128_one(k + 1);
    b += (kalah_u128)(first + 1) << (8 * k);
    return b;
}

/* Build order. A layer is built in another order than it is stored: the
 * mover's row X outermost (by its seeds, then its colex rank), the opponent's
 * row Y innermost. A move that hands the turn over turns the board, so its
 * successor is stored with X' (X after the move) in the high places, which
 * rank most: while Y runs through its compositions, the successors of each
 * move stay inside one small region of their layer, and the memory reads of
 * the build stream instead of jumping (the stored order would scatter them
 * over the whole layer). */
typedef struct {
    int seeds, m;
    int mover;             /* seeds in X */
    uint64_t x_rank, y_rank, x_count, y_count;
    kalah_u128 x, y;       /* m-place words */
} build_cursor;

static inline uint64_t compositions(const kalah_egdb *db, int seeds, int places)
{
    return db->binom[seeds + places - 1][places - 1];
}

static void cursor_start(const kalah_egdb *db, build_cursor *c, int seeds, uint64_t index)
{
    int m = db->pits;
    c->seeds = seeds;
    c->m = m;
    for (c->mover = 0;; c->mover++) {
        c->x_count = compositions(db, c->mover, m);
        c->y_count = compositions(db, seeds - c->mover, m);
        if (index < c->x_count * c->y_count) break;
        index -= c->x_count * c->y_count;
        KALAH_ASSERT(c->mover < seeds); /* the index lies inside the layer */
    }
    c->x_rank = index / c->y_count;
    c->y_rank = index % c->y_count;
    c->x = unrank(db, c->mover, c->x_rank, m);
    c->y = unrank(db, seeds - c->mover, c->y_rank, m);
}

static inline kalah_u128 cursor_board(const build_cursor *c) { return c->x | (c->y << (8 * c->m)); }

/* The next position in build order (the cursor must not be at the layer's last). */
static inline void cursor_next(const kalah_egdb *db, build_cursor *c)
{
    if (++c->y_rank < c->y_count) {
        c->y = next_composition(c->y);
        return;
    }
    c->y_rank = 0;
    if (++c->x_rank < c->x_count) {
        c->x = next_composition(c->x);
    } else {
        c->mover++;
        c->x_rank = 0;
        c->x_count = compositions(db, c->mover, c->m);
        c->y_count = compositions(db, c->seeds - c->mover, c->m);
        c->x = (kalah_u128)c->mover << (8 * (c->m - 1)); /* rank 0: every seed in the last place */
    }
    c->y = (kalah_u128)(c->seeds - c->mover) << (8 * (c->m - 1));
}

typedef struct {
    kalah_egdb *db;
    int seeds;
    uint64_t lo, hi;
    uint64_t next;  /* shared: the next block to take */
    volatile int *stop;
    int stopped;
} build_job;

#define BUILD_BLOCK 8192
#define BUILD_BATCH 16

/* The next batch of positions in build order (at most `*left` of them): their
 * boards, and their own slots, located and prefetched. */
static inline __attribute__((always_inline)) void
next_batch(const kalah_egdb *db, int8_t *layer, build_cursor *cursor, kalah_u128 *board, int8_t **slot, uint64_t *left)
{
    for (int j = 0; j < BUILD_BATCH && *left; j++, (*left)--) {
        board[j] = cursor_board(cursor);
        KALAH_ASSERT(kalah_pits_sane(board[j], db->pits, cursor->seeds));
        KALAH_ASSERT(kalah_egdb_rank(db, board[j]) < kalah_egdb_layer_size(db, cursor->seeds));
        slot[j] = layer + kalah_egdb_rank(db, board[j]);
        __builtin_prefetch(slot[j], 1);
        if (*left > 1) cursor_next(db, cursor);
    }
}

/* Block [lo, hi) of a layer, in build order. */
static inline __attribute__((always_inline)) void build_block(kalah_egdb *db, const int m, int seeds, uint64_t lo, uint64_t hi)
{
    int8_t *layer = db->values + db->layer_offset[seeds];
    build_cursor cursor;
    cursor_start(db, &cursor, seeds, lo);
    /* In batches, so that the successors' slots of several positions are
     * fetched from memory at once; each batch's own slots (scattered: the
     * stored order is not the build order) are located and prefetched one
     * batch ahead. */
    kalah_u128 board[2][BUILD_BATCH];
    int8_t *slot[2][BUILD_BATCH];
    int ahead = 0;
    uint64_t left = hi - lo;
    next_batch(db, layer, &cursor, board[0], slot[0], &left);
    for (uint64_t idx = lo; idx < hi; idx += BUILD_BATCH) {
        int count = hi - idx < BUILD_BATCH ? (int)(hi - idx) : BUILD_BATCH;
        int now = ahead;
        ahead ^= 1;
        next_batch(db, layer, &cursor, board[ahead], slot[ahead], &left);
        successor kids[BUILD_BATCH][KALAH_MAX_PITS];
        int nkids[BUILD_BATCH], value[BUILD_BATCH] = {0};
        for (int j = 0; j < count; j++) {
            nkids[j] = -2;
            if (load_value(slot[now][j]) == KALAH_EGDB_UNKNOWN)
                nkids[j] = expand(db, m, board[now][j], seeds, kids[j], &value[j]);
        }
        for (int j = 0; j < count; j++) {
            if (nkids[j] == -2) continue;
            int best = nkids[j] >= 0 ? combine(db, board[now][j], seeds, kids[j], nkids[j]) : value[j];
            store_value(slot[now][j], (int8_t)best);
        }
    }
}

static void *build_worker(void *arg)
{
    build_job *job = arg;
    kalah_egdb *db = job->db;
    for (;;) {
        if (job->stop && *job->stop) {
            __atomic_store_n(&job->stopped, 1, __ATOMIC_RELAXED);
            return NULL;
        }
        uint64_t lo = __atomic_fetch_add(&job->next, BUILD_BLOCK, __ATOMIC_RELAXED);
        if (lo >= job->hi) return NULL;
        uint64_t hi = lo + BUILD_BLOCK < job->hi ? lo + BUILD_BLOCK : job->hi;
        if (db->pits == 6) /* standard Kalah's board, with its shifts and loops fixed at compile time */
            build_block(db, 6, job->seeds, lo, hi);
        else
            build_block(db, db->pits, job->seeds, lo, hi);
    }
}

int kalah_egdb_build_range(kalah_egdb *db, int seeds, uint64_t lo, uint64_t hi, int threads, volatile int *stop)
{
    if (seeds < 0 || seeds > db->max_seeds) return -1;
    KALAH_ASSERT(lo <= hi && hi <= kalah_egdb_layer_size(db, seeds));
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    build_job job = {db, seeds, lo, hi, lo, stop, 0};
    pthread_t tid[64];
    int started = 0;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&tid[started], NULL, build_worker, &job) == 0) started++;
    build_worker(&job);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    return job.stopped ? -1 : 0;
}

int kalah_pits_play_bytes(int pits, int empty_capture, const uint8_t *in, int move, uint8_t *out, int *extra, int *left)
{
    kalah_pits_rules pr;
    kalah_pits_rules_init(&pr, pits, empty_capture);
    kalah_u128 b = kalah_u128_from_pits(in, 2 * pits);
    kalah_pits_move mv;
    kalah_pits_play(&pr, pits, b, kalah_u128_sum(b), move, in[move], &mv);
    kalah_u128_to_pits(mv.pits, out, 2 * pits);
    *extra = mv.extra;
    *left = mv.left;
    return mv.gain;
}

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t kalah_checksum64(const uint8_t *data, uint64_t size, uint64_t seed)
{
    const uint64_t P1 = 0x9E3779B185EBCA87ull, P2 = 0xC2B2AE3D27D4EB4Full;
    uint64_t lane[4] = {seed + P1 + P2, seed + P2, seed, seed - P1};
    uint64_t i = 0;
    for (; i + 32 <= size; i += 32) {
        for (int j = 0; j < 4; j++) {
            uint64_t w;
            memcpy(&w, data + i + 8 * j, 8);
            lane[j] = rotl64(lane[j] + w * P2, 31) * P1;
        }
    }
    uint64_t h = rotl64(lane[0], 1) + rotl64(lane[1], 7) + rotl64(lane[2], 12) + rotl64(lane[3], 18) + size;
    for (; i < size; i++) h = rotl64(h ^ (data[i] * P1), 11) * P2;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P1;
    h ^= h >> 32;
    return h;
}

/* Endgame databases: see endgame.h for the layout.
 *
 * Build order. A move either sends seeds into a store (a sowing that reaches
 * the store, a capture, the final sweep), which lowers the seeds in the pits,
 * or sows only inside the mover's own row, toward the store, which keeps them
 * all in the pits. Such a same-layer move lowers the potential
 * D = sum over all seeds of their distance to their own side's store
 * (a seed in pit i of its side is m - i places from it); the turn to the
 * other mover's view does not change D. So a layer is built in phases of
 * increasing D: every same-layer successor of a phase-d position lies in an
 * earlier phase, and the entries of one phase depend on nothing of their own
 * phase, so the threads share a phase freely and meet only between phases.
 * Values are packed in place as they are computed: the layer's bytes start
 * zeroed and each value is or-ed into its bits with an atomic or (two threads
 * may write neighbours in one word); same-layer values are read back with
 * atomic loads of the aligned words. So a build needs no memory beyond the
 * database itself.
 */
#include "endgame.h"

#include <pthread.h>
#include <stdlib.h>

/* The bit where the value of position `rank` of layer `seeds` starts in the payload. */
static inline uint64_t value_bit(const kalah_egdb *db, int seeds, uint64_t rank)
{ return db->layer_byte[seeds] * 8 + rank * db->layer_bits[seeds]; }

/* The value at `bit` of a layer being built, read with atomic loads of its aligned words. */
static inline int load_value(const kalah_egdb *db, int seeds, uint64_t bit)
{
    const uint64_t *words = (const uint64_t *)db->packed;
    uint64_t at = bit >> 6;
    int shift = (int)(bit & 63), w = (int)db->layer_bits[seeds];
    uint64_t a = __atomic_load_n(&words[at], __ATOMIC_RELAXED) >> shift;
    if (shift + w > 64) a |= __atomic_load_n(&words[at + 1], __ATOMIC_RELAXED) << (64 - shift);
    return 2 * (int)(a & db->layer_mask[seeds]) - seeds;
}

/* Write the value v (parity of `seeds`) at `bit`, whose bits are still zero. */
static inline void store_value(kalah_egdb *db, int seeds, uint64_t bit, int v)
{
    uint64_t *words = (uint64_t *)db->packed;
    uint64_t at = bit >> 6, a = (uint64_t)((v + seeds) >> 1);
    int shift = (int)(bit & 63), w = (int)db->layer_bits[seeds];
    KALAH_ASSERT(-seeds <= v && v <= seeds && ((v + seeds) & 1) == 0);
    __atomic_fetch_or(&words[at], a << shift, __ATOMIC_RELAXED);
    if (shift + w > 64) __atomic_fetch_or(&words[at + 1], a >> (64 - shift), __ATOMIC_RELAXED);
}

static int bit_length(int x)
{
    int w = 0;
    while (x >> w) w++;
    return w;
}

int kalah_egdb_init(kalah_egdb *db, int pits, int empty_capture, int max_seeds)
{
    if (pits < 1 || pits > KALAH_MAX_PITS || max_seeds < 0 || max_seeds > KALAH_EGDB_MAX_SEEDS) return -1;
    memset(db, 0, sizeof *db);
    db->pits = pits;
    db->empty_capture = empty_capture != 0;
    db->max_seeds = max_seeds;
    db->places = 2 * pits;
    db->building = -1;
    int rows = KALAH_EGDB_MAX_SEEDS + 2 * KALAH_MAX_PITS + 2;
    for (int a = 0; a < rows; a++) {
        db->binom[a][0] = 1;
        for (int b = 1; b <= 2 * KALAH_MAX_PITS; b++)
            db->binom[a][b] = a == 0 ? 0 : db->binom[a - 1][b - 1] + db->binom[a - 1][b];
    }
    int n = db->places;
    for (int s = 0; s <= max_seeds + 1; s++) db->layer_offset[s] = db->binom[s + n - 1][n];
    db->layer_byte[0] = 0;
    for (int s = 0; s <= max_seeds; s++) {
        int w = s ? bit_length(s) : 1;
        db->layer_bits[s] = (uint32_t)w;
        db->layer_mask[s] = (1ull << w) - 1;
        uint64_t bits = kalah_egdb_layer_size(db, s) * (uint64_t)w;
        db->layer_byte[s + 1] = db->layer_byte[s] + (bits + 63) / 64 * 8;
    }
    for (int k = 0; k < n; k++)
        for (int p = 0; p <= KALAH_EGDB_MAX_SEEDS; p++) db->rank_term[k][p] = db->binom[p + k][k + 1];
    kalah_rules_init(&db->rules, pits, 1, empty_capture, 0);
    kalah_pits_rules_init(&db->moves, pits, empty_capture);
    return 0;
}

uint64_t kalah_egdb_size(const kalah_egdb *db)
{ return db->layer_offset[db->max_seeds + 1]; }

uint64_t kalah_egdb_bytes(const kalah_egdb *db)
{ return db->layer_byte[db->max_seeds + 1] + KALAH_EGDB_PADDING; }

uint64_t kalah_egdb_layer_size(const kalah_egdb *db, int seeds)
{ return db->binom[seeds + db->places - 1][db->places - 1]; }

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
    *value = kalah_egdb_value(db, kalah_u128_from_pits(pits, 2 * m), seeds);
    return 1;
}

/* One move of a position being computed: where its successor's value lives. */
typedef struct {
    uint64_t same;       /* the bit of the successor's value when it keeps every seed in the pits (else 0) */
    kalah_egdb_ref ref;  /* else its value in a layer below (ref.seeds = 0 when the move ends the game) */
    int gain;            /* seeds the move puts into the mover's store minus the opponent's */
    int extra;           /* the mover moves again */
} successor;

/* The build order's potential: every seed's distance to its own side's store (see above). */
static inline int distance(const kalah_egdb *db, kalah_u128 b)
{
    int d = 0;
    for (int j = 0; j < db->places; j++) d += (db->pits - j % db->pits) * kalah_u128_byte(b, j);
    return d;
}

/* The successors of `b` (mover's view, `seeds` seeds), with their values'
 * places prefetched. Returns their number, or -1 when the position is over
 * (*over_value set). m is the pit count: a constant where it is inlined. */
static inline __attribute__((always_inline)) int expand(const kalah_egdb *db, const int m, kalah_u128 b, int seeds,
                                                        successor *out, int *over_value)
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
        c->same = 0;
        c->ref.seeds = 0;
        if (mv.left == seeds) { /* computed in an earlier phase: its distance is smaller */
            KALAH_ASSERT(distance(db, mv.pits) < distance(db, b));
            c->same = value_bit(db, seeds, kalah_egdb_rank(db, mv.pits));
            __builtin_prefetch(db->packed + (c->same >> 3));
        } else if (mv.left) {
            c->ref = kalah_egdb_find(db, mv.pits, mv.left);
            __builtin_prefetch(c->ref.byte);
        }
    }
    return n;
}

/* The best value over the successors. */
static inline int combine(const kalah_egdb *db, int seeds, const successor *kids, int n)
{
    int best = -1000;
    for (int i = 0; i < n; i++) {
        const successor *c = &kids[i];
        int value = c->gain;
        if (c->same || c->ref.seeds) {
            int cv = c->same ? load_value(db, seeds, c->same) : kalah_egdb_read(db, c->ref);
            value = c->extra ? c->gain + cv : c->gain - cv;
        }
        if (value > best) best = value;
    }
    KALAH_ASSERT(n > 0 && -seeds <= best && best <= seeds);
    return best;
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

/* The build order of one layer of S seeds. A position is its mover's row X
 * and the opponent's row Y (m places each, as 64-bit words; m <= 8); D is
 * D(X) + D(Y). Phases run by D; inside a phase, by the seeds of X, then
 * D(X), then X (colex), with Y innermost (colex among the rows of its seeds
 * and D). A move that hands the turn over stores its successor with X' (X
 * after the move) in the high places, which rank most, so while Y runs the
 * reads of each move stay in a small region of their layer and mostly
 * stream. rows[] holds every row of s <= S seeds grouped by (s, D), colex
 * inside a group; group (s, D) is rows[start(s, D) .. start(s, D + 1)). */
typedef struct {
    int seeds, m, dmax;       /* dmax = m S: the largest D */
    uint64_t *rows;
    uint64_t *group;          /* (S + 1) x (dmax + 2) */
    uint64_t *phase_start;    /* dmax + 2: build-order index where phase D starts */
} build_plan;

static inline uint64_t *group_at(const build_plan *plan, int s, int d)
{ return &plan->group[(size_t)s * (plan->dmax + 2) + d]; }
static inline uint64_t group_count(const build_plan *plan, int s, int d)
{
    if (s < 0 || d < 0 || d > plan->dmax) return 0;
    return group_at(plan, s, d)[1] - group_at(plan, s, d)[0];
}

static int row_distance(uint64_t row, int m)
{
    int d = 0;
    for (int i = 0; i < m; i++) d += (m - i) * (int)((row >> (8 * i)) & 0xFF);
    return d;
}

static void plan_free(build_plan *plan)
{
    if (!plan) return;
    free(plan->rows);
    free(plan->group);
    free(plan->phase_start);
    free(plan);
}

static inline uint64_t compositions(const kalah_egdb *db, int seeds, int places)
{ return db->binom[seeds + places - 1][places - 1]; }

static build_plan *plan_new(const kalah_egdb *db, int seeds)
{
    int m = db->pits;
    build_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return NULL;
    plan->seeds = seeds;
    plan->m = m;
    plan->dmax = m * seeds;
    uint64_t total = 0;
    for (int s = 0; s <= seeds; s++) total += compositions(db, s, m);
    plan->rows = malloc(total * sizeof *plan->rows);
    plan->group = calloc((size_t)(seeds + 1) * (plan->dmax + 2), sizeof *plan->group);
    plan->phase_start = calloc((size_t)plan->dmax + 2, sizeof *plan->phase_start);
    uint64_t *tmp = malloc(compositions(db, seeds, m) * sizeof *tmp);
    if (!plan->rows || !plan->group || !plan->phase_start || !tmp) {
        free(tmp);
        plan_free(plan);
        return NULL;
    }
    uint64_t base = 0;
    for (int s = 0; s <= seeds; s++) {
        uint64_t count = compositions(db, s, m);
        /* Every row of s seeds in colex order, then a stable counting sort by D. */
        kalah_u128 row = (kalah_u128)s << (8 * (m - 1));
        uint64_t *g = group_at(plan, s, 0);
        for (uint64_t r = 0; r < count; r++) {
            tmp[r] = (uint64_t)row;
            g[row_distance(tmp[r], m) + 1]++;
            if (r + 1 < count) row = next_composition(row);
        }
        g[0] = base;
        for (int d = 1; d <= plan->dmax + 1; d++) g[d] += g[d - 1];
        for (uint64_t r = 0; r < count; r++) {
            int d = row_distance(tmp[r], m);
            plan->rows[g[d]++] = tmp[r];
        }
        /* g[d] now ends group d: shift back to starts. */
        for (int d = plan->dmax + 1; d > 0; d--) g[d] = g[d - 1];
        g[0] = base;
        base += count;
    }
    free(tmp);
    uint64_t at = 0;
    for (int d = 0; d <= plan->dmax; d++) {
        plan->phase_start[d] = at;
        for (int sx = 0; sx <= seeds; sx++)
            for (int dx = 0; dx <= d; dx++) at += group_count(plan, sx, dx) * group_count(plan, seeds - sx, d - dx);
    }
    plan->phase_start[plan->dmax + 1] = at;
    KALAH_ASSERT(at == kalah_egdb_layer_size(db, seeds));
    return plan;
}

typedef struct {
    const build_plan *plan;
    int d, sx, dx;
    uint64_t xi, yi, x_count, y_count;
    const uint64_t *x_rows, *y_rows;
} build_cursor;

static inline void cursor_pair(build_cursor *c)
{
    const build_plan *plan = c->plan;
    c->x_count = group_count(plan, c->sx, c->dx);
    c->y_count = group_count(plan, plan->seeds - c->sx, c->d - c->dx);
    c->x_rows = plan->rows + *group_at(plan, c->sx, c->dx);
    c->y_rows = c->y_count ? plan->rows + *group_at(plan, plan->seeds - c->sx, c->d - c->dx) : NULL;
}

/* The cursor at `index` of phase d (index < the phase's size). */
static void cursor_start(build_cursor *c, const build_plan *plan, int d, uint64_t index)
{
    c->plan = plan;
    c->d = d;
    for (c->sx = 0; c->sx <= plan->seeds; c->sx++)
        for (c->dx = 0; c->dx <= d; c->dx++) {
            cursor_pair(c);
            uint64_t size = c->x_count * c->y_count;
            if (index < size) {
                c->xi = index / c->y_count;
                c->yi = index % c->y_count;
                return;
            }
            index -= size;
        }
    KALAH_ASSERT(0); /* the index lies inside the phase */
}

static inline kalah_u128 cursor_board(const build_cursor *c)
{ return (kalah_u128)c->x_rows[c->xi] | ((kalah_u128)c->y_rows[c->yi] << (8 * c->plan->m)); }

/* The next position of the phase (the cursor must not be at its last). */
static inline void cursor_next(build_cursor *c)
{
    if (++c->yi < c->y_count) return;
    c->yi = 0;
    if (++c->xi < c->x_count) return;
    c->xi = 0;
    do {
        if (++c->dx > c->d) {
            c->dx = 0;
            c->sx++;
            KALAH_ASSERT(c->sx <= c->plan->seeds);
        }
        cursor_pair(c);
    } while (c->x_count * c->y_count == 0);
}

typedef struct {
    kalah_egdb *db;
    int seeds, d;
    uint64_t lo, hi;  /* indices inside phase d */
    uint64_t next;    /* shared: the next block to take */
    volatile int *stop;
    int stopped;
} build_job;

#define BUILD_BLOCK 8192
#define BUILD_BATCH 16

/* The next batch of positions in build order (at most `*left` of them): their
 * boards, and the bits of their own values, located and prefetched. */
static inline __attribute__((always_inline)) void next_batch(const kalah_egdb *db, build_cursor *cursor,
                                                             kalah_u128 *board, uint64_t *slot, uint64_t *left)
{
    for (int j = 0; j < BUILD_BATCH && *left; j++, (*left)--) {
        board[j] = cursor_board(cursor);
        KALAH_ASSERT(kalah_pits_sane(board[j], db->pits, cursor->plan->seeds));
        slot[j] = value_bit(db, cursor->plan->seeds, kalah_egdb_rank(db, board[j]));
        __builtin_prefetch(db->packed + (slot[j] >> 3), 1);
        if (*left > 1) cursor_next(cursor);
    }
}

/* Block [lo, hi) of a phase. */
static inline __attribute__((always_inline)) void build_block(kalah_egdb *db, const int m, int seeds, int d,
                                                              uint64_t lo, uint64_t hi)
{
    build_cursor cursor = {0};
    cursor_start(&cursor, db->plan, d, lo);
    /* In batches, so that the successors' values of several positions are
     * fetched from memory at once; each batch's own entries (scattered: the
     * stored order is not the build order) are located and prefetched one
     * batch ahead. */
    kalah_u128 board[2][BUILD_BATCH];
    uint64_t slot[2][BUILD_BATCH];
    int ahead = 0;
    uint64_t left = hi - lo;
    next_batch(db, &cursor, board[0], slot[0], &left);
    for (uint64_t idx = lo; idx < hi; idx += BUILD_BATCH) {
        int count = hi - idx < BUILD_BATCH ? (int)(hi - idx) : BUILD_BATCH;
        int now = ahead;
        ahead ^= 1;
        next_batch(db, &cursor, board[ahead], slot[ahead], &left);
        successor kids[BUILD_BATCH][KALAH_MAX_PITS];
        int nkids[BUILD_BATCH], value[BUILD_BATCH] = {0};
        for (int j = 0; j < count; j++) nkids[j] = expand(db, m, board[now][j], seeds, kids[j], &value[j]);
        for (int j = 0; j < count; j++) {
            int best = nkids[j] >= 0 ? combine(db, seeds, kids[j], nkids[j]) : value[j];
            store_value(db, seeds, slot[now][j], best);
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
            build_block(db, 6, job->seeds, job->d, lo, hi);
        else
            build_block(db, db->pits, job->seeds, job->d, lo, hi);
    }
}

int kalah_egdb_begin_layer(kalah_egdb *db, int seeds)
{
    if (seeds < 0 || seeds > db->max_seeds || !db->packed || ((uintptr_t)db->packed & 7)) return -1;
    plan_free(db->plan);
    db->plan = plan_new(db, seeds);
    if (!db->plan) return -1;
    memset(db->packed + db->layer_byte[seeds], 0, db->layer_byte[seeds + 1] - db->layer_byte[seeds]);
    db->building = seeds;
    return 0;
}

int kalah_egdb_build_range(kalah_egdb *db, int seeds, uint64_t lo, uint64_t hi, int threads, volatile int *stop)
{
    if (seeds != db->building || !db->plan || lo > hi || hi > kalah_egdb_layer_size(db, seeds)) return -1;
    const build_plan *plan = db->plan;
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    int d = 0;
    while (lo < hi) {
        while (plan->phase_start[d + 1] <= lo) d++;
        uint64_t start = plan->phase_start[d];
        uint64_t end = plan->phase_start[d + 1] < hi ? plan->phase_start[d + 1] : hi;
        /* The phase (or its part in [lo, hi)) on every thread; they meet at its end. */
        build_job job = {db, seeds, d, lo - start, end - start, lo - start, stop, 0};
        int workers = (end - lo) / BUILD_BLOCK + 1 < (uint64_t)threads ? (int)((end - lo) / BUILD_BLOCK + 1) : threads;
        pthread_t tid[64];
        int started = 0;
        for (int t = 1; t < workers; t++)
            if (pthread_create(&tid[started], NULL, build_worker, &job) == 0) started++;
        build_worker(&job);
        for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
        if (job.stopped) return -1;
        lo = end;
    }
    return 0;
}

int kalah_egdb_end_layer(kalah_egdb *db, int seeds)
{
    if (seeds != db->building) return -1;
    plan_free(db->plan);
    db->plan = NULL;
    db->building = -1;
    return 0;
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

static inline uint64_t rotl64(uint64_t x, int k)
{ return (x << k) | (x >> (64 - k)); }

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

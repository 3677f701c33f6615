/* Endgame databases: the exact value of every position with at most K seeds
 * in the pits, for one pit count and capture rule.
 *
 * A position is stored from the mover's view: its pits are written as a
 * composition of S seeds over n = 2m places, the mover's pits first, and
 * indexed by the colex rank of that composition (stars and bars) inside the
 * layer of S seeds. The value is the best final margin the mover can still get
 * from the seeds in the pits (stores excluded): v in [-S, S], v = 2a - S where
 * a in [0, S] is the number of those seeds the mover ends with, so v has the
 * parity of S.
 *
 * Storage (format 2): a is bit-packed, w(S) = bit length of S bits per
 * position (5 bits for layers 16..31, 6 for 32..63); layer S starts at byte
 * layer_byte[S] (8-byte aligned), position r of the layer at bit r * w(S) of
 * it. A probe is one unaligned 64-bit load, a shift and a mask. The payload
 * ends with 8 bytes of padding so that the load never leaves it.
 *
 * Nothing here depends on the seeds per pit at the start, nor on the pie rule
 * (the swap exists only at the first move, long before any endgame).
 */
#ifndef KALAH_ENDGAME_H
#define KALAH_ENDGAME_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define KALAH_EGDB_MAX_SEEDS 64   /* values must fit int8 (and 7 bits) and ranks in 64 bits */
#define KALAH_EGDB_PADDING   8      /* bytes after the last layer, for the 64-bit load of a probe */

#ifndef __SIZEOF_INT128__
#error "the endgame databases and the solver need a compiler with unsigned __int128 (GCC or Clang, 64-bit)"
#endif

/* Pits-only positions as one 128-bit word: byte j (bits 8j..8j+7) is place j
 * of the mover's view (the mover's m pits, then the opponent's m; 2m <= 16).
 * Byte j is defined arithmetically, so nothing depends on the byte order.
 * Both the database build and the solver move on these words: a sowing is one
 * addition (no board copies, no stores to keep), and turning the board to the
 * next mover's view is a rotation of the two halves. */
typedef unsigned __int128 kalah_u128;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the pits-only words are read as bytes in memory: a little-endian machine is needed"
#endif

static inline int kalah_u128_byte(kalah_u128 b, int j)
{ return (int)(uint8_t)(b >> (8 * j)); }
static inline kalah_u128 kalah_u128_one(int j)
{ return (kalah_u128)1 << (8 * j); }

/* The byte sum: one multiplication per half (exact: a board never holds 256 seeds). */
static inline int kalah_u128_sum(kalah_u128 b)
{
    const uint64_t ones = 0x0101010101010101ull;
    return (int)(((uint64_t)b * ones) >> 56) + (int)(((uint64_t)(b >> 64) * ones) >> 56);
}

static inline kalah_u128 kalah_u128_from_pits(const uint8_t *pits, int places)
{
    kalah_u128 b = 0;
    for (int j = places - 1; j >= 0; j--) b = (b << 8) | pits[j];
    return b;
}

static inline void kalah_u128_to_pits(kalah_u128 b, uint8_t *pits, int places)
{
    for (int j = 0; j < places; j++) pits[j] = (uint8_t)kalah_u128_byte(b, j);
}

/* For the checks of a debug build: is `b` a position of m pits a side holding
 * `seeds` seeds, the bytes above its 2m places empty? */
static inline int kalah_pits_sane(kalah_u128 b, int m, int seeds)
{
    int sum = 0;
    for (int j = 0; j < 16; j++) {
        if (j >= 2 * m && kalah_u128_byte(b, j) != 0) return 0;
        sum += kalah_u128_byte(b, j);
    }
    return sum == seeds && kalah_u128_sum(b) == seeds;
}

/* The rules of a sowing on such words, for one pit count and capture rule.
 * Everything that depends on the pit and the seeds sown is a table, so that a
 * move is a few loads, one 128-bit addition and no variable shifts. */
typedef struct {
    int m, places, ring_len, empty_capture;
    /* sow[i][k]: a 1 in each pit byte that k < ring_len seeds sown from pit i
     * reach (the mover's store is not a byte); store_hit[i][k]: whether they
     * pass the mover's store; last[i][k]: the ring place of the last seed
     * (0..m-1 own pits, m the store, above: the opponent's). lap: a 1 in every
     * pit byte (a whole lap of 2m + 1 seeds also refills the emptied pit, as
     * in board.h). keep[j]: every byte but j; capture[j]: every byte but j and
     * the pit facing it. */
    kalah_u128 sow[KALAH_MAX_PITS][2 * KALAH_MAX_PITS + 1];
    uint8_t store_hit[KALAH_MAX_PITS][2 * KALAH_MAX_PITS + 1];
    uint8_t last[KALAH_MAX_PITS][2 * KALAH_MAX_PITS + 1];
    kalah_u128 keep[KALAH_MAX_PITS], capture[KALAH_MAX_PITS];
    kalah_u128 lap, own_mask, opp_mask;
#ifdef KALAH_DEBUG
    kalah_rules board; /* the same rules on the byte board, which every move is checked against */
#endif
} kalah_pits_rules;

static inline void kalah_pits_rules_init(kalah_pits_rules *pr, int m, int empty_capture)
{
    memset(pr, 0, sizeof *pr);
    pr->m = m;
    pr->places = 2 * m;
    pr->ring_len = 2 * m + 1;
    pr->empty_capture = empty_capture != 0;
#ifdef KALAH_DEBUG
    kalah_rules_init(&pr->board, m, 1, empty_capture, 0);
#endif
    for (int j = 0; j < m; j++) {
        pr->own_mask |= (kalah_u128)0xFF << (8 * j);
        pr->opp_mask |= (kalah_u128)0xFF << (8 * (m + j));
    }
    for (int j = 0; j < 2 * m; j++) pr->lap += kalah_u128_one(j);
    for (int i = 0; i < m; i++) {
        pr->keep[i] = ~((kalah_u128)0xFF << (8 * i));
        pr->capture[i] = pr->keep[i] & ~((kalah_u128)0xFF << (8 * (2 * m - 1 - i)));
        pr->last[i][0] = (uint8_t)i;
        for (int k = 1; k < pr->ring_len; k++) {
            int place = (i + k) % pr->ring_len; /* ring places: own pits 0..m-1, store m, opponent's pits */
            pr->sow[i][k] = pr->sow[i][k - 1];
            pr->store_hit[i][k] = pr->store_hit[i][k - 1];
            pr->last[i][k] = (uint8_t)place;
            if (place == m)
                pr->store_hit[i][k] = 1;
            else
                pr->sow[i][k] += kalah_u128_one(place < m ? place : place - 1);
        }
    }
}

/* The result of one move on a pits-only word. */
typedef struct {
    kalah_u128 pits; /* the successor from its own mover's view (0 when the game ended) */
    int gain;        /* seeds the move puts into the mover's store, minus the opponent's
                        (the final sweep included when the game ends) */
    int extra;       /* the mover moves again (also set when the game ended: the value is just gain) */
    int left;        /* seeds left in the pits (0: the game is over) */
} kalah_pits_move;

#ifdef KALAH_DEBUG
/* Does a move on a pits-only word agree with kalah_play on the byte board
 * (board.h)? The sowing by one addition, the capture, the rotation to the next
 * mover's view and the end of the game are all checked this way. */
static inline int kalah_pits_check_move(const kalah_pits_rules *pr, kalah_u128 b, int i, const kalah_pits_move *out)
{
    const kalah_rules *r = &pr->board;
    const int m = pr->m;
    kalah_state s;
    memset(&s, 0, sizeof s);
    for (int j = 0; j < m; j++) {
        s.cell[j] = (uint8_t)kalah_u128_byte(b, j);
        s.cell[m + 1 + j] = (uint8_t)kalah_u128_byte(b, m + j);
    }
    kalah_play(r, &s, i);
    int gain = s.cell[m] - s.cell[2 * m + 1];
    if (kalah_is_over(r, &s)) return out->pits == 0 && out->left == 0 && out->extra && out->gain == gain;
    int mover = s.to_move, left = 0;
    kalah_u128 view = 0;
    for (int j = 0; j < m; j++) {
        view |= (kalah_u128)s.cell[kalah_base(r, mover) + j] << (8 * j);
        view |= (kalah_u128)s.cell[kalah_base(r, 1 - mover) + j] << (8 * (m + j));
        left += s.cell[j] + s.cell[m + 1 + j];
    }
    return out->pits == view && out->gain == gain && out->extra == (mover == 0) && out->left == left;
}
#endif

/* Play pit i of `b`, which holds `seeds` seeds and is not over; `sown` is the
 * (non-zero) content of pit i and m the pit count (pass a constant where the
 * caller can, so that the halves' rotation compiles to fixed shifts). The same
 * rules as kalah_play in board.h, with the stores left out. */
static inline __attribute__((always_inline)) void kalah_pits_play(const kalah_pits_rules *pr, const int m, kalah_u128 b,
                                                                  int seeds, int i, int sown, kalah_pits_move *out)
{
    KALAH_ASSERT(m == pr->m && 0 <= i && i < m && sown > 0 && sown == kalah_u128_byte(b, i));
    KALAH_ASSERT(kalah_pits_sane(b, m, seeds) && (b & pr->own_mask) != 0 && (b & pr->opp_mask) != 0);
#ifdef KALAH_DEBUG
    const kalah_u128 before = b;
#endif
    const int len = 2 * m + 1;
    int laps = 0, rest = sown;
    if (__builtin_expect(sown >= len, 0)) {
        laps = sown / len;
        rest = sown - laps * len;
    }
    b = (b & pr->keep[i]) + pr->sow[i][rest];
    if (laps) b += (kalah_u128)laps * pr->lap;
    int gain = laps + pr->store_hit[i][rest];
    int place = pr->last[i][rest];
    if (place < m) {
        uint8_t after[16];
        memcpy(after, &b, 16);
        if (after[place] == 1) {
            int captured = after[2 * m - 1 - place];
            if (captured || pr->empty_capture) {
                gain += captured + 1;
                b &= pr->capture[place];
            }
        }
    }
    int left = seeds - gain;
    uint64_t own = (uint64_t)b & (uint64_t)pr->own_mask; /* m <= 8: the mover's pits are the low word */
    if (own == 0 || (b & pr->opp_mask) == 0) { /* over: each side keeps its own pits */
        int mine = (int)((own * 0x0101010101010101ull) >> 56);
        out->pits = 0;
        out->gain = gain + mine - (left - mine);
        out->extra = 1;
        out->left = 0;
#ifdef KALAH_DEBUG
        KALAH_ASSERT(kalah_pits_check_move(pr, before, i, out));
#endif
        return;
    }
    int extra = place == m;
    if (!extra) b = (b >> (8 * m)) | ((kalah_u128)own << (8 * m)); /* the opponent's view */
    out->pits = b;
    out->gain = gain;
    out->extra = extra;
    out->left = left;
#ifdef KALAH_DEBUG
    KALAH_ASSERT(kalah_pits_sane(out->pits, m, left) && kalah_pits_check_move(pr, before, i, out));
#endif
}

typedef struct {
    int pits;              /* m */
    int empty_capture;
    int max_seeds;         /* K */
    int places;            /* n = 2m */
    uint8_t *packed;       /* the payload (kalah_egdb_bytes): layers 0..K, bit-packed (8-byte aligned) */
    int building;          /* while building: the layer begun (-1: none) */
    void *plan;            /* and its build order (endgame.c) */
    uint64_t layer_offset[KALAH_EGDB_MAX_SEEDS + 2]; /* positions before layer S */
    uint64_t layer_byte[KALAH_EGDB_MAX_SEEDS + 2];   /* bytes before layer S in the payload */
    uint32_t layer_bits[KALAH_EGDB_MAX_SEEDS + 1];   /* w(S) */
    uint64_t layer_mask[KALAH_EGDB_MAX_SEEDS + 1];   /* 2^w(S) - 1 */
    /* binom[a][b] = C(a, b) for a < KALAH_EGDB_MAX_SEEDS + 2 * KALAH_MAX_PITS + 1, b <= 2 * KALAH_MAX_PITS */
    uint64_t binom[KALAH_EGDB_MAX_SEEDS + 2 * KALAH_MAX_PITS + 2][2 * KALAH_MAX_PITS + 1];
    /* rank_term[k][p] = C(p + k, k + 1): the share of the rank of the bar after
     * place k when places 0..k hold p seeds (the rank is their sum over k < n - 1). */
    uint64_t rank_term[2 * KALAH_MAX_PITS][KALAH_EGDB_MAX_SEEDS + 1];
    kalah_rules rules;     /* the rules of play used by the build (seeds per pit irrelevant) */
    kalah_pits_rules moves; /* the same rules on pits-only words */
} kalah_egdb;

/* Fill the tables of db for m pits, the capture rule and K seeds; packed is
 * left to the caller (kalah_egdb_bytes bytes, zeroed). Returns 0, or -1 when out of range. */
int kalah_egdb_init(kalah_egdb *db, int pits, int empty_capture, int max_seeds);

/* The number of positions of layers 0..max_seeds. */
uint64_t kalah_egdb_size(const kalah_egdb *db);

/* Bytes of the payload (the packed layers and the padding). */
uint64_t kalah_egdb_bytes(const kalah_egdb *db);

/* Positions with exactly `seeds` seeds in the pits. */
uint64_t kalah_egdb_layer_size(const kalah_egdb *db, int seeds);

/* Building layer `seeds` (every layer below complete in `packed`): the
 * values are packed in place as they are computed (the layer's bytes are
 * zeroed by begin_layer, each value is or-ed in atomically, so two threads may
 * share a word), with no other memory than the build order's lists.
 * begin_layer prepares the build order; build_range computes the entries
 * [lo, hi) of the layer, counted in build order (see endgame.c), with
 * `threads` threads, once every entry before lo is computed; end_layer
 * forgets the build order. *stop (if not NULL) is polled: when it becomes
 * nonzero build_range returns early with -1, leaving the layer partly done.
 * Other errors: -1. */
int kalah_egdb_begin_layer(kalah_egdb *db, int seeds);
int kalah_egdb_build_range(kalah_egdb *db, int seeds, uint64_t lo, uint64_t hi, int threads, volatile int *stop);
int kalah_egdb_end_layer(kalah_egdb *db, int seeds);

/* The index of a position given as pits from the mover's view (mover's m pits, then the opponent's). */
uint64_t kalah_egdb_index(const kalah_egdb *db, const uint8_t *pits, int seeds);

/* The index in its layer of a pits-only word (mover's view): the colex rank.
 * The prefix sums of all places come from two multiplications (each prefix is
 * below 256, so bytes never carry), then one small table load per bar. */
static inline __attribute__((always_inline)) uint64_t kalah_egdb_rank_bars(const kalah_egdb *db, kalah_u128 b,
                                                                           const int bars)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t low = (uint64_t)b * ones;                          /* byte j: places 0..j, j < 8 */
    uint64_t high = ((uint64_t)(b >> 64) + (low >> 56)) * ones; /* byte j: places 0..8+j */
    uint64_t rank = 0;
    for (int k = 0; k < bars && k < 8; k++) rank += db->rank_term[k][(uint8_t)(low >> (8 * k))];
    for (int k = 8; k < bars; k++) rank += db->rank_term[k][(uint8_t)(high >> (8 * (k - 8)))];
    return rank;
}

static inline uint64_t kalah_egdb_rank(const kalah_egdb *db, kalah_u128 b)
{
    switch (db->places) { /* constant bounds, so that the loops unroll for the usual boards */
    case 12:
        return kalah_egdb_rank_bars(db, b, 11);
    case 14:
        return kalah_egdb_rank_bars(db, b, 13);
    default:
        return kalah_egdb_rank_bars(db, b, db->places - 1);
    }
}

/* For the checks of a debug build: the rank by the plain loop of endgame.c. */
static inline uint64_t kalah_egdb_check_rank(const kalah_egdb *db, kalah_u128 b)
{
    uint8_t pits[16];
    kalah_u128_to_pits(b, pits, db->places);
    return kalah_egdb_index(db, pits, kalah_u128_sum(b));
}

/* Where a value lives in the payload: the byte its 64-bit load starts at and the shift. */
typedef struct {
    const uint8_t *byte;
    int shift;
    int seeds;
} kalah_egdb_ref;

static inline kalah_egdb_ref kalah_egdb_ref_of(const kalah_egdb *db, int seeds, uint64_t rank)
{
    uint64_t bit = rank * db->layer_bits[seeds];
    kalah_egdb_ref ref = {db->packed + db->layer_byte[seeds] + (bit >> 3), (int)(bit & 7), seeds};
    return ref;
}

/* The value at `ref` (v = 2a - S). */
static inline int kalah_egdb_read(const kalah_egdb *db, kalah_egdb_ref ref)
{
    uint64_t word;
    memcpy(&word, ref.byte, 8);
    int a = (int)((word >> ref.shift) & db->layer_mask[ref.seeds]);
    KALAH_ASSERT(a <= ref.seeds);
    return 2 * a - ref.seeds;
}

/* Where the value of a pits-only word with `seeds` seeds (<= K) lives. */
static inline kalah_egdb_ref kalah_egdb_find(const kalah_egdb *db, kalah_u128 b, int seeds)
{
    KALAH_ASSERT(0 <= seeds && seeds <= db->max_seeds && kalah_pits_sane(b, db->pits, seeds));
    uint64_t rank = kalah_egdb_rank(db, b);
    KALAH_ASSERT(rank < kalah_egdb_layer_size(db, seeds) && rank == kalah_egdb_check_rank(db, b));
    return kalah_egdb_ref_of(db, seeds, rank);
}

/* The value of a pits-only word with `seeds` seeds (<= K; the layer complete). */
static inline int kalah_egdb_value(const kalah_egdb *db, kalah_u128 b, int seeds)
{ return kalah_egdb_read(db, kalah_egdb_find(db, b, seeds)); }

/* The probe of kalah_oracle: db is a kalah_egdb. Returns 1 and the value
 * (from the side to move, stores excluded) when the position is covered. */
int kalah_egdb_probe(const void *db, const kalah_rules *r, const kalah_state *s, int *value);

/* One move of the pits-only generator on bytes (for tests): `in` holds the
 * 2m pits from the mover's view, not over; pit `move` is not empty. Writes the
 * successor's pits (from its mover's view) to `out` and returns the gain;
 * *extra and *left as in kalah_pits_move. */
int kalah_pits_play_bytes(int pits, int empty_capture, const uint8_t *in, int move, uint8_t *out, int *extra,
                          int *left);

/* A 64-bit checksum of a byte range (fast, not cryptographic). */
uint64_t kalah_checksum64(const uint8_t *data, uint64_t size, uint64_t seed);

#endif

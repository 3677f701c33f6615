/* The rules of Kalah on a flat board: the compiled twin of kalah/rules/position.py.
 *
 * Everything here is static inline so that search and solver code compiled in
 * other translation units gets the move generator inlined into its loops.
 *
 * Layout of kalah_state.cell: side 0's pits 0..m-1, side 0's store (index m),
 * side 1's pits (m+1 .. 2m), side 1's store (2m+1); the rest stays zero so
 * that whole states can be compared and hashed as bytes.
 *
 * Two builds of the same sources: by default cells are bytes and a side has at
 * most 8 pits, which lets a side be one 64-bit word and a sowing one 128-bit
 * addition (the speed of every board up to Kalah(8,n)); with KALAH_BIG (the
 * extensions kalah.core.big_board and big_search, setup.py) cells are 16-bit
 * and a side has up to 12 pits, with plain loops instead of the word tricks
 * (Kalah(12,12) holds 288 seeds). kalah.core picks the build by the board.
 *
 * The pie rule's swap exchanges the two rows and gives the move to player 0,
 * exactly as the reference does: player numbers always name the same person.
 */
#ifndef KALAH_BOARD_H
#define KALAH_BOARD_H

#include <stdint.h>
#include <string.h>

#include "check.h"

#ifdef KALAH_BIG
typedef uint16_t kalah_cell;
#define KALAH_MAX_PITS 12
/* 2 x 13 cells and two more that stay zero, so that the hash reads whole 64-bit words */
#define KALAH_MAX_CELLS 28
#define KALAH_MAX_TOTAL 65535 /* seeds on a board: a cell never overflows */
#else
typedef uint8_t kalah_cell;
#define KALAH_MAX_PITS  8
#define KALAH_MAX_CELLS (2 * (KALAH_MAX_PITS + 1))
#define KALAH_MAX_TOTAL 255 /* seeds on a board: bytes never carry into each other */
#endif
#define KALAH_MAX_MOVES (KALAH_MAX_PITS + 1) /* every pit, plus the swap */
#define KALAH_SWAP      255                       /* the move code of the pie rule's swap */

#if !defined(KALAH_BIG) && defined(__SIZEOF_INT128__) && defined(__BYTE_ORDER__) &&                                    \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define KALAH_WIDE_SOWING 1
#else
#define KALAH_WIDE_SOWING 0
#endif

/* kalah_state.flags: facts of the pie rule that the board alone does not make cheap to see. */
enum {
    KALAH_FIRST_MOVE = 1,     /* the game's first move: it earns no extra turn */
    KALAH_SWAP_AVAILABLE = 2  /* player 1 may answer the first move with a swap */
};

typedef struct {
    int pits;          /* m */
    int seeds;         /* seeds per pit at the start */
    int empty_capture; /* capture even when the opposite pit is empty */
    int pie_rule;
    int ring_len;      /* 2m + 1: the places a sowing visits (the opponent's store is skipped) */
    /* Those places as cell indices, for each mover, written out twice so that a
     * sowing of less than a lap never needs to wrap around. */
    uint8_t ring[2][2 * (2 * KALAH_MAX_PITS + 1)];
    uint64_t side_mask; /* the bytes of one side's pits in a 64-bit load */
#if KALAH_WIDE_SOWING
    /* When the whole board fits in 128 bits (up to 7 pits), a sowing is one
     * addition: sow[me][pit][k] has a 1 in each byte that k seeds from that pit
     * reach, lap[me] a 1 in every place of a full lap. Bytes never carry into
     * each other because a board holds fewer than 256 seeds. */
    int wide;
    unsigned __int128 sow[2][KALAH_MAX_PITS][2 * KALAH_MAX_PITS + 1];
    unsigned __int128 lap[2];
    unsigned __int128 keep[KALAH_MAX_CELLS]; /* every byte but one: empties the pit sown from */
#endif
} kalah_rules;

typedef struct {
    kalah_cell cell[KALAH_MAX_CELLS];
    uint8_t to_move;
    uint8_t flags;
} kalah_state;

static inline int kalah_base(const kalah_rules *r, int player)
{ return player * (r->pits + 1); }
static inline int kalah_store_index(const kalah_rules *r, int player)
{ return player * (r->pits + 1) + r->pits; }

/* For the checks of a debug build (check.h): the plain byte loops that the
 * word tricks below must agree with. */
static inline int kalah_check_side_seeds(const kalah_rules *r, const kalah_state *s, int player)
{
    int sum = 0;
    for (int i = 0; i < r->pits; i++) sum += s->cell[kalah_base(r, player) + i];
    return sum;
}

static inline int kalah_check_total(const kalah_rules *r, const kalah_state *s)
{
    int sum = 0;
    for (int i = 0; i < 2 * (r->pits + 1); i++) sum += s->cell[i];
    for (int i = 2 * (r->pits + 1); i < KALAH_MAX_CELLS; i++) KALAH_ASSERT(s->cell[i] == 0);
    return sum;
}

static inline void kalah_rules_init(kalah_rules *r, int pits, int seeds, int empty_capture, int pie_rule)
{
    /* Cells are bytes, and the wide sowing and the byte sums below rely on no
     * byte ever carrying into the next: a board holds fewer than 256 seeds. */
    KALAH_ASSERT(1 <= pits && pits <= KALAH_MAX_PITS && 0 <= seeds && 2 * pits * seeds <= KALAH_MAX_TOTAL);
    memset(r, 0, sizeof *r);
    r->pits = pits;
    r->seeds = seeds;
    r->empty_capture = empty_capture != 0;
    r->pie_rule = pie_rule != 0;
    r->ring_len = 2 * pits + 1;
    for (int me = 0; me < 2; me++) {
        int own = me * (pits + 1), opp = (1 - me) * (pits + 1);
        for (int i = 0; i <= pits; i++) r->ring[me][i] = (uint8_t)(own + i);
        for (int i = 0; i < pits; i++) r->ring[me][pits + 1 + i] = (uint8_t)(opp + i);
        memcpy(r->ring[me] + r->ring_len, r->ring[me], r->ring_len);
    }
    r->side_mask = pits >= 8 ? ~0ull : (1ull << (8 * pits)) - 1;
#if KALAH_WIDE_SOWING
    r->wide = 2 * (pits + 1) <= 16;
    for (int cell = 0; cell < 16; cell++) r->keep[cell] = ~((unsigned __int128)0xFF << (8 * cell));
    for (int me = 0; me < 2 && r->wide; me++) {
        for (int place = 0; place < r->ring_len; place++)
            r->lap[me] += (unsigned __int128)1 << (8 * r->ring[me][place]);
        for (int pit = 0; pit < pits; pit++)
            for (int k = 1; k < r->ring_len; k++)
                r->sow[me][pit][k] = r->sow[me][pit][k - 1] + ((unsigned __int128)1 << (8 * r->ring[me][pit + k]));
    }
#endif
}

#if !defined(KALAH_BIG) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* One side's pits as the low bytes of a 64-bit word (a side has at most 8 pits,
 * and cell[] is long enough that the load stays inside the state). */
static inline uint64_t kalah_side_word(const kalah_rules *r, const kalah_state *s, int player)
{
    uint64_t word;
    memcpy(&word, s->cell + kalah_base(r, player), sizeof word);
    return word & r->side_mask;
}

/* The byte sum by one multiplication: exact because a board never holds 256 seeds. */
static inline int kalah_side_seeds(const kalah_rules *r, const kalah_state *s, int player)
{
    int sum = (int)((kalah_side_word(r, s, player) * 0x0101010101010101ull) >> 56);
    KALAH_ASSERT(sum == kalah_check_side_seeds(r, s, player));
    return sum;
}
#else
/* Nonzero when the side has a seed (the plain loops of the big build and of other machines). */
static inline uint64_t kalah_side_word(const kalah_rules *r, const kalah_state *s, int player)
{
    const kalah_cell *p = s->cell + kalah_base(r, player);
    uint64_t any = 0;
    for (int i = 0; i < r->pits; i++) any |= p[i];
    return any;
}

static inline int kalah_side_seeds(const kalah_rules *r, const kalah_state *s, int player)
{
    const kalah_cell *p = s->cell + kalah_base(r, player);
    int sum = 0;
    for (int i = 0; i < r->pits; i++) sum += p[i];
    return sum;
}
#endif

static inline int kalah_is_over(const kalah_rules *r, const kalah_state *s)
{ return kalah_side_word(r, s, 0) == 0 || kalah_side_word(r, s, 1) == 0; }

/* Player 0's final total minus player 1's; only meaningful once the game is over
 * (before the sweep the seeds on each side count for their owner, as the sweep would). */
static inline int kalah_final_margin(const kalah_rules *r, const kalah_state *s)
{
    return s->cell[kalah_store_index(r, 0)] + kalah_side_seeds(r, s, 0) - s->cell[kalah_store_index(r, 1)] -
           kalah_side_seeds(r, s, 1);
}

static inline void kalah_start(const kalah_rules *r, kalah_state *s)
{
    memset(s, 0, sizeof *s);
    for (int player = 0; player < 2; player++)
        for (int i = 0; i < r->pits; i++) s->cell[kalah_base(r, player) + i] = (kalah_cell)r->seeds;
    s->flags = r->pie_rule ? KALAH_FIRST_MOVE : 0;
}

/* Legal moves in ascending pit order, the swap last. Returns their number (0 once over). */
static inline int kalah_legal_moves(const kalah_rules *r, const kalah_state *s, uint8_t *moves)
{
    if (kalah_is_over(r, s)) return 0;
    const kalah_cell *p = s->cell + kalah_base(r, s->to_move);
    int n = 0;
    for (int i = 0; i < r->pits; i++)
        if (p[i]) moves[n++] = (uint8_t)i;
    if (s->flags & KALAH_SWAP_AVAILABLE) moves[n++] = KALAH_SWAP;
    return n;
}

/* Is `move` legal: a non-empty pit of the mover, or the swap while it is available? */
static inline int kalah_is_legal(const kalah_rules *r, const kalah_state *s, int move)
{
    if (kalah_is_over(r, s)) return 0;
    if (move == KALAH_SWAP) return (s->flags & KALAH_SWAP_AVAILABLE) != 0;
    return 0 <= move && move < r->pits && s->cell[kalah_base(r, s->to_move) + move] != 0;
}

static inline void kalah_swap_sides(const kalah_rules *r, kalah_state *s)
{
    kalah_cell row[KALAH_MAX_PITS + 1];
    int half = r->pits + 1;
    memcpy(row, s->cell, half * sizeof *row);
    memmove(s->cell, s->cell + half, half * sizeof *row);
    memcpy(s->cell + half, row, half * sizeof *row);
    s->to_move = 0;
    s->flags = 0;
}

/* The sowing of the `seeds` (less than a lap) and `laps` (whole laps) taken
 * from the mover's pit, byte by byte. */
static inline void kalah_sow_bytes(const kalah_rules *r, kalah_cell *c, int me, int move, int laps, int seeds)
{
    const uint8_t *ring = r->ring[me];
    c[kalah_base(r, me) + move] = 0;
    for (int i = 0; laps && i < r->ring_len; i++) c[ring[i]] += (kalah_cell)laps;
    for (int k = 1; k <= seeds; k++) c[ring[move + k]]++;
}

/* Play a legal move in place. Returns 1 when the mover earned an extra turn. */
static inline int kalah_play(const kalah_rules *r, kalah_state *s, int move)
{
    KALAH_ASSERT(kalah_is_legal(r, s, move));
#ifdef KALAH_DEBUG
    const int seeds_before = kalah_check_total(r, s);
    const kalah_state before = *s;
#endif
    if (move == KALAH_SWAP) {
        kalah_swap_sides(r, s);
#ifdef KALAH_DEBUG
        KALAH_ASSERT(kalah_check_total(r, s) == seeds_before);
#endif
        return 0;
    }
    const int m = r->pits, me = s->to_move, len = r->ring_len;
    kalah_cell *c = s->cell;
    const int own = me * (m + 1), store = own + m, opp = (1 - me) * (m + 1);

    int seeds = c[own + move];
    int laps = 0;
    if (seeds >= len) {  /* whole laps put a seed everywhere, the emptied pit included */
        laps = seeds / len;
        seeds -= laps * len;
    }
#if KALAH_WIDE_SOWING
    if (r->wide) {
        unsigned __int128 board;
        memcpy(&board, c, sizeof board);
        board = (board & r->keep[own + move]) + r->sow[me][move][seeds];
        if (laps) board += (unsigned __int128)laps * r->lap[me];
        memcpy(c, &board, sizeof board);
#ifdef KALAH_DEBUG
        kalah_state bytes = before; /* the one addition must sow exactly as the byte loop */
        kalah_sow_bytes(r, bytes.cell, me, move, laps, seeds);
        KALAH_ASSERT(memcmp(bytes.cell, c, sizeof bytes.cell) == 0);
#endif
    } else
#endif
        kalah_sow_bytes(r, c, me, move, laps, seeds);
    int place = move + seeds;
    if (place >= len) place -= len;

    int extra = place == m && !(s->flags & KALAH_FIRST_MOVE);
    if (place < m && c[own + place] == 1) {
        int facing = opp + (m - 1 - place);
        if (c[facing] || r->empty_capture) {
            c[store] += (kalah_cell)(c[facing] + 1);
            c[own + place] = 0;
            c[facing] = 0;
        }
    }
    s->flags = (s->flags & KALAH_FIRST_MOVE) ? KALAH_SWAP_AVAILABLE : 0;
    if (!extra) s->to_move = (uint8_t)(1 - me);

    if (kalah_is_over(r, s)) {
        c[m] += (kalah_cell)kalah_side_seeds(r, s, 0);
        c[2 * m + 1] += (kalah_cell)kalah_side_seeds(r, s, 1);
        memset(c, 0, m * sizeof *c);
        memset(c + m + 1, 0, m * sizeof *c);
    }
#ifdef KALAH_DEBUG
    /* Seeds are neither made nor lost, and the stores never shrink. */
    KALAH_ASSERT(kalah_check_total(r, s) == seeds_before);
    KALAH_ASSERT(c[m] >= before.cell[m] && c[2 * m + 1] >= before.cell[2 * m + 1]);
#endif
    return extra;
}

/* Recompute the pie-rule flags of a state that came from outside (see rules/position.py). */
static inline void kalah_derive_flags(const kalah_rules *r, kalah_state *s)
{
    s->flags = 0;
    if (!r->pie_rule) return;
    kalah_state start;
    kalah_start(r, &start);
    if (s->to_move == 0) {
        if (memcmp(start.cell, s->cell, sizeof s->cell) == 0) s->flags = KALAH_FIRST_MOVE;
        return;
    }
    for (int i = 0; i < r->pits; i++) {
        kalah_state after = start;
        kalah_play(r, &after, i);
        if (memcmp(after.cell, s->cell, sizeof s->cell) == 0) {
            s->flags = KALAH_SWAP_AVAILABLE;
            return;
        }
    }
}

/* An exact oracle for positions with few seeds left in the pits (the endgame
 * databases of kalah.endgame). Search code consults it when it is set and the
 * position has at most max_seeds seeds in its pits. */
typedef struct {
    const void *db;
    int max_seeds;
    /* On success: *value = the best final margin the side to move can still get
     * from the seeds in the pits (stores excluded), and the result is 1. */
    int (*probe)(const void *db, const kalah_rules *r, const kalah_state *s, int *value);
} kalah_oracle;

/* The one mixer of the core (splitmix64's finalizer, Steele, Lea and Flood, 2014): every bit of z
 * reaches every bit of the result. The generator below and both tables' hashes are built on it. */
static inline uint64_t kalah_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#define KALAH_GOLDEN 0x9E3779B97F4A7C15ull /* 2^64 / the golden ratio: splitmix64's step */

/* Two words mixed in turn from a seed: the search table's hash of a state (table.h). (The solver's
 * table has two shorter hashes of its own: solve.c says why.) */
static inline uint64_t kalah_hash2(uint64_t a, uint64_t b, uint64_t seed)
{ return kalah_mix64(kalah_mix64(a + seed) ^ b); }

#ifdef KALAH_BIG
/* A hash of the whole state of the big build (the search table's, table.h): the 28 cells as seven
 * 64-bit words mixed in turn, then the side to move and the pie-rule flags. */
static inline uint64_t kalah_big_hash(const kalah_state *s)
{
    _Static_assert(KALAH_MAX_CELLS % 4 == 0, "the hash reads the cells as whole 64-bit words");
    uint64_t h = KALAH_GOLDEN;
    for (int i = 0; i < KALAH_MAX_CELLS; i += 4) {
        uint64_t word;
        memcpy(&word, s->cell + i, sizeof word);
        h = kalah_mix64(h ^ word);
    }
    return kalah_mix64(h ^ (((uint64_t)s->to_move << 8 | s->flags) << 1 | 1));
}
#endif

/* A small, fast generator (splitmix64) so that playouts never touch global state. */
typedef struct {
    uint64_t state;
} kalah_rng;

static inline uint64_t kalah_rng_next(kalah_rng *g)
{ return kalah_mix64(g->state += KALAH_GOLDEN); }

/* A uniform integer in [0, n) (Lemire's multiply-shift; the bias is below 2^-32 for n <= 9). */
static inline int kalah_rng_below(kalah_rng *g, int n)
{
    int k = (int)(((kalah_rng_next(g) >> 32) * (uint64_t)n) >> 32);
    KALAH_ASSERT(0 <= k && k < n);
    return k;
}

/* Play uniformly random legal moves to the end; returns the final margin (player 0 minus 1).
 * kalah_play sweeps the board when a game ends, so once past the first check
 * "the mover has no seeds" is the same as "the game is over". */
static inline int kalah_random_playout(const kalah_rules *r, kalah_state *s, kalah_rng *g)
{
    uint8_t moves[KALAH_MAX_MOVES];
    if (kalah_is_over(r, s)) return kalah_final_margin(r, s);
    for (;;) {
        const kalah_cell *p = s->cell + kalah_base(r, s->to_move);
        int n = 0;
        for (int i = 0; i < r->pits; i++) {  /* branch-free: the pits' emptiness is unpredictable */
            moves[n] = (uint8_t)i;
            n += p[i] != 0;
        }
        if (n == 0) break;
        if (s->flags & KALAH_SWAP_AVAILABLE) moves[n++] = KALAH_SWAP;
        kalah_play(r, s, moves[kalah_rng_below(g, n)]);
    }
    KALAH_ASSERT(kalah_is_over(r, s));
    return kalah_final_margin(r, s);
}

#endif

/* Endgame databases: the exact value of every position with at most K seeds
 * in the pits, for one pit count and capture rule.
 *
 * A position is stored from the mover's view: its pits are written as a
 * composition of S seeds over n = 2m places, the mover's pits first, and
 * indexed by the colex rank of that composition (stars and bars) inside the
 * layer of S seeds. Layer S starts at offset C(S + n - 1, n) (the number of
 * positions with fewer seeds). The value is the best final margin the mover
 * can still get from the seeds in the pits (stores excluded), an int8 in [-S, S].
 *
 * Nothing here depends on the seeds per pit at the start, nor on the pie rule
 * (the swap exists only at the first move, long before any endgame).
 */
#ifndef KALAH_ENDGAME_H
#define KALAH_ENDGAME_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define KALAH_EGDB_MAX_SEEDS 64   /* values must fit int8 and ranks in 64 bits */
#define KALAH_EGDB_UNKNOWN (-128) /* an entry not computed yet (only during a build) */

typedef struct {
    int pits;              /* m */
    int empty_capture;
    int max_seeds;         /* K */
    int places;            /* n = 2m */
    int8_t *values;        /* the payload: layers 0..K one after another */
    uint64_t layer_offset[KALAH_EGDB_MAX_SEEDS + 2];
    /* binom[a][b] = C(a, b) for a < KALAH_EGDB_MAX_SEEDS + 2 * KALAH_MAX_PITS + 1, b <= 2 * KALAH_MAX_PITS */
    uint64_t binom[KALAH_EGDB_MAX_SEEDS + 2 * KALAH_MAX_PITS + 2][2 * KALAH_MAX_PITS + 1];
    kalah_rules rules;     /* the rules of play used by the build (seeds per pit irrelevant) */
} kalah_egdb;

/* Fill the tables of db for m pits, the capture rule and K seeds; values is
 * left to the caller (kalah_egdb_size bytes). Returns 0, or -1 when out of range. */
int kalah_egdb_init(kalah_egdb *db, int pits, int empty_capture, int max_seeds);

/* The number of positions (= bytes of payload) of layers 0..max_seeds. */
uint64_t kalah_egdb_size(const kalah_egdb *db);

/* Positions with exactly `seeds` seeds in the pits. */
uint64_t kalah_egdb_layer_size(const kalah_egdb *db, int seeds);

/* Compute the entries [lo, hi) of layer `seeds` with `threads` threads; every
 * layer below must be complete and this layer's entries either computed or
 * KALAH_EGDB_UNKNOWN. *stop (if not NULL) is polled: when it becomes nonzero
 * the build returns early with -1, leaving the layer partly done but every
 * written entry correct. */
int kalah_egdb_build_range(kalah_egdb *db, int seeds, uint64_t lo, uint64_t hi, int threads, volatile int *stop);

/* The index of a position given as pits from the mover's view (mover's m pits, then the opponent's). */
uint64_t kalah_egdb_index(const kalah_egdb *db, const uint8_t *pits, int seeds);

/* The probe of kalah_oracle: db is a kalah_egdb. Returns 1 and the value
 * (from the side to move, stores excluded) when the position is covered. */
int kalah_egdb_probe(const void *db, const kalah_rules *r, const kalah_state *s, int *value);

/* A 64-bit checksum of a byte range (fast, not cryptographic). */
uint64_t kalah_checksum64(const uint8_t *data, uint64_t size, uint64_t seed);

#endif

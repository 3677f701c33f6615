/* What a move will do, read off the board without playing it, and the one sort
 * that puts moves in order: shared by the evaluation (evaluate.h), the search's
 * move ordering (order.h) and the root of the search, and the solver (solve.c).
 */
#ifndef KALAH_MOVES_H
#define KALAH_MOVES_H

#include "board.h"

/* Does sowing the `seeds` seeds of the mover's pit i end in the mover's store?
 * Then the mover moves again (except on the game's first move under the pie
 * rule, which the caller checks where it matters). Whole laps of the
 * 2m + 1 places do not change where the last seed lands. */
static inline int kalah_ends_in_store(const kalah_rules *r, int i, int seeds)
{ return seeds % r->ring_len == r->pits - i; }

/* Does sowing the mover's pit i (holding `seeds` seeds, possibly none) capture
 * at once? Then *gain is what the capture puts into the store: the facing
 * pit's seeds and the capturing seed. `own` and `opp` are the mover's and the
 * opponent's rows. Only sowings of less than a lap are seen: a longer one
 * leaves two seeds or more in its last pit, except for exactly one lap
 * (2m + 1 seeds), rare enough to be left out of these heuristics. A sowing
 * that goes round the opponent's row back into the mover's has put a seed
 * into the facing pit too. (The rules are read first, whatever the pit, so
 * that a loop over the pits reads them once.) */
static inline int kalah_captures(const kalah_rules *r, const kalah_cell *own, const kalah_cell *opp, int i, int seeds,
                                 int *gain)
{
    const int m = r->pits, len = r->ring_len, empty_capture = r->empty_capture;
    if (seeds == 0 || seeds >= len) return 0;
    int place = i + seeds, lapped = 0;
    if (place >= len) {
        place -= len;
        lapped = 1;
    }
    if (place >= m || own[place] != 0) return 0;
    int facing = opp[m - 1 - place] + lapped;
    if (!facing && !empty_capture) return 0;
    *gain = facing + 1;
    return 1;
}

/* Sorts item[0..n) by key, highest first, keeping the order of equal keys
 * (an insertion sort: n is at most KALAH_MAX_MOVES). key[] is sorted along. */
static inline void kalah_sort_by_key(int *key, uint8_t *item, int n)
{
    for (int k = 1; k < n; k++) {
        int kk = key[k];
        uint8_t it = item[k];
        int j = k - 1;
        while (j >= 0 && key[j] < kk) {
            key[j + 1] = key[j];
            item[j + 1] = item[j];
            j--;
        }
        key[j + 1] = kk;
        item[j + 1] = it;
    }
}

#endif

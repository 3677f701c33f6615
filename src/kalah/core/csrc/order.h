/* Move ordering of the search engine (search.c): which move of a node to search first.
 *
 * The table's move first, then moves that earn an extra turn (the pit nearest
 * the store first, so the others stay available), then captures by size, then
 * the other pits from the store backwards; the swap last. Captures are those
 * of a sowing inside the mover's own row (moves.h sees captures after a lap
 * too, for the evaluation; the ordering never did, and the node counts of the
 * benchmarks and tests rest on it).
 */
#ifndef KALAH_ORDER_H
#define KALAH_ORDER_H

#include "moves.h"
#include "search.h"

static __attribute__((noinline)) void ks_order(const ks_context *c, const kalah_state *s, uint8_t *moves, int n,
                                               int first)
{
    if (!c->settings.ordering || n < 2) return;
    const kalah_rules *r = &c->settings.rules;
    const int m = r->pits;
    const kalah_cell *own = s->cell + kalah_base(r, s->to_move);
    const kalah_cell *opp = s->cell + kalah_base(r, 1 - s->to_move);
    int score[KALAH_MAX_MOVES];
    for (int k = 0; k < n; k++) {
        int mv = moves[k], sc, gain;
        if (mv == first)
            sc = 10000;
        else if (mv == KALAH_SWAP)
            sc = 0;
        else {
            int seeds = own[mv];
            sc = mv;
            if (kalah_ends_in_store(r, mv, seeds) && !(s->flags & KALAH_FIRST_MOVE))
                sc = 1000 + mv;
            else if (mv + seeds < m && kalah_captures(r, own, opp, mv, seeds, &gain))
                sc = 99 + gain;
        }
        score[k] = sc;
    }
    kalah_sort_by_key(score, moves, n);
}

#endif

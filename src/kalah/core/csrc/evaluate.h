/* Evaluations of Kalah positions for the search engine (csrc/search.c).
 *
 * Every value is from the point of view of the side to move, in integer
 * units of KALAH_UNIT per seed: a finished game scores exactly
 * KALAH_UNIT * (the mover's final total - the opponent's final total), and the
 * heuristics below are written in the same units so that they can be compared
 * with finished games. The Python face divides by KALAH_UNIT to report seeds.
 *
 * - store:  the store difference.
 * - seed:   the seed project's heuristic, the store difference relative to the
 *           seeds still in play: diff * total / seeds_in_pits (it equals the
 *           store difference while every seed is in a pit and grows as the
 *           pits empty, since a lead then becomes harder to overturn).
 * - strong: the store difference, plus
 *             + 1/4 seed for every seed on the mover's side more than on the
 *               opponent's (they count for their owner when a side empties,
 *               and they are the mover's material for extra turns),
 *             + 3/4 seed per extra-turn move available to the mover (the
 *               mover is about to play, so these are real chances),
 *             + 3/4 of the best capture the mover can make at once,
 *             - 1/2 of the best capture the opponent threatens.
 *           The weights were chosen by matches against `store`; see
 *           benchmarks/bench_eval_strength.py and benchmarks/results/.
 */
#ifndef KALAH_EVALUATE_H
#define KALAH_EVALUATE_H

#include "board.h"
#include "moves.h"

#define KALAH_UNIT 100

enum { KALAH_EVAL_STORE = 0, KALAH_EVAL_SEED = 1, KALAH_EVAL_STRONG = 2 };

/* The exact value of a finished game for the side to move. */
static inline int kalah_eval_final(const kalah_rules *r, const kalah_state *s)
{
    int margin = kalah_final_margin(r, s);
    return KALAH_UNIT * (s->to_move ? -margin : margin);
}

static inline int kalah_eval_store(const kalah_rules *r, const kalah_state *s)
{
    int me = s->to_move;
    return KALAH_UNIT * (s->cell[kalah_store_index(r, me)] - s->cell[kalah_store_index(r, 1 - me)]);
}

static inline int kalah_eval_seed(const kalah_rules *r, const kalah_state *s)
{
    int me = s->to_move;
    int own = s->cell[kalah_store_index(r, me)], opp = s->cell[kalah_store_index(r, 1 - me)];
    int in_pits = kalah_side_seeds(r, s, 0) + kalah_side_seeds(r, s, 1);
    int total = in_pits + own + opp;
    if (in_pits == 0) return KALAH_UNIT * (own - opp);
    return KALAH_UNIT * (own - opp) * total / in_pits; /* C division truncates toward zero: antisymmetric */
}

/* Extra-turn moves and the best immediate capture of `player` (as if it were to move). */
static inline void kalah_eval_chances(const kalah_rules *r, const kalah_state *s, int player, int *extra, int *capture)
{
    const kalah_cell *own = s->cell + kalah_base(r, player);
    const kalah_cell *opp = s->cell + kalah_base(r, 1 - player);
    int nextra = 0, best = 0;
    for (int i = 0; i < r->pits; i++) {
        int seeds = own[i], gain;
        if (kalah_captures(r, own, opp, i, seeds, &gain) && gain > best) best = gain;
        if (seeds && kalah_ends_in_store(r, i, seeds)) nextra++;
    }
    *extra = nextra;
    *capture = best;
}

static inline int kalah_eval_strong(const kalah_rules *r, const kalah_state *s)
{
    int me = s->to_move;
    int value = 4 * (s->cell[kalah_store_index(r, me)] - s->cell[kalah_store_index(r, 1 - me)]);
    value += kalah_side_seeds(r, s, me) - kalah_side_seeds(r, s, 1 - me);
    int extra, capture, opp_extra, opp_capture;
    kalah_eval_chances(r, s, me, &extra, &capture);
    kalah_eval_chances(r, s, 1 - me, &opp_extra, &opp_capture);
    value += 3 * extra + 3 * capture - 2 * opp_capture;
    return value * (KALAH_UNIT / 4);
}

static inline int kalah_evaluate(int kind, const kalah_rules *r, const kalah_state *s)
{
    switch (kind) {
    case KALAH_EVAL_SEED:
        return kalah_eval_seed(r, s);
    case KALAH_EVAL_STRONG:
        return kalah_eval_strong(r, s);
    default:
        return kalah_eval_store(r, s);
    }
}

#endif

/* The plainest alpha-beta in C (store difference, pits in order, no table, no
 * statistics but a node count): the yardstick of benchmarks/bench_search.py,
 * which compares the engine's plain alpha-beta (search.c with the table and
 * the ordering off) with it, on the same machine at the same moment. It is
 * textbook negamax alpha-beta (fail-soft) on the move generator of board.h
 * and nothing else: keep it that way.
 */
#include "search.h"

static int ks_reference(const kalah_rules *r, const kalah_state *s, int depth, int alpha, int beta, uint64_t *nodes)
{
    KALAH_ASSERT(alpha < beta);
    ++*nodes;
    if (kalah_is_over(r, s)) return kalah_eval_final(r, s);
    if (depth == 0) return kalah_eval_store(r, s);
    uint8_t moves[KALAH_MAX_MOVES];
    int n = kalah_legal_moves(r, s, moves), best = -KS_INF;
    for (int k = 0; k < n; k++) {
        kalah_state t = *s;
        kalah_play(r, &t, moves[k]);
        int v = t.to_move == s->to_move ? ks_reference(r, &t, depth - 1, alpha, beta, nodes)
                                        : -ks_reference(r, &t, depth - 1, -beta, -alpha, nodes);
        if (v > best) {
            best = v;
            if (v > alpha) alpha = v;
            if (v >= beta) break;
        }
    }
    return best;
}

int ks_reference_alphabeta(const kalah_rules *r, const kalah_state *s, int depth, uint64_t *nodes)
{
    *nodes = 0;
    return ks_reference(r, s, depth, -KS_INF, KS_INF, nodes);
}

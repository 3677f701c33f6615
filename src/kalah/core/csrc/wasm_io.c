/* The buffers through which the JavaScript side talks to every WebAssembly build, and the answer of a
 * search written into them (wasm.h). */
#include "clock.h"
#include "search.h"
#include "wasm.h"

int32_t kw_cells[2 * (KALAH_MAX_PITS + 1)];
double kw_out[KW_OUT_DOUBLES];

KW_EXPORT int32_t *kw_cells_address(void)
{ return kw_cells; }

KW_EXPORT double *kw_out_address(void)
{ return kw_out; }

/* The core's clock, for the JavaScript side's deadlines (the solver's are on it). */
KW_EXPORT double kw_now(void)
{ return kalah_now(); }

/* What a search left in its context, into kw_out (the layout of wasm.h). */
void kw_write_answer(ks_context *c, int iterations, const kalah_state *s)
{
    memset(kw_out, 0, sizeof kw_out);
    kw_out[KW_COMPLETED] = iterations;
    kw_out[KW_BEST] = -1;
    if (iterations) {
        kw_out[KW_VALUE] = c->root.value;
        kw_out[KW_BEST] = c->root.best_move == KS_NO_MOVE ? -1 : c->root.best_move;
        kw_out[KW_DEPTH] = c->root.depth;
        kw_out[KW_EXACT] = c->root.exact;
        kw_out[KW_ROOT_N] = c->root.n;
        for (int k = 0; k < c->root.n; k++) {
            kw_out[KW_MOVES + 3 * k] = c->root.moves[k];
            kw_out[KW_MOVES + 3 * k + 1] = c->root.values[k];
            kw_out[KW_MOVES + 3 * k + 2] = c->root.flags[k];
        }
        uint8_t pv[KW_PV_MAX];
        int n = ks_pv(c, s, c->root.depth, pv, KW_PV_MAX);
        kw_out[KW_PV_N] = n;
        for (int k = 0; k < n; k++) kw_out[KW_PV + k] = pv[k];
    }
    kw_out[KW_ABORTED] = c->aborted;
    const uint64_t counts[] = {c->stats.nodes,   c->stats.leaves,     c->stats.tt_probes,    c->stats.tt_hits,
                               c->stats.cutoffs, c->stats.researches, c->stats.oracle_probes};
    for (int k = 0; k < 7; k++) kw_out[KW_NODES + k] = (double)counts[k];
    kw_out[KW_BUSIEST] = (double)c->stats.busiest_nodes;
}

/* What UCT found, into kw_out (KW_M_BEST and the rest). */
void kw_write_mcts(const ks_mcts_result *out)
{
    memset(kw_out, 0, sizeof kw_out);
    kw_out[KW_M_BEST] = out->best_move == KS_NO_MOVE ? -1 : out->best_move;
    kw_out[KW_M_PLAYOUTS] = out->playouts;
    kw_out[KW_M_NODES] = out->nodes;
    kw_out[KW_M_DEPTH] = out->depth;
    kw_out[KW_M_N] = out->n;
    for (int k = 0; k < out->n; k++) {
        kw_out[KW_M_MOVES + 4 * k] = out->moves[k];
        kw_out[KW_M_MOVES + 4 * k + 1] = out->visits[k];
        kw_out[KW_M_MOVES + 4 * k + 2] = out->wins[k];
        kw_out[KW_M_MOVES + 4 * k + 3] = out->margin[k];
    }
}

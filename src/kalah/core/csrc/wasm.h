/* The WebAssembly face of the core: what the browser's engine (kalah/web/static/engine/) calls.
 *
 * The JavaScript side writes a position into kw_cells (the flat board of board.h: player 0's
 * pits and store, then player 1's) and passes the variant and the side to move as arguments;
 * answers come back as numbers in kw_out, whose layout each function documents (doubles, so that
 * node counts up to 2^53 pass whole). No function of these files allocates on the JavaScript
 * side's behalf except the engines, solvers and databases it frees with their *_free. The same
 * search.c, mcts.c, solve.c and endgame.c as the Python extensions are compiled in: wasm/build.py
 * builds kalah.wasm (the byte build: searches, UCT, the solver, the endgame databases),
 * kalah-big.wasm (KALAH_BIG: searches and UCT up to 12 pits) and kalah-trace.wasm (KALAH_TRACE:
 * the traced searches of the lab).
 */
#ifndef KALAH_WASM_H
#define KALAH_WASM_H

#include "mcts.h"
#include "search.h"

#define KW_EXPORT      __attribute__((used, visibility("default")))
#define KW_OUT_DOUBLES 1024

/* kw_out after kw_search (and kw_trace_search): the fields of kalah.core.search's Engine.search. */
enum {
    KW_COMPLETED = 0, /* iterations completed (0: none, the other fields but the counts mean nothing) */
    KW_VALUE = 1,     /* in units (evaluate.h), for the side to move */
    KW_BEST = 2,      /* the best move's code, -1 for none */
    KW_DEPTH = 3,
    KW_EXACT = 4,
    KW_ABORTED = 5,
    KW_NODES = 6, /* then leaves, tt_probes, tt_hits, cutoffs, researches, oracle_probes (ks_stats' order) */
    KW_BUSIEST = 13,
    KW_ROOT_N = 14, /* root moves */
    KW_PV_N = 15,   /* moves of the principal variation */
    KW_MOVES = 20,  /* root move k: code, value, flag at KW_MOVES + 3k */
    KW_PV = 64,     /* the principal variation's codes (after KALAH_MAX_MOVES root moves of the big build) */
    KW_PV_MAX = 256
};

/* kw_out after kw_mcts: the fields of kalah.core.search.mcts. */
enum {
    KW_M_BEST = 0, /* the best move's code, -1 for none */
    KW_M_PLAYOUTS = 1,
    KW_M_NODES = 2,
    KW_M_DEPTH = 3,
    KW_M_N = 4,    /* root moves */
    KW_M_MOVES = 8 /* root move k: code, visits, wins, margin at KW_M_MOVES + 4k */
};

/* kw_out after a traced search (kalah-trace.wasm), past either answer's fields. */
enum { KW_TRACE_FULL = 400, KW_TRACE_RECORD = 401, KW_TRACE_ITERATIONS = 402 };

extern int32_t kw_cells[2 * (KALAH_MAX_PITS + 1)];
extern double kw_out[KW_OUT_DOUBLES];

/* The rules of a variant and the position in kw_cells; 0, or -1 for a board this build cannot hold. */
static inline int kw_read_state(kalah_rules *r, kalah_state *s, int pits, int seeds, int empty_capture, int pie_rule,
                                int to_move)
{
    if (pits < 1 || pits > KALAH_MAX_PITS || seeds < 0 || 2 * pits * seeds > KALAH_MAX_TOTAL) return -1;
    kalah_rules_init(r, pits, seeds, empty_capture, pie_rule);
    memset(s, 0, sizeof *s);
    int total = 0;
    for (int i = 0; i < 2 * (pits + 1); i++) {
        if (kw_cells[i] < 0) return -1;
        total += kw_cells[i];
        s->cell[i] = (kalah_cell)kw_cells[i];
    }
    if (total > KALAH_MAX_TOTAL) return -1;
    s->to_move = (uint8_t)(to_move != 0);
    kalah_derive_flags(r, s);
    return 0;
}

/* What a search left in its context, into kw_out (KW_COMPLETED and the rest). */
void kw_write_answer(ks_context *c, int iterations, const kalah_state *s);

/* What UCT found, into kw_out (KW_M_BEST and the rest). */
void kw_write_mcts(const ks_mcts_result *out);

#endif

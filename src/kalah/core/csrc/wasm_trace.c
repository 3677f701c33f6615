/* The traced searches of the lab for the browser (wasm.h): kalah.core.trace's trace_search and
 * trace_mcts, node for node. Compiled with KALAH_TRACE into kalah-trace.wasm, with search.c and
 * mcts.c (search_traced.c, mcts_traced.c). */
#include <stdlib.h>

#include "mcts.h"
#include "memory.h"
#include "trace.h"
#include "wasm.h"

/* What the last trace recorded, freed by the next one or kw_trace_free. */
static int32_t *kw_record;

KW_EXPORT void kw_trace_free(void)
{
    free(kw_record);
    kw_record = NULL;
}

/* trace_search: the search of the position in kw_cells from depth `first` to `last` on a new table of
 * 2^table_bits entries, recording at most max_nodes nodes. kw_out: the answer of kw_search, and at
 * KW_TRACE_FULL whether the record ran out of room. Returns the nodes recorded, 8 int32 each at the
 * address returned in kw_out[KW_TRACE_RECORD] (parent, move, kind, depth, alpha, beta, value, flag +
 * 256 * bits); -1 for a board beyond this build, -2 when out of memory. */
KW_EXPORT int kw_trace_search(int pits, int seeds, int empty_capture, int pie_rule, int to_move, int algorithm,
                              int evaluation, int first, int last, int options, int table_bits, int max_nodes)
{
    kalah_rules rules;
    kalah_state state;
    ks_context ctx;
    ks_trace trace;
    if (kw_read_state(&rules, &state, pits, seeds, empty_capture, pie_rule, to_move) != 0) return -1;
    if (table_bits < 0 || table_bits > 30 || max_nodes < 1) return -1;
    kw_trace_free();
    uint64_t size = table_bits > 0 ? (uint64_t)1 << table_bits : 0;
    ks_trace_node *nodes = malloc((size_t)max_nodes * sizeof *nodes);
    ks_entry *table = size ? kalah_table_alloc(size * sizeof(ks_entry)) : NULL;
    if (!nodes || (size && !table)) {
        free(nodes);
        kalah_table_free(table, size * sizeof(ks_entry));
        return -2;
    }
    ks_init(&ctx, &rules, evaluation, table, size);
    ks_clear(&ctx);
    ctx.settings.use_table = (options & 2) && table != NULL;
    ctx.settings.ordering = (options & 4) != 0;
    ctx.settings.all_values = (options & 1) != 0;
    ctx.settings.deadline = 0.0;
    ks_trace_attach(&ctx, &trace, nodes, max_nodes);
    int iterations = ks_iterate(&ctx, algorithm, &state, first, last);
    kw_write_answer(&ctx, iterations, &state);
    kalah_table_free(table, size * sizeof(ks_entry));
    int n = (int)trace.n;
    kw_record = malloc((size_t)(n ? n : 1) * 8 * sizeof *kw_record);
    if (!kw_record) {
        free(nodes);
        return -2;
    }
    for (int i = 0; i < n; i++) {
        const ks_trace_node *x = &nodes[i];
        int32_t *o = kw_record + 8 * i;
        o[0] = x->parent;
        o[1] = x->move;
        o[2] = x->kind;
        o[3] = x->depth;
        o[4] = x->alpha;
        o[5] = x->beta;
        o[6] = x->value;
        o[7] = x->flag + 256 * x->bits;
    }
    free(nodes);
    kw_out[KW_TRACE_FULL] = trace.full;
    kw_out[KW_TRACE_RECORD] = (double)(uintptr_t)kw_record;
    return n;
}

/* trace_mcts: UCT from the position in kw_cells for `playouts` iterations, recording its steps. kw_out:
 * the answer of kw_mcts; at KW_TRACE_FULL whether a record ran out of room, at KW_TRACE_RECORD the
 * address of the record: per tree node its parent and move (2 int32 each, in creation order), then per
 * iteration the selected node, the expanded one (-1: none) and the playout's margin (3 int32 each);
 * KW_TRACE_ITERATIONS says how many. Returns the tree nodes, -1 for a board beyond this build or a
 * bad argument, -2 when out of memory. */
KW_EXPORT int kw_trace_mcts(int pits, int seeds, int empty_capture, int pie_rule, int to_move, int playouts,
                            double exploration, uint32_t seed_low, uint32_t seed_high)
{
    kalah_rules rules;
    kalah_state state;
    ks_mcts_result out;
    km_trace t;
    if (kw_read_state(&rules, &state, pits, seeds, empty_capture, pie_rule, to_move) != 0 || playouts < 1) return -1;
    kw_trace_free();
    memset(&t, 0, sizeof t);
    t.max_nodes = (int64_t)playouts + 1; /* the root, and at most one node per iteration: the record never fills */
    t.max_iterations = playouts;
    t.parent = malloc((size_t)t.max_nodes * sizeof *t.parent);
    t.move = malloc((size_t)t.max_nodes);
    t.tree_id = malloc((size_t)t.max_nodes * sizeof *t.tree_id);
    t.selected = malloc((size_t)playouts * sizeof *t.selected);
    t.expanded = malloc((size_t)playouts * sizeof *t.expanded);
    t.margin = malloc((size_t)playouts * sizeof *t.margin);
    int status = -2;
    if (t.parent && t.move && t.tree_id && t.selected && t.expanded && t.margin) {
        uint64_t seed = (uint64_t)seed_high << 32 | seed_low;
        if (ks_mcts(&rules, &state, playouts, 0.0, exploration, seed, 2000000, &out, &t) == 0)
            kw_record = malloc((size_t)(2 * t.nodes + 3 * t.iterations + 1) * sizeof *kw_record);
        if (kw_record) {
            for (int64_t i = 0; i < t.nodes; i++) {
                kw_record[2 * i] = t.parent[i];
                kw_record[2 * i + 1] = t.move[i];
            }
            int32_t *it = kw_record + 2 * t.nodes;
            for (int64_t i = 0; i < t.iterations; i++) {
                it[3 * i] = t.selected[i];
                it[3 * i + 1] = t.expanded[i];
                it[3 * i + 2] = t.margin[i];
            }
            kw_write_mcts(&out);
            kw_out[KW_TRACE_FULL] = t.full;
            kw_out[KW_TRACE_RECORD] = (double)(uintptr_t)kw_record;
            kw_out[KW_TRACE_ITERATIONS] = (double)t.iterations;
            status = (int)t.nodes;
        }
    }
    free(t.parent);
    free(t.move);
    free(t.tree_id);
    free(t.selected);
    free(t.expanded);
    free(t.margin);
    return status;
}

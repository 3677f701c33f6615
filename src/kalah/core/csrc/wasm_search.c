/* The searches and UCT for the browser (wasm.h): kalah.core.search's Engine.search and mcts, number
 * for number. Compiled into kalah.wasm and, with KALAH_BIG, into kalah-big.wasm. */
#include <stdlib.h>

#include "mcts.h"
#include "memory.h"
#include "search.h"
#include "wasm.h"

/* What kalah.core.search.Engine holds: a context, its table, the table's generation and a stop flag. */
typedef struct {
    ks_context ctx;
    ks_entry *table;
    uint64_t size;
    uint64_t generation;
    int stop;
    const kalah_oracle *oracle;
} kw_engine;

/* The options of kw_search, as bits. */
enum { KW_ALL_VALUES = 1, KW_MEMO = 2, KW_ORDERING = 4, KW_CLEAR = 8, KW_DEEPER_ENTRIES = 16 };

/* An engine with a table of 2^table_bits entries (0: none); NULL when there is no memory. */
KW_EXPORT kw_engine *kw_engine_new(int table_bits)
{
    if (table_bits < 0 || table_bits > 30) return NULL;
    kw_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->size = table_bits > 0 ? (uint64_t)1 << table_bits : 0;
    if (e->size) {
        e->table = kalah_table_alloc(e->size * sizeof(ks_entry));
        if (!e->table) {
            free(e);
            return NULL;
        }
    }
    return e;
}

KW_EXPORT void kw_engine_free(kw_engine *e)
{
    if (!e) return;
    kalah_table_free(e->table, e->size * sizeof(ks_entry));
    free(e);
}

/* The endgame oracle the engine's searches take their exact values from (NULL: none). */
KW_EXPORT void kw_engine_set_oracle(kw_engine *e, const kalah_oracle *oracle)
{ e->oracle = oracle; }

/* Engine.search of kalah.core.search on one thread: progressive deepening of the position in kw_cells
 * from depth `first` to `last`, `seconds` > 0 a deadline, `soft_seconds` > 0 the time management's
 * soft one; `options` the bits above. Returns the iterations completed (-1: a board beyond this build). */
KW_EXPORT int kw_search(kw_engine *e, int pits, int seeds, int empty_capture, int pie_rule, int to_move, int algorithm,
                        int evaluation, int first, int last, double seconds, double soft_seconds, int options)
{
    kalah_rules rules;
    kalah_state state;
    double started = kalah_now();
    if (kw_read_state(&rules, &state, pits, seeds, empty_capture, pie_rule, to_move) != 0) return -1;
    ks_context *c = &e->ctx;
    if ((options & KW_CLEAR) || c->settings.rules.pits != rules.pits || c->settings.eval != evaluation) {
        ks_init(c, &rules, evaluation, e->table, e->size);
        c->shared.generation = e->generation;
        ks_clear(c);
        e->generation = c->shared.generation;
    } else {
        memset(&c->stats, 0, sizeof c->stats);
    }
    c->settings.rules = rules;
    c->settings.eval = evaluation;
    c->settings.oracle = e->oracle;
    c->settings.use_table = (options & KW_MEMO) && e->table != NULL;
    c->settings.ordering = (options & KW_ORDERING) != 0;
    c->settings.deeper_entries = (options & KW_DEEPER_ENTRIES) != 0;
    c->settings.all_values = (options & KW_ALL_VALUES) != 0;
    ks_clear_stop(&e->stop);
    c->shared.stop = &e->stop;
    c->settings.deadline = seconds > 0 ? started + seconds : 0.0;
    c->settings.soft_deadline = soft_seconds > 0 ? started + soft_seconds : 0.0;
    int iterations = ks_iterate_threads(c, algorithm, &state, first, last, 1);
    kw_write_answer(c, iterations, &state);
    return iterations;
}

/* kalah.core.search.mcts: UCT from the position in kw_cells for `playouts` random games (or until
 * `seconds` pass), the generator seeded with seed_high * 2^32 + seed_low, at most `max_nodes` tree
 * nodes. Returns 0, -1 for a board beyond this build, -2 when out of memory. */
KW_EXPORT int kw_mcts(int pits, int seeds, int empty_capture, int pie_rule, int to_move, double playouts,
                      double seconds, double exploration, uint32_t seed_low, uint32_t seed_high, double max_nodes)
{
    kalah_rules rules;
    kalah_state state;
    ks_mcts_result out;
    if (kw_read_state(&rules, &state, pits, seeds, empty_capture, pie_rule, to_move) != 0) return -1;
    double started = kalah_now();
    double deadline = seconds > 0 ? started + seconds : 0.0;
    if (playouts <= 0 && deadline == 0.0) playouts = 10000;
    uint64_t seed = (uint64_t)seed_high << 32 | seed_low;
    if (ks_mcts(&rules, &state, (long)playouts, deadline, exploration, seed, (long)max_nodes, &out) != 0) return -2;
    kw_write_mcts(&out);
    return 0;
}

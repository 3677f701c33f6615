/* The search engine. Each algorithm is one function that follows its textbook
 * description; they share the leaf handling (ks_leaf), the move generator of
 * board.h, the move ordering (ks_order) and the transposition table
 * (ks_table_*), which stores bound flags as the seed project's `store_cache`
 * does ('=' exact, '≥' lower, '≤' upper).
 *
 * A table entry is used for a value only at exactly the depth it was
 * computed for (the seeds key their cache on the depth limit too), or at a
 * greater depth when it is proven (no heuristic leaf below it). That keeps
 * every algorithm's answer equal to plain depth-limited minimax.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#include <math.h>

#include "search.h"

double ks_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline uint64_t ks_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void ks_init(ks_context *c, const kalah_rules *r, int eval, ks_entry *table, uint64_t table_size)
{
    memset(c, 0, sizeof *c);
    c->rules = *r;
    c->eval = eval;
    c->table = table_size ? table : NULL;
    c->mask = table_size ? table_size - 1 : 0;
    c->use_table = c->table != NULL;
    c->ordering = 1;
    c->clock_countdown = 1024;
}

void ks_clear(ks_context *c)
{
    /* A new salt in every key makes the old entries unreachable: as good as
     * zeroing the table (entries are always replaced), without the cost. */
    c->salt = ks_mix(++c->generation * 0x9E3779B97F4A7C15ull);
    memset(&c->stats, 0, sizeof c->stats);
    c->heuristic = 0;
    c->aborted = 0;
    c->root_n = 0;
    c->depth = 0;
}

/* A hash of the whole state: the 18 cells, the side to move and the pie-rule flags. */
uint64_t ks_hash(const kalah_state *s)
{
    uint64_t a, b;
    uint32_t d;
    memcpy(&a, s->cell, 8);
    memcpy(&b, s->cell + 8, 8);
    memcpy(&d, s->cell + 16, 4); /* cells 16, 17, to_move, flags */
    uint64_t h = ks_mix(a + 0x9E3779B97F4A7C15ull);
    h = ks_mix(h ^ b);
    h = ks_mix(h ^ ((uint64_t)d << 1 | 1));
    return h;
}

/* The table key of a state in this search. */
static inline uint64_t ks_key(const ks_context *c, const kalah_state *s)
{
    return (ks_hash(s) ^ c->salt) | 1; /* 0 marks an empty slot */
}

/* ---- shared pieces ------------------------------------------------------ */

/* Called on entering every node: counts it and looks at the clock now and then. */
static inline int ks_enter(ks_context *c)
{
    c->stats.nodes++;
    if (--c->clock_countdown <= 0) {
        c->clock_countdown = 1024;
        if (c->deadline > 0 && ks_now() >= c->deadline) c->aborted = 1;
    }
    return !c->aborted;
}

/* A leaf: a finished game, an oracle position, or the depth limit. */
static inline int ks_leaf(ks_context *c, const kalah_state *s, int depth, int *value)
{
    const kalah_rules *r = &c->rules;
    if (kalah_is_over(r, s)) {
        c->stats.leaves++;
        *value = kalah_eval_final(r, s);
        return 1;
    }
    if (c->oracle) {
        int in_pits = kalah_side_seeds(r, s, 0) + kalah_side_seeds(r, s, 1), rest;
        if (in_pits <= c->oracle->max_seeds && c->oracle->probe(c->oracle->db, r, s, &rest)) {
            int me = s->to_move;
            c->stats.leaves++;
            c->stats.oracle_probes++;
            *value = KALAH_UNIT * (s->cell[kalah_store_index(r, me)] - s->cell[kalah_store_index(r, 1 - me)] + rest);
            return 1;
        }
    }
    if (depth <= 0) {
        c->stats.leaves++;
        c->heuristic++;
        *value = kalah_evaluate(c->eval, r, s);
        return 1;
    }
    return 0;
}

/* Nodes just above the frontier do not use the table: their subtrees are too
 * small to repay a probe that usually misses the cache. */
#define KS_TABLE_MIN_DEPTH 2

/* The value of a child for the parent: negated unless the mover kept the turn. */
#define KS_SAME(parent, child) ((child).to_move == (parent)->to_move)

static inline ks_entry *ks_table_find(ks_context *c, uint64_t key)
{
    ks_entry *e = &c->table[key & c->mask];
    return e->key == key ? e : NULL;
}

/* Is the entry's value valid for a search of this depth? */
static inline int ks_usable(const ks_entry *e, int depth)
{
    return e->depth == depth || (e->proven && depth >= e->depth);
}

static inline void ks_table_store(ks_context *c, uint64_t key, int depth, int value, int flag, int move, uint64_t heuristic_before)
{
    ks_entry *e = &c->table[key & c->mask];
    e->key = key;
    e->value = value;
    e->depth = (int8_t)depth;
    e->flag = (uint8_t)flag;
    e->move = (uint8_t)move;
    e->proven = c->heuristic == heuristic_before;
}

/* A table value was used: if it rests on heuristics, so does whatever uses it. */
static inline void ks_table_used(ks_context *c, const ks_entry *e)
{
    if (!e->proven) c->heuristic++;
}

/* The seeds' `evaluate`: an exact entry answers; a bound either answers (it is
 * outside the window) or narrows the window. Returns 1 with *value on an answer. */
static inline int ks_table_window(ks_context *c, ks_entry *e, int depth, int *alpha, int *beta, int *value)
{
    if (!e || !ks_usable(e, depth)) return 0;
    c->stats.tt_hits++;
    int v = e->value;
    if (e->flag == KS_EXACT) {
        ks_table_used(c, e);
        *value = v;
        return 1;
    }
    if (e->flag == KS_UPPER) {       /* value <= v */
        if (v <= *alpha) { ks_table_used(c, e); *value = v; return 1; }
        if (v < *beta) { ks_table_used(c, e); *beta = v; }
    } else {                         /* value >= v */
        if (v >= *beta) { ks_table_used(c, e); *value = v; return 1; }
        if (v > *alpha) { ks_table_used(c, e); *alpha = v; }
    }
    return 0;
}

/* Move ordering: the table's move first, then moves that earn an extra turn
 * (the pit nearest the store first, so the others stay available), then
 * captures by size, then the other pits from the store backwards. */
static inline void ks_order(ks_context *c, const kalah_state *s, uint8_t *moves, int n, int first)
{
    if (!c->ordering || n < 2) return;
    const kalah_rules *r = &c->rules;
    const int m = r->pits, len = r->ring_len;
    const uint8_t *own = s->cell + kalah_base(r, s->to_move);
    const uint8_t *opp = s->cell + kalah_base(r, 1 - s->to_move);
    int score[KALAH_MAX_MOVES];
    for (int k = 0; k < n; k++) {
        int mv = moves[k], sc;
        if (mv == first) sc = 10000;
        else if (mv == KALAH_SWAP) sc = 0;
        else {
            int seeds = own[mv];
            sc = mv;
            if (seeds % len == m - mv && !(s->flags & KALAH_FIRST_MOVE)) sc = 1000 + mv;
            else if (seeds < len && mv + seeds < m && own[mv + seeds] == 0 && (opp[m - 1 - mv - seeds] || r->empty_capture))
                sc = 100 + opp[m - 1 - mv - seeds];
        }
        score[k] = sc;
    }
    for (int k = 1; k < n; k++) { /* insertion sort, stable, best first */
        int sc = score[k];
        uint8_t mv = moves[k];
        int j = k - 1;
        while (j >= 0 && score[j] < sc) { score[j + 1] = score[j]; moves[j + 1] = moves[j]; j--; }
        score[j + 1] = sc;
        moves[j + 1] = mv;
    }
}

/* An exact table entry answers (the memo of minimax and of Scout's EVAL). */
static inline int ks_table_exact(ks_context *c, const ks_entry *e, int depth, int *value)
{
    if (!e || e->flag != KS_EXACT || !ks_usable(e, depth)) return 0;
    c->stats.tt_hits++;
    ks_table_used(c, e);
    *value = e->value;
    return 1;
}

/* For Scout's TEST "value >= t": an entry answers when its bound decides the
 * question. Returns 1 with the answer in *pass. */
static inline int ks_table_test(ks_context *c, const ks_entry *e, int depth, int t, int *pass)
{
    if (!e || !ks_usable(e, depth)) return 0;
    if ((e->flag != KS_UPPER && e->value >= t) || (e->flag != KS_LOWER && e->value < t)) {
        c->stats.tt_hits++;
        ks_table_used(c, e);
        *pass = e->value >= t;
        return 1;
    }
    return 0;
}

/* ---- a node ------------------------------------------------------------- */

/* What an interior node keeps from opening to storing its result. */
typedef struct {
    uint64_t key;              /* its table key, when tabled */
    uint64_t heuristic_before; /* c->heuristic on entry: did a heuristic leaf contribute? */
    int tabled;                /* the node reads and writes the table */
    int first;                 /* the table's move, searched first */
    int n;                     /* the legal moves, in search order */
    uint8_t moves[KALAH_MAX_MOVES];
} ks_node;

/* Looks the node up in the table when it is deep enough (depth >= min_depth):
 * returns the entry found, or NULL. */
static inline ks_entry *ks_node_probe(ks_context *c, ks_node *nd, const kalah_state *s, int depth, int min_depth)
{
    ks_entry *e = NULL;
    nd->key = 0;
    nd->heuristic_before = c->heuristic;
    nd->tabled = c->table && depth >= min_depth;
    if (nd->tabled) {
        nd->key = ks_key(c, s);
        if (c->use_table) {
            c->stats.tt_probes++;
            e = ks_table_find(c, nd->key);
        }
    }
    nd->first = e ? e->move : KS_NO_MOVE;
    return e;
}

/* The legal moves in search order, the table's move first. */
static inline void ks_node_moves(ks_context *c, ks_node *nd, const kalah_state *s)
{
    nd->n = kalah_legal_moves(&c->rules, s, nd->moves);
    ks_order(c, s, nd->moves, nd->n, nd->first);
}

/* Opens a node: counts it, answers at a leaf or from the table, else generates
 * the moves in search order. With a window (alpha and beta), a table bound
 * answers or narrows it; without one (NULL), only an exact entry answers.
 * Returns 1 when the node is already decided, with its *value. */
static inline int ks_node_open(ks_context *c, ks_node *nd, const kalah_state *s, int depth, int *alpha, int *beta, int *value)
{
    if (!ks_enter(c)) { *value = 0; return 1; }
    if (ks_leaf(c, s, depth, value)) return 1;
    ks_entry *e = ks_node_probe(c, nd, s, depth, KS_TABLE_MIN_DEPTH);
    if (alpha ? ks_table_window(c, e, depth, alpha, beta, value) : ks_table_exact(c, e, depth, value)) return 1;
    ks_node_moves(c, nd, s);
    return 0;
}

/* Stores the node's result, if it is tabled. */
static inline void ks_node_store(ks_context *c, const ks_node *nd, int depth, int value, int flag, int move)
{
    if (nd->tabled) ks_table_store(c, nd->key, depth, value, flag, move, nd->heuristic_before);
}

/* The flag of a fail-soft result searched with the window (alpha, beta). */
static inline int ks_bound_flag(int value, int alpha, int beta)
{
    return value <= alpha ? KS_UPPER : value >= beta ? KS_LOWER : KS_EXACT;
}

/* Is the child of a node of this depth at the frontier (depth 1, or the game
 * is over)? Then it is a leaf, visited by its parent without a call. */
static inline int ks_frontier(const ks_context *c, const kalah_state *child, int depth)
{
    return depth == 1 || kalah_is_over(&c->rules, child);
}

/* The value of a frontier child (entered with ks_enter) for its parent s: a
 * leaf's value is exact, so no window is needed. */
static inline int ks_frontier_value(ks_context *c, const kalah_state *s, const kalah_state *child, int depth)
{
    int v;
    ks_leaf(c, child, depth - 1, &v);
    return KS_SAME(s, *child) ? v : -v;
}

/* ---- Minimax ------------------------------------------------------------ */

/* Plain negamax over every move; memoized (exact values per depth) when use_table is set. */
static int ks_minimax(ks_context *c, const kalah_state *s, int depth)
{
    ks_node nd;
    int value;
    if (!ks_enter(c)) return 0;
    if (ks_leaf(c, s, depth, &value)) return value;
    ks_entry *e = ks_node_probe(c, &nd, s, depth, 1); /* memoized at every depth */
    if (ks_table_exact(c, e, depth, &value)) return value;
    nd.n = kalah_legal_moves(&c->rules, s, nd.moves); /* in plain pit order */
    int best = -KS_INF, best_move = KS_NO_MOVE;
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->rules, &child, nd.moves[k]);
        int v = KS_SAME(s, child) ? ks_minimax(c, &child, depth - 1) : -ks_minimax(c, &child, depth - 1);
        if (c->aborted) return 0;
        if (v > best) { best = v; best_move = nd.moves[k]; }
    }
    ks_node_store(c, &nd, depth, best, KS_EXACT, best_move);
    return best;
}

/* ---- AlphaBeta ---------------------------------------------------------- */

/* Fail-soft alpha-beta: returns v with v <= alpha meaning "value <= v",
 * v >= beta meaning "value >= v", and the exact value in between. */
static int ks_alphabeta(ks_context *c, const kalah_state *s, int depth, int alpha, int beta)
{
    ks_node nd;
    int value;
    if (ks_node_open(c, &nd, s, depth, &alpha, &beta, &value)) return value;
    int best = -KS_INF, best_move = KS_NO_MOVE, a = alpha;
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->rules, &child, nd.moves[k]);
        int v;
        if (ks_frontier(c, &child, depth)) {
            if (!ks_enter(c)) return 0;
            v = ks_frontier_value(c, s, &child, depth);
        } else {
            v = KS_SAME(s, child) ? ks_alphabeta(c, &child, depth - 1, a, beta)
                                  : -ks_alphabeta(c, &child, depth - 1, -beta, -a);
            if (c->aborted) return 0;
        }
        if (v > best) {
            best = v;
            best_move = nd.moves[k];
            if (v > a) a = v;
            if (v >= beta) { c->stats.cutoffs++; break; }
        }
    }
    ks_node_store(c, &nd, depth, best, ks_bound_flag(best, alpha, beta), best_move);
    return best;
}

/* ---- PVS (NegaScout) ---------------------------------------------------- */

/* The first move with the full window, the others with a null window that
 * only asks "better than alpha?", re-searched when the answer is yes. */
static int ks_pvs(ks_context *c, const kalah_state *s, int depth, int alpha, int beta)
{
    ks_node nd;
    int value;
    if (ks_node_open(c, &nd, s, depth, &alpha, &beta, &value)) return value;
    int best = -KS_INF, best_move = KS_NO_MOVE, a = alpha;
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->rules, &child, nd.moves[k]);
        int same = KS_SAME(s, child), v;
        if (ks_frontier(c, &child, depth)) {
            if (!ks_enter(c)) return 0;
            v = ks_frontier_value(c, s, &child, depth);
        } else if (k == 0) {
            v = same ? ks_pvs(c, &child, depth - 1, a, beta) : -ks_pvs(c, &child, depth - 1, -beta, -a);
        } else {
            v = same ? ks_pvs(c, &child, depth - 1, a, a + 1) : -ks_pvs(c, &child, depth - 1, -a - 1, -a);
            if (!c->aborted && v > a && v < beta) {
                c->stats.researches++;
                v = same ? ks_pvs(c, &child, depth - 1, v, beta) : -ks_pvs(c, &child, depth - 1, -beta, -v);
            }
        }
        if (c->aborted) return 0;
        if (v > best) {
            best = v;
            best_move = nd.moves[k];
            if (v > a) a = v;
            if (v >= beta) { c->stats.cutoffs++; break; }
        }
    }
    ks_node_store(c, &nd, depth, best, ks_bound_flag(best, alpha, beta), best_move);
    return best;
}

/* ---- Scout (Pearl, 1980) ------------------------------------------------ */

/* TEST(s, v, >) or TEST(s, v, >=): is the value of s greater than (or at least) v?
 * Answers are memoized as bounds: true is '≥ t', false is '≤ t-1', t = v + strict. */
static int ks_scout_test(ks_context *c, const kalah_state *s, int depth, int v, int strict)
{
    int value;
    if (!ks_enter(c)) return 0;
    if (ks_leaf(c, s, depth, &value)) return strict ? value > v : value >= v;
    const int t = strict ? v + 1 : v; /* integer values: "> v" is ">= v + 1" */
    ks_node nd;
    ks_entry *e = ks_node_probe(c, &nd, s, depth, KS_TABLE_MIN_DEPTH);
    if (ks_table_test(c, e, depth, t, &value)) return value;
    ks_node_moves(c, &nd, s);
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->rules, &child, nd.moves[k]);
        /* The mover maximizes: one child that passes is enough. For a child where
         * the opponent moves, "-value(child) > v" is "not value(child) >= -v". */
        int pass = KS_SAME(s, child) ? ks_scout_test(c, &child, depth - 1, v, strict)
                                     : !ks_scout_test(c, &child, depth - 1, -v, !strict);
        if (c->aborted) return 0;
        if (pass) {
            c->stats.cutoffs++;
            ks_node_store(c, &nd, depth, t, KS_LOWER, nd.moves[k]);
            return 1;
        }
    }
    ks_node_store(c, &nd, depth, t - 1, KS_UPPER, KS_NO_MOVE);
    return 0;
}

/* EVAL(s): the exact value; the first child is evaluated, each other child is
 * only TESTed against the best value so far and evaluated when it is better. */
static int ks_scout_eval(ks_context *c, const kalah_state *s, int depth)
{
    ks_node nd;
    int value;
    if (ks_node_open(c, &nd, s, depth, NULL, NULL, &value)) return value;
    int best = 0, best_move = KS_NO_MOVE;
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->rules, &child, nd.moves[k]);
        int same = KS_SAME(s, child);
        if (k == 0) {
            best = same ? ks_scout_eval(c, &child, depth - 1) : -ks_scout_eval(c, &child, depth - 1);
            best_move = nd.moves[k];
        } else {
            int better = same ? ks_scout_test(c, &child, depth - 1, best, 1)
                              : !ks_scout_test(c, &child, depth - 1, -best, 0);
            if (!c->aborted && better) {
                c->stats.researches++;
                best = same ? ks_scout_eval(c, &child, depth - 1) : -ks_scout_eval(c, &child, depth - 1);
                best_move = nd.moves[k];
            }
        }
        if (c->aborted) return 0;
    }
    ks_node_store(c, &nd, depth, best, KS_EXACT, best_move);
    return best;
}

/* ---- MTD(f) (Plaat et al., 1996) ---------------------------------------- */

/* A sequence of null-window alpha-beta searches with memory, closing in on the value from a guess. */
static int ks_mtdf(ks_context *c, const kalah_state *s, int depth, int guess)
{
    int g = guess, lower = -KS_INF, upper = KS_INF, passes = 0;
    while (lower < upper) {
        int beta = g == lower ? g + 1 : g;
        g = ks_alphabeta(c, s, depth, beta - 1, beta);
        if (c->aborted) return 0;
        if (passes++) c->stats.researches++;
        if (g < beta) upper = g;
        else lower = g;
    }
    return g;
}

/* ---- the root ----------------------------------------------------------- */

/* The exact value of a root child, seen from the root's mover. */
static int ks_child_value(ks_context *c, int algorithm, const kalah_state *s, const kalah_state *child, int depth)
{
    int v;
    switch (algorithm) {
    case KS_MINIMAX: v = ks_minimax(c, child, depth); break;
    case KS_SCOUT: v = ks_scout_eval(c, child, depth); break;
    case KS_PVS: v = ks_pvs(c, child, depth, -KS_INF, KS_INF); break;
    case KS_MTDF: {
        int guess = c->root_n ? c->value : 0;
        v = ks_mtdf(c, child, depth, KS_SAME(s, *child) ? guess : -guess);
        break;
    }
    default: v = ks_alphabeta(c, child, depth, -KS_INF, KS_INF); break;
    }
    return KS_SAME(s, *child) ? v : -v;
}

/* Is the child's value (for the root's mover) above `threshold`? Returns the
 * exact value when it is, else an upper bound <= threshold. */
static int ks_child_above(ks_context *c, int algorithm, const kalah_state *s, const kalah_state *child, int depth,
                          int threshold, int *exact)
{
    int same = KS_SAME(s, *child), v;
    *exact = 0;
    switch (algorithm) {
    case KS_SCOUT:
        if (same ? ks_scout_test(c, child, depth, threshold, 1) : !ks_scout_test(c, child, depth, -threshold, 0)) {
            if (c->aborted) return 0;
            c->stats.researches++;
            *exact = 1;
            return ks_child_value(c, algorithm, s, child, depth);
        }
        return threshold;
    case KS_PVS:
    case KS_MTDF:
        v = same ? ks_pvs(c, child, depth, threshold, threshold + 1) : -ks_pvs(c, child, depth, -threshold - 1, -threshold);
        if (c->aborted || v <= threshold) return v;
        c->stats.researches++;
        if (algorithm == KS_MTDF) {
            *exact = 1;
            return ks_child_value(c, algorithm, s, child, depth);
        }
        v = same ? ks_pvs(c, child, depth, v, KS_INF) : -ks_pvs(c, child, depth, -KS_INF, -v);
        *exact = 1;
        return v;
    default:
        v = same ? ks_alphabeta(c, child, depth, threshold, KS_INF) : -ks_alphabeta(c, child, depth, -KS_INF, -threshold);
        *exact = v > threshold;
        return v;
    }
}

int ks_root(ks_context *c, int algorithm, const kalah_state *s, int depth)
{
    const kalah_rules *r = &c->rules;
    uint8_t moves[KALAH_MAX_MOVES], order[KALAH_MAX_MOVES];
    int values[KALAH_MAX_MOVES];
    uint8_t flags[KALAH_MAX_MOVES];
    int n = kalah_legal_moves(r, s, moves);
    uint64_t heuristic_before = c->heuristic;
    c->aborted = 0;
    if (n == 0) {
        c->stats.nodes++;
        c->stats.leaves++;
        c->root_n = 0;
        c->value = kalah_eval_final(r, s);
        c->best_move = KS_NO_MOVE;
        c->depth = depth;
        c->exact = 1;
        return 1;
    }
    c->stats.nodes++;
    /* Search order: the previous iteration's (best first), else the static ordering. */
    int have_order = c->root_n == n && memcmp(c->root_moves, moves, n) == 0;
    if (have_order) memcpy(order, c->root_order, n);
    else {
        memcpy(order, moves, n);
        ks_order(c, s, order, n, KS_NO_MOVE);
    }
    for (int k = 0; k < n; k++) flags[k] = KS_UNKNOWN, values[k] = 0;

    int best = -KS_INF, best_move = KS_NO_MOVE, value = 0;
    if (algorithm == KS_MTDF && !c->all_values) {
        /* MTD(f) finds the root value; the best move is then the first move (by
         * code) whose null-window test reaches it. */
        int guess = have_order ? c->value : 0;
        value = ks_mtdf(c, s, depth, guess);
        if (c->aborted) return 0;
        for (int k = 0; k < n; k++) {
            kalah_state child = *s;
            kalah_play(r, &child, moves[k]);
            int exact, v = ks_child_above(c, KS_PVS, s, &child, depth - 1, value - 1, &exact);
            if (c->aborted) return 0;
            values[k] = v;
            flags[k] = exact ? KS_EXACT : KS_UPPER;
            if (exact) { best = v; best_move = moves[k]; break; }
        }
    } else {
        for (int i = 0; i < n; i++) {
            int mv = order[i], k = 0;
            while (moves[k] != mv) k++;
            kalah_state child = *s;
            kalah_play(r, &child, mv);
            int v, exact;
            if (i == 0 || c->all_values || algorithm == KS_MINIMAX) {
                v = ks_child_value(c, algorithm, s, &child, depth - 1);
                exact = 1;
            } else {
                /* Ties go to the lowest move code: a lower code than the best so far
                 * must only equal it, a higher one must beat it. */
                int threshold = mv < best_move ? best - 1 : best;
                v = ks_child_above(c, algorithm, s, &child, depth - 1, threshold, &exact);
            }
            if (c->aborted) return 0;
            values[k] = v;
            flags[k] = exact ? KS_EXACT : KS_UPPER;
            if (exact && (v > best || (v == best && mv < best_move))) { best = v; best_move = mv; }
        }
    }
    /* Completed: publish, and order the next iteration best first, then by value. */
    c->root_n = n;
    memcpy(c->root_moves, moves, n);
    memcpy(c->root_values, values, sizeof(int) * n);
    memcpy(c->root_flags, flags, n);
    c->value = best;
    c->best_move = best_move;
    c->depth = depth;
    c->exact = c->heuristic == heuristic_before;
    int idx[KALAH_MAX_MOVES];
    for (int k = 0; k < n; k++) idx[k] = k;
    for (int k = 1; k < n; k++) {
        int x = idx[k], j = k - 1;
        int key = moves[x] == best_move ? KS_INF : flags[x] == KS_UNKNOWN ? -KS_INF : values[x];
        while (j >= 0) {
            int y = idx[j];
            int ky = moves[y] == best_move ? KS_INF : flags[y] == KS_UNKNOWN ? -KS_INF : values[y];
            if (ky >= key) break;
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = x;
    }
    for (int k = 0; k < n; k++) c->root_order[k] = moves[idx[k]];
    return 1;
}

int ks_iterate(ks_context *c, int algorithm, const kalah_state *s, int first, int last)
{
    int done = 0;
    if (last > KS_MAX_DEPTH) last = KS_MAX_DEPTH;
    if (first < 1) first = 1;
    c->root_n = 0;
    for (int depth = first; depth <= last; depth++) {
        int saved_n = c->root_n, saved_best = c->best_move, saved_value = c->value, saved_depth = c->depth, saved_exact = c->exact;
        int saved_values[KALAH_MAX_MOVES];
        uint8_t saved_flags[KALAH_MAX_MOVES];
        memcpy(saved_values, c->root_values, sizeof saved_values);
        memcpy(saved_flags, c->root_flags, sizeof saved_flags);
        if (!ks_root(c, algorithm, s, depth)) {
            /* restore the last completed iteration */
            c->root_n = saved_n;
            c->best_move = saved_best;
            c->value = saved_value;
            c->depth = saved_depth;
            c->exact = saved_exact;
            memcpy(c->root_values, saved_values, sizeof saved_values);
            memcpy(c->root_flags, saved_flags, sizeof saved_flags);
            break;
        }
        done++;
        if (c->exact) break; /* proven: deeper searches give the same answer */
    }
    return done;
}

int ks_pv(ks_context *c, const kalah_state *s, int depth, uint8_t *pv, int max)
{
    kalah_state t = *s;
    uint8_t moves[KALAH_MAX_MOVES];
    int len = 0;
    if (c->root_n == 0 || c->best_move == KS_NO_MOVE || max < 1) return 0;
    pv[len++] = (uint8_t)c->best_move;
    kalah_play(&c->rules, &t, c->best_move);
    depth--;
    while (c->table && len < max && depth > 0) {
        int n = kalah_legal_moves(&c->rules, &t, moves);
        if (n == 0) break;
        ks_entry *e = ks_table_find(c, ks_key(c, &t));
        if (!e || e->move == KS_NO_MOVE) break;
        int legal = 0;
        for (int k = 0; k < n; k++) legal |= moves[k] == e->move;
        if (!legal) break;
        pv[len++] = e->move;
        kalah_play(&c->rules, &t, e->move);
        depth--;
    }
    return len;
}

/* ---- a reference ------------------------------------------------------- */

/* The plainest alpha-beta in C (store difference, pits in order, no table, no
 * statistics but a node count): the yardstick of benchmarks/bench_search.py. */
static int ks_reference(const kalah_rules *r, const kalah_state *s, int depth, int alpha, int beta, uint64_t *nodes)
{
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

/* ---- UCT ---------------------------------------------------------------- */

typedef struct {
    kalah_state s;
    int32_t parent;
    int32_t child;     /* index of the first child; -1 before expansion */
    uint8_t n;         /* legal moves */
    uint8_t tried;     /* children created so far */
    uint8_t move;
    uint8_t mover;     /* who played the move into this node */
    uint32_t visits;
    double wins;       /* for `mover`: 1 a win, 1/2 a draw */
    double margin;     /* summed final margins for `mover` */
    uint8_t moves[KALAH_MAX_MOVES];
} ks_mnode;

int ks_mcts(const kalah_rules *r, const kalah_state *root, long max_playouts, double deadline,
            double exploration, uint64_t seed, long max_nodes, ks_mcts_result *out)
{
    memset(out, 0, sizeof *out);
    if (max_nodes < 16) max_nodes = 16;
    ks_mnode *nodes = malloc(sizeof(ks_mnode) * (size_t)max_nodes);
    if (!nodes) return -1;
    kalah_rng g = {seed};
    long count = 1, playouts = 0;
    int deepest = 0;
    nodes[0].s = *root;
    nodes[0].parent = -1;
    nodes[0].child = -1;
    nodes[0].n = (uint8_t)kalah_legal_moves(r, root, nodes[0].moves);
    nodes[0].tried = 0;
    nodes[0].move = KS_NO_MOVE;
    nodes[0].mover = (uint8_t)(1 - root->to_move);
    nodes[0].visits = 0;
    nodes[0].wins = nodes[0].margin = 0;
    while (nodes[0].n > 0) {
        if (max_playouts > 0 && playouts >= max_playouts) break;
        if ((max_playouts <= 0 || deadline > 0) && (playouts & 63) == 0 && deadline > 0 && ks_now() >= deadline) break;
        /* selection */
        long at = 0;
        int level = 0;
        while (nodes[at].n > 0 && nodes[at].tried == nodes[at].n) {
            ks_mnode *p = &nodes[at];
            double logn = log((double)p->visits), best = -1;
            long pick = p->child;
            for (int k = 0; k < p->n; k++) {
                ks_mnode *q = &nodes[p->child + k];
                double u = q->wins / q->visits + exploration * sqrt(logn / q->visits);
                if (u > best) { best = u; pick = p->child + k; }
            }
            at = pick;
            level++;
        }
        /* expansion: children are allocated together, created one at a time */
        ks_mnode *p = &nodes[at];
        if (p->n > 0) {
            if (p->child < 0) {
                if (count + p->n <= max_nodes) { p->child = (int32_t)count; count += p->n; }
            }
            if (p->child >= 0) {
                long ci = p->child + p->tried;
                ks_mnode *q = &nodes[ci];
                q->s = p->s;
                q->move = p->moves[p->tried];
                q->mover = p->s.to_move;
                kalah_play(r, &q->s, q->move);
                q->parent = (int32_t)at;
                q->child = -1;
                q->n = (uint8_t)kalah_legal_moves(r, &q->s, q->moves);
                q->tried = 0;
                q->visits = 0;
                q->wins = q->margin = 0;
                p->tried++;
                at = ci;
                level++;
            }
        }
        if (level > deepest) deepest = level;
        /* simulation */
        kalah_state t = nodes[at].s;
        int margin = kalah_random_playout(r, &t, &g);
        playouts++;
        /* back-propagation */
        for (long i = at; i >= 0; i = nodes[i].parent) {
            ks_mnode *q = &nodes[i];
            int mine = q->mover ? -margin : margin;
            q->visits++;
            q->wins += mine > 0 ? 1.0 : mine == 0 ? 0.5 : 0.0;
            q->margin += mine;
        }
    }
    out->playouts = playouts;
    out->nodes = count;
    out->depth = deepest;
    out->n = nodes[0].n;
    out->best_move = KS_NO_MOVE;
    long best_visits = -1;
    for (int k = 0; k < nodes[0].n; k++) {
        out->moves[k] = nodes[0].moves[k];
        if (nodes[0].child >= 0 && k < nodes[0].tried) {
            ks_mnode *q = &nodes[nodes[0].child + k];
            out->visits[k] = q->visits;
            out->wins[k] = q->wins;
            out->margin[k] = q->margin;
        }
        if (out->visits[k] > best_visits) { best_visits = out->visits[k]; out->best_move = out->moves[k]; }
    }
    free(nodes);
    return 0;
}

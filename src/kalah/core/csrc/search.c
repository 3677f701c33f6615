/* The search engine: Minimax, AlphaBeta, PVS, Scout and MTD(f), each one
 * function that follows its textbook description, and the root that drives
 * them (progressive deepening, the value of every root move, the principal
 * variation). They share the leaf handling (ks_leaf), the move generator of
 * board.h, the move ordering of order.h and the transposition table of
 * table.h, whose entries answer only at the depth they were computed for
 * unless proven, so that every algorithm's answer equals plain depth-limited
 * minimax (a timed practical search may relax that: deeper_entries). PVS, the
 * practical engine, also takes an aspiration window at the root and, on
 * several threads, puts off the children another thread is busy with (ABDADA).
 *
 * The node functions number their steps; the steps they share are the
 * ks_node_* helpers (open a node, store its result). The KS_TRACE_* hooks
 * (trace.h) record the tree in the trace build and are nothing in the release build.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "order.h"
#include "search.h"
#include "table.h"
#include "trace.h"

void ks_init(ks_context *c, const kalah_rules *r, int eval, ks_entry *table, uint64_t table_size)
{
    memset(c, 0, sizeof *c);
    c->settings.rules = *r;
    c->settings.eval = eval;
    c->shared.table = table_size ? table : NULL;
    c->shared.mask = table_size ? table_size - 1 : 0;
    c->settings.use_table = c->shared.table != NULL;
    c->settings.ordering = 1;
    c->settings.aspiration = 1;
    c->clock_countdown = 1024;
}

void ks_clear(ks_context *c)
{
    /* A new salt in every key makes the old entries unreachable: as good as
     * zeroing the table (entries are always replaced), without the cost. */
    c->shared.salt = kalah_mix64(++c->shared.generation * KALAH_GOLDEN);
    memset(&c->stats, 0, sizeof c->stats);
    c->stats.heuristic = 0;
    c->aborted = 0;
    c->root.n = 0;
    c->root.depth = 0;
}

/* ---- shared pieces ------------------------------------------------------ */

/* Called on entering every node: counts it and looks at the clock now and then. */
static inline int ks_enter(ks_context *c)
{
    c->stats.nodes++;
    if (--c->clock_countdown <= 0) {
        c->clock_countdown = 1024;
        if (c->settings.deadline > 0 && kalah_now() >= c->settings.deadline) c->aborted = 1;
        if (c->shared.stop && __atomic_load_n(c->shared.stop, __ATOMIC_RELAXED)) c->aborted = 1;
        if (c->shared.answered && __atomic_load_n(c->shared.answered, __ATOMIC_RELAXED)) c->aborted = 1;
    }
    return !c->aborted;
}

/* A leaf: a finished game, an oracle position, or the depth limit. */
static inline int ks_leaf(ks_context *c, const kalah_state *s, int depth, int *value)
{
    const kalah_rules *r = &c->settings.rules;
    if (kalah_is_over(r, s)) {
        c->stats.leaves++;
        *value = kalah_eval_final(r, s);
        return 1;
    }
    if (c->settings.oracle) {
        int in_pits = kalah_side_seeds(r, s, 0) + kalah_side_seeds(r, s, 1), rest;
        if (in_pits <= c->settings.oracle->max_seeds &&
            c->settings.oracle->probe(c->settings.oracle->db, r, s, &rest)) {
            int me = s->to_move;
            KALAH_ASSERT(-in_pits <= rest && rest <= in_pits);
            c->stats.leaves++;
            c->stats.oracle_probes++;
            *value = KALAH_UNIT * (s->cell[kalah_store_index(r, me)] - s->cell[kalah_store_index(r, 1 - me)] + rest);
            return 1;
        }
    }
    if (depth <= 0) {
        c->stats.leaves++;
        c->stats.heuristic++;
        *value = kalah_evaluate(c->settings.eval, r, s);
        return 1;
    }
    return 0;
}

/* The value of a child for the parent: negated unless the mover kept the turn. */
#define KS_SAME(parent, child) ((child).to_move == (parent)->to_move)

/* ---- a node ------------------------------------------------------------- */

/* What an interior node keeps from opening to storing its result. */
typedef struct {
    uint64_t key;              /* its table key, when tabled */
    uint64_t heuristic_before; /* c->stats.heuristic on entry: did a heuristic leaf contribute? */
    int tabled;                /* the node reads and writes the table */
    int first;                 /* the table's move, searched first */
    int n;                     /* the legal moves, in search order */
    uint8_t moves[KALAH_MAX_MOVES];
    ks_entry hit;              /* the table's entry, copied (other threads may rewrite the slot) */
} ks_node;

/* Looks the node up in the table when it is deep enough (depth >= min_depth):
 * returns the entry found, or NULL. */
static inline ks_entry *ks_node_probe(ks_context *c, ks_node *nd, const kalah_state *s, int depth, int min_depth)
{
    ks_entry *e = NULL;
    nd->key = 0;
    nd->heuristic_before = c->stats.heuristic;
    nd->tabled = c->shared.table && depth >= min_depth;
    if (nd->tabled) {
        nd->key = ks_key(c, s);
        if (c->settings.use_table) {
            c->stats.tt_probes++;
            e = ks_table_find(c, nd->key, &nd->hit);
            KALAH_ASSERT(!e || ks_entry_sane(c, e, s));
        }
    }
    nd->first = e ? e->move : KS_NO_MOVE;
    return e;
}

/* The legal moves in search order, the table's move first. */
static inline void ks_node_moves(ks_context *c, ks_node *nd, const kalah_state *s)
{
    nd->n = kalah_legal_moves(&c->settings.rules, s, nd->moves);
    KALAH_ASSERT(nd->n > 0); /* not a leaf, so the game goes on */
    ks_order(c, s, nd->moves, nd->n, nd->first);
}

/* Opens a node: counts it, answers at a leaf or from the table, else generates
 * the moves in search order. With a window (alpha and beta), a table bound
 * answers or narrows it; without one (NULL), only an exact entry answers.
 * Returns 1 when the node is already decided, with its *value. */
static inline int ks_node_open(ks_context *c, ks_node *nd, const kalah_state *s, int depth, int *alpha, int *beta,
                               int *value)
{
    if (!ks_enter(c) || !KS_TRACE_ENTER(c, depth, alpha != NULL, alpha ? *alpha : 0, beta ? *beta : 0)) {
        *value = 0;
        return 1;
    }
    if (ks_leaf(c, s, depth, value)) {
        KS_TRACE_EXIT(c, *value, KS_EXACT, 0);
        return 1;
    }
    ks_entry *e = ks_node_probe(c, nd, s, depth, KS_TABLE_MIN_DEPTH);
    if (KS_TRACE_PROBED(c, alpha ? ks_table_window(c, e, depth, alpha, beta, value)
                                 : ks_table_exact(c, e, depth, value))) {
        KS_TRACE_EXIT(c, *value, e->flag, 0);
        return 1;
    }
    ks_node_moves(c, nd, s);
    return 0;
}

/* Is `move` one of the node's moves (or KS_NO_MOVE)? For the checks of a debug build. */
static inline int ks_node_has_move(const ks_node *nd, int move)
{
    int found = move == KS_NO_MOVE;
    for (int k = 0; k < nd->n; k++) found |= nd->moves[k] == move;
    return found;
}

/* Stores the node's result, if it is tabled. */
static inline void ks_node_store(ks_context *c, const ks_node *nd, int depth, int value, int flag, int move)
{
    KALAH_ASSERT(ks_node_has_move(nd, move));
    if (nd->tabled) ks_table_store(c, nd->key, depth, value, flag, move, nd->heuristic_before);
}

/* The flag of a fail-soft result searched with the window (alpha, beta). */
static inline int ks_bound_flag(int value, int alpha, int beta)
{ return value <= alpha ? KS_UPPER : value >= beta ? KS_LOWER : KS_EXACT; }

/* Is the child of a node of this depth at the frontier (depth 1, or the game
 * is over)? Then it is a leaf, visited by its parent without a call. */
static inline int ks_frontier(const ks_context *c, const kalah_state *child, int depth)
{ return depth == 1 || kalah_is_over(&c->settings.rules, child); }

/* The value of a frontier child (entered with ks_enter) for its parent s: a
 * leaf's value is exact, so no window is needed. */
static inline int ks_frontier_value(ks_context *c, const kalah_state *s, const kalah_state *child, int depth)
{
    int v, leaf = ks_leaf(c, child, depth - 1, &v);
    KALAH_ASSERT(leaf);
    KS_TRACE_EXIT(c, v, KS_EXACT, 0);
    return KS_SAME(s, *child) ? v : -v;
}

/* ---- Minimax ------------------------------------------------------------ */

/* Plain negamax over every move (von Neumann, 1928; Shannon, 1950); memoized
 * (exact values per depth) when use_table is set. */
static int ks_minimax(ks_context *c, const kalah_state *s, int depth)
{
    KALAH_ASSERT(0 <= depth && depth <= KS_MAX_DEPTH);
    ks_node nd;
    int value;
    /* Step 1. A leaf, or a memoized exact value, answers. */
    if (!ks_enter(c) || !KS_TRACE_ENTER(c, depth, 0, 0, 0)) return 0;
    if (ks_leaf(c, s, depth, &value)) {
        KS_TRACE_EXIT(c, value, KS_EXACT, 0);
        return value;
    }
    ks_entry *e = ks_node_probe(c, &nd, s, depth, 1); /* memoized at every depth */
    if (KS_TRACE_PROBED(c, ks_table_exact(c, e, depth, &value))) {
        KS_TRACE_EXIT(c, value, KS_EXACT, 0);
        return value;
    }
    /* Step 2. The best of every move's value, the moves in plain pit order. */
    nd.n = kalah_legal_moves(&c->settings.rules, s, nd.moves);
    KALAH_ASSERT(nd.n > 0);
    int best = -KS_INF, best_move = KS_NO_MOVE;
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->settings.rules, &child, nd.moves[k]);
        KS_TRACE_CHILD(c, nd.moves[k], KS_K_SEARCH);
        int v = KS_SAME(s, child) ? ks_minimax(c, &child, depth - 1) : -ks_minimax(c, &child, depth - 1);
        if (c->aborted) return 0;
        if (v > best) {
            best = v;
            best_move = nd.moves[k];
        }
    }
    /* Step 3. Memoize it. */
    ks_node_store(c, &nd, depth, best, KS_EXACT, best_move);
    KS_TRACE_EXIT(c, best, KS_EXACT, 0);
    return best;
}

/* ---- AlphaBeta ---------------------------------------------------------- */

/* Fail-soft alpha-beta (Knuth and Moore, 1975; fail-soft: Fishburn, 1983):
 * returns v with v <= alpha meaning "value <= v", v >= beta meaning
 * "value >= v", and the exact value in between. */
static int ks_alphabeta(ks_context *c, const kalah_state *s, int depth, int alpha, int beta)
{
    KALAH_ASSERT(-KS_INF <= alpha && alpha < beta && beta <= KS_INF);
    KALAH_ASSERT(0 <= depth && depth <= KS_MAX_DEPTH);
    ks_node nd;
    int value;
    /* Step 1. Open the node: a leaf or the table may answer (or narrow the
     * window); else its moves, the table's move first. */
    if (ks_node_open(c, &nd, s, depth, &alpha, &beta, &value)) return value;
    /* Step 2. Every move with the window (a, beta), a rising with the best
     * value so far, until a move reaches beta (a cut-off). */
    int best = -KS_INF, best_move = KS_NO_MOVE, a = alpha;
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->settings.rules, &child, nd.moves[k]);
        KS_TRACE_CHILD(c, nd.moves[k], KS_K_SEARCH);
        int v;
        if (ks_frontier(c, &child, depth)) {
            if (!ks_enter(c) || !KS_TRACE_ENTER_CHILD(c, KS_SAME(s, child), depth - 1, a, beta)) return 0;
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
            if (v >= beta) {
                c->stats.cutoffs++;
                break;
            }
        }
    }
    /* Step 3. Store the value with what it is: an upper bound, exact, or a lower bound. */
    KALAH_ASSERT(-KS_INF < best && best < KS_INF);
    ks_node_store(c, &nd, depth, best, ks_bound_flag(best, alpha, beta), best_move);
    KS_TRACE_EXIT(c, best, ks_bound_flag(best, alpha, beta), best >= beta);
    return best;
}

/* ---- PVS (NegaScout) ---------------------------------------------------- */

/* Principal variation search (Marsland and Campbell, 1982; NegaScout:
 * Reinefeld, 1983): the first move with the full window, the others with a
 * null window that only asks "better than alpha?", re-searched when the answer
 * is yes. Fail-soft, as ks_alphabeta. */
static int ks_pvs(ks_context *c, const kalah_state *s, int depth, int alpha, int beta)
{
    KALAH_ASSERT(-KS_INF <= alpha && alpha < beta && beta <= KS_INF);
    KALAH_ASSERT(0 <= depth && depth <= KS_MAX_DEPTH);
    ks_node nd;
    int value;
    /* Step 1. Open the node, as in alpha-beta. */
    if (ks_node_open(c, &nd, s, depth, &alpha, &beta, &value)) return value;
    /* Step 2. The first move with the window (a, beta); the others with the
     * null window (a, a + 1), and again with (v, beta) when they beat a. */
    int best = -KS_INF, best_move = KS_NO_MOVE, a = alpha;
    int later[KALAH_MAX_MOVES], n_later = 0; /* moves another thread was busy with: searched last */
    for (int i = 0; i < nd.n + n_later; i++) {
        int k = i < nd.n ? i : later[i - nd.n];
        kalah_state child = *s;
        kalah_play(&c->settings.rules, &child, nd.moves[k]);
        int same = KS_SAME(s, child), v;
        uint64_t busy = 0;
        if (k > 0 && ks_busy_defer(c, &child, depth - 1, i < nd.n, &busy)) {
            later[n_later++] = k;
            continue;
        }
        /* the first child is searched with the window (a, beta): a probe too when that is a null window */
        KS_TRACE_CHILD(c, nd.moves[k], k == 0 && beta - a > 1 ? KS_K_PV : KS_K_PROBE);
        if (ks_frontier(c, &child, depth)) {
            if (!ks_enter(c) || !KS_TRACE_ENTER_CHILD(c, same, depth - 1, a, k == 0 ? beta : a + 1)) return 0;
            v = ks_frontier_value(c, s, &child, depth);
        } else if (k == 0) {
            v = same ? ks_pvs(c, &child, depth - 1, a, beta) : -ks_pvs(c, &child, depth - 1, -beta, -a);
        } else {
            v = same ? ks_pvs(c, &child, depth - 1, a, a + 1) : -ks_pvs(c, &child, depth - 1, -a - 1, -a);
            if (!c->aborted && v > a && v < beta) {
                c->stats.researches++;
                KS_TRACE_KIND(c, KS_K_RESEARCH);
                v = same ? ks_pvs(c, &child, depth - 1, v, beta) : -ks_pvs(c, &child, depth - 1, -beta, -v);
            }
        }
        if (busy) ks_busy_unmark(c, busy);
        if (c->aborted) return 0;
        if (v > best) {
            best = v;
            best_move = nd.moves[k];
            if (v > a) a = v;
            if (v >= beta) {
                c->stats.cutoffs++;
                break;
            }
        }
    }
    /* Step 3. Store the value with what it is: an upper bound, exact, or a lower bound. */
    KALAH_ASSERT(-KS_INF < best && best < KS_INF);
    ks_node_store(c, &nd, depth, best, ks_bound_flag(best, alpha, beta), best_move);
    KS_TRACE_EXIT(c, best, ks_bound_flag(best, alpha, beta), best >= beta);
    return best;
}

/* ---- Scout (Pearl, 1980) ------------------------------------------------ */

/* TEST(s, v, >) or TEST(s, v, >=): is the value of s greater than (or at least) v?
 * Answers are memoized as bounds: true is '≥ t', false is '≤ t-1', t = v + strict. */
static int ks_scout_test(ks_context *c, const kalah_state *s, int depth, int v, int strict)
{
    KALAH_ASSERT(-KS_INF < v && v < KS_INF && (strict == 0 || strict == 1));
    KALAH_ASSERT(0 <= depth && depth <= KS_MAX_DEPTH);
    int value;
    /* Step 1. A leaf, or a table bound that decides the question, answers. */
    /* traced as the null window (t - 1, t) it amounts to */
    if (!ks_enter(c) || !KS_TRACE_ENTER(c, depth, 1, strict ? v : v - 1, strict ? v + 1 : v)) return 0;
    if (ks_leaf(c, s, depth, &value)) {
        KS_TRACE_EXIT(c, value, KS_EXACT, 0);
        return strict ? value > v : value >= v;
    }
    const int t = strict ? v + 1 : v; /* integer values: "> v" is ">= v + 1" */
    ks_node nd;
    ks_entry *e = ks_node_probe(c, &nd, s, depth, KS_TABLE_MIN_DEPTH);
    if (KS_TRACE_PROBED(c, ks_table_test(c, e, depth, t, &value))) {
        KS_TRACE_EXIT(c, value ? t : t - 1, value ? KS_LOWER : KS_UPPER, 0);
        return value;
    }
    /* Step 2. TEST the children until one passes. */
    ks_node_moves(c, &nd, s);
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->settings.rules, &child, nd.moves[k]);
        KS_TRACE_CHILD(c, nd.moves[k], KS_K_TEST);
        /* The mover maximizes: one child that passes is enough. For a child where
         * the opponent moves, "-value(child) > v" is "not value(child) >= -v". */
        int pass = KS_SAME(s, child) ? ks_scout_test(c, &child, depth - 1, v, strict)
                                     : !ks_scout_test(c, &child, depth - 1, -v, !strict);
        if (c->aborted) return 0;
        if (pass) {
            c->stats.cutoffs++;
            ks_node_store(c, &nd, depth, t, KS_LOWER, nd.moves[k]);
            KS_TRACE_EXIT(c, t, KS_LOWER, 1);
            return 1;
        }
    }
    /* Step 3. None passed: the value is below t. */
    ks_node_store(c, &nd, depth, t - 1, KS_UPPER, KS_NO_MOVE);
    KS_TRACE_EXIT(c, t - 1, KS_UPPER, 0);
    return 0;
}

/* EVAL(s): the exact value; the first child is evaluated, each other child is
 * only TESTed against the best value so far and evaluated when it is better. */
static int ks_scout_eval(ks_context *c, const kalah_state *s, int depth)
{
    KALAH_ASSERT(0 <= depth && depth <= KS_MAX_DEPTH);
    ks_node nd;
    int value;
    /* Step 1. Open the node: a leaf or an exact table entry answers. */
    if (ks_node_open(c, &nd, s, depth, NULL, NULL, &value)) return value;
    /* Step 2. EVAL the first child; TEST each other one against the best so
     * far, and EVAL it when it is better. */
    int best = 0, best_move = KS_NO_MOVE;
    for (int k = 0; k < nd.n; k++) {
        kalah_state child = *s;
        kalah_play(&c->settings.rules, &child, nd.moves[k]);
        int same = KS_SAME(s, child);
        KS_TRACE_CHILD(c, nd.moves[k], k == 0 ? KS_K_EVAL : KS_K_TEST);
        if (k == 0) {
            best = same ? ks_scout_eval(c, &child, depth - 1) : -ks_scout_eval(c, &child, depth - 1);
            best_move = nd.moves[k];
        } else {
            int better =
                same ? ks_scout_test(c, &child, depth - 1, best, 1) : !ks_scout_test(c, &child, depth - 1, -best, 0);
            if (!c->aborted && better) {
                c->stats.researches++;
                KS_TRACE_KIND(c, KS_K_EVAL);
                best = same ? ks_scout_eval(c, &child, depth - 1) : -ks_scout_eval(c, &child, depth - 1);
                best_move = nd.moves[k];
            }
        }
        if (c->aborted) return 0;
    }
    /* Step 3. Store the exact value. */
    ks_node_store(c, &nd, depth, best, KS_EXACT, best_move);
    KS_TRACE_EXIT(c, best, KS_EXACT, 0);
    return best;
}

/* ---- MTD(f) (Plaat et al., 1996) ---------------------------------------- */

/* A sequence of null-window alpha-beta searches with memory, closing in on the value from a guess. */
static int ks_mtdf(ks_context *c, const kalah_state *s, int depth, int guess)
{
    KALAH_ASSERT(-KS_INF < guess && guess < KS_INF);
    int g = guess, lower = -KS_INF, upper = KS_INF, passes = 0;
    while (lower < upper) {
        int beta = g == lower ? g + 1 : g;
        KS_TRACE_KIND(c, KS_K_PASS);
        g = ks_alphabeta(c, s, depth, beta - 1, beta);
        if (c->aborted) return 0;
        if (passes++) c->stats.researches++;
        if (g < beta)
            upper = g;
        else
            lower = g;
    }
    KALAH_ASSERT((lower == g && g == upper) ||
                 c->settings.deeper_entries); /* deeper entries may disagree between passes */
    return g;
}

/* ---- the root ----------------------------------------------------------- */

/* The exact value of a root child by PVS with an aspiration window (Brudno,
 * 1963; Marsland, 1983): the last iteration's value, give or take a seed,
 * usually holds, and the narrow window cuts more. When the value falls
 * outside, fail-soft says on which side, and one more search with that side
 * open finds it. Only after a completed iteration (root_n), and only when
 * `aspiration` is set. */
static int ks_pvs_aspiration(ks_context *c, const kalah_state *child, int depth, int guess)
{
    if (!c->settings.aspiration || c->root.n == 0) return ks_pvs(c, child, depth, -KS_INF, KS_INF);
    int lo = guess - KS_ASPIRATION, hi = guess + KS_ASPIRATION;
    int v = ks_pvs(c, child, depth, lo, hi);
    if (c->aborted || (lo < v && v < hi)) return v;
    c->stats.researches++;
    KS_TRACE_KIND(c, KS_K_RESEARCH);
    return v <= lo ? ks_pvs(c, child, depth, -KS_INF, v + 1) : ks_pvs(c, child, depth, v - 1, KS_INF);
}

/* The exact value of a root child, seen from the root's mover. */
static int ks_child_value(ks_context *c, int algorithm, const kalah_state *s, const kalah_state *child, int depth)
{
    int v;
    switch (algorithm) {
    case KS_MINIMAX:
        KS_TRACE_KIND(c, KS_K_SEARCH);
        v = ks_minimax(c, child, depth);
        break;
    case KS_SCOUT:
        KS_TRACE_KIND(c, KS_K_EVAL);
        v = ks_scout_eval(c, child, depth);
        break;
    case KS_PVS:
        KS_TRACE_KIND(c, KS_K_PV);
        v = ks_pvs_aspiration(c, child, depth, KS_SAME(s, *child) ? c->root.value : -c->root.value);
        break;
    case KS_MTDF: {
        int guess = c->root.n ? c->root.value : 0;
        v = ks_mtdf(c, child, depth, KS_SAME(s, *child) ? guess : -guess);
        break;
    }
    default:
        KS_TRACE_KIND(c, KS_K_SEARCH);
        v = ks_alphabeta(c, child, depth, -KS_INF, KS_INF);
        break;
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
        KS_TRACE_KIND(c, KS_K_TEST);
        if (same ? ks_scout_test(c, child, depth, threshold, 1) : !ks_scout_test(c, child, depth, -threshold, 0)) {
            if (c->aborted) return 0;
            c->stats.researches++;
            *exact = 1;
            return ks_child_value(c, algorithm, s, child, depth);
        }
        return threshold;
    case KS_PVS:
    case KS_MTDF:
        KS_TRACE_KIND(c, KS_K_PROBE);
        v = same ? ks_pvs(c, child, depth, threshold, threshold + 1)
                 : -ks_pvs(c, child, depth, -threshold - 1, -threshold);
        if (c->aborted || v <= threshold) return v;
        c->stats.researches++;
        if (algorithm == KS_MTDF) {
            *exact = 1;
            return ks_child_value(c, algorithm, s, child, depth);
        }
        KS_TRACE_KIND(c, KS_K_RESEARCH);
        v = same ? ks_pvs(c, child, depth, v, KS_INF) : -ks_pvs(c, child, depth, -KS_INF, -v);
        *exact = 1;
        return v;
    default:
        KS_TRACE_KIND(c, KS_K_SEARCH);
        v = same ? ks_alphabeta(c, child, depth, threshold, KS_INF)
                 : -ks_alphabeta(c, child, depth, -KS_INF, -threshold);
        *exact = v > threshold;
        return v;
    }
}

/* A root move's value as ks_root searches it, and whether it is exact (else an upper bound). */
typedef struct {
    int values[KALAH_MAX_MOVES];     /* by the index of the move in `moves` */
    uint8_t flags[KALAH_MAX_MOVES];  /* KS_EXACT, KS_UPPER, KS_UNKNOWN (not searched) */
    int best, best_move;
} ks_root_search;

/* MTD(f) at the root: the root's value by its passes, then the best move is the first move (by code)
 * whose null-window test reaches it. 0 when the search was stopped. */
static int ks_root_mtdf(ks_context *c, const kalah_state *s, const uint8_t *moves, int n, int depth, int guess,
                        ks_root_search *found)
{
    const kalah_rules *r = &c->settings.rules;
    KS_TRACE_MOVE(c, KS_TRACE_NEW_ROOT); /* each pass on the root's position is a root of its own */
    int value = ks_mtdf(c, s, depth, guess);
    if (c->aborted) return 0;
    for (int k = 0; k < n; k++) {
        kalah_state child = *s;
        kalah_play(r, &child, moves[k]);
        KS_TRACE_MOVE(c, moves[k]);
        int exact, v = ks_child_above(c, KS_PVS, s, &child, depth - 1, value - 1, &exact);
        if (c->aborted) return 0;
        found->values[k] = v;
        found->flags[k] = exact ? KS_EXACT : KS_UPPER;
        if (exact) {
            found->best = v;
            found->best_move = moves[k];
            break;
        }
    }
    if (found->best_move == KS_NO_MOVE) {
        /* Entries of deeper searches (deeper_entries) can make the tests disagree with
         * the passes on the root: take the move that came closest. */
        KALAH_ASSERT(c->settings.deeper_entries);
        for (int k = 0; k < n; k++)
            if (found->values[k] > found->best) {
                found->best = found->values[k];
                found->best_move = moves[k];
            }
    }
    KALAH_ASSERT(found->best == value || c->settings.deeper_entries); /* else some move reaches the root's value */
    return 1;
}

/* The other algorithms at the root: every move in the search order `order`, the first searched in full,
 * the others only as far as they could beat the best so far (all in full with all_values or minimax).
 * 0 when the search was stopped. */
static int ks_root_moves(ks_context *c, int algorithm, const kalah_state *s, const uint8_t *moves, const uint8_t *order,
                         int n, int depth, ks_root_search *found)
{
    const kalah_rules *r = &c->settings.rules;
    int later[KALAH_MAX_MOVES], n_later = 0; /* as in ks_pvs: moves another thread is busy with go last */
    for (int i = 0; i < n + n_later; i++) {
        int mv = i < n ? order[i] : later[i - n], k = 0;
        while (moves[k] != mv) k++;
        KALAH_ASSERT(k < n); /* the search order is a permutation of the legal moves */
        kalah_state child = *s;
        kalah_play(r, &child, mv);
        uint64_t busy = 0;
        if (i > 0 && ks_busy_defer(c, &child, depth - 1, i < n, &busy)) {
            later[n_later++] = mv;
            continue;
        }
        KS_TRACE_MOVE(c, mv);
        int v, exact;
        if (i == 0 || c->settings.all_values || algorithm == KS_MINIMAX) {
            v = ks_child_value(c, algorithm, s, &child, depth - 1);
            exact = 1;
        } else {
            /* Ties go to the lowest move code: a lower code than the best so far
             * must only equal it, a higher one must beat it. */
            int threshold = mv < found->best_move ? found->best - 1 : found->best;
            v = ks_child_above(c, algorithm, s, &child, depth - 1, threshold, &exact);
        }
        if (busy) ks_busy_unmark(c, busy);
        if (c->aborted) return 0;
        found->values[k] = v;
        found->flags[k] = exact ? KS_EXACT : KS_UPPER;
        if (exact && (v > found->best || (v == found->best && mv < found->best_move))) {
            found->best = v;
            found->best_move = mv;
        }
    }
    return 1;
}

int ks_root(ks_context *c, int algorithm, const kalah_state *s, int depth)
{
    const kalah_rules *r = &c->settings.rules;
    uint8_t moves[KALAH_MAX_MOVES], order[KALAH_MAX_MOVES];
    int n = kalah_legal_moves(r, s, moves);
    uint64_t heuristic_before = c->stats.heuristic;
    c->aborted = 0;
    c->stats.nodes++;
    if (!KS_TRACE_ROOT(c, algorithm, depth)) return 0;
    if (n <= 0) { /* none: the game is over (never below: the compiler cannot tell) */
        c->stats.leaves++;
        c->root = (ks_root_result){
            .n = 0, .value = kalah_eval_final(r, s), .best_move = KS_NO_MOVE, .depth = depth, .exact = 1};
        KS_TRACE_EXIT(c, c->root.value, KS_EXACT, 0);
        return 1;
    }
    /* Search order: the previous iteration's (best first), else the static ordering. */
    int have_order = c->root.n == n && memcmp(c->root.moves, moves, n) == 0;
    if (have_order)
        memcpy(order, c->root.order, n);
    else {
        memcpy(order, moves, n);
        ks_order(c, s, order, n, KS_NO_MOVE);
    }
    ks_root_search found = {.best = -KS_INF, .best_move = KS_NO_MOVE};
    for (int k = 0; k < n; k++) found.flags[k] = KS_UNKNOWN;
    int completed = algorithm == KS_MTDF && !c->settings.all_values
                        ? ks_root_mtdf(c, s, moves, n, depth, have_order ? c->root.value : 0, &found)
                        : ks_root_moves(c, algorithm, s, moves, order, n, depth, &found);
    if (!completed) return 0; /* the root result stays that of the last completed iteration */
    /* Completed: publish, and order the next iteration best first, then by value. */
    KALAH_ASSERT(found.best_move != KS_NO_MOVE && -KS_INF < found.best && found.best < KS_INF);
    ks_root_result result = {.n = n,
                             .best_move = found.best_move,
                             .value = found.best,
                             .depth = depth,
                             .exact = c->stats.heuristic == heuristic_before};
    memcpy(result.moves, moves, n);
    memcpy(result.values, found.values, sizeof(int) * n);
    memcpy(result.flags, found.flags, n);
    int key[KALAH_MAX_MOVES];
    for (int k = 0; k < n; k++)
        key[k] = moves[k] == found.best_move ? KS_INF : found.flags[k] == KS_UNKNOWN ? -KS_INF : found.values[k];
    memcpy(result.order, moves, n);
    kalah_sort_by_key(key, result.order, n);
    c->root = result;
    KS_TRACE_EXIT(c, found.best, KS_EXACT, 0);
    return 1;
}

/* The first depth of a pvs search to a fixed depth, and the step between its iterations (ks_iterate). */
static inline int ks_prepared_first(int first, int last, int *step)
{
    int k = KS_PREPARE_ITERATIONS;
    while (k > 0 && last - k * KS_PREPARE_STEP < first) k--;
    *step = KS_PREPARE_STEP;
    return last - k * KS_PREPARE_STEP;
}

int ks_iterate(ks_context *c, int algorithm, const kalah_state *s, int first, int last)
{
    int done = 0;
    if (last > KS_MAX_DEPTH) last = KS_MAX_DEPTH;
    if (first < 1) first = 1;
    c->root.n = 0;
    int settled = 0, last_best = KS_NO_MOVE, step = 1;
    /* pvs to a fixed depth (no deadline: nobody needs the depths in between) prepares its last
     * iteration with a few shallower ones, KS_PREPARE_STEP apart, not with every depth. */
    if (algorithm == KS_PVS && c->settings.deadline == 0 && c->settings.soft_deadline == 0 && first < last &&
        last >= KS_PREPARE_MIN_DEPTH)
        first = ks_prepared_first(first, last, &step);
    for (int depth = first; depth <= last; depth += step) {
        double iteration_started = c->settings.soft_deadline > 0 ? kalah_now() : 0;
        if (!ks_root(c, algorithm, s, depth)) break; /* the root result is the last completed iteration's */
        done++;
        if (c->root.exact) break; /* proven: deeper searches give the same answer */
        if (c->settings.soft_deadline > 0) {
            /* Time management: spend the time where the choice is still open. */
            double now = kalah_now(), took = now - iteration_started;
            settled = c->root.best_move == last_best ? settled + 1 : 0;
            last_best = c->root.best_move;
            if (c->root.n == 1) break;                                  /* forced */
            if (now >= c->settings.soft_deadline && settled >= 2) break;         /* settled */
            if (c->settings.deadline > 0 && now + 2 * took > c->settings.deadline)
                break; /* the next could not finish */
        }
    }
    return done;
}

int ks_pv(ks_context *c, const kalah_state *s, int depth, uint8_t *pv, int max)
{
    kalah_state t = *s;
    uint8_t moves[KALAH_MAX_MOVES];
    int len = 0;
    if (c->root.n == 0 || c->root.best_move == KS_NO_MOVE || max < 1) return 0;
    pv[len++] = (uint8_t)c->root.best_move;
    kalah_play(&c->settings.rules, &t, c->root.best_move);
    depth--;
    while (c->shared.table && len < max && depth > 0) {
        int n = kalah_legal_moves(&c->settings.rules, &t, moves);
        if (n == 0) break;
        ks_entry found, *e = ks_table_find(c, ks_key(c, &t), &found);
        if (!e || e->move == KS_NO_MOVE) break;
        int legal = 0;
        for (int k = 0; k < n; k++) legal |= moves[k] == e->move;
        if (!legal) break;
        pv[len++] = e->move;
        kalah_play(&c->settings.rules, &t, e->move);
        depth--;
    }
    return len;
}

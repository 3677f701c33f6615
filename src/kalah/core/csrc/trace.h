/* The trace hooks of the search engine (search.c): every node the search
 * enters, in visiting order, with its parent, the move from the parent, the
 * depth left, the window at entry, the value returned and what it is.
 *
 * The hooks are macros that compile to nothing (or to a constant the compiler
 * folds away) unless KALAH_TRACE is defined, so the release build of search.c
 * is the same code as without them. setup.py compiles search.c a second time
 * with KALAH_TRACE (csrc/search_traced.c, the extension kalah.core.trace):
 * there the context carries a ks_trace buffer, and when the buffer is full the
 * search aborts as at a deadline, with `full` set.
 *
 * A node is recorded where the search counts it (stats.nodes): the root of
 * each iteration (ks_root), every call of a node function (ks_enter), and the
 * frontier children a node values without a call. The parent is the node on
 * top of the stack; the move and kind of the next child are set by the parent
 * (KS_TRACE_CHILD, KS_TRACE_MOVE, KS_TRACE_KIND) before it enters the child.
 *
 *   KS_TRACE_ROOT(c, algorithm, depth)       an iteration's root: 0 when the buffer is full
 *   KS_TRACE_ENTER(c, depth, window, alpha, beta)  a node entered: 0 when the buffer is full
 *   KS_TRACE_ENTER_CHILD(c, same, depth, lo, hi)   a frontier child, the parent's window (lo, hi)
 *   KS_TRACE_PROBED(c, answered)             after the node's table probe: marks a table hit; is `answered`
 *   KS_TRACE_EXIT(c, value, flag, cutoff)    the node returns `value` (its mover's view) with its flag
 */
#ifndef KALAH_TRACE_H
#define KALAH_TRACE_H

#include "search.h"

#ifdef KALAH_TRACE

/* What step of its algorithm visited a node (names in kalah.search.tracing.KINDS). */
enum {
    KS_K_ROOT = 0,     /* the root of an iteration */
    KS_K_SEARCH = 1,   /* a Minimax or AlphaBeta node */
    KS_K_PASS = 2,     /* the top of one MTD(f) null-window pass */
    KS_K_EVAL = 3,     /* Scout's EVAL: the exact value */
    KS_K_TEST = 4,     /* Scout's TEST: is the value at least beta? */
    KS_K_PV = 5,       /* PVS with an open window */
    KS_K_PROBE = 6,    /* PVS with a null window */
    KS_K_RESEARCH = 7  /* PVS searching again a probe that failed high */
};

/* A pending move that makes the next node a root (the MTD(f) passes at the root). */
#define KS_TRACE_NEW_ROOT 253
#define KS_TRACE_STACK    (KS_MAX_DEPTH + 8)

enum { KS_TB_WINDOW = 1, KS_TB_CUTOFF = 2, KS_TB_HIT = 4 };

typedef struct {
    int32_t parent;     /* -1 at a root */
    int32_t alpha, beta; /* the window at entry (units; KS_TB_WINDOW set) */
    int32_t value;      /* returned, in units, for the node's mover */
    int16_t depth;      /* plies left */
    uint8_t move;       /* from the parent; KS_NO_MOVE at a root */
    uint8_t kind;       /* KS_K_* */
    uint8_t flag;       /* KS_EXACT, KS_LOWER, KS_UPPER */
    uint8_t bits;       /* KS_TB_* */
} ks_trace_node;

typedef struct ks_trace {
    ks_trace_node *nodes;   /* room for max nodes */
    int64_t n, max;
    int full;               /* a node did not fit: the search was aborted */
    int top;                /* nodes being searched */
    int32_t stack[KS_TRACE_STACK];
    uint64_t hits[KS_TRACE_STACK];          /* stats.tt_hits when the node was entered */
    uint8_t next_move[KS_TRACE_STACK + 1];  /* the next child of the node at each level */
    uint8_t next_kind[KS_TRACE_STACK + 1];
} ks_trace;

/* Starts recording into `nodes` (room for `max`); the context searches as before. */
static inline void ks_trace_attach(ks_context *c, ks_trace *t, ks_trace_node *nodes, int64_t max)
{
    memset(t, 0, sizeof *t);
    t->nodes = nodes;
    t->max = max;
    c->trace = t;
}

static inline void ks_trace_child(ks_context *c, int move, int kind)
{
    ks_trace *t = c->trace;
    if (!t) return;
    t->next_move[t->top] = (uint8_t)move;
    t->next_kind[t->top] = (uint8_t)kind;
}

static inline void ks_trace_move(ks_context *c, int move)
{
    if (c->trace) c->trace->next_move[c->trace->top] = (uint8_t)move;
}

static inline void ks_trace_kind(ks_context *c, int kind)
{
    if (c->trace) c->trace->next_kind[c->trace->top] = (uint8_t)kind;
}

static inline int ks_trace_enter(ks_context *c, int depth, int window, int alpha, int beta)
{
    ks_trace *t = c->trace;
    if (!t) return 1;
    if (t->n >= t->max || t->top >= KS_TRACE_STACK) {
        t->full = 1;
        c->aborted = 1;
        return 0;
    }
    ks_trace_node *x = &t->nodes[t->n];
    int move = t->next_move[t->top];
    x->parent = t->top == 0 || move == KS_TRACE_NEW_ROOT ? -1 : t->stack[t->top - 1];
    x->move = x->parent < 0 ? KS_NO_MOVE : (uint8_t)move;
    x->kind = t->next_kind[t->top];
    x->depth = (int16_t)depth;
    x->alpha = window ? alpha : 0;
    x->beta = window ? beta : 0;
    x->value = 0;
    x->flag = KS_EXACT;
    x->bits = window ? KS_TB_WINDOW : 0;
    t->hits[t->top] = c->stats.tt_hits;
    t->stack[t->top++] = (int32_t)t->n++;
    t->next_move[t->top] = KS_NO_MOVE;
    t->next_kind[t->top] = KS_K_SEARCH;
    return 1;
}

static inline int ks_trace_root(ks_context *c, int algorithm, int depth)
{
    if (!c->trace) return 1;
    ks_trace_child(c, KS_TRACE_NEW_ROOT, KS_K_ROOT);
    int window = algorithm == KS_ALPHABETA || algorithm == KS_PVS || algorithm == KS_MTDF;
    return ks_trace_enter(c, depth, window, -KS_INF, KS_INF);
}

static inline int ks_trace_probed(ks_context *c, int answered)
{
    ks_trace *t = c->trace;
    if (t && t->top > 0 && c->stats.tt_hits != t->hits[t->top - 1]) t->nodes[t->stack[t->top - 1]].bits |= KS_TB_HIT;
    return answered;
}

static inline void ks_trace_exit(ks_context *c, int value, int flag, int cutoff)
{
    ks_trace *t = c->trace;
    if (!t) return;
    KALAH_ASSERT(t->top > 0);
    ks_trace_node *x = &t->nodes[t->stack[--t->top]];
    x->value = value;
    x->flag = (uint8_t)flag;
    if (cutoff) x->bits |= KS_TB_CUTOFF;
}

#define KS_TRACE_CHILD(c, move, kind)                 ks_trace_child(c, move, kind)
#define KS_TRACE_MOVE(c, move)                        ks_trace_move(c, move)
#define KS_TRACE_KIND(c, kind)                        ks_trace_kind(c, kind)
#define KS_TRACE_ROOT(c, algorithm, depth)            ks_trace_root(c, algorithm, depth)
#define KS_TRACE_ENTER(c, depth, window, alpha, beta) ks_trace_enter(c, depth, window, alpha, beta)
#define KS_TRACE_ENTER_CHILD(c, same, depth, lo, hi)                                                                   \
    ks_trace_enter(c, depth, 1, (same) ? (lo) : -(hi), (same) ? (hi) : -(lo))
#define KS_TRACE_PROBED(c, answered)          ks_trace_probed(c, answered)
#define KS_TRACE_EXIT(c, value, flag, cutoff) ks_trace_exit(c, value, flag, cutoff)

#else /* the release build: no trace, the same code as without hooks */

#define KS_TRACE_CHILD(c, move, kind)                 ((void)0)
#define KS_TRACE_MOVE(c, move)                        ((void)0)
#define KS_TRACE_KIND(c, kind)                        ((void)0)
#define KS_TRACE_ROOT(c, algorithm, depth)            1
#define KS_TRACE_ENTER(c, depth, window, alpha, beta) 1
#define KS_TRACE_ENTER_CHILD(c, same, depth, lo, hi)  1
#define KS_TRACE_PROBED(c, answered)                  (answered)
#define KS_TRACE_EXIT(c, value, flag, cutoff)         ((void)0)

#endif

#endif

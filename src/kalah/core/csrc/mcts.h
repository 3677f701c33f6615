/* UCT Monte-Carlo tree search with random playouts (mcts.c). */
#ifndef KALAH_MCTS_H
#define KALAH_MCTS_H

#include "search.h"

typedef struct {
    long playouts;      /* performed */
    long nodes;         /* tree nodes created */
    int n;
    uint8_t moves[KALAH_MAX_MOVES];
    long visits[KALAH_MAX_MOVES];
    double wins[KALAH_MAX_MOVES];    /* wins + draws/2 for the side to move at the root */
    double margin[KALAH_MAX_MOVES];  /* summed final margins for the side to move at the root */
    int best_move;
    int depth;          /* deepest tree node */
} ks_mcts_result;

#ifdef KALAH_TRACE
/* The trace build (mcts_traced.c, the kalah.core.trace extension) records the search's own steps:
 * every tree node as it is created (its parent and move), and for every iteration the node where
 * selection stopped, the node expansion added (-1: none, the selected node ends the game or the
 * tree is full) and the playout's final margin (player 0's view). The path of the selection is the
 * selected node's ancestors, and back-propagation is fixed by the three, so the visit counts and
 * values of every node after every iteration follow from the record exactly. */
typedef struct {
    int32_t *parent;   /* per created node, in creation order (-1 at the root) */
    uint8_t *move;
    int32_t *tree_id;  /* the node's index in the search's node array */
    int64_t nodes, max_nodes;
    int32_t *selected; /* per iteration: creation numbers, as above */
    int32_t *expanded;
    int16_t *margin;
    int64_t iterations, max_iterations;
    int full;          /* a record did not fit: the search stopped there */
} km_trace;
#define KM_TRACE_PARAM , km_trace *trace
#else
#define KM_TRACE_PARAM
#endif

/* Returns 0 on success, -1 when out of memory. max_playouts <= 0: until the deadline. */
int ks_mcts(const kalah_rules *r, const kalah_state *s, long max_playouts, double deadline, double exploration,
            uint64_t seed, long max_nodes, ks_mcts_result *out KM_TRACE_PARAM);

#endif

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

/* Returns 0 on success, -1 when out of memory. max_playouts <= 0: until the deadline. */
int ks_mcts(const kalah_rules *r, const kalah_state *s, long max_playouts, double deadline,
            double exploration, uint64_t seed, long max_nodes, ks_mcts_result *out);

#endif

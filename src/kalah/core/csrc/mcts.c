/* UCT (Kocsis and Szepesvári, 2006): Monte-Carlo tree search whose
 * selection treats each node's moves as bandit arms (UCB1, Auer et al., 2002),
 * with uniformly random playouts (board.h) from the node it adds.
 *
 * The tree lives in one array of max_nodes nodes; a node's children are
 * allocated together (so they are found as first child + k) and created one
 * at a time, in the order of its legal moves. Values are wins (1, a draw 1/2)
 * for the player who made the move into the node.
 */
#include <math.h>
#include <stdlib.h>

#include "clock.h"
#include "mcts.h"

#ifdef KALAH_TRACE
/* The creation number of each tree slot (slots are allocated before their nodes are made). */
#define KM_NUMBER(i) numbers[i]
static int km_trace_node(km_trace *t, int32_t *numbers, long index, long parent, int move)
{
    if (t->nodes >= t->max_nodes) {
        t->full = 1;
        return 0;
    }
    numbers[index] = (int32_t)t->nodes;
    t->parent[t->nodes] = parent < 0 ? -1 : numbers[parent];
    t->move[t->nodes] = (uint8_t)move;
    t->tree_id[t->nodes] = (int32_t)index;
    t->nodes++;
    return 1;
}
static int km_trace_iteration(km_trace *t, const int32_t *numbers, long selected, long expanded, int margin)
{
    if (t->iterations >= t->max_iterations) {
        t->full = 1;
        return 0;
    }
    t->selected[t->iterations] = numbers[selected];
    t->expanded[t->iterations] = expanded < 0 ? -1 : numbers[expanded];
    t->margin[t->iterations] = (int16_t)margin;
    t->iterations++;
    return 1;
}
#endif

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

/* A node of the position already in `q->s`, reached by `move` of `mover` from `parent`; no child yet. */
static inline void ks_mnode_init(const kalah_rules *r, ks_mnode *q, int32_t parent, uint8_t move, uint8_t mover)
{
    q->parent = parent;
    q->child = -1;
    q->n = (uint8_t)kalah_legal_moves(r, &q->s, q->moves);
    q->tried = 0;
    q->move = move;
    q->mover = mover;
    q->visits = 0;
    q->wins = q->margin = 0;
}

/* Selection: from the root down through fully expanded nodes, the child of highest UCB1 each time;
 * returns the node it stops at and its depth in `level`. */
static inline long ks_mcts_select(const ks_mnode *nodes, long count, double exploration, int *level)
{
    long at = 0;
    *level = 0;
    while (nodes[at].n > 0 && nodes[at].tried == nodes[at].n) {
        const ks_mnode *p = &nodes[at];
        double logn = log((double)p->visits), best = -1;
        long pick = p->child;
        KALAH_ASSERT(p->child > at && p->child + p->n <= count);
        for (int k = 0; k < p->n; k++) {
            const ks_mnode *q = &nodes[p->child + k];
            KALAH_ASSERT(q->visits > 0 && q->parent == at); /* a created child has had its playout */
            double u = q->wins / q->visits + exploration * sqrt(logn / q->visits);
            if (u > best) {
                best = u;
                pick = p->child + k;
            }
        }
        at = pick;
        (*level)++;
    }
    (void)count;
    return at;
}

/* Back-propagation: the playout's final margin (player 0's) counted for the mover into every node
 * from `at` up to the root. */
static inline void ks_mcts_backpropagate(ks_mnode *nodes, long at, int margin)
{
    for (long i = at; i >= 0; i = nodes[i].parent) {
        ks_mnode *q = &nodes[i];
        KALAH_ASSERT(q->parent < i); /* parents are created before their children */
        int mine = q->mover ? -margin : margin;
        q->visits++;
        q->wins += mine > 0 ? 1.0 : mine == 0 ? 0.5 : 0.0;
        q->margin += mine;
    }
}

/* The answer: the root's moves with their children's counts, the most visited the best. */
static void ks_mcts_answer(const ks_mnode *nodes, long count, long playouts, int deepest, ks_mcts_result *out)
{
    out->playouts = playouts;
    out->nodes = count;
    out->depth = deepest;
    out->n = nodes[0].n;
    out->best_move = KS_NO_MOVE;
    long best_visits = -1;
    for (int k = 0; k < nodes[0].n; k++) {
        out->moves[k] = nodes[0].moves[k];
        if (nodes[0].child >= 0 && k < nodes[0].tried) {
            const ks_mnode *q = &nodes[nodes[0].child + k];
            out->visits[k] = q->visits;
            out->wins[k] = q->wins;
            out->margin[k] = q->margin;
        }
        if (out->visits[k] > best_visits) {
            best_visits = out->visits[k];
            out->best_move = out->moves[k];
        }
    }
}

int ks_mcts(const kalah_rules *r, const kalah_state *root, long max_playouts, double deadline, double exploration,
            uint64_t seed, long max_nodes, ks_mcts_result *out KM_TRACE_PARAM)
{
    memset(out, 0, sizeof *out);
    if (max_nodes < 16) max_nodes = 16;
    KALAH_ASSERT(max_nodes <= INT32_MAX); /* nodes point at each other with int32 indices */
    ks_mnode *nodes = malloc(sizeof(ks_mnode) * (size_t)max_nodes);
    if (!nodes) return -1;
#ifdef KALAH_TRACE
    int32_t *numbers = malloc(sizeof(int32_t) * (size_t)max_nodes);
    if (!numbers) {
        free(nodes);
        return -1;
    }
    km_trace_node(trace, numbers, 0, -1, KS_NO_MOVE);
#endif
    kalah_rng g = {seed};
    long count = 1, playouts = 0;
    int deepest = 0;
    nodes[0].s = *root;
    ks_mnode_init(r, &nodes[0], -1, KS_NO_MOVE, (uint8_t)(1 - root->to_move));
    while (nodes[0].n > 0) {
        if (max_playouts > 0 && playouts >= max_playouts) break;
        if ((max_playouts <= 0 || deadline > 0) && (playouts & 63) == 0 && deadline > 0 && kalah_now() >= deadline)
            break;
        int level;
        long at = ks_mcts_select(nodes, count, exploration, &level);
        /* expansion: children are allocated together, created one at a time */
#ifdef KALAH_TRACE
        const long selected = at;
        long expanded = -1;
#endif
        ks_mnode *p = &nodes[at];
        if (p->n > 0) {
            if (p->child < 0) {
                if (count + p->n <= max_nodes) {
                    p->child = (int32_t)count;
                    count += p->n;
                }
            }
            KALAH_ASSERT(count <= max_nodes);
            if (p->child >= 0) {
                long ci = p->child + p->tried;
                ks_mnode *q = &nodes[ci];
                q->s = p->s;
                kalah_play(r, &q->s, p->moves[p->tried]);
                ks_mnode_init(r, q, (int32_t)at, p->moves[p->tried], p->s.to_move);
                p->tried++;
#ifdef KALAH_TRACE
                if (!km_trace_node(trace, numbers, ci, (long)at, q->move)) break;
                expanded = ci;
#endif
                at = ci;
                level++;
            }
        }
        if (level > deepest) deepest = level;
        /* simulation */
        kalah_state t = nodes[at].s;
        int margin = kalah_random_playout(r, &t, &g);
#ifdef KALAH_TRACE
        if (!km_trace_iteration(trace, numbers, selected, expanded, margin)) break; /* sized never to happen */
#endif
        playouts++;
        ks_mcts_backpropagate(nodes, at, margin);
    }
    KALAH_ASSERT(nodes[0].n == 0 || nodes[0].visits == (uint32_t)playouts);
    ks_mcts_answer(nodes, count, playouts, deepest, out);
    free(nodes);
#ifdef KALAH_TRACE
    free(numbers);
#endif
    return 0;
}

# cython: language_level=3, boundscheck=False, wraparound=False
"""The search engine compiled with its trace hooks (csrc/search_traced.c, csrc/trace.h).

``kalah.trace`` is the public API; this module runs one search of
csrc/search.c, built with ``KALAH_TRACE``, and returns what ``Engine.search``
returns plus every node the search entered, in visiting order. The release
search (``kalah.core.search``) is built without the hooks.
"""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from kalah.core.board cimport rules_from_variant, state_from_position
from kalah.core.search cimport (
    KS_NO_MOVE, context_answer, ks_context, ks_entry, ks_init, ks_clear, ks_iterate, ks_mcts_result, kalah_now, ks_pv,
    kalah_table_alloc, kalah_table_free,
    kalah_rules,
    kalah_state,
)

cdef extern from "csrc/trace.h" nogil:
    enum:
        KS_TB_WINDOW
        KS_TB_CUTOFF
        KS_TB_HIT

    ctypedef struct ks_trace_node:
        int32_t parent
        int32_t alpha
        int32_t beta
        int32_t value
        int16_t depth
        uint8_t move
        uint8_t kind
        uint8_t flag
        uint8_t bits

    ctypedef struct ks_trace:
        int64_t n
        int full

    void ks_trace_attach(ks_context *c, ks_trace *t, ks_trace_node *nodes, int64_t max)

FLAGS = {0: "exact", 1: "lower", 2: "upper", 3: "unknown"}
#: The node kinds of csrc/trace.h, by their codes.
KINDS = ("root", "search", "pass", "eval", "test", "pv", "probe", "research")


def trace_search(position, int algorithm, int evaluation, int first, int last, bint all_values=True,
                 bint memo=True, bint ordering=True, int table_bits=20, long long max_nodes=20000):
    """Search ``position`` as ``Engine.search`` does (a new table of ``2**table_bits`` entries), recording the nodes.

    Returns the dict of ``Engine.search`` with ``"full"`` (the trace ran out of
    room after ``max_nodes`` nodes: the search was aborted) and ``"trace"``: one
    tuple per node, ``(parent, move, kind, depth, window, alpha, beta, value,
    flag, cutoff, table_hit)`` in the units of ``kalah.core.search``
    (``parent`` -1 at a root, ``move`` ``NO_MOVE`` at a root).
    """
    cdef kalah_rules rules
    cdef kalah_state state
    cdef ks_context ctx
    cdef ks_trace tr
    cdef ks_trace_node *nodes
    cdef ks_trace_node *x
    cdef ks_entry *table = NULL
    cdef uint64_t size
    cdef uint8_t pv[256]
    cdef int iterations, npv, k
    cdef long long i
    cdef double started
    if table_bits < 0 or table_bits > 30:
        raise ValueError(f"table_bits must be between 0 and 30, got {table_bits}")
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")
    rules_from_variant(&rules, position.variant)
    state_from_position(&rules, &state, position)
    size = (<uint64_t>1) << table_bits if table_bits > 0 else 0
    nodes = <ks_trace_node *>malloc(max_nodes * sizeof(ks_trace_node))
    if size:
        table = <ks_entry *>kalah_table_alloc(size * sizeof(ks_entry))
    if nodes == NULL or (size and table == NULL):
        free(nodes)
        kalah_table_free(table, size * sizeof(ks_entry))
        raise MemoryError("no memory for the trace or the transposition table")
    try:
        started = kalah_now()
        ks_init(&ctx, &rules, evaluation, table, size)
        ks_clear(&ctx)
        ctx.settings.use_table = memo and table != NULL
        ctx.settings.ordering = ordering
        ctx.settings.all_values = all_values
        ctx.settings.deadline = 0.0
        ks_trace_attach(&ctx, &tr, nodes, max_nodes)
        with nogil:
            iterations = ks_iterate(&ctx, algorithm, &state, first, last)
        elapsed = kalah_now() - started
        npv = ks_pv(&ctx, &state, ctx.root.depth, pv, 256) if iterations else 0
        trace = []
        for i in range(tr.n):
            x = &nodes[i]
            trace.append((x.parent, x.move, KINDS[x.kind], x.depth, bool(x.bits & KS_TB_WINDOW), x.alpha, x.beta,
                          x.value, FLAGS[x.flag], bool(x.bits & KS_TB_CUTOFF), bool(x.bits & KS_TB_HIT)))
        answer = context_answer(&ctx, iterations, elapsed, [pv[k] for k in range(npv)])
        answer.update({
            "full": bool(tr.full),
            "trace": trace,
        })
        return answer
    finally:
        free(nodes)
        kalah_table_free(table, size * sizeof(ks_entry))


cdef extern from "csrc/mcts.h" nogil:
    ctypedef struct km_trace:
        int32_t *parent
        uint8_t *move
        int32_t *tree_id
        int64_t nodes, max_nodes
        int32_t *selected
        int32_t *expanded
        int16_t *margin
        int64_t iterations, max_iterations
        int full

    int ks_mcts_traced "ks_mcts"(const kalah_rules *r, const kalah_state *s, long max_playouts, double deadline,
                                 double exploration, uint64_t seed, long max_nodes, ks_mcts_result *out,
                                 km_trace *trace)


def trace_mcts(position, long playouts, double exploration=1.4142135623730951, unsigned long long seed=0):
    """Run UCT from ``position`` for ``playouts`` iterations as ``kalah.core.search.mcts`` does, recording its steps.

    Returns the dict of ``mcts`` (root moves with visits, wins, margins) with
    ``"tree"``: ``(parent, move)`` of every node in creation order (node 0 the
    root, parent -1), and ``"iterations"``: ``(selected, expanded, margin)``
    per iteration (node numbers as in ``tree``; ``expanded`` -1 when none;
    the playout's final margin for player 0).
    """
    cdef kalah_rules rules
    cdef kalah_state state
    cdef ks_mcts_result out
    cdef km_trace tr
    cdef int status, k
    cdef long long i
    cdef double started
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, got {playouts}")
    rules_from_variant(&rules, position.variant)
    state_from_position(&rules, &state, position)
    tr.max_nodes = playouts + 1  # the root, and at most one node per iteration: the record never fills
    tr.max_iterations = playouts
    tr.nodes = tr.iterations = 0
    tr.full = 0
    tr.parent = <int32_t *>malloc(tr.max_nodes * sizeof(int32_t))
    tr.move = <uint8_t *>malloc(tr.max_nodes)
    tr.tree_id = <int32_t *>malloc(tr.max_nodes * sizeof(int32_t))
    tr.selected = <int32_t *>malloc(playouts * sizeof(int32_t))
    tr.expanded = <int32_t *>malloc(playouts * sizeof(int32_t))
    tr.margin = <int16_t *>malloc(playouts * sizeof(int16_t))
    try:
        if not (tr.parent and tr.move and tr.tree_id and tr.selected and tr.expanded and tr.margin):
            raise MemoryError("no memory for the trace")
        started = kalah_now()
        with nogil:
            status = ks_mcts_traced(&rules, &state, playouts, 0.0, exploration, seed, 2000000, &out, &tr)
        if status != 0:
            raise MemoryError("no memory for the search tree")
        return {
            "best_move": out.best_move if out.best_move != KS_NO_MOVE else None,
            "moves": [(out.moves[k], out.visits[k], out.wins[k], out.margin[k]) for k in range(out.n)],
            "playouts": out.playouts,
            "nodes": out.nodes,
            "depth": out.depth,
            "seconds": kalah_now() - started,
            "full": bool(tr.full),
            "tree": [(tr.parent[i], tr.move[i]) for i in range(tr.nodes)],
            "iterations": [(tr.selected[i], tr.expanded[i], tr.margin[i]) for i in range(tr.iterations)],
        }
    finally:
        free(tr.parent)
        free(tr.move)
        free(tr.tree_id)
        free(tr.selected)
        free(tr.expanded)
        free(tr.margin)

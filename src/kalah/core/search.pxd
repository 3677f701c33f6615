# Declarations of csrc/search.h, csrc/mcts.h and csrc/memory.h, and the compiled engine class (cimport kalah.core.search).
from libc.stdint cimport uint8_t, int8_t, int32_t, uint64_t

from kalah.core.board cimport KALAH_MAX_MOVES, kalah_rules, kalah_state, kalah_oracle

cdef extern from "csrc/memory.h" nogil:
    void *kalah_table_alloc(size_t bytes)
    void kalah_table_free(void *table, size_t bytes)

cdef extern from "csrc/clock.h" nogil:
    double kalah_now()

cdef extern from "csrc/search.h" nogil:
    enum:
        KS_MAX_THREADS
        KALAH_UNIT
        KS_INF
        KS_MAX_DEPTH
        KS_NO_MOVE
        KS_EXACT
        KS_LOWER
        KS_UPPER
        KS_UNKNOWN

    ctypedef struct ks_entry:
        uint64_t key
        int32_t value
        int8_t depth
        uint8_t flag
        uint8_t move
        uint8_t proven

    ctypedef struct ks_stats:
        uint64_t nodes
        uint64_t leaves
        uint64_t tt_probes
        uint64_t tt_hits
        uint64_t cutoffs
        uint64_t researches
        uint64_t oracle_probes
        uint64_t heuristic
        uint64_t busiest_nodes

    ctypedef struct ks_settings:
        kalah_rules rules
        int eval
        const kalah_oracle *oracle
        int use_table
        int deeper_entries
        int ordering
        int all_values
        int aspiration
        double deadline
        double soft_deadline

    ctypedef struct ks_shared:
        ks_entry *table
        uint64_t mask
        uint64_t generation
        uint64_t salt
        const int *stop

    ctypedef struct ks_root_result:
        int n
        uint8_t moves[KALAH_MAX_MOVES]
        int values[KALAH_MAX_MOVES]
        uint8_t flags[KALAH_MAX_MOVES]
        int best_move
        int value
        int depth
        int exact

    ctypedef struct ks_context:
        ks_settings settings
        ks_shared shared
        ks_stats stats
        int aborted
        ks_root_result root

    void ks_init(ks_context *c, const kalah_rules *r, int eval, ks_entry *table, uint64_t table_size)
    void ks_clear(ks_context *c)
    int ks_root(ks_context *c, int algorithm, const kalah_state *s, int depth)
    int ks_iterate(ks_context *c, int algorithm, const kalah_state *s, int first, int last)
    int ks_iterate_threads(ks_context *c, int algorithm, const kalah_state *s, int first, int last, int threads)
    int ks_pv(ks_context *c, const kalah_state *s, int depth, uint8_t *pv, int max)
    int ks_reference_alphabeta(const kalah_rules *r, const kalah_state *s, int depth, uint64_t *nodes)
    void ks_request_stop(int *flag)
    void ks_clear_stop(int *flag)

cdef extern from "csrc/mcts.h" nogil:
    ctypedef struct ks_mcts_result:
        long playouts
        long nodes
        int n
        uint8_t moves[KALAH_MAX_MOVES]
        long visits[KALAH_MAX_MOVES]
        double wins[KALAH_MAX_MOVES]
        double margin[KALAH_MAX_MOVES]
        int best_move
        int depth

    int ks_mcts(const kalah_rules *r, const kalah_state *s, long max_playouts, double deadline,
                double exploration, uint64_t seed, long max_nodes, ks_mcts_result *out)


# What a search left in its context, as a dict (shared by Engine.search and kalah.core.trace).
cdef dict context_answer(ks_context *c, int iterations, double elapsed, list pv)


cdef class Engine:
    cdef ks_context ctx
    cdef ks_entry *table
    cdef uint64_t size
    cdef uint64_t generation
    cdef const kalah_oracle *oracle
    cdef object oracle_owner
    cdef int stop_flag
    cdef void set_oracle_pointer(self, const kalah_oracle *oracle, object owner)

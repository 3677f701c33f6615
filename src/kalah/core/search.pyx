# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled search engine (csrc/search.c) with a small Python face.

``kalah.search`` is the public API; this module only moves positions in and
numbers out. Values are in the internal units of csrc/evaluate.h
(``UNIT`` per seed), from the point of view of the side to move; move codes
are pit indices and ``KALAH_SWAP`` (255) for the swap.

An endgame oracle (csrc/board.h ``kalah_oracle``) is attached either from
Cython with ``Engine.set_oracle_pointer`` or from Python with
``Engine.set_oracle(capsule)``, a PyCapsule named ``"kalah.oracle"`` whose
pointer is a ``kalah_oracle``; the engine keeps a reference to the owner so
that the oracle outlives the searches that use it.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.string cimport memset

from kalah.core.board cimport rules_from_variant, state_from_position, KALAH_MAX_MOVES, kalah_legal_moves

UNIT = KALAH_UNIT
INF = KS_INF
MAX_DEPTH = KS_MAX_DEPTH
#: Threads of one search at most (csrc/search.h).
MAX_THREADS = KS_MAX_THREADS
NO_MOVE = KS_NO_MOVE
ALGORITHMS = {"minimax": 0, "alphabeta": 1, "scout": 2, "pvs": 3, "mtdf": 4}
EVALUATIONS = {"store": 0, "seed": 1, "strong": 2}
FLAGS = {KS_EXACT: "exact", KS_LOWER: "lower", KS_UPPER: "upper", KS_UNKNOWN: "unknown"}


cdef class Engine:
    """A search context with its own transposition table (``2**table_bits`` entries of 16 bytes)."""

    def __cinit__(self, int table_bits=20):
        if table_bits < 0 or table_bits > 30:
            raise ValueError(f"table_bits must be between 0 and 30, got {table_bits}")
        self.size = (<uint64_t>1) << table_bits if table_bits > 0 else 0
        self.table = NULL
        if self.size:
            self.table = <ks_entry *>kalah_table_alloc(self.size * sizeof(ks_entry))
            if self.table == NULL:
                raise MemoryError("no memory for the transposition table")
        self.oracle = NULL
        self.oracle_owner = None
        self.generation = 0

    def __dealloc__(self):
        kalah_table_free(self.table, self.size * sizeof(ks_entry))

    cdef void set_oracle_pointer(self, const kalah_oracle *oracle, object owner):
        self.oracle = oracle
        self.oracle_owner = owner

    def set_oracle(self, capsule):
        """Attach an oracle (a PyCapsule named "kalah.oracle"), or detach it with None."""
        if capsule is None:
            self.set_oracle_pointer(NULL, None)
            return
        if not PyCapsule_IsValid(capsule, b"kalah.oracle"):
            raise TypeError("an oracle must be a PyCapsule named 'kalah.oracle'")
        self.set_oracle_pointer(<const kalah_oracle *>PyCapsule_GetPointer(capsule, b"kalah.oracle"), capsule)

    def warm(self):
        """Have every page of the table in memory now. A fresh table's pages are given (and zeroed) by the
        kernel at their first touch, a 2 MiB huge page taking 0.1 to 0.5 ms: the first small searches on a
        new engine then take many times their time, which a comparison of timings must not count. Call it
        only while nothing searches on this engine (each touched byte is written back as it was)."""
        cdef size_t total = self.size * sizeof(ks_entry)
        cdef size_t offset = 0
        cdef volatile char *base = <volatile char *>self.table
        with nogil:
            while offset < total:
                base[offset] = base[offset]
                offset += 4096

    def stop(self):
        """Ask the search running on this engine (in another thread) to stop: it returns soon, with the
        last completed iteration's answer. Safe to call from any thread, also when nothing is searching."""
        ks_request_stop(&self.stop_flag)

    def search(self, position, int algorithm, int evaluation, int first, int last, double seconds=0.0,
               bint all_values=False, bint memo=True, bint ordering=True, bint clear=True, int threads=1,
               double soft_seconds=0.0, bint deeper_entries=False):
        """Search ``position`` by progressive deepening from depth ``first`` to ``last``.

        ``seconds`` > 0 sets a deadline; the answer is then the last completed
        iteration. ``threads`` > 1 searches on that many threads sharing the
        table (lazy SMP, csrc/smp.c; the node counts are those of all threads).
        ``soft_seconds`` > 0 lets the search stop before the deadline once its
        best move has settled (csrc/search.h, ks_iterate).
        Returns a dict of plain numbers (see kalah.search).
        """
        cdef kalah_rules rules
        cdef kalah_state state
        cdef ks_context *c = &self.ctx
        cdef uint8_t pv[256]
        cdef int iterations, npv, k
        cdef double started
        started = kalah_now()
        rules_from_variant(&rules, position.variant)
        state_from_position(&rules, &state, position)
        if clear or c.settings.rules.pits != rules.pits or c.settings.eval != evaluation:
            generation = self.generation
            ks_init(c, &rules, evaluation, self.table, self.size)
            c.shared.generation = generation
            ks_clear(c)
            self.generation = c.shared.generation
        else:
            memset(&c.stats, 0, sizeof(c.stats))
        c.settings.rules = rules
        c.settings.eval = evaluation
        c.settings.oracle = self.oracle
        c.settings.use_table = memo and self.table != NULL
        c.settings.ordering = ordering
        c.settings.deeper_entries = deeper_entries
        c.settings.all_values = all_values
        ks_clear_stop(&self.stop_flag)
        c.shared.stop = &self.stop_flag
        c.settings.deadline = started + seconds if seconds > 0 else 0.0
        c.settings.soft_deadline = started + soft_seconds if soft_seconds > 0 else 0.0
        with nogil:
            iterations = ks_iterate_threads(c, algorithm, &state, first, last, threads)
        elapsed = kalah_now() - started
        npv = ks_pv(c, &state, c.root.depth, pv, 256) if iterations else 0
        answer = context_answer(c, iterations, elapsed, [pv[k] for k in range(npv)])
        answer["threads"] = threads if c.shared.table != NULL else 1
        # The most nodes one thread searched: on free cores, the wall-clock time of the search
        # (benchmarks/bench_threads.py compares it with one thread's nodes, which no load disturbs).
        answer["busiest_thread_nodes"] = c.stats.busiest_nodes
        return answer


cdef dict context_answer(ks_context *c, int iterations, double elapsed, list pv):
    """What a search left in its context, as plain numbers: the answer of ``Engine.search`` and of the
    traced search (kalah.core.trace). ``pv`` is the principal variation, read from the table by the caller."""
    cdef int k
    return {
        "completed": iterations,
        "value": c.root.value if iterations else None,
        "best_move": c.root.best_move if iterations and c.root.best_move != KS_NO_MOVE else None,
        "moves": [(c.root.moves[k], c.root.values[k], FLAGS[c.root.flags[k]]) for k in range(c.root.n)] if iterations else [],
        "pv": pv,
        "depth": c.root.depth if iterations else 0,
        "exact": bool(c.root.exact) if iterations else False,
        "aborted": bool(c.aborted),
        "seconds": elapsed,
        "nodes": c.stats.nodes,
        "leaves": c.stats.leaves,
        "tt_probes": c.stats.tt_probes,
        "tt_hits": c.stats.tt_hits,
        "cutoffs": c.stats.cutoffs,
        "researches": c.stats.researches,
        "oracle_probes": c.stats.oracle_probes,
    }


def mcts(position, long playouts=0, double seconds=0.0, double exploration=1.4142135623730951,
         unsigned long long seed=0, long max_nodes=2000000):
    """UCT from ``position``: ``playouts`` random games (or as many as ``seconds`` allow)."""
    cdef kalah_rules rules
    cdef kalah_state state
    cdef ks_mcts_result out
    cdef int status, k
    cdef double started, deadline
    rules_from_variant(&rules, position.variant)
    state_from_position(&rules, &state, position)
    started = kalah_now()
    deadline = started + seconds if seconds > 0 else 0.0
    if playouts <= 0 and deadline == 0.0:
        playouts = 10000
    with nogil:
        status = ks_mcts(&rules, &state, playouts, deadline, exploration, seed, max_nodes, &out)
    if status != 0:
        raise MemoryError("no memory for the search tree")
    return {
        "best_move": out.best_move if out.best_move != KS_NO_MOVE else None,
        "moves": [(out.moves[k], out.visits[k], out.wins[k], out.margin[k]) for k in range(out.n)],
        "playouts": out.playouts,
        "nodes": out.nodes,
        "depth": out.depth,
        "seconds": kalah_now() - started,
    }


def reference_alphabeta(position, int depth):
    """The plainest compiled alpha-beta (a benchmark yardstick): (value, nodes, seconds)."""
    cdef kalah_rules rules
    cdef kalah_state state
    cdef uint64_t nodes = 0
    cdef int value
    cdef double started
    rules_from_variant(&rules, position.variant)
    state_from_position(&rules, &state, position)
    started = kalah_now()
    with nogil:
        value = ks_reference_alphabeta(&rules, &state, depth, &nodes)
    return value, nodes, kalah_now() - started

# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled face of the endgame databases (csrc/endgame.c) and the exact
solver (csrc/solve.c). ``kalah.endgame`` and ``kalah.solve`` are the Python
faces; this module only moves bytes and pointers.

Other compiled modules get an oracle for their search through
``EndgameTable.oracle_address()``: the address of a ``kalah_oracle`` (see
csrc/board.h) that stays valid while the table object is alive, to be cast
with ``<const kalah_oracle *><uintptr_t>address``.
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t, uintptr_t
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetContext, PyCapsule_SetContext
from cpython.ref cimport Py_INCREF, Py_DECREF, PyObject
from libc.string cimport memset

from collections import namedtuple

from kalah.core.board cimport kalah_rules, kalah_state, kalah_oracle

cdef extern from "csrc/endgame.h" nogil:
    enum:
        KALAH_EGDB_MAX_SEEDS

    ctypedef struct kalah_egdb:
        int pits
        int empty_capture
        int max_seeds
        int places
        uint8_t *packed
        int building
        uint64_t layer_offset[KALAH_EGDB_MAX_SEEDS + 2]
        uint64_t layer_byte[KALAH_EGDB_MAX_SEEDS + 2]

    ctypedef struct kalah_egdb_ref:
        pass

    int kalah_egdb_init(kalah_egdb *db, int pits, int empty_capture, int max_seeds)
    uint64_t kalah_egdb_size(const kalah_egdb *db)
    uint64_t kalah_egdb_bytes(const kalah_egdb *db)
    uint64_t kalah_egdb_layer_size(const kalah_egdb *db, int seeds)
    int kalah_egdb_begin_layer(kalah_egdb *db, int seeds)
    int kalah_egdb_build_range(kalah_egdb *db, int seeds, uint64_t lo, uint64_t hi, int threads, volatile int *stop)
    int kalah_egdb_end_layer(kalah_egdb *db, int seeds)
    kalah_egdb_ref kalah_egdb_ref_of(const kalah_egdb *db, int seeds, uint64_t rank)
    int kalah_egdb_read(const kalah_egdb *db, kalah_egdb_ref ref)
    uint64_t kalah_egdb_index(const kalah_egdb *db, const uint8_t *pits, int seeds)
    int kalah_egdb_probe(const void *db, const kalah_rules *r, const kalah_state *s, int *value)
    uint64_t kalah_checksum64(const uint8_t *data, uint64_t size, uint64_t seed)
    int kalah_pits_play_bytes(int pits, int empty_capture, const uint8_t *inp, int move, uint8_t *out, int *extra, int *left)

cdef extern from "csrc/solve.h" nogil:
    ctypedef struct kalah_solver:
        pass
    kalah_solver *kalah_solver_new(int pits, int empty_capture, int tt_log2)
    void kalah_solver_free(kalah_solver *solver)
    void kalah_solver_set_oracle(kalah_solver *solver, const kalah_oracle *oracle)
    void kalah_solver_clear(kalah_solver *solver)
    int kalah_solver_search(kalah_solver *solver, const uint8_t *pits, int alpha, int beta, int threads,
                            double deadline, volatile int *stop, int *aborted, uint64_t *nodes)
    void kalah_solver_request_stop(volatile int *stop)
    int kalah_solver_lookup(kalah_solver *solver, const uint8_t *pits, int *lower, int *upper, int *best)
    int KALAH_SOLVER_ENTRY_BYTES
    int KALAH_MAX_THREADS

cdef extern from "csrc/clock.h" nogil:
    double kalah_now()


MAX_SEEDS = KALAH_EGDB_MAX_SEEDS
TableEntry = namedtuple("TableEntry", ["lower", "upper", "move"])
TableEntry.__doc__ = """What a Solver's table holds on a position: bounds on its pits value (``lower``, ``upper``)
and ``move``, the move that proved the lower bound (or the first searched), or None."""
#: Threads of one solver search at most (csrc/solve.h).
MAX_THREADS = KALAH_MAX_THREADS
#: Bytes of one entry of a Solver's table: 2^tt_log2 entries take this times 2^tt_log2 bytes.
TABLE_ENTRY_BYTES = KALAH_SOLVER_ENTRY_BYTES


def now():
    """Seconds on the solver's monotonic clock (deadlines are given on it)."""
    return kalah_now()


def checksum(buffer, Py_ssize_t offset=0, Py_ssize_t size=-1, unsigned long long seed=0):
    """A fast 64-bit checksum of ``buffer[offset:offset + size]`` (the GIL is released)."""
    cdef const uint8_t[::1] view = buffer
    if size < 0:
        size = view.shape[0] - offset
    if offset < 0 or offset + size > view.shape[0]:
        raise ValueError("checksum range outside the buffer")
    if size == 0:
        return kalah_checksum64(NULL, 0, seed)
    cdef const uint8_t *p = &view[offset]
    cdef uint64_t result
    with nogil:
        result = kalah_checksum64(p, size, seed)
    return result


def pits_play(pits, int move, bint empty_capture=False):
    """The pits-only move generator of the database and the solver, for tests.

    ``pits``: the mover's m pits then the opponent's m (not a finished game),
    ``move`` a non-empty pit of the mover. Returns ``(successor, gain, extra,
    left)``: the successor's pits from its mover's view, the seeds the move
    puts into the mover's store minus the opponent's (the final sweep included),
    whether the mover moves again (or the game ended) and the seeds left.
    """
    cdef uint8_t buf[16]
    cdef uint8_t out[16]
    cdef int m = len(pits) // 2, i, extra = 0, left = 0, gain
    if len(pits) != 2 * m or not 1 <= m <= 8:
        raise ValueError("expected 2m pits, m from 1 to 8")
    memset(buf, 0, 16)
    memset(out, 0, 16)
    for i in range(2 * m):
        buf[i] = pits[i]
    if not 0 <= move < m or buf[move] == 0:
        raise ValueError("the move must be a non-empty pit of the mover")
    gain = kalah_pits_play_bytes(m, empty_capture, buf, move, out, &extra, &left)
    return [out[i] for i in range(2 * m)], gain, bool(extra), left


def table_size(int pits, int max_seeds):
    """Positions of a table of layers 0..max_seeds for ``pits`` pits per side."""
    cdef kalah_egdb db
    if kalah_egdb_init(&db, pits, 0, max_seeds) != 0:
        raise ValueError(f"no endgame table for {pits} pits and {max_seeds} seeds")
    return kalah_egdb_size(&db)


def table_bytes(int pits, int max_seeds):
    """Bytes of the packed values of a table of layers 0..max_seeds for ``pits`` pits per side."""
    cdef kalah_egdb db
    if kalah_egdb_init(&db, pits, 0, max_seeds) != 0:
        raise ValueError(f"no endgame table for {pits} pits and {max_seeds} seeds")
    return kalah_egdb_bytes(&db)


cdef void _release_capsule(object capsule) noexcept:
    cdef void *owner = PyCapsule_GetContext(capsule)
    if owner != NULL:
        Py_DECREF(<object>owner)


cdef class EndgameTable:
    """The packed values of an endgame database over a buffer (an mmap, writable while building)."""

    cdef kalah_egdb db
    cdef kalah_oracle oracle
    cdef object buffer
    cdef const uint8_t[::1] view
    cdef readonly Py_ssize_t offset
    cdef volatile int stop

    def __init__(self, int pits, bint empty_capture, int max_seeds, buffer, Py_ssize_t offset=0):
        if kalah_egdb_init(&self.db, pits, empty_capture, max_seeds) != 0:
            raise ValueError(f"no endgame table for {pits} pits and {max_seeds} seeds")
        self.view = buffer
        if self.view.shape[0] < offset + <Py_ssize_t>kalah_egdb_bytes(&self.db):
            raise ValueError("the buffer is too small for the table")
        self.buffer = buffer
        self.offset = offset
        self.db.packed = <uint8_t *>&self.view[offset]
        self.oracle.db = &self.db
        self.oracle.max_seeds = max_seeds
        self.oracle.probe = kalah_egdb_probe
        self.stop = 0

    @property
    def pits(self):
        return self.db.pits

    @property
    def empty_capture(self):
        return bool(self.db.empty_capture)

    @property
    def max_seeds(self):
        return self.db.max_seeds

    @property
    def size(self):
        """Positions of layers 0..K."""
        return kalah_egdb_size(&self.db)

    @property
    def nbytes(self):
        """Bytes of the packed payload."""
        return kalah_egdb_bytes(&self.db)

    def layer_size(self, int seeds):
        """Positions of layer ``seeds``."""
        return kalah_egdb_layer_size(&self.db, seeds)

    def layer_offset(self, int seeds):
        """Positions of the layers below ``seeds``."""
        if not 0 <= seeds <= self.db.max_seeds + 1:
            raise ValueError("no such layer")
        return self.db.layer_offset[seeds]

    def layer_byte_offset(self, int seeds):
        """Where layer ``seeds`` starts in the payload (layer K + 1: where the padding starts)."""
        if not 0 <= seeds <= self.db.max_seeds + 1:
            raise ValueError("no such layer")
        return self.db.layer_byte[seeds]

    def begin_layer(self, int seeds):
        """Start building layer ``seeds`` (every layer below complete): its values are zeroed, then filled in place."""
        if not 0 <= seeds <= self.db.max_seeds:
            raise ValueError("no such layer")
        if kalah_egdb_begin_layer(&self.db, seeds) != 0:
            raise MemoryError(f"cannot plan the build of layer {seeds}")

    def build_range(self, int seeds, uint64_t lo, uint64_t hi, int threads=2):
        """Compute entries [lo, hi) of the layer begun (in build order). Returns False if stopped."""
        if not 0 <= seeds <= self.db.max_seeds or hi > kalah_egdb_layer_size(&self.db, seeds) or lo > hi:
            raise ValueError("bad layer range")
        cdef int rc
        with nogil:
            rc = kalah_egdb_build_range(&self.db, seeds, lo, hi, threads, &self.stop)
        if rc == -1 and not self.stop:
            raise ValueError(f"layer {seeds} was not begun")
        return rc == 0

    def end_layer(self):
        """Forget the build order of the layer begun (complete, or abandoned after an interruption)."""
        kalah_egdb_end_layer(&self.db, self.db.building)

    def request_stop(self):
        self.stop = 1

    def value(self, pits):
        """The value of a position given as its pits from the mover's view."""
        cdef uint8_t buf[16]
        cdef int seeds = 0, i
        if len(pits) != self.db.places:
            raise ValueError(f"expected {self.db.places} pits")
        for i in range(self.db.places):
            buf[i] = pits[i]
            seeds += buf[i]
        if seeds > self.db.max_seeds:
            return None
        return kalah_egdb_read(&self.db, kalah_egdb_ref_of(&self.db, seeds, kalah_egdb_index(&self.db, buf, seeds)))

    def layer_values(self, int seeds):
        """Every value of a complete layer in stored (colex) order, one signed byte each."""
        if not 0 <= seeds <= self.db.max_seeds:
            raise ValueError("no such layer")
        cdef uint64_t size = kalah_egdb_layer_size(&self.db, seeds), r
        out = bytearray(size)
        cdef unsigned char[::1] o = out
        with nogil:
            for r in range(size):
                o[r] = <unsigned char><int8_t>kalah_egdb_read(&self.db, kalah_egdb_ref_of(&self.db, seeds, r))
        return bytes(out)

    def oracle_address(self):
        """The address of this table's ``kalah_oracle`` (valid while this object lives)."""
        return <uintptr_t>&self.oracle

    def oracle_capsule(self):
        """A PyCapsule named "kalah.oracle" holding this table's ``kalah_oracle``
        (what ``kalah.search(..., oracle=...)`` takes); it keeps the table alive."""
        capsule = PyCapsule_New(&self.oracle, b"kalah.oracle", _release_capsule)
        Py_INCREF(self)
        PyCapsule_SetContext(capsule, <void *>self)
        return capsule

    cdef const kalah_oracle *get_oracle(self):
        return &self.oracle


cdef class StopFlag:
    """Ends the one search it is given to when requested, from any thread (searches side by side each have their own)."""

    cdef volatile int flag

    def request(self):
        kalah_solver_request_stop(&self.flag)

    @property
    def requested(self):
        return bool(self.flag)


cdef class Solver:
    """A compiled solver for one pit count and capture rule, with its table."""

    cdef kalah_solver *ptr
    cdef object table
    cdef readonly int pits
    cdef readonly bint empty_capture
    cdef readonly int tt_log2
    cdef volatile int stop

    def __cinit__(self, int pits, bint empty_capture, int tt_log2=24):
        self.ptr = kalah_solver_new(pits, empty_capture, tt_log2)
        if self.ptr == NULL:
            raise MemoryError(f"cannot allocate a solver table of 2^{tt_log2} entries")
        self.pits = pits
        self.empty_capture = empty_capture
        self.tt_log2 = tt_log2
        self.table = None

    def __dealloc__(self):
        if self.ptr != NULL:
            kalah_solver_free(self.ptr)

    @property
    def endgame(self):
        return self.table

    def set_endgame(self, EndgameTable table):
        """Probe ``table`` from now on (None: no database)."""
        if table is not None and (table.db.pits != self.pits or bool(table.db.empty_capture) != self.empty_capture):
            raise ValueError("the endgame table is for another variant")
        self.table = table
        kalah_solver_set_oracle(self.ptr, table.get_oracle() if table is not None else NULL)

    def clear(self):
        kalah_solver_clear(self.ptr)

    def request_stop(self):
        kalah_solver_request_stop(&self.stop)

    def search(self, pits, int alpha, int beta, int threads=1, double deadline=0.0, StopFlag stop=None):
        """Fail-soft alpha-beta over ``pits`` (mover's view). Returns (value, aborted, nodes).

        ``stop`` ends this search when requested; without it, :meth:`request_stop` does.
        Searches may run at once from several threads, sharing the table; each then needs
        its own ``stop`` (those without one share the solver's flag, which each clears as it starts).
        """
        cdef uint8_t buf[16]
        cdef int i, value, aborted = 0
        cdef uint64_t nodes = 0
        cdef volatile int *flag
        if len(pits) != 2 * self.pits:
            raise ValueError(f"expected {2 * self.pits} pits")
        memset(buf, 0, 16)
        for i in range(2 * self.pits):
            buf[i] = pits[i]
        if stop is None:
            self.stop = 0
            flag = &self.stop
        else:
            flag = &stop.flag
        with nogil:
            value = kalah_solver_search(self.ptr, buf, alpha, beta, threads, deadline, flag, &aborted, &nodes)
        return value, bool(aborted), nodes

    def lookup(self, pits):
        """The :class:`TableEntry` that the table holds for ``pits``, or None."""
        cdef uint8_t buf[16]
        cdef int i, lower, upper, best
        memset(buf, 0, 16)
        for i in range(2 * self.pits):
            buf[i] = pits[i]
        if kalah_solver_lookup(self.ptr, buf, &lower, &upper, &best):
            return TableEntry(lower, upper, None if best < 0 else best)
        return None

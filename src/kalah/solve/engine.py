"""The compiled solvers a process keeps, one per pit count and capture rule, and the sizes of their tables."""

from __future__ import annotations

import threading

from kalah.core import solver as core
from kalah.endgame import EndgameDatabase

__all__ = [
    "DEFAULT_TT_LOG2",
    "TABLE_ENTRIES_PER_SECOND",
    "Engine",
    "clear_engines",
    "default_tt_log2",
    "engine_for",
    "size_tt_log2",
]

#: 2^26 entries of 8 bytes (core.TABLE_ENTRY_BYTES), 512 MiB, from 45 seeds up, however large the proof:
#: Kalah(6,5)'s value took 9% more nodes than with 4 GiB (2^29) but a quarter less time, as the table and
#: a K=28 database (3.3 GiB) then fit in the reach of the processor's TLB on huge pages; in five minutes
#: of Kalah(6,6) with K=30 it searched 1.6 times the nodes a second of an 8 GiB table (2^30) and answered
#: the same tests in two thirds of the time (docs/solve.md).
DEFAULT_TT_LOG2 = 26
TABLE_ENTRIES_PER_SECOND = 4_000_000  # about what a solve fills: a time budget's table is no larger


class Engine:
    """A compiled solver (its table kept between solves), the database it probes, and the lock of its users."""

    def __init__(self, pits: int, empty_capture: bool, tt_log2: int):
        self.core = core
        self.pits = pits
        self.empty_capture = empty_capture
        self.solver = core.Solver(pits, empty_capture, tt_log2)
        self.database: EndgameDatabase | None = None
        self.lock = threading.Lock()

    def attach(self, database: EndgameDatabase | None) -> None:
        """Probe ``database`` from now on (None: no database)."""
        if database is not self.database:
            self.database = database
            self.solver.set_endgame(database.table if database is not None else None)


_ENGINES: dict[tuple[int, bool], Engine] = {}


def clear_engines() -> None:
    """Free the solvers' tables."""
    _ENGINES.clear()


def default_tt_log2(seeds_on_board: int, time: float | None = None) -> int:
    """The table size (log2 of entries) for a solve of this many seeds: small problems get small tables.

    Under a time budget the table is no larger than the search can fill (a
    few million entries a second): a big table costs its page faults.
    """
    log2 = size_tt_log2(seeds_on_board)
    if time is not None:
        while log2 > 20 and 1 << (log2 - 1) >= time * TABLE_ENTRIES_PER_SECOND:
            log2 -= 1
    return log2


def size_tt_log2(seeds_on_board: int) -> int:
    """The table size (log2 of entries) for a solve of this many seeds without a time budget."""
    if seeds_on_board <= 24:
        return 19
    if seeds_on_board <= 36:
        return 23
    if seeds_on_board <= 44:
        return 25
    return DEFAULT_TT_LOG2


def engine_for(
    pits: int, empty_capture: bool, tt_log2: int | None, seeds_on_board: int = 48, time: float | None = None
) -> Engine:
    """The process's engine of this variant, made again when its table is smaller than the solve wants
    (or not the size ``tt_log2`` asks for)."""
    key = (pits, empty_capture)
    engine = _ENGINES.get(key)
    wanted = tt_log2 or default_tt_log2(seeds_on_board, time)
    if engine is None or engine.solver.tt_log2 < wanted or (tt_log2 is not None and engine.solver.tt_log2 != wanted):
        _ENGINES.pop(key, None)
        engine = _ENGINES[key] = Engine(pits, empty_capture, wanted)
    return engine

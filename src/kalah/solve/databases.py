"""The endgame database a solve probes: chosen from ``solve(..., endgame=...)``, computed in memory, or built
into a file once for long solves (:func:`prepare_endgame`)."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Union

from kalah import endgame as eg
from kalah.core import solver as core
from kalah.endgame import EndgameDatabase
from kalah.rules import Position, Variant

from .engine import size_tt_log2
from .result import SolveError

__all__ = [
    "AUTO_TABLE_POSITIONS",
    "BUILD_PLAN",
    "EndgameChoice",
    "auto_max_seeds",
    "chosen_database",
    "clear_databases",
    "memory_database",
    "planned_max_seeds",
    "prepare_endgame",
    "probed_database",
    "second_max_seeds",
    "TableStopped",
]

#: Positions of the endgame table that ``endgame="auto"`` computes in memory when none is on disk.
AUTO_TABLE_POSITIONS = 100_000_000
#: Positions of an in-memory table allowed per second of a time budget: a quarter of the budget at a
#: conservative 4 million positions a second.
TABLE_POSITIONS_PER_BUDGET_SECOND = 1_000_000

#: What ``solve(..., endgame=...)`` takes: ``"auto"`` (or True) finds or builds a database, None (or False)
#: uses none, a path loads that file, an EndgameDatabase is used as it is.
EndgameChoice = Union[Literal["auto"], bool, None, str, "os.PathLike[str]", EndgameDatabase]

_MEMORY_DATABASES: dict[tuple[int, bool], EndgameDatabase] = {}
_RESIDENT_DATABASES: dict[tuple[Any, ...], EndgameDatabase] = {}
#: Solves with at least this many seeds more than a database file's K probe a private
#: copy of it on huge pages (see EndgameDatabase.in_memory): long solves, where it pays.
RESIDENT_MARGIN = 20


def clear_databases() -> None:
    """Forget the databases computed in memory and the private copies of files."""
    _MEMORY_DATABASES.clear()
    _RESIDENT_DATABASES.clear()


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def auto_max_seeds(pits: int, seeds_on_board: int, time: float | None = None) -> int | None:
    """K of the in-memory table that ``endgame="auto"`` computes, or None when none pays off.

    Under a time budget the table may take at most a quarter of it (at a
    conservative 4 million positions a second).
    """
    if seeds_on_board <= 40:
        return None
    budget = AUTO_TABLE_POSITIONS
    if time is not None:
        budget = min(budget, int(time * TABLE_POSITIONS_PER_BUDGET_SECOND))
    best = None
    for k in range(8, min(seeds_on_board - 4, 40) + 1):
        if eg.table_positions(pits, k) > budget:
            break
        best = k
    return best


def second_max_seeds(pits: int, below: int, time: float) -> int | None:
    """K of the table computed in memory for a second proof of a solve that probed a database of K=``below``:
    the largest K under ``below`` whose table takes at most a quarter of ``time`` (at the rate
    :func:`auto_max_seeds` assumes) and half the available memory, or None when not even K=8 does.

    Another K is another computation with other leaves, yet close enough to ``below`` that the second
    proof is not left to search the endgame the first one looked up.
    """
    memory = _available_memory()
    best = None
    for k in range(8, below):
        too_slow = eg.table_positions(pits, k) > time * TABLE_POSITIONS_PER_BUDGET_SECOND
        if too_slow or (memory is not None and eg.build_memory(pits, k) > memory // 2):
            break
        best = k
    return best


# --- the database a long solve builds once and keeps ---------------------------------

#: K of the database that :func:`prepare_endgame` builds, by the seeds in the pits at the start of the
#: solve: (at least this many seeds, K). Kalah(6,5) (60 seeds) gets K=28: about 3.3 GiB packed.
BUILD_PLAN = ((56, 28), (49, 24), (41, 20))
#: The smallest K worth a file (below it ``endgame="auto"`` computes a table in memory in seconds).
MIN_BUILT_SEEDS = 16
BUILD_MEMORY_SHARE = 0.75  # of the available memory, for the build (packed values and the layer being built)
SOLVE_MEMORY_SHARE = 0.9  # of the available memory, for the solve (packed values and the solver's table)
DISK_MARGIN = 1 << 30  # bytes left free on the disk after the file is written


def _available_memory() -> int | None:
    return eg.available_memory() or _physical_memory()


def _free_disk(directory: Path) -> int | None:
    folder = directory
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def planned_max_seeds(
    pits: int, seeds_on_board: int, *, memory: int | None = None, disk: int | None = None, solver_bytes: int = 0
) -> int | None:
    """K of the database that :func:`prepare_endgame` builds for a solve of this many seeds, or None.

    K comes from the seeds (:data:`BUILD_PLAN`), then shrinks until the build
    (:func:`kalah.endgame.build_memory`) fits in ``BUILD_MEMORY_SHARE`` of
    ``memory``, the solve (the packed values and ``solver_bytes`` of solver
    table) in ``SOLVE_MEMORY_SHARE`` of it, and the file in ``disk`` less
    ``DISK_MARGIN`` (None: not limited). None when under :data:`MIN_BUILT_SEEDS`.
    """
    wanted = next((k for least, k in BUILD_PLAN if seeds_on_board >= least), None)
    if wanted is None:
        return None
    for k in range(wanted, MIN_BUILT_SEEDS - 1, -1):
        packed = eg.table_bytes(pits, k)
        if memory is not None and (
            eg.build_memory(pits, k) > BUILD_MEMORY_SHARE * memory
            or packed + solver_bytes > SOLVE_MEMORY_SHARE * memory
        ):
            continue
        if disk is not None and packed + eg.HEADER.size > disk - DISK_MARGIN:
            continue
        return k
    return None


def prepare_endgame(
    position: Position | Variant,
    max_seeds: int | None = None,
    *,
    directory: str | os.PathLike[str] | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_build: Callable[[int, Path, int], None] | None = None,
) -> EndgameDatabase | None:
    """The database that a solve of ``position`` should probe, built into ``directory`` if it is not there yet.

    ``directory`` defaults to :func:`kalah.endgame.default_directory`, where
    ``solve(..., endgame="auto")`` looks. K is ``max_seeds``, or else
    :func:`planned_max_seeds` for the seeds in the pits (from a variant: at the
    start), the memory available now and the free disk. A database there with
    at least that K is reused; otherwise the build runs on ``threads`` threads,
    resuming an interrupted one, and calls ``on_build(K, path, bytes)`` before it
    starts and ``progress(done, total)`` (positions) as it goes. Returns None
    when no database is planned (few seeds: the solve computes a small table
    in memory). :func:`solve` never builds a file by itself: call this first.

    Raises:
        SolveError: ``max_seeds`` is not an integer from 0 to 40, or its build needs more
            memory than is available.
        kalah.endgame.EndgameDatabaseError: the build cannot be written.
    """
    if isinstance(position, Variant):
        position = Position.start(position)
    variant = position.variant
    folder = Path(directory) if directory is not None else eg.default_directory()
    memory = _available_memory()
    if max_seeds is None:
        solver_bytes = core.TABLE_ENTRY_BYTES << size_tt_log2(position.seeds_in_pits)
        k = planned_max_seeds(
            variant.pits, position.seeds_in_pits, memory=memory, disk=_free_disk(folder), solver_bytes=solver_bytes
        )
        if k is None:
            return None
    else:
        if isinstance(max_seeds, bool) or not isinstance(max_seeds, int) or not 0 <= max_seeds <= 40:
            raise SolveError(f"the endgame database's K must be an integer from 0 to 40, got {max_seeds!r}")
        k = max_seeds
        needed = eg.build_memory(variant.pits, k)
        if memory is not None and needed > memory:
            raise SolveError(
                f"the endgame database of {variant.pits} pits up to K={k} needs {needed / 2**30:.1f} GiB"
                f" of memory to build; {memory / 2**30:.1f} GiB is available"
            )
    found = eg.locate(variant, folder)
    if found is not None and found.max_seeds >= k:
        return found
    path = eg.database_path(variant, k, folder)
    if on_build is not None:
        on_build(k, path, eg.table_bytes(variant.pits, k) + eg.HEADER.size)
    return eg.build(variant, k, path=path, threads=threads, progress=progress)


class TableStopped(Exception):
    """The in-memory table was being computed when the solve's ``stop`` was set (nothing is kept of it)."""


def probed_database(
    position: Position,
    endgame: EndgameChoice,
    threads: int,
    time: float | None = None,
    stop: threading.Event | None = None,
) -> EndgameDatabase | None:
    """The database a solve of ``position`` on one machine probes: :func:`chosen_database`, its table
    computed in memory (kept for the rest of the process), and a file copied into memory when the solve is
    long enough to pay for it (:data:`RESIDENT_MARGIN`). ``stop``, set from another thread, ends the
    table's computation within a chunk of positions (:class:`TableStopped`): it takes seconds.

    Raises:
        SolveError: ``endgame`` is not a choice, or its database does not cover the variant.
        kalah.endgame.EndgameDatabaseError: the database file cannot be read (OSError: nor opened).
        TableStopped: ``stop`` was set while the table was computed.
    """
    variant = position.variant
    computed = _MEMORY_DATABASES.get((variant.pits, variant.empty_capture))
    choice = chosen_database(position, endgame, time, computed=computed)
    database = memory_database(variant, choice, threads, stop) if isinstance(choice, int) else choice
    if database is None or database.resident or position.seeds_in_pits < database.max_seeds + RESIDENT_MARGIN:
        return database
    key = (database.path, database.pits, database.empty_capture, database.max_seeds)
    if key not in _RESIDENT_DATABASES:
        _RESIDENT_DATABASES.clear()  # one private copy at a time: they can be gigabytes
        _RESIDENT_DATABASES[key] = database.in_memory()
    return _RESIDENT_DATABASES[key]


def memory_database(
    variant: Variant | tuple[int, bool], max_seeds: int, threads: int = 1, stop: threading.Event | None = None
) -> EndgameDatabase:
    """The process's in-memory table of the variant's rules up to ``max_seeds``, computed (on ``threads``
    threads) unless one at least that large is kept already; ``stop`` as in :func:`probed_database`.

    Raises:
        TableStopped: ``stop`` was set while the table was computed.
    """
    key = (variant.pits, variant.empty_capture) if isinstance(variant, Variant) else variant
    memory = _MEMORY_DATABASES.get(key)
    if memory is None or memory.max_seeds < max_seeds:

        def check(done: int, total: int) -> None:
            if stop is not None and stop.is_set():
                raise TableStopped

        memory = eg.build_in_memory(variant, max_seeds, threads=threads, progress=check)
        _MEMORY_DATABASES[key] = memory
    return memory


def chosen_database(
    position: Position, endgame: EndgameChoice, time: float | None = None, *, computed: EndgameDatabase | None = None
) -> EndgameDatabase | int | None:
    """What ``endgame`` asks a solve of ``position`` to probe: a database (checked to cover the variant), K
    of a table to compute in memory, or None.

    ``"auto"`` takes the variant's largest file in
    :func:`kalah.endgame.default_directory`, or ``computed`` (a table in
    memory already) when it is larger, or else K from :func:`auto_max_seeds`
    (None when no table pays off). The one machine's solve and the cluster's
    both choose here.

    Raises:
        SolveError: ``endgame`` is not a choice, or its database does not cover the variant.
        kalah.endgame.EndgameDatabaseError: the database file cannot be read (OSError: nor opened).
    """
    variant = position.variant
    if endgame is None or endgame is False:
        return None
    if isinstance(endgame, eg.EndgameDatabase):
        if not endgame.covers(variant):
            raise SolveError(f"the endgame database {endgame.describe()} does not cover {variant.name}")
        return endgame
    if isinstance(endgame, (str, os.PathLike)) and endgame != "auto":
        database = eg.load(endgame)
        if not database.covers(variant):
            raise SolveError(f"the endgame database {database.describe()} does not cover {variant.name}")
        return database
    if endgame == "auto" or endgame is True:
        found = eg.locate(variant)
        if found is not None and (computed is None or found.max_seeds >= computed.max_seeds):
            return found
        k = auto_max_seeds(variant.pits, position.seeds_in_pits, time)
        if computed is not None and (k is None or computed.max_seeds >= k):
            return computed
        return found if k is None else k
    raise SolveError(f"endgame must be 'auto', None, a path or an EndgameDatabase, got {endgame!r}")

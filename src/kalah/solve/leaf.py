"""What a Dask worker runs for a distributed solve: one null-window test of a leaf's pits value.

Each worker thread keeps its own compiled solver per variant between tasks
(the table learns across the tests of one solve, and a leaf tested again at
another bar mostly finds its proof there), and each worker process its own
endgame database: the file the driver named, or a table of the driver's K
computed in memory the first time it is needed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from kalah import endgame as eg
from kalah.core import solver as core
from kalah.endgame import EndgameDatabase
from kalah.rules import Position

from .bounds import narrowed
from .databases import EndgameChoice, chosen_database, memory_database
from .engine import Engine
from .result import SolveError

__all__ = ["DatabaseSpec", "LeafAnswer", "database_spec", "leaf_test"]

#: Which database the workers probe: None, a file's path, or K of a table each worker computes in memory.
DatabaseSpec = str | int | None
#: Proven (lower, upper) on the leaf's pits value and the nodes searched; None when the time ran out.
LeafAnswer = tuple[int, int, int] | None

_THREAD = threading.local()  # .engines: {(pits, empty_capture): Engine}, one table per worker thread
_DATABASES_LOCK = threading.Lock()  # two threads of one worker must not build the same table twice
_FILES: dict[str, EndgameDatabase] = {}


def _database(spec: DatabaseSpec, pits: int, empty_capture: bool) -> EndgameDatabase | None:
    if spec is None:
        return None
    with _DATABASES_LOCK:
        if isinstance(spec, str):
            if spec not in _FILES:
                _FILES[spec] = eg.load(spec)
            return _FILES[spec]
        return memory_database((pits, empty_capture), spec, threads=1)


def _engine(pits: int, empty_capture: bool, tt_log2: int) -> Engine:
    engines: dict[tuple[int, bool], Engine] = getattr(_THREAD, "engines", None) or {}
    _THREAD.engines = engines
    engine = engines.get((pits, empty_capture))
    if engine is None or engine.solver.tt_log2 != tt_log2:
        engine = engines[(pits, empty_capture)] = Engine(pits, empty_capture, tt_log2)
    return engine


def leaf_test(position: Position, beta: int, database: DatabaseSpec, tt_log2: int, seconds: float | None) -> LeafAnswer:
    """Is the pits value of ``position`` at least ``beta``? The bounds a fail-soft null-window test proves.

    Runs on a worker (a module-level function, so that Dask can send it by
    name). ``seconds`` limits the search; None means no limit.
    """
    variant = position.variant
    me = position.to_move
    pits = list(position.pits(me)) + list(position.pits(1 - me))
    seeds = sum(pits)
    engine = _engine(variant.pits, variant.empty_capture, tt_log2)
    with engine.lock:
        engine.attach(_database(database, variant.pits, variant.empty_capture))
        if engine.database is not None and seeds <= engine.database.max_seeds:
            value = engine.database.table.value(pits)
            if value is not None:
                return value, value, 0
        deadline = engine.core.now() + seconds if seconds is not None else 0.0
        found, aborted, nodes = _search(engine, pits, beta, deadline, _cancelled())
    if aborted:
        return None
    lower, upper = narrowed(-seeds, seeds, found, beta, seeds)
    return lower, upper, nodes


#: How often a running test looks whether the driver cancelled it (seconds).
POLL_SECONDS = 0.1


def _search(
    engine: Engine, pits: list[int], beta: int, deadline: float, cancelled: Callable[[], bool]
) -> tuple[int, bool, int]:
    """The compiled null-window search in a helper thread, stopped early when the driver cancels the task
    (a test nobody needs any more would otherwise keep the worker from the next one)."""
    out: list[tuple[int, bool, int]] = []
    stop = core.StopFlag()
    helper = threading.Thread(
        target=lambda: out.append(engine.solver.search(pits, beta - 1, beta, 1, deadline, stop)), daemon=True
    )
    helper.start()
    while helper.is_alive():
        helper.join(POLL_SECONDS)
        if helper.is_alive() and cancelled():
            stop.request()
    return out[0]


def _cancelled() -> Callable[[], bool]:
    """Whether the task this thread runs was cancelled (released by the scheduler); never, outside a worker."""
    try:
        from distributed import get_worker
        from distributed.worker import thread_state

        worker, key = get_worker(), thread_state.key
        tasks = worker.state.tasks
    except (ImportError, ValueError, AttributeError):
        return lambda: False
    return lambda: getattr(tasks.get(key), "state", "cancelled") in ("cancelled", "released", "forgotten")


def database_spec(position: Position, endgame: EndgameChoice) -> tuple[DatabaseSpec, int | None]:
    """What the workers probe, checked here first (a bad file is refused before any work), and its K.

    Raises:
        SolveError: the database asked for is one in memory, which the workers cannot share.
    """
    choice = chosen_database(position, endgame)
    if choice is None or isinstance(choice, int):  # none, or K of a table each worker computes in memory
        return choice, choice
    if choice.path is None:
        raise SolveError("a cluster solve needs the endgame database as a file (or 'auto'), not one in memory")
    return str(choice.path), choice.max_seeds

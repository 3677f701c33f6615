"""``kalah.solve``: one position solved on this machine (or handed to a cluster), its arguments checked."""

from __future__ import annotations

import os
import threading
import time as _time
from collections.abc import Callable
from typing import Any

from kalah.core import solver as core
from kalah.core.builds import BYTE_MAX_PITS, BYTE_MAX_TOTAL, needs_big
from kalah.rules import Move, Position

from .bounds import swap_open
from .databases import (
    EndgameChoice,
    TableStopped,
    clear_databases,
    probed_database,
)
from .engine import clear_engines, engine_for
from .result import SolveError, SolveResult
from .run import ROOT_SHARE, Run, SolveState, root_move_bounds

__all__ = ["MAX_EXACT_SEEDS", "MAX_SOLVE_TIME", "clear_cache", "solve"]

#: Above this many seeds in the pits an unlimited solve is refused (give ``time``).
MAX_EXACT_SEEDS = 60
#: The longest time budget a solve takes, in seconds (30 days): a larger one is a typing slip.
MAX_SOLVE_TIME = 30 * 86400.0


def clear_cache() -> None:
    """Free the solvers' tables and the databases computed in memory."""
    clear_engines()
    clear_databases()


def _threads(threads: int | None) -> int:
    if threads is None:
        return max(1, min(os.cpu_count() or 1, 8))
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise SolveError(f"threads must be a positive integer, got {threads!r}")
    return min(threads, core.MAX_THREADS)


def solve(
    position: Position | None = None,
    time: float | None = None,
    *,
    threads: int | None = None,
    endgame: EndgameChoice = "auto",
    tt_log2: int | None = None,
    best_moves: bool = True,
    pv: bool = True,
    progress: Callable[[int, int], None] | None = None,
    cluster: Any = None,
    checkpoint: str | os.PathLike[str] | None = None,
    stop: threading.Event | None = None,
) -> SolveResult:
    """Solve ``position`` (default: the start of standard Kalah) exactly.

    ``time`` limits the seconds spent; when it runs out the result carries the
    proven bounds (``value`` is None). ``threads`` (default: every core) search
    in parallel. ``endgame``: ``"auto"``, ``None``, a database file or an
    :class:`kalah.endgame.EndgameDatabase`. ``tt_log2`` sizes the table
    (2^n entries of 8 bytes). ``progress(lower, upper)`` is called with the
    bounds on the value proven so far, after each null-window test (not for
    pie-rule positions whose swap is still open). Returns a :class:`SolveResult`.

    ``cluster`` (a Dask scheduler's address or a ``distributed.Client``)
    splits the solve over the cluster's workers (:mod:`kalah.solve.cluster`;
    ``threads`` is then one per worker thread, ``pv`` is not computed, and
    ``progress`` hears the bounds after every worker's answer); ``checkpoint``
    names its SQLite file of proven bounds, from which a stopped solve resumes.

    ``stop`` (with ``time``), set from another thread, ends the solve as its
    deadline would: within a twentieth of a second, with the bounds proven so far.

    >>> kalah.solve(kalah.Position.start(kalah.Variant(4, 2))).describe()
    '+6'

    Raises:
        SolveError: ``position`` is not a Position; ``time``, ``threads`` or
            ``tt_log2`` is out of range; the position is too large to solve
            without ``time`` (more than :data:`MAX_EXACT_SEEDS` seeds in the
            pits); ``endgame`` is not a choice or its database does not cover
            the variant; ``checkpoint`` without ``cluster``; a cluster that
            cannot be reached or has no workers; ``stop`` without ``time``; a board beyond the solver's (more than 8 pits
            a side or 255 seeds).
        kalah.endgame.EndgameDatabaseError: the endgame database file is damaged.
        OSError: the endgame database file cannot be read.
    """
    if position is None:
        position = Position.start()
    if not isinstance(position, Position):
        raise SolveError(f"solve needs a kalah.Position, got {type(position).__name__}")
    if needs_big(position):
        raise SolveError(
            f"the solver is limited to {BYTE_MAX_PITS} pits a side and {BYTE_MAX_TOTAL} seeds (its byte board), got"
            f" {position.variant.pits} pits and {sum(position.cells)} seeds"
        )
    if time is not None:
        if isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0:
            raise SolveError(f"time must be a positive number of seconds, got {time!r}")
        if time > MAX_SOLVE_TIME:
            raise SolveError(f"time must be at most {MAX_SOLVE_TIME:,.0f} seconds (30 days), got {time:g}")
    elif position.seeds_in_pits > MAX_EXACT_SEEDS:
        raise SolveError(
            f"{position.variant.name} with {position.seeds_in_pits} seeds in the pits is too large to solve exactly "
            f"here (the limit without a time budget is {MAX_EXACT_SEEDS}); give a time budget to get proven bounds"
        )
    if stop is not None and (time is None or cluster is not None):
        raise SolveError("stop ends a solve as its deadline would: it needs a time budget (time=) and no cluster")
    if tt_log2 is not None and (isinstance(tt_log2, bool) or not isinstance(tt_log2, int) or not 10 <= tt_log2 <= 34):
        raise SolveError(f"tt_log2 must be an integer from 10 to 34, got {tt_log2!r}")
    threads = _threads(threads)
    if cluster is not None:
        from .cluster import solve_on_cluster

        return solve_on_cluster(
            position,
            cluster,
            time=time,
            endgame=endgame,
            tt_log2=tt_log2,
            best_moves=best_moves,
            checkpoint=checkpoint,
            progress=progress,
        )[0]
    if checkpoint is not None:
        raise SolveError("a checkpoint is kept only by a solve on a cluster (give cluster=)")
    started = _time.perf_counter()
    variant = position.variant
    engine = engine_for(variant.pits, variant.empty_capture, tt_log2, position.seeds_in_pits, time)
    with engine.lock:
        deadline = engine.core.now() + time if time is not None else 0.0
        try:
            database = probed_database(position, endgame, threads, time, stop)
        except TableStopped:
            database = None  # stopped while its table was computed: the tests below see the stop at once
        engine.attach(database)
        state = SolveState(engine, threads, on_bounds=progress, stop=stop)
        run = Run(state, deadline=deadline)
        # A timed solve keeps the rest of its budget for the root moves one by one.
        bounding = run
        if time is not None and not position.is_over:
            bounding = run.until(engine.core.now() + ROOT_SHARE * time)
        moves: list[Move] = []
        together = best_moves and not time and not position.is_over and not swap_open(position)
        if together:
            lower, moves = bounding.value_and_best_moves(position, report=True)
            upper = lower
        else:
            lower, upper = bounding.interval(position, report=True)
        value = lower if lower == upper else None
        move_bounds: dict[Move, tuple[int, int]] = {}
        if value is None and deadline and not position.is_over:
            move_bounds = root_move_bounds(run, position, upper)
            # The position is worth its best move: what the moves proved (every one is bounded) bounds it too.
            lower = max(lower, max(low for low, _ in move_bounds.values()))
            upper = min(upper, max(high for _, high in move_bounds.values()))
            value = lower if lower == upper else None
        line: list[Move] = []
        if value is not None and not position.is_over:
            if best_moves and not together:
                found = run.best_moves(position, value)
                moves = found if found is not None else []
            if pv:
                line = run.principal_variation(position, value, first=moves[0] if moves else None)
            if not moves and line:
                moves = [line[0]]
        guess = state.guesses.get(position)
        guess_move = guess.best_move if guess is not None and value is None else None
        seconds = _time.perf_counter() - started
    return SolveResult(
        value=value,
        lower=lower,
        upper=upper,
        best_moves=moves,
        pv=line,
        nodes=state.nodes,
        seconds=seconds,
        endgame_seeds=database.max_seeds if database is not None else None,
        unproven_best_move=guess_move,
        move_bounds=move_bounds,
    )

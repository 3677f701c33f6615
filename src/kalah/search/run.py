"""The search itself: ``kalah.search``'s checks of its options, then the compiled engine."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from kalah.core import builds
from kalah.core import search as core
from kalah.core.builds import Engine
from kalah.rules import Position

from .options import (
    DEFAULT_DEPTH,
    MAX_PLAYOUTS,
    PRACTICAL_ALGORITHMS,
    AlgorithmName,
    EvaluationName,
    Limit,
    SearchError,
    check_algorithm,
    check_depth,
    check_evaluation,
    check_threads,
    check_time,
    default_threads,
)
from .result import SearchResult, mcts_result_of, result_of

__all__ = ["search"]

DEFAULT_PLAYOUTS = 10000

_SHARED: dict[int, Engine] = {}
_SHARED_LOCK = threading.Lock()


@contextmanager
def _engine_for(table_bits: int) -> Iterator[Engine]:
    """A search engine: the shared one of this size if no other thread is using it, else a new one."""
    if _SHARED_LOCK.acquire(blocking=False):
        try:
            engine = _SHARED.get(table_bits)
            if engine is None:
                engine = _SHARED[table_bits] = Engine(table_bits)
            yield engine
        finally:
            _SHARED_LOCK.release()
    else:
        yield Engine(table_bits)


def search(
    position: Position,
    algorithm: AlgorithmName = "pvs",
    depth: int | None = None,
    time: float | None = None,
    evaluation: EvaluationName = "strong",
    *,
    limit: Limit | None = None,
    move_values: bool = True,
    memo: bool = True,
    ordering: bool = True,
    iterative: bool | None = None,
    playouts: int | None = None,
    seed: int = 0,
    engine: Engine | None = None,
    oracle: object | None = None,
    table_bits: int = 20,
    keep_table: bool = False,
    threads: int | None = None,
    soft_time: float | None = None,
    exact_depth: bool | None = None,
) -> SearchResult:
    """Search ``position`` and return its value, best move, principal variation and statistics.

    - ``depth``: the depth limit in moves; ``time``: seconds for the whole
      search (progressive deepening returns the last completed iteration).
      With neither, ``depth`` is ``DEFAULT_DEPTH``; with only ``time``, the
      search deepens until time runs out or the value is proven.
    - ``move_values``: give the exact value of every root move (costs extra
      nodes; players and ``kalah compare`` turn it off, then the other moves
      only get an upper bound).
    - ``memo``, ``ordering``, ``iterative``: the transposition table, move
      ordering and progressive deepening (default: on for all but minimax).
    - ``engine``: a ``kalah.core.builds.Engine`` to reuse (its table is cleared
      unless ``keep_table``); ``oracle``: a PyCapsule named ``"kalah.oracle"``
      with exact endgame values.
    - ``keep_table``: with ``engine``, start from the table of its previous
      search (a player's earlier moves in the same game). Values and best moves
      at a fixed depth do not change, since an entry answers only at the exact
      depth it was searched to (or when proven); only nodes and time do. The
      caller must keep the variant, evaluation and oracle of that search.
    - ``threads``: threads that search together, sharing the table (lazy SMP).
      Default: every usable core for a timed search (``time``; or the
      ``KALAH_THREADS`` environment variable), one otherwise. Values and best
      moves at a fixed depth are those of one thread; a timed search gets
      deeper. ``stats.nodes`` counts the nodes of all threads.
    - ``soft_time``: with ``time``, time management: past ``soft_time``
      seconds the search stops after an iteration once its best move has
      stayed the same for two iterations; it also stops when the move is
      forced or when the next iteration could not finish within ``time``.
      ``time`` stays the hard limit. The players use it (see
      ``kalah.players.engines``).
    - ``exact_depth``: a table entry answers only at the depth it was searched
      to (or when proven), so the value is exactly that of depth-limited
      minimax, whatever the threads or the table held before. Off, entries of
      deeper searches answer shallower nodes too, as in tournament engines:
      lazy SMP's helpers, which run ahead, then cut the main thread's tree, and
      a player's table from its last move helps more; the values are better
      informed but no longer the depth-N minimax value. Default: on for a
      fixed depth and for the seed algorithms (minimax, alphabeta, scout), off
      for a timed pvs or mtdf search.
    - ``mcts`` takes ``playouts`` (default 10000) or ``time``, and ``seed``.
    - ``limit``: ``depth``, ``time``, ``soft_time`` and ``playouts`` as one
      :class:`Limit` (then none of them given on its own).

    Raises:
        SearchError: ``position`` is not a Position; an unknown ``algorithm`` or
            ``evaluation``; a bad ``depth``, ``time``, ``soft_time``, ``playouts`` or
            ``threads``; ``limit`` given together with a limit of its own.
    """
    if not isinstance(position, Position):
        raise SearchError(f"position must be a kalah.Position, got {type(position).__name__}")
    if limit is not None:
        if not isinstance(limit, Limit):
            raise SearchError(f"limit must be a kalah.Limit, got {type(limit).__name__}")
        given = [
            name
            for name, value in (("depth", depth), ("time", time), ("soft_time", soft_time), ("playouts", playouts))
            if value is not None
        ]
        if given:
            raise SearchError(f"give the limits in limit= or as parameters, not both (also given: {', '.join(given)})")
        depth, time, soft_time, playouts = limit.depth, limit.time, limit.soft_time, limit.playouts
    algorithm = check_algorithm(algorithm)
    evaluation = check_evaluation(evaluation)
    depth = check_depth(depth)
    time = check_time(time)
    if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1):
        raise SearchError(f"playouts must be a whole number of at least 1, got {playouts!r}")
    if playouts is not None and playouts > MAX_PLAYOUTS:
        raise SearchError(f"playouts must be at most {MAX_PLAYOUTS:,}, got {playouts:,}")
    threads = check_threads(threads) if threads is not None else (default_threads() if time is not None else 1)
    if soft_time is not None:
        soft_time = check_time(soft_time)
        if time is None or soft_time is None or soft_time > time:
            raise SearchError(
                f"soft_time needs a time limit at least as long, got soft_time={soft_time!r}, time={time!r}"
            )

    if algorithm == "mcts":
        return _mcts(position, evaluation, depth, time, playouts, seed)

    if engine is None:
        with _engine_for(table_bits) as shared:
            return search(
                position,
                algorithm,
                depth,
                time,
                evaluation,
                move_values=move_values,
                memo=memo,
                ordering=ordering,
                iterative=iterative,
                engine=shared,
                oracle=oracle,
                threads=threads,
                soft_time=soft_time,
                exact_depth=exact_depth,
            )
    if oracle is not None:
        engine.set_oracle(oracle)
    if iterative is None:
        iterative = algorithm != "minimax" or (time is not None and depth is None)
    if depth is None:
        last = core.MAX_DEPTH if time is not None else DEFAULT_DEPTH
    else:
        last = depth
    if time is not None:
        iterative = True
    first = 1 if iterative else last
    if exact_depth is None:
        exact_depth = time is None or algorithm not in PRACTICAL_ALGORITHMS
    raw = engine.search(
        position,
        core.ALGORITHMS[algorithm],
        core.EVALUATIONS[evaluation],
        first,
        last,
        seconds=time or 0.0,
        all_values=move_values,
        memo=memo,
        ordering=ordering,
        clear=not keep_table,
        threads=threads,
        soft_seconds=soft_time or 0.0,
        deeper_entries=not exact_depth,
    )
    if oracle is not None:
        engine.set_oracle(None)
    return result_of(position, algorithm, evaluation, raw)


def _mcts(
    position: Position,
    evaluation: EvaluationName,
    depth: int | None,
    time: float | None,
    playouts: int | None,
    seed: int,
) -> SearchResult:
    if playouts is None and time is None:
        playouts = DEFAULT_PLAYOUTS
    raw = builds.mcts(position, playouts=playouts or 0, seconds=time or 0.0, seed=seed)
    return mcts_result_of(position, evaluation, raw)

"""Game-tree search: ``kalah.search(position, algorithm="pvs", depth=None, time=None, evaluation="strong")``.

The algorithms run in compiled code (``kalah.core.search``, csrc/search.c):

- ``minimax``: plain negamax (``memo=True`` memoizes exact values per depth, as the seeds do);
- ``alphabeta``: fail-soft alpha-beta with a transposition table of bound flags
  (the seeds' ``=``, ``≥``, ``≤``), progressive deepening and move ordering;
- ``scout``: Pearl's SCOUT (EVAL and TEST) with memoization, progressive
  deepening and move ordering;
- ``pvs`` (principal variation search, NegaScout) and ``mtdf`` (MTD(f));
- ``mcts``: UCT Monte-Carlo tree search with compiled random playouts.

Depth counts moves (sowings): a move that earns an extra turn uses one unit of
depth and the same side moves again. The five exact algorithms return the same
value and the same best move at the same depth and evaluation (the best move
is the lowest pit index among the moves of best value, the swap counting as
the highest); they differ in nodes and time.

Values are in seeds, from the point of view of the side to move: a finished
game counts its exact final margin (an ``int``), a position at the depth limit
its heuristic evaluation (a ``float``; internally integers of
``1/UNIT`` seed). ``exact`` is true when the value is proven: no heuristic
evaluation contributed to it, only finished games (and endgame-oracle probes).
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, cast

from kalah.core import builds
from kalah.core import search as core
from kalah.core.board import move_from_code
from kalah.core.builds import Engine
from kalah.core.search import MAX_DEPTH, MAX_THREADS, NO_MOVE, UNIT
from kalah.rules import KalahError, Move, Position

#: How much is known about a root move's value (see :class:`MoveValue`).
Bound = Literal["exact", "lower", "upper", "unknown", "estimate"]
#: The name of a search algorithm (one of ``ALGORITHMS``).
AlgorithmName = Literal["minimax", "alphabeta", "scout", "pvs", "mtdf", "mcts"]
#: The name of an evaluation at the depth limit (one of ``EVALUATIONS``).
EvaluationName = Literal["strong", "store", "seed"]

__all__ = [
    "ALGORITHMS",
    "AlgorithmName",
    "Bound",
    "EVALUATIONS",
    "EXACT_ALGORITHMS",
    "DEFAULT_DEPTH",
    "EvaluationName",
    "Limit",
    "MAX_DEPTH",
    "MAX_PLAYOUTS",
    "MAX_TIME",
    "MoveValue",
    "SearchError",
    "SearchResult",
    "SearchStats",
    "SearchTrace",
    "TraceNode",
    "TraceTooLargeError",
    "check_algorithm",
    "check_depth",
    "check_evaluation",
    "check_threads",
    "check_time",
    "default_threads",
    "search",
    "trace",
]

EXACT_ALGORITHMS: tuple[AlgorithmName, ...] = ("minimax", "alphabeta", "scout", "pvs", "mtdf")
ALGORITHMS: tuple[AlgorithmName, ...] = EXACT_ALGORITHMS + ("mcts",)
#: The engines that may use every technique (the others stay as the textbooks write them).
PRACTICAL_ALGORITHMS: tuple[AlgorithmName, ...] = ("pvs", "mtdf")
EVALUATIONS: tuple[EvaluationName, ...] = ("strong", "store", "seed")
DEFAULT_DEPTH = 8
#: The longest a search may be given, in seconds (a day): a larger budget is a typing slip, and a
#: deadline beyond it would overflow the engine's clock arithmetic to no purpose.
MAX_TIME = 86400.0
#: The most playouts an MCTS search may be asked for (minutes of work; the engine counts them in a C long).
MAX_PLAYOUTS = 100_000_000
DEFAULT_PLAYOUTS = 10000


class SearchError(KalahError, ValueError):
    """Bad search parameters: an unknown algorithm or evaluation, a bad depth or time."""


@dataclass(frozen=True)
class Limit:
    """When a search stops, as one object (python-chess's ``engine.Limit``): ``search(position, limit=...)``.

    The same limits are also plain parameters of :func:`kalah.search`; give
    them one way or the other. A limit left None does not limit.

    >>> kalah.search(kalah.Position.start(), limit=kalah.Limit(depth=4)).depth
    4
    """

    depth: int | None = None
    """The depth in moves (progressive deepening stops there)."""
    time: float | None = None
    """Seconds for the whole search: the hard limit."""
    soft_time: float | None = None
    """With ``time``: past this many seconds a search stops after an iteration once its best move is stable."""
    playouts: int | None = None
    """MCTS only: the random games to play."""


def check_algorithm(name: Any) -> AlgorithmName:
    """``algorithm`` if it is one of ``ALGORITHMS`` (any case, spaces around), else a SearchError naming them.

    Raises:
        SearchError: ``name`` is not one of ``ALGORITHMS``.
    """
    return cast(AlgorithmName, _one_of(name, ALGORITHMS, "algorithm"))


def check_evaluation(name: Any) -> EvaluationName:
    """``evaluation`` if it is one of ``EVALUATIONS`` (any case, spaces around), else a SearchError naming them.

    Raises:
        SearchError: ``name`` is not one of ``EVALUATIONS``.
    """
    return cast(EvaluationName, _one_of(name, EVALUATIONS, "evaluation"))


def _one_of(name: Any, accepted: tuple[str, ...], what: str) -> str:
    """``name`` in lower case without spaces around if it is one of ``accepted``, else a SearchError naming them."""
    if not isinstance(name, str) or name.strip().lower() not in accepted:
        raise SearchError(f"unknown {what} {name!r}; accepted: {', '.join(accepted)}")
    return name.strip().lower()


def check_depth(depth: Any) -> int | None:
    """``depth`` as a depth limit (1 to :data:`MAX_DEPTH`), else a SearchError.

    Raises:
        SearchError: ``depth`` is not a whole number from 1 to MAX_DEPTH.
    """
    if depth is None:
        return None
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise SearchError(f"depth must be a whole number of moves (1 or more), got {depth!r}")
    if depth < 1:
        raise SearchError(f"depth must be at least 1, got {depth}")
    if depth > MAX_DEPTH:
        raise SearchError(f"depth must be at most {MAX_DEPTH} (the engine's deepest line), got {depth}")
    return depth


def check_time(time: Any) -> float | None:
    """``time`` as positive seconds up to :data:`MAX_TIME` (None stays None), else a SearchError.

    Raises:
        SearchError: ``time`` is not a positive number of seconds up to MAX_TIME.
    """
    if time is None:
        return None
    if isinstance(time, bool) or not isinstance(time, (int, float)) or math.isnan(time):
        raise SearchError(f"time must be a number of seconds, got {time!r}")
    if time <= 0:
        raise SearchError(f"time must be a positive number of seconds, got {time}")
    if time > MAX_TIME:
        raise SearchError(f"time must be at most {MAX_TIME:g} seconds (a day), got {time:g}")
    return float(time)


def check_threads(threads: Any) -> int:
    """``threads`` as a whole number from 1 to MAX_THREADS, or a SearchError naming the problem.

    Raises:
        SearchError: ``threads`` is not a whole number from 1 to ``MAX_THREADS``.
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise SearchError(f"threads must be a whole number from 1 to {MAX_THREADS}, got {threads!r}")
    return threads


def default_threads() -> int:
    """Threads of a timed search: ``KALAH_THREADS`` if set, else the cores this process may use.

    Worker processes that already fill the cores (the web server's engine
    workers, an arena's games) set ``KALAH_THREADS=1``.

    Raises:
        SearchError: ``KALAH_THREADS`` is set to something else than a whole number from 1
            to ``MAX_THREADS``.
    """
    setting = os.environ.get("KALAH_THREADS", "").strip()
    if setting:
        try:
            return check_threads(int(setting))
        except ValueError:
            raise SearchError(
                f"KALAH_THREADS must be a whole number from 1 to {MAX_THREADS}, got {setting!r}"
            ) from None
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, cores))


@dataclass(frozen=True)
class SearchStats:
    """What a search did, counted by the compiled engine (see docs/search.md)."""

    nodes: int = 0
    """Positions visited, the root and every leaf included (for MCTS: tree nodes created)."""
    leaves: int = 0
    """Positions valued without looking further: at the depth limit, finished games and oracle hits."""
    tt_probes: int = 0
    """Transposition-table lookups."""
    tt_hits: int = 0
    """Lookups whose entry answered the node or narrowed its window."""
    cutoffs: int = 0
    """Nodes left early because a move reached beta (the seeds' pruning)."""
    researches: int = 0
    """Null-window probes that failed high and were searched again with a full window (PVS), or Scout's re-evaluations."""
    oracle_probes: int = 0
    """Positions answered by the endgame database."""
    depth: int = 0
    """The depth of the last completed iteration, in moves."""
    seconds: float = 0.0
    """Wall-clock time of the whole search."""
    playouts: int = 0
    """Random games played (MCTS only)."""
    threads: int = 1
    """Threads that searched together (``nodes`` and the other counts are of all of them)."""

    @property
    def nodes_per_second(self) -> float:
        """Visited positions per second of wall-clock time (0 when no time was measured)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The fields as a JSON-ready dict."""
        return asdict(self)


@dataclass(frozen=True)
class MoveValue:
    """A root move's value for the side to move, and how much is known about it.

    >>> [entry.bound for entry in kalah.search(kalah.Position.start(), depth=2).moves]
    ['exact', 'exact', 'exact', 'exact', 'exact', 'exact']
    """

    move: Move
    """A pit index ``0..pits-1`` of the mover, or ``"swap"``."""
    value: float | int | None
    """In seeds, for the side to move: an ``int`` for a proven margin, a ``float`` when a heuristic
    evaluation took part; ``None`` when the move was not searched."""
    bound: Bound = "exact"
    """``"exact"``; ``"upper"`` (worth at most ``value``: not better than the best move, with
    ``move_values=False``); ``"lower"`` (at least ``value``); ``"unknown"`` (not searched: time ran out);
    ``"estimate"`` (MCTS: the mean final margin of its playouts)."""


@dataclass(frozen=True)
class SearchResult:
    """What ``kalah.search`` found: the value and best move of a position, the line, and the work done.

    >>> result = kalah.search(kalah.Position.start(), algorithm="alphabeta", depth=3)
    >>> result.best_move, result.value, result.pv
    (2, -0.5, [2, 5])
    """

    position: Position
    """The position searched."""
    algorithm: AlgorithmName
    """One of ``ALGORITHMS``: ``minimax``, ``alphabeta``, ``scout``, ``pvs``, ``mtdf`` or ``mcts``."""
    evaluation: EvaluationName
    """The evaluation at the depth limit: ``strong``, ``store`` or ``seed`` (see docs/search.md)."""
    value: float | int | None
    """The position's value in seeds for the side to move (``int`` when proven); None if nothing completed."""
    best_move: Move | None
    """The move to play: the lowest pit among the moves of best value (the swap counts as the highest)."""
    pv: list[Move]
    """The principal variation: the best line from the position, best move first."""
    moves: list[MoveValue]
    """Every legal move with its value and how much is known about it."""
    stats: SearchStats
    """Nodes, cutoffs, table hits, depth reached and time."""
    exact: bool
    """True when ``value`` is proven: only finished games (and endgame-database values) decided it."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Algorithm-specific figures: for MCTS ``win_rate`` and ``visits`` per move."""

    @property
    def depth(self) -> int:
        """The depth of the last completed iteration, in moves."""
        return self.stats.depth

    @property
    def outcome(self) -> str | None:
        """For a proven value: 'wins by 6', 'loses by 2' or 'draws' (for the side to move)."""
        if not self.exact or self.value is None:
            return None
        value = int(self.value)
        if value > 0:
            return f"wins by {value}"
        if value < 0:
            return f"loses by {-value}"
        return "draws"

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah analyse --json``."""
        return {
            "value": self.value,
            "best_move": self.best_move,
            "pv": list(self.pv),
            "moves": [{"move": m.move, "value": m.value, "bound": m.bound} for m in self.moves],
            "nodes": self.stats.nodes,
            "seconds": round(self.stats.seconds, 6),
            "depth": self.stats.depth,
            "exact": self.exact,
            "algorithm": self.algorithm,
            "evaluation": self.evaluation,
            "to_move": self.position.to_move,
            "stats": self.stats.to_dict(),
        }


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


def _move(code: int) -> Move:
    if code == NO_MOVE:
        raise AssertionError("no move")
    return move_from_code(code)


def _seeds(units: int | None, exact: bool) -> float | int | None:
    if units is None:
        return None
    if exact and units % UNIT == 0:
        return units // UNIT
    return units / UNIT


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
    return _result(position, algorithm, evaluation, raw)


def _result(
    position: Position, algorithm: AlgorithmName, evaluation: EvaluationName, raw: dict[str, Any]
) -> SearchResult:
    """The SearchResult of the compiled engine's answer ``raw`` (Engine.search, or the traced search)."""
    exact = bool(raw["exact"])
    best: Move | None
    if raw["completed"] == 0 and not position.is_over:
        # Not even depth 1 finished in time: fall back to the first legal move.
        moves = position.legal_moves()
        best, value, pv = moves[0], None, [moves[0]]
        move_list = [MoveValue(m, None, "unknown") for m in moves]
    else:
        best = _move(raw["best_move"]) if raw["best_move"] is not None else None
        value = _seeds(raw["value"], exact)
        pv = [_move(code) for code in raw["pv"]]
        move_list = [
            MoveValue(_move(code), _seeds(units, exact and flag == "exact") if flag != "unknown" else None, flag)
            for code, units, flag in raw["moves"]
        ]
    stats = SearchStats(
        nodes=raw["nodes"],
        leaves=raw["leaves"],
        tt_probes=raw["tt_probes"],
        tt_hits=raw["tt_hits"],
        cutoffs=raw["cutoffs"],
        researches=raw["researches"],
        oracle_probes=raw["oracle_probes"],
        depth=raw["depth"],
        seconds=raw["seconds"],
        threads=raw.get("threads", 1),
    )
    return SearchResult(position, algorithm, evaluation, value, best, pv, move_list, stats, exact)


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
    return _mcts_result(position, evaluation, raw)


def _mcts_result(position: Position, evaluation: EvaluationName, raw: dict[str, Any]) -> SearchResult:
    """The SearchResult of a compiled UCT run (also of its traced twin, kalah.search.mcts_trace)."""
    moves = []
    best_value = None
    for code, visits, wins, margin in raw["moves"]:
        mean = round(margin / visits, 2) if visits else None
        moves.append(MoveValue(_move(code), mean, "estimate"))
        if code == raw["best_move"]:
            best_value = mean
            win_rate = wins / visits if visits else None
    best = _move(raw["best_move"]) if raw["best_move"] is not None else None
    if best is None:
        best_value = position.mover_margin or 0
        win_rate = None
    stats = SearchStats(nodes=raw["nodes"], depth=raw["depth"], seconds=raw["seconds"], playouts=raw["playouts"])
    extra = {"win_rate": win_rate, "visits": {m.move: v for m, (_, v, _, _) in zip(moves, raw["moves"], strict=False)}}
    return SearchResult(
        position,
        "mcts",
        evaluation,
        best_value,
        best,
        [best] if best is not None else [],
        moves,
        stats,
        best is None,
        extra,
    )


# The traced search (tracing.py) builds on the definitions above.
from .tracing import SearchTrace, TraceNode, TraceTooLargeError, trace  # noqa: E402

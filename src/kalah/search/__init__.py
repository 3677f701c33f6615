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
import threading
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from kalah.rules import SWAP, KalahError, Move, Position, seen_by

if TYPE_CHECKING:
    from kalah.core.search import Engine

__all__ = [
    "Algorithm",
    "Bound",
    "Evaluation",
    "ALGORITHMS",
    "EVALUATIONS",
    "EXACT_ALGORITHMS",
    "DEFAULT_DEPTH",
    "MoveValue",
    "SearchError",
    "SearchResult",
    "SearchStats",
    "check_algorithm",
    "check_depth",
    "check_evaluation",
    "check_time",
    "search",
]

#: How much is known of a root move's value (see :class:`MoveValue`).
Bound = Literal["exact", "lower", "upper", "unknown", "estimate"]
#: The search algorithms by name, and the evaluations of unfinished positions.
Algorithm = Literal["minimax", "alphabeta", "scout", "pvs", "mtdf", "mcts"]
Evaluation = Literal["strong", "store", "seed"]

EXACT_ALGORITHMS = ("minimax", "alphabeta", "scout", "pvs", "mtdf")
ALGORITHMS = EXACT_ALGORITHMS + ("mcts",)
EVALUATIONS = ("strong", "store", "seed")
DEFAULT_DEPTH = 8
DEFAULT_PLAYOUTS = 10000


class SearchError(KalahError, ValueError):
    """Bad search parameters: an unknown algorithm or evaluation, a bad depth or time."""


def check_algorithm(name: Any) -> str:
    """The algorithm's name in lower case, or :class:`SearchError` naming the accepted ones."""
    if not isinstance(name, str) or name.strip().lower() not in ALGORITHMS:
        raise SearchError(f"unknown algorithm {name!r}; accepted: {', '.join(ALGORITHMS)}")
    return name.strip().lower()


def check_evaluation(name: Any) -> str:
    """The evaluation's name in lower case, or :class:`SearchError` naming the accepted ones."""
    if not isinstance(name, str) or name.strip().lower() not in EVALUATIONS:
        raise SearchError(f"unknown evaluation {name!r}; accepted: {', '.join(EVALUATIONS)}")
    return name.strip().lower()


def check_depth(depth: Any) -> int | None:
    """A depth limit as an int (None: no limit), or :class:`SearchError` if it is not a positive integer."""
    if depth is None:
        return None
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise SearchError(f"depth must be a whole number of moves (1 or more), got {depth!r}")
    if depth < 1:
        raise SearchError(f"depth must be at least 1, got {depth}")
    from kalah.core.search import MAX_DEPTH

    return min(depth, MAX_DEPTH)


def check_time(time: Any) -> float | None:
    """A time budget in seconds as a float (None: none), or :class:`SearchError` if it is not positive."""
    if time is None:
        return None
    if isinstance(time, bool) or not isinstance(time, (int, float)) or math.isnan(time):
        raise SearchError(f"time must be a number of seconds, got {time!r}")
    if time <= 0:
        raise SearchError(f"time must be a positive number of seconds, got {time}")
    return float(time)


@dataclass(frozen=True)
class SearchStats:
    """What a search did. ``seconds`` is wall-clock time of the whole search."""

    nodes: int = 0
    """Positions visited, the root and leaves included."""
    leaves: int = 0
    """Positions valued by the evaluation or as finished games."""
    tt_probes: int = 0
    """Lookups in the transposition table."""
    tt_hits: int = 0
    """Lookups that found an entry for the position."""
    cutoffs: int = 0
    """Beta cutoffs: moves left unsearched because one move already refuted the line."""
    researches: int = 0
    """Searches repeated with a wider window after a null-window test failed (scout, pvs, mtdf)."""
    oracle_probes: int = 0
    """Positions valued by the endgame database instead of searched."""
    depth: int = 0
    """The deepest completed iteration, in plies."""
    seconds: float = 0.0
    """Wall-clock time of the whole search."""
    playouts: int = 0
    """Random games played to the end (mcts only)."""

    @property
    def nodes_per_second(self) -> float:
        """Search speed: ``nodes / seconds``, or 0.0 for a search too quick to time."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The fields as a JSON-ready dictionary."""
        return asdict(self)


@dataclass(frozen=True)
class MoveValue:
    """A root move's value for the side to move, and how much of it is known (``bound``)."""

    move: Move
    """The move: a pit number, or ``kalah.SWAP``."""
    value: float | int | None
    """Seeds, from the side to move's view; a mean margin for mcts; None when not searched."""
    bound: Bound = "exact"
    """``exact``; ``upper`` (worth at most ``value``, so not better than the best move);
    ``lower`` (worth at least ``value``); ``unknown`` (not searched); ``estimate`` (mcts's mean)."""


@dataclass(frozen=True)
class SearchResult:
    """What :func:`search` found: the best move, its value, the line it expects, and the work done.

    >>> from kalah import Position, search
    >>> result = search(Position.start(), depth=6)
    >>> result.best_move in Position.start().legal_moves()
    True
    """

    position: Position
    """The position searched."""
    algorithm: Algorithm
    """The algorithm that searched (one of :data:`ALGORITHMS`)."""
    evaluation: Evaluation
    """The evaluation of unfinished leaves (one of :data:`EVALUATIONS`)."""
    value: float | int | None
    """The best move's value in seeds for the side to move (a mean margin for mcts); for a
    finished position, its final margin."""
    best_move: Move | None
    """The move to play; None when the game is over."""
    pv: list[Move]
    """The principal variation: the line both sides are expected to play, starting with ``best_move``."""
    moves: list[MoveValue]
    """Every root move with its value and bound."""
    stats: SearchStats
    """Nodes, depth, time and the rest of the search's counters."""
    exact: bool
    """True when ``value`` is proven: the search reached the end of every line."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Algorithm-specific details (mcts: ``win_rate`` and the ``visits`` of each move)."""

    @property
    def depth(self) -> int:
        """The deepest completed iteration (``stats.depth``)."""
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


_SHARED: dict[str, Any] = {}
_SHARED_LOCK = threading.Lock()


@contextmanager
def _engine_for(table_bits: int):
    """A search engine: the shared one of this size if no other thread is using it, else a new one."""
    from kalah.core.search import Engine

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
    from kalah.core.search import NO_MOVE

    if code == 255:
        return SWAP
    if code == NO_MOVE:
        raise AssertionError("no move")
    return int(code)


def _seeds(units: int | None, exact: bool) -> float | int | None:
    from kalah.core.search import UNIT

    if units is None:
        return None
    if exact and units % UNIT == 0:
        return units // UNIT
    return units / UNIT


def search(
    position: Position,
    algorithm: str = "pvs",
    depth: int | None = None,
    time: float | None = None,
    evaluation: str = "strong",
    *,
    move_values: bool = True,
    memo: bool = True,
    ordering: bool = True,
    iterative: bool | None = None,
    playouts: int | None = None,
    seed: int = 0,
    engine: Engine | None = None,
    oracle: object | None = None,  # a PyCapsule named "kalah.oracle" (EndgameDatabase.oracle())
    table_bits: int = 20,
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
    - ``engine``: a ``kalah.core.search.Engine`` to reuse (its table is cleared);
      ``oracle``: a PyCapsule named ``"kalah.oracle"`` with exact endgame values.
    - ``mcts`` takes ``playouts`` (default 10000) or ``time``, and ``seed``.
    """
    if not isinstance(position, Position):
        raise SearchError(f"position must be a kalah.Position, got {type(position).__name__}")
    algorithm = check_algorithm(algorithm)
    evaluation = check_evaluation(evaluation)
    depth = check_depth(depth)
    time = check_time(time)
    if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1):
        raise SearchError(f"playouts must be a whole number of at least 1, got {playouts!r}")

    from kalah.core import search as core

    if algorithm == "mcts":
        return _mcts(position, evaluation, depth, time, playouts, seed)

    if engine is None:
        with _engine_for(table_bits) as shared:
            return search(position, algorithm, depth, time, evaluation, move_values=move_values, memo=memo,
                          ordering=ordering, iterative=iterative, engine=shared, oracle=oracle)
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
    )
    if oracle is not None:
        engine.set_oracle(None)
    exact = bool(raw["exact"])
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
    )
    return SearchResult(position, algorithm, evaluation, value, best, pv, move_list, stats, exact)


def _mcts(position: Position, evaluation: str, depth: int | None, time: float | None, playouts: int | None, seed: int) -> SearchResult:
    from kalah.core import search as core

    if playouts is None and time is None:
        playouts = DEFAULT_PLAYOUTS
    raw = core.mcts(position, playouts=playouts or 0, seconds=time or 0.0, seed=seed)
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
        best_value = seen_by(position.margin or 0, position.to_move)
        win_rate = None
    stats = SearchStats(nodes=raw["nodes"], depth=raw["depth"], seconds=raw["seconds"], playouts=raw["playouts"])
    extra = {"win_rate": win_rate, "visits": {m.move: v for m, (_, v, _, _) in zip(moves, raw["moves"])}}
    return SearchResult(position, "mcts", evaluation, best_value, best, [best] if best is not None else [], moves, stats, best is None, extra)

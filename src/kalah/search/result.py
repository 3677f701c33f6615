"""What a search answers: the result, the root moves' values, the statistics; and how the engine's
raw answers become them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from kalah.core.board import move_from_code
from kalah.core.search import NO_MOVE, UNIT
from kalah.rules import Move, Position

from .options import AlgorithmName, Bound, EvaluationName

__all__ = ["MoveValue", "SearchResult", "SearchStats", "mcts_result_of", "move_of", "result_of", "seeds_of"]


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


def move_of(code: int) -> Move:
    """The move of the engine's move code (an AssertionError for its "no move")."""
    if code == NO_MOVE:
        raise AssertionError("no move")
    return move_from_code(code)


def seeds_of(units: int | None, exact: bool) -> float | int | None:
    """A value in the engine's units as seeds: an ``int`` when exact and whole, else a ``float``."""
    if units is None:
        return None
    if exact and units % UNIT == 0:
        return units // UNIT
    return units / UNIT


def result_of(
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
        best = move_of(raw["best_move"]) if raw["best_move"] is not None else None
        value = seeds_of(raw["value"], exact)
        pv = [move_of(code) for code in raw["pv"]]
        move_list = [
            MoveValue(move_of(code), seeds_of(units, exact and flag == "exact") if flag != "unknown" else None, flag)
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


def mcts_result_of(position: Position, evaluation: EvaluationName, raw: dict[str, Any]) -> SearchResult:
    """The SearchResult of a compiled UCT run (also of its traced twin, kalah.search.mcts_trace)."""
    moves = []
    best_value = None
    for code, visits, wins, margin in raw["moves"]:
        mean = round(margin / visits, 2) if visits else None
        moves.append(MoveValue(move_of(code), mean, "estimate"))
        if code == raw["best_move"]:
            best_value = mean
            win_rate = wins / visits if visits else None
    best = move_of(raw["best_move"]) if raw["best_move"] is not None else None
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

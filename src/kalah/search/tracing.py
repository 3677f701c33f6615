"""Traced search: ``kalah.trace(position, algorithm, depth)`` records every node a search visits.

The nodes are recorded by the compiled search itself: ``kalah.core.trace`` is
csrc/search.c built a second time with its trace hooks (csrc/trace.h), so the
traced search is the search of ``kalah.search``, node for node, and
``len(trace.nodes) == trace.result.stats.nodes``. The format of
:meth:`SearchTrace.to_json` (``kalah-trace/1``) and the node kinds are in
docs/trace.md.

>>> t = kalah.trace(kalah.Position.start(kalah.Variant(4, 3)), "alphabeta", 2)
>>> len(t.nodes) == t.result.stats.nodes, t.nodes[0].kind, t.nodes[1].parent
(True, 'root', 0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from kalah.core import trace as core_trace
from kalah.core.board import move_from_code
from kalah.core.builds import BYTE_MAX_PITS, BYTE_MAX_TOTAL, needs_big
from kalah.core.search import ALGORITHMS as CORE_ALGORITHMS
from kalah.core.search import EVALUATIONS as CORE_EVALUATIONS
from kalah.core.search import INF, NO_MOVE, UNIT
from kalah.rules import Move, Position
from kalah.rules.wording import shown

from .options import EXACT_ALGORITHMS, AlgorithmName, SearchError, check_depth, check_evaluation, one_of
from .result import SearchResult, result_of

__all__ = [
    "DEFAULT_MAX_NODES",
    "KINDS",
    "MAX_TRACE_NODES",
    "TRACE_FORMAT",
    "TRACE_OPTIONS",
    "TRACED_ALGORITHMS",
    "SearchTrace",
    "TraceNode",
    "TraceTooLargeError",
    "check_trace_options",
    "trace",
    "tree_facts",
]

#: The ``format`` field of :meth:`SearchTrace.to_json`.
TRACE_FORMAT = "kalah-trace/1"
#: Nodes a trace holds unless told otherwise.
DEFAULT_MAX_NODES = 20_000
#: The most nodes a trace may be asked to hold (about 24 bytes each while the search runs).
MAX_TRACE_NODES = 5_000_000
#: The algorithms a trace follows: those that search to a depth (UCT has :mod:`kalah.search.mcts_trace`).
TRACED_ALGORITHMS: tuple[AlgorithmName, ...] = EXACT_ALGORITHMS

#: The step of its algorithm that visited a node (docs/trace.md).
KINDS = core_trace.KINDS
#: The options of ``kalah.search`` a trace accepts, with their defaults (None: as ``kalah.search`` decides).
TRACE_OPTIONS: dict[str, bool | int | None] = {
    "move_values": True,
    "memo": True,
    "ordering": True,
    "iterative": None,
    "table_bits": 20,
}

Kind = Literal["root", "search", "pass", "eval", "test", "pv", "probe", "research"]


class TraceTooLargeError(SearchError):
    """The search visits more nodes than the trace may hold (``max_nodes``)."""


@dataclass(frozen=True)
class TraceNode:
    """One node of a traced search, in visiting order (see docs/trace.md)."""

    id: int
    """Its index in :attr:`SearchTrace.nodes`."""
    parent: int | None
    """The id of the node that entered it; None at a root (each iteration and each MTD(f) pass at the root)."""
    move: Move | None
    """The move from the parent (a pit index or ``"swap"``); None at a root."""
    depth: int
    """Plies left to search from it (an extra turn uses one, as every move does)."""
    alpha: float | int | None
    """The window's lower end at entry, in seeds for the side to move here (``-math.inf`` unbounded);
    None where the algorithm has no window (Minimax, Scout's EVAL)."""
    beta: float | int | None
    """The window's upper end at entry (``math.inf`` unbounded), or None."""
    value: float | int
    """The value it returned, in seeds for the side to move here (an ``int`` when a whole number)."""
    bound: Literal["exact", "lower", "upper"]
    """What ``value`` is: exact, a lower bound (the value is at least this) or an upper bound (at most)."""
    cutoff: bool
    """A move reached beta and the other moves were left unsearched (a Scout TEST that passed)."""
    table_hit: bool
    """The transposition table answered the node or narrowed its window."""
    kind: Kind
    """The algorithm's step: root, search, pass (MTD(f)), eval and test (Scout), pv, probe and research (PVS)."""

    def to_json(self) -> dict[str, Any]:
        """The node as in the ``nodes`` list of ``kalah-trace/1`` (infinite bounds as ``"inf"``/``"-inf"``)."""
        return {
            "id": self.id,
            "parent": self.parent,
            "move": self.move,
            "depth": self.depth,
            "alpha": _json_bound(self.alpha),
            "beta": _json_bound(self.beta),
            "value": self.value,
            "bound": self.bound,
            "cutoff": self.cutoff,
            "table_hit": self.table_hit,
            "kind": self.kind,
        }


@dataclass
class SearchTrace:
    """A search and every node it visited: what :func:`trace` returns."""

    position: Position
    """The position searched."""
    algorithm: str
    """``minimax``, ``alphabeta``, ``scout``, ``pvs`` or ``mtdf``."""
    depth: int
    """The depth limit, in moves."""
    evaluation: str
    """The evaluation at the depth limit: ``strong``, ``store`` or ``seed``."""
    options: dict[str, Any]
    """The options of the search, every one of :data:`TRACE_OPTIONS` with the value used."""
    result: SearchResult
    """The result of this very search (``kalah.search`` gives the same with the same arguments)."""
    nodes: list[TraceNode] = field(default_factory=list)
    """Every node the search entered, in visiting order: ``len(nodes) == result.stats.nodes``."""
    max_nodes: int = DEFAULT_MAX_NODES
    """The most nodes the trace could hold."""

    def children(self, node_id: int) -> list[TraceNode]:
        """The nodes entered from node ``node_id``, in visiting order."""
        return [node for node in self.nodes[node_id + 1 :] if node.parent == node_id]

    @property
    def roots(self) -> list[TraceNode]:
        """The roots: one per iteration of progressive deepening (and per MTD(f) pass at the root)."""
        return [node for node in self.nodes if node.parent is None]

    def to_json(self) -> dict[str, Any]:
        """The trace as a JSON-ready dict in the format ``kalah-trace/1`` (docs/trace.md); ``json.dumps`` it."""
        return {
            "format": TRACE_FORMAT,
            "position": self.position.to_dict(),
            "algorithm": self.algorithm,
            "depth": self.depth,
            "evaluation": self.evaluation,
            "options": dict(self.options),
            "max_nodes": self.max_nodes,
            "result": self.result.to_dict(),
            "nodes": [node.to_json() for node in self.nodes],
        }


def _json_bound(x: float | int | None) -> float | int | str | None:
    if x is None or not math.isinf(x):
        return x
    return "inf" if x > 0 else "-inf"


def _seeds(units: int) -> float | int:
    return units // UNIT if units % UNIT == 0 else units / UNIT


def _bound(units: int) -> float | int:
    if units >= INF:
        return math.inf
    if units <= -INF:
        return -math.inf
    return _seeds(units)


def check_trace_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options of a trace with the defaults filled in, else a SearchError naming the bad one.

    Raises:
        SearchError: an unknown option, or an option's value of the wrong kind.
    """
    unknown = sorted(set(options) - set(TRACE_OPTIONS))
    if unknown:
        raise SearchError(f"unknown option {unknown[0]!r} for a trace; accepted: {', '.join(TRACE_OPTIONS)}")
    checked = dict(TRACE_OPTIONS)
    for name, value in options.items():
        if name == "table_bits":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 24:
                raise SearchError(f"table_bits must be a whole number from 0 to 24, got {shown(value)}")
        elif not (isinstance(value, bool) or (name == "iterative" and value is None)):
            raise SearchError(f"option {name} must be true or false, got {shown(value)}")
        checked[name] = value
    return checked


def check_traceable(position: Position) -> None:
    """Refuse a board beyond the trace build, which exists only as a byte build (kalah.core.builds).

    Raises:
        SearchError: ``position`` has more than 8 pits a side or more than 255 seeds.
    """
    if needs_big(position):
        raise SearchError(
            f"traces are limited to {BYTE_MAX_PITS} pits a side and {BYTE_MAX_TOTAL} seeds (the trace build of the"
            f" core), got {position.variant.pits} pits and {sum(position.cells)} seeds"
        )


def trace(
    position: Position,
    algorithm: str,
    depth: int,
    evaluation: str = "strong",
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    **options: Any,
) -> SearchTrace:
    """Search ``position`` to ``depth`` as ``kalah.search`` does, and record every node it visits.

    ``algorithm``: ``minimax``, ``alphabeta``, ``scout``, ``pvs`` or ``mtdf``
    (not ``mcts``). ``options`` are those of ``kalah.search`` that shape the
    tree: ``move_values``, ``memo``, ``ordering``, ``iterative`` (default on for
    all but minimax) and ``table_bits``. A search that visits more than
    ``max_nodes`` nodes raises :class:`TraceTooLargeError`.

    Raises:
        SearchError: bad arguments (as :func:`kalah.search`), ``mcts``, no depth, a bad
            ``max_nodes``, or a board beyond the trace build (more than 8 pits or 255 seeds).
        TraceTooLargeError: the search visits more than ``max_nodes`` nodes.
    """
    if not isinstance(position, Position):
        raise SearchError(f"position must be a kalah.Position, got {type(position).__name__}")
    check_traceable(position)
    accepted = ", ".join(TRACED_ALGORITHMS)
    if isinstance(algorithm, str) and algorithm.strip().lower() == "mcts":
        raise SearchError(f"mcts cannot be traced (its tree is not a search to a depth); trace one of {accepted}")
    # the error of an unknown name lists only what a trace takes, not every algorithm kalah.search knows
    algorithm = cast(AlgorithmName, one_of(algorithm, TRACED_ALGORITHMS, "algorithm"))
    evaluation = check_evaluation(evaluation)
    if depth is None:
        raise SearchError("a trace needs a depth (1 or more)")
    last = check_depth(depth)
    assert last is not None
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or not 1 <= max_nodes <= MAX_TRACE_NODES:
        raise SearchError(f"max_nodes must be a whole number from 1 to {MAX_TRACE_NODES}, got {max_nodes!r}")
    used = check_trace_options(options)
    if used["iterative"] is None:
        used["iterative"] = algorithm != "minimax"
    raw = core_trace.trace_search(
        position,
        CORE_ALGORITHMS[algorithm],
        CORE_EVALUATIONS[evaluation],
        1 if used["iterative"] else last,
        last,
        all_values=used["move_values"],
        memo=used["memo"],
        ordering=used["ordering"],
        table_bits=used["table_bits"],
        max_nodes=max_nodes,
    )
    if raw["full"]:
        raise TraceTooLargeError(
            f"the {algorithm} search of depth {last} visits more than {max_nodes} nodes, the most a trace holds "
            f"(max_nodes): trace a smaller depth"
        )
    nodes = [
        TraceNode(
            id=i,
            parent=None if parent < 0 else parent,
            move=None if move == NO_MOVE else move_from_code(move),
            depth=node_depth,
            alpha=_bound(alpha) if window else None,
            beta=_bound(beta) if window else None,
            value=_seeds(value),
            bound=flag,
            cutoff=cutoff,
            table_hit=hit,
            kind=kind,
        )
        for i, (parent, move, kind, node_depth, window, alpha, beta, value, flag, cutoff, hit) in enumerate(
            raw["trace"]
        )
    ]
    result = result_of(position, algorithm, evaluation, raw)
    return SearchTrace(position, algorithm, last, evaluation, used, result, nodes, max_nodes)


def tree_facts(
    position: Position, parents: Sequence[int | None], moves: Sequence[Move | None], cutoffs: Sequence[bool]
) -> tuple[list[int], dict[int, list[Move]]]:
    """Who moves at each node of a traced tree, and the legal moves each cutoff left unvisited.

    The nodes are given as in a trace (``parent`` and ``move`` per node, in
    visiting order; every root is ``position``). The drawings of a trace (the
    lab page, the notebook's tree) name moves by the mover's pit letters and
    hang pruned moves under their node. Raises ``KalahError`` for a move that
    is not legal, and :class:`SearchError` for a parent that is not an earlier node.

    Raises:
        SearchError: the lists differ in length, or a node's parent or move is missing or
            comes after it.
    """
    if not len(parents) == len(moves) == len(cutoffs):
        raise SearchError("parent, move and cutoff must have one entry per node")
    positions: list[Position] = []
    for node_id, (parent, move) in enumerate(zip(parents, moves, strict=False)):
        if parent is None:
            positions.append(position)
        elif not 0 <= parent < node_id:
            raise SearchError(f"node {node_id}: its parent must be an earlier node")
        elif move is None:
            raise SearchError(f"node {node_id}: a node below a root needs its move")
        else:
            positions.append(positions[parent].play(move))
    seen: dict[int, set[Move]] = {}
    for parent, move in zip(parents, moves, strict=False):
        if parent is not None and move is not None:
            seen.setdefault(parent, set()).add(move)
    pruned: dict[int, list[Move]] = {}
    for node_id, cut in enumerate(cutoffs):
        if cut and not positions[node_id].is_over:
            left = [m for m in positions[node_id].legal_moves() if m not in seen.get(node_id, set())]
            if left:
                pruned[node_id] = left
    return [p.to_move for p in positions], pruned

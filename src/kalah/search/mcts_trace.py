"""Traced Monte-Carlo tree search: every iteration of UCT, as the compiled search ran it.

``trace_mcts(position, playouts)`` runs ``kalah.core.search.mcts``'s code
built with its trace hooks (csrc/mcts.c in the ``kalah.core.trace``
extension) and records its four phases: the node where **selection** stopped
(its path is its ancestors), the node **expansion** added, the **playout**'s
final margin, and **back-propagation**, which those three fix. So the visit
counts and values of every node after any iteration follow exactly:
:meth:`MctsTrace.stats` computes them, and after the last iteration they are
the search's own (``result``; ``kalah.search(..., algorithm="mcts")`` with the
same playouts and seed gives the same).

>>> t = trace_mcts(kalah.Position.start(kalah.Variant(4, 3)), playouts=50)
>>> len(t.iterations), t.nodes[0].parent, sum(s.visits for s in t.stats()[1:5])
(50, None, 50)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from kalah.core import trace as core_trace
from kalah.rules import Move, Outcome, Position, PovValue

from .options import SearchError
from .result import SearchResult, mcts_result_of, move_of
from .tracing import check_traceable

__all__ = [
    "MAX_TRACED_PLAYOUTS",
    "MCTS_TRACE_FORMAT",
    "MctsIteration",
    "MctsNode",
    "MctsStats",
    "MctsTrace",
    "trace_mcts",
]

#: The ``format`` field of :meth:`MctsTrace.to_json`.
MCTS_TRACE_FORMAT = "kalah-mcts-trace/1"
#: The most iterations a trace may record (about 30 bytes each, and a Position per node in Python).
MAX_TRACED_PLAYOUTS = 200_000
#: The exploration constant of the ``mcts`` player and ``kalah.search`` (UCB1's sqrt 2).
EXPLORATION = math.sqrt(2)


@dataclass(frozen=True)
class MctsNode:
    """A node of the tree, in the order the search created it (node 0 is the root)."""

    id: int
    parent: int | None
    """The node it was expanded from; None at the root."""
    move: Move | None
    """The move from the parent (a pit index or ``"swap"``); None at the root."""
    mover: int
    """The player who made the move into it: its wins and margins count for this player."""
    position: Position
    """The position at the node."""


@dataclass(frozen=True)
class MctsIteration:
    """One iteration of UCT: selection, expansion, playout, back-propagation."""

    number: int
    """1 for the first iteration."""
    path: tuple[int, ...]
    """Selection: the nodes from the root down to where it stopped (a node with untried moves, or a game's end)."""
    expanded: int | None
    """Expansion: the node added below the last of ``path``; None when the game was over there."""
    margin: int
    """The random playout's final margin, player 0's view, played from ``expanded`` (or the end of ``path``)."""

    @property
    def backpropagated(self) -> tuple[int, ...]:
        """The nodes the playout's result was added to: ``path`` and the expanded node."""
        return self.path + ((self.expanded,) if self.expanded is not None else ())


@dataclass(frozen=True)
class MctsStats:
    """A node's statistics at some point of the search."""

    visits: int
    wins: float
    """Wins (1) and draws (1/2) of the playouts through it, for the node's ``mover``."""
    margin: int
    """The summed final margins of those playouts, for the node's ``mover``."""

    @property
    def value(self) -> float | None:
        """The mean result (``wins / visits``), what UCT's selection compares; None before a visit."""
        return self.wins / self.visits if self.visits else None


@dataclass
class MctsTrace:
    """A UCT search and every step it took: what :func:`trace_mcts` returns."""

    position: Position
    playouts: int
    exploration: float
    seed: int
    result: SearchResult
    """The result of this very search."""
    nodes: list[MctsNode] = field(default_factory=list)
    iterations: list[MctsIteration] = field(default_factory=list)

    def stats(self, after: int | None = None) -> list[MctsStats]:
        """Every node's visits and values after ``after`` iterations (all by default); a node not yet made has 0 visits.

        Raises:
            SearchError: ``after`` is not between 0 and the number of iterations.
        """
        count = len(self.iterations) if after is None else after
        if not 0 <= count <= len(self.iterations):
            raise SearchError(f"after must be between 0 and {len(self.iterations)}, got {after}")
        visits = [0] * len(self.nodes)
        wins = [0.0] * len(self.nodes)
        margins = [0] * len(self.nodes)
        for iteration in self.iterations[:count]:
            final = PovValue(iteration.margin, 0)  # the playout's final margin, player 0's
            outcome = Outcome.expected(final)
            for node in iteration.backpropagated:
                mover = self.nodes[node].mover
                visits[node] += 1
                wins[node] += outcome.score(mover)
                margins[node] += int(final.pov(mover))
        return [MctsStats(v, w, m) for v, w, m in zip(visits, wins, margins, strict=False)]

    def ucb(self, node: int, after: int) -> float | None:
        """The UCB1 score by which selection weighed ``node`` against its siblings in iteration ``after + 1``."""
        parent = self.nodes[node].parent
        if parent is None:
            return None
        stats = self.stats(after)
        mine, theirs = stats[node], stats[parent]
        if not mine.visits:
            return None
        return mine.wins / mine.visits + self.exploration * math.sqrt(math.log(theirs.visits) / mine.visits)

    def to_json(self) -> dict[str, Any]:
        """The trace as a JSON-ready dict in the format ``kalah-mcts-trace/1`` (docs/trace.md)."""
        final = self.stats()
        return {
            "format": MCTS_TRACE_FORMAT,
            "position": self.position.to_dict(),
            "playouts": self.playouts,
            "exploration": self.exploration,
            "seed": self.seed,
            "result": self.result.to_dict(),
            "nodes": [
                {
                    "id": n.id,
                    "parent": n.parent,
                    "move": n.move,
                    "mover": n.mover,
                    "visits": s.visits,
                    "wins": s.wins,
                    "margin": s.margin,
                }
                for n, s in zip(self.nodes, final, strict=False)
            ],
            "iterations": [{"path": list(i.path), "expanded": i.expanded, "margin": i.margin} for i in self.iterations],
        }


def trace_mcts(
    position: Position, playouts: int = 1000, *, seed: int = 0, exploration: float = EXPLORATION
) -> MctsTrace:
    """Run UCT from ``position`` for ``playouts`` iterations, as ``kalah.search(position, algorithm="mcts",
    playouts=playouts, seed=seed)`` does, and record every iteration (see the module's docstring).

    Raises:
        SearchError: a position that is not a :class:`kalah.Position`, or ``playouts`` not a whole
            number from 1 to :data:`MAX_TRACED_PLAYOUTS`, or a bad ``seed`` or ``exploration``, or a
            board beyond the trace build (more than 8 pits or 255 seeds).
    """
    if not isinstance(position, Position):
        raise SearchError(f"position must be a kalah.Position, got {type(position).__name__}")
    check_traceable(position)
    if isinstance(playouts, bool) or not isinstance(playouts, int) or not 1 <= playouts <= MAX_TRACED_PLAYOUTS:
        raise SearchError(f"playouts must be a whole number from 1 to {MAX_TRACED_PLAYOUTS}, got {playouts!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise SearchError(f"seed must be a whole number from 0 to 2**64 - 1, got {seed!r}")
    if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) or not 0 <= exploration < math.inf:
        raise SearchError(f"exploration must be a number of 0 or more, got {exploration!r}")
    raw = core_trace.trace_mcts(position, playouts, float(exploration), seed)
    nodes: list[MctsNode] = []
    for number, (parent, code) in enumerate(raw["tree"]):
        if parent < 0:
            nodes.append(MctsNode(number, None, None, 1 - position.to_move, position))
            continue
        move: Move = move_of(code)
        above = nodes[parent].position
        nodes.append(MctsNode(number, parent, move, above.to_move, above.play(move)))
    iterations = []
    for number, (selected, expanded, margin) in enumerate(raw["iterations"], start=1):
        path = []
        at: int | None = selected
        while at is not None:
            path.append(at)
            at = nodes[at].parent
        iterations.append(MctsIteration(number, tuple(reversed(path)), expanded if expanded >= 0 else None, margin))
    result = mcts_result_of(position, "strong", raw)
    return MctsTrace(position, playouts, float(exploration), seed, result, nodes, iterations)

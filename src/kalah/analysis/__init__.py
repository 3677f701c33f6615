"""Analysis that knows when it is exact: ``kalah.analyse(position, time=...)``.

A position's value is looked up or proven wherever that is cheap, and
estimated by a search only where it is not:

1. a finished game: the final margin (source ``"rules"``);
2. the shipped opening book (:func:`kalah.book.lookup`): the exact value and
   every best move (``"book"``);
3. the exact solver under a small time budget (:func:`kalah.solve`, which
   probes the endgame databases): small positions are proven in milliseconds
   (``"endgame"`` when the database alone holds the position, else ``"solver"``);
4. otherwise a search for the time left (``"search"``), labelled an estimate.

The same is done for the value of each legal move (the value of the position
it leads to, seen from the mover), so a table of moves can mix exact values
and estimates; each carries its own ``exact`` flag. Every value is in seeds,
from the point of view of the player to move: the final margin (the mover's
total minus the opponent's) under perfect play when exact.
"""

from __future__ import annotations

import time as _time
from dataclasses import dataclass, field
from typing import Any, Literal

from kalah import book as _book
from kalah import endgame as eg
from kalah.rules import KalahError, Move, Position
from kalah.search import SearchResult, search
from kalah.solve import SolveError, solve

__all__ = ["DEFAULT_TIME", "EXACT_SHARE", "Analysis", "AnalysisError", "MoveAnalysis", "Source", "analyse"]

#: Seconds an analysis takes by default.
DEFAULT_TIME = 1.0
#: Share of the time given to proving the position's value before a search estimates it. A position the
#: solver does not prove in a third of the time is left to the search: the rest of the time goes there.
EXACT_SHARE = 1 / 3
#: Where a value came from.
Source = Literal["rules", "book", "endgame", "solver", "search"]


class AnalysisError(KalahError, ValueError):
    """An analysis that cannot be done as asked (not a position, a bad time)."""


@dataclass(frozen=True)
class MoveAnalysis:
    """The value of one legal move for the player to move, and whether it is proven."""

    move: Move
    """A pit index ``0..pits-1`` of the mover, or ``"swap"``."""
    value: float | int | None
    """In seeds for the player to move: exact (an ``int``) or a search's estimate; None when not valued in time."""
    exact: bool
    """True when ``value`` is proven (the final margin under perfect play after this move)."""
    source: Source
    """Where the value came from."""


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found about a position, from the side to move's point of view.

    >>> analysis = kalah.analyse(kalah.Position.start(kalah.Variant(4, 2)), time=0.5)
    >>> analysis.value, analysis.exact, analysis.best_moves
    (6, True, [1])
    """

    position: Position
    """The position analysed."""
    value: float | int | None
    """The position's value in seeds for the player to move (an ``int`` when exact)."""
    exact: bool
    """True when ``value`` and ``best_moves`` are proven; False for a search's estimate."""
    best_moves: list[Move]
    """Every best move when exact and every move's value is exact; when exact with some moves
    estimated (or without ``move_values``), the best moves proven so far (at least one); the search's
    best move when estimated; empty when the game is over. In pit order, the swap last."""
    moves: list[MoveAnalysis]
    """Every legal move with its value (empty when not asked for, or the game is over)."""
    pv: list[Move] = field(default_factory=list)
    """A line of best play from the position (of perfect play when exact), ``best_move`` first."""
    source: Source = "search"
    """Where the position's value came from."""
    depth: int | None = None
    """The depth of the search that estimated the value (None when exact)."""
    seconds: float = 0.0
    """Wall-clock time of the analysis."""

    @property
    def best_move(self) -> Move | None:
        """The move to play: among moves of equal value the lowest pit (the swap last), as the search
        breaks ties; None when the game is over. A hint names it and an analysis shows it first, so
        that both name the same move where several are as good."""
        return self.best_moves[0] if self.best_moves else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah analyse --json``."""
        return {
            "value": self.value,
            "exact": self.exact,
            "best_moves": list(self.best_moves),
            "best_move": self.best_move,
            "pv": list(self.pv),
            "source": self.source,
            "depth": self.depth,
            "to_move": self.position.to_move,
            "moves": [
                {"move": entry.move, "value": entry.value, "exact": entry.exact, "source": entry.source}
                for entry in self.moves
            ],
            "seconds": round(self.seconds, 6),
        }


@dataclass(frozen=True)
class _Exact:
    value: int
    best_moves: list[Move]
    pv: list[Move]
    source: Source


def _exact(position: Position, budget: float, threads: int | None, *, best_moves: bool = True) -> _Exact | None:
    """The proven value of ``position`` (rules, book or a solve within ``budget`` seconds), or None."""
    margin = position.mover_margin
    if margin is not None:  # the game is over
        return _Exact(margin, [], [], "rules")
    entry = _book.lookup(position)
    if entry is not None:
        return _Exact(entry.value, list(entry.best_moves), _book_line(position), "book")
    if budget <= 0:
        return None
    try:
        solved = solve(position, budget, threads=threads, best_moves=best_moves, pv=best_moves)
    except (SolveError, MemoryError):  # no room for the solver's table: leave it to the search
        return None
    if solved.value is None:
        return None
    held = solved.endgame_seeds is not None and position.seeds_in_pits <= solved.endgame_seeds
    return _Exact(solved.value, list(solved.best_moves), list(solved.pv), "endgame" if held else "solver")


def _book_line(position: Position) -> list[Move]:
    """A line of perfect play through the shipped book, as far as it holds the positions: at each, the
    lowest pit among the best moves (the rule :attr:`Analysis.best_move` names), so the line begins with it."""
    line: list[Move] = []
    entry = _book.lookup(position)
    while entry is not None and entry.best_moves:
        move = _in_move_order(position, list(entry.best_moves))[0]
        line.append(move)
        position = position.play(move)
        entry = _book.lookup(position)
    return line


def _in_move_order(position: Position, moves: list[Move]) -> list[Move]:
    """``moves`` once each, in the order of the legal moves: the lowest pit first, the swap last (the
    order in which the search breaks ties, so that ``best_move`` is the move it would play)."""
    return [move for move in position.legal_moves() if move in moves]


def _mover_value(position: Position, move: Move, child_value: float | int) -> float | int:
    """A move's value for the mover of ``position`` from the value of the position it leads to."""
    return child_value if position.play(move).to_move == position.to_move else -child_value


def _oracle(position: Position) -> object | None:
    try:
        return eg.oracle_for(position.variant)
    except KalahError:  # a database that cannot be read: search without it
        return None


#: Nodes a second of an analysis's time buys its estimate, counted (not timed) so that the estimate's depth
#: is a function of the position and the time asked: about half of what one core searches (benchmarks/).
ESTIMATE_NODES_PER_SECOND = 1_500_000


def _estimate(position: Position, time: float, deadline: float, move_values: bool) -> SearchResult:
    """A search's estimate of ``position`` that is the same every time for the same position and ``time``.

    A search for the time left went as deep as the machine's load and the exact phase left it: the same
    position was estimated at -15.5 once and -30 the next time (issue 48). Here the search deepens two
    moves at a time, each depth to its end on one thread (whose node counts do not vary), until the next
    depth's nodes, foretold from the growth of the last two, would pass the budget that ``time`` buys.
    The deadline (``time`` past the analysis's own) only guards a machine far slower than assumed: a depth
    cut short by it is not used."""
    budget = ESTIMATE_NODES_PER_SECOND * time * (1 - EXACT_SHARE)
    oracle = _oracle(position)
    hard = deadline + time
    found: SearchResult | None = None
    nodes: list[int] = []
    depth = 2
    while True:
        left = max(hard - _time.perf_counter(), 0.01)
        result = search(position, depth=depth, time=left, move_values=move_values, threads=1, oracle=oracle)
        if found is not None and result.depth < depth:
            break  # cut short by the deadline: the last whole depth stands
        found = result
        nodes.append(result.stats.nodes)
        growth = nodes[-1] / nodes[-2] if len(nodes) > 1 and nodes[-2] else 4.0
        if result.exact or result.depth < depth or nodes[-1] * growth > budget:
            break
        depth += 2
    return found


def analyse(
    position: Position,
    time: float = DEFAULT_TIME,
    *,
    move_values: bool = True,
    threads: int | None = None,
) -> Analysis:
    """The value and best moves of ``position``, exact where they can be proven within ``time`` seconds.

    ``move_values``: value every legal move too (each exact where proven).
    ``threads``: threads for the solver (the estimate searches on one, so that it is the same every time; default: every usable
    core). The answer is exact (``Analysis.exact``) when the book, the rules,
    the endgame databases or the solver proved it; otherwise a search of the
    time left estimates it. Raises :class:`AnalysisError` for a bad argument.
    """
    if not isinstance(position, Position):
        raise AnalysisError(f"analyse needs a kalah.Position, got {type(position).__name__}")
    if isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0:
        raise AnalysisError(f"time must be a positive number of seconds, got {time!r}")
    started = _time.perf_counter()
    deadline = started + time

    def answer(
        value: float | int | None,
        exact: bool,
        best: list[Move],
        moves: list[MoveAnalysis],
        pv: list[Move],
        source: Source,
        depth: int | None = None,
    ) -> Analysis:
        best = _in_move_order(position, best)
        if best and pv[:1] != best[:1]:
            # A book's line begins with its fastest move, which may be another of the equal moves: the
            # line shown begins with the move named best (alone, where nothing proves a line after it).
            pv = [best[0]]
        return Analysis(position, value, exact, best, moves, list(pv), source, depth, _time.perf_counter() - started)

    proven = _exact(position, time * EXACT_SHARE, threads, best_moves=True)
    if proven is not None and proven.source == "rules":
        return answer(proven.value, True, [], [], [], "rules")
    moves: dict[Move, MoveAnalysis] = {}
    if move_values and proven is not None:
        # The book's best moves are every best move (an unlimited solve made them), worth the position's
        # value. A timed solve's list may be cut short by its deadline, so its moves are proven one by one,
        # like the others (cheap after the position's: the solver keeps its table), each within what is
        # left of the time.
        legal = position.legal_moves()
        if proven.source == "book":
            for move in legal:
                if move in proven.best_moves:
                    moves[move] = MoveAnalysis(move, proven.value, True, proven.source)
        others = [move for move in legal if move not in moves]
        for index, move in enumerate(others):
            share = (deadline - _time.perf_counter()) * EXACT_SHARE / (len(others) - index)
            child = _exact(position.play(move), share, threads, best_moves=False)
            if child is not None:
                moves[move] = MoveAnalysis(move, _mover_value(position, move, child.value), True, child.source)
    if proven is not None and (not move_values or len(moves) == len(position.legal_moves())):
        ordered = [moves[move] for move in position.legal_moves()] if move_values else []
        best = [entry.move for entry in ordered if entry.value == proven.value] if move_values else proven.best_moves
        return answer(proven.value, True, best or proven.best_moves, ordered, proven.pv, proven.source)
    found = _estimate(position, time, deadline, move_values)
    for entry in found.moves:
        if entry.move in moves:
            continue
        proven_move = found.exact and entry.bound == "exact" and entry.value is not None
        moves[entry.move] = MoveAnalysis(entry.move, entry.value, proven_move, "search")
    ordered = [moves[move] for move in position.legal_moves() if move in moves] if move_values else []
    if proven is not None:
        # Some moves' values are estimates: the best moves are those proven to keep the value, one by one
        # or by the solve of the position, not necessarily all of them.
        best = [entry.move for entry in ordered if entry.exact and entry.value == proven.value]
        return answer(proven.value, True, best + proven.best_moves, ordered, proven.pv, proven.source)
    if found.exact and found.value is not None and all(entry.exact for entry in ordered):
        # A search that reached the end of every line proved the values itself (few seeds left).
        best = [entry.move for entry in ordered if entry.value == found.value] if move_values else []
        best = best or ([found.best_move] if found.best_move is not None else [])
        return answer(found.value, True, best, ordered, found.pv, "search")
    best = [found.best_move] if found.best_move is not None else []
    return answer(found.value, False, best, ordered, found.pv, "search", found.depth)

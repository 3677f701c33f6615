"""``kalah.analyse``: proven values where they are cheap, a search's estimates where they are not."""

from __future__ import annotations

import time as _time

from kalah import endgame as eg
from kalah.rules import KalahError, Move, Position, PovValue
from kalah.search import SearchResult, search

from .exact import in_move_order, proven_value
from .result import Analysis, AnalysisError, MoveAnalysis, Source

__all__ = ["DEFAULT_TIME", "EXACT_SHARE", "analyse"]

#: Seconds an analysis takes by default.
DEFAULT_TIME = 1.0
#: Share of the time given to proving the position's value before a search estimates it. A position the
#: solver does not prove in a third of the time is left to the search: the rest of the time goes there.
EXACT_SHARE = 1 / 3


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
        best = in_move_order(position, best)
        if best and pv[:1] != best[:1]:
            # A book's line begins with its fastest move, which may be another of the equal moves: the
            # line shown begins with the move named best (alone, where nothing proves a line after it).
            pv = [best[0]]
        return Analysis(position, value, exact, best, moves, list(pv), source, depth, _time.perf_counter() - started)

    proven = proven_value(position, time * EXACT_SHARE, threads, best_moves=True)
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
            after = position.play(move)
            child = proven_value(after, share, threads, best_moves=False)
            if child is not None:
                # The value of the position a move leads to is its mover's: the same player after an extra turn.
                value = PovValue(child.value, after.to_move).pov(position.to_move)
                moves[move] = MoveAnalysis(move, value, True, child.source)
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

"""The seed project's comparison of the AIs: the same positions searched by
several algorithms at several depths, their nodes and time, and whether they
all made the same decision."""

from __future__ import annotations

import random
import statistics
import threading
from collections.abc import Callable, Sequence
from typing import Any

from kalah.core.builds import Engine
from kalah.rules import Move, Position, Variant

from .options import AlgorithmName, EvaluationName, SearchError
from .run import search

#: Finished games in a row after which varied_positions gives up.
MAX_MISSES = 1_000


def varied_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    """The start and ``count`` positions reached by 2 to 20 random moves (none finished).

    Raises:
        SearchError: ``MAX_MISSES`` random games in a row were over before an unfinished position was
            found (a tiny variant such as Kalah(1,1)).
    """
    rng = random.Random(seed)
    found = [Position.start(variant)]
    misses = 0
    while len(found) < count + 1:
        if misses == MAX_MISSES:  # in a tiny variant every game is over within two moves
            raise SearchError(
                f"{variant.name} has no unfinished position after 2 or more random moves ({MAX_MISSES:,} games"
                " tried): compare it with --positions 0 (the start alone)"
            )
        position = Position.start(variant)
        for _ in range(rng.randrange(2, 21)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over:
            found.append(position)
            misses = 0
        else:
            misses += 1
    return found


#: Totals of one (algorithm, depth): nodes, leaves, seconds, table hits and cutoffs.
Totals = dict[tuple[AlgorithmName, int], dict[str, float]]
#: A decision the algorithms disagreed on: the depth, the position's number, each one's (value, move).
Disagreement = tuple[int, int, dict[AlgorithmName, tuple[float | int | None, Move | None]]]


def run_comparison(
    algorithms: Sequence[AlgorithmName],
    depths: Sequence[int],
    positions: Sequence[Position],
    evaluation: EvaluationName,
    on_search: Callable[[], object] | None = None,
    repeats: int = 1,
    completed: list[int] | None = None,
    found: dict[str, Any] | None = None,
    engine: Engine | None = None,
    cancelled: threading.Event | None = None,
) -> tuple[Totals, list[Disagreement]]:
    """Totals per (algorithm, depth) and the decisions on which the algorithms disagreed.

    ``on_search`` is called after every single search (for a progress bar).
    Each search runs ``repeats`` times and counts the median of its times (a
    single sub-millisecond timing is noise; the nodes are the same every
    time). ``completed``, a list, gets each depth once all its searches are
    done, and ``found``, a dict, the totals and disagreements as they grow, so
    that a caller stopped by Ctrl-C can show the rows that are whole.

    To stop it from another thread, set ``cancelled`` and call ``engine.stop()``
    (the ``engine`` given here): it returns at once, without counting the search
    the stop cut short. One deep search can take hours, so waiting for it is no way to stop.
    """
    totals: Totals = {
        (a, d): {"nodes": 0, "leaves": 0, "seconds": 0.0, "tt_hits": 0, "cutoffs": 0}
        for a in algorithms
        for d in depths
    }
    disagreements: list[Disagreement] = []
    # One engine for every search (each starts from an empty table), its pages in memory before the first:
    # a fresh table's first touches cost the kernel's zeroing, which made the first small searches several
    # times slower than deeper ones (minimax at depth 2 in 100-570 us, at depth 3 in 25).
    engine = engine if engine is not None else Engine()
    for position in positions[:1]:  # they are all of one variant, so of one build
        engine.warm(position)
    if found is not None:
        found.update(totals=totals, disagreements=disagreements)
    for depth in depths:
        for number, position in enumerate(positions):
            answers: dict[AlgorithmName, tuple[float | int | None, Move | None]] = {}
            for algorithm in algorithms:
                times: list[float] = []
                for _ in range(max(1, repeats)):
                    if cancelled is not None and cancelled.is_set():
                        return totals, disagreements
                    result = search(
                        position, algorithm, depth=depth, evaluation=evaluation, move_values=False, engine=engine
                    )
                    if cancelled is not None and cancelled.is_set():
                        return totals, disagreements  # the stop cut this search short: it counts for nothing
                    times.append(result.stats.seconds)
                total = totals[(algorithm, depth)]
                total["nodes"] += result.stats.nodes
                total["leaves"] += result.stats.leaves
                total["seconds"] += statistics.median(times)
                total["tt_hits"] += result.stats.tt_hits
                total["cutoffs"] += result.stats.cutoffs
                answers[algorithm] = (result.value, result.best_move)
                if on_search is not None:
                    on_search()
            if len(set(answers.values())) > 1:
                disagreements.append((depth, number, answers))
        if completed is not None:
            completed.append(depth)
    return totals, disagreements

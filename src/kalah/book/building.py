"""Building a book: every decision along the perfect player's lines solved, one decision number after
another, with checkpoints to resume from."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kalah.rules import Position, Variant
from kalah.version import __version__

from .choice import choose
from .entry import BookError
from .file import Book, decisions

__all__ = ["Progress", "build_book"]

#: ``progress(done, total, level)``: positions settled so far, positions known so far (it grows as the
#: lines are followed), the decision number being worked on (1 = the first move of each seat).
Progress = Callable[[int, int, int], None]


def build_book(
    variant: Variant,
    moves: int | None,
    *,
    plies: int | None = None,
    book: Book | None = None,
    threads: int | None = 1,
    progress: Progress | None = None,
    checkpoint: Callable[[Book], None] | None = None,
    checkpoint_seconds: float = 60.0,
) -> Book:
    """Build the book of ``variant`` for the perfect player's first ``moves`` decisions of each seat.

    ``plies`` also stops the lines that many moves from the start (``moves`` None: as many decisions
    as plies, so the plies alone limit the book).

    Every position is solved exactly (:func:`choose`); the solver keeps its
    table between positions. ``book`` extends an earlier book of the variant
    (its entries are reused, not solved again). ``checkpoint(book)`` is called
    after each decision number is complete and at least every
    ``checkpoint_seconds`` of solving (to save the book so far: ``book.moves``
    counts the complete decision numbers, an extension reuses the rest).
    Returns the book.

    Raises:
        BookError: ``moves`` or ``plies`` is negative or not an integer (or both are None), the
            variant is too large to solve, or ``book`` is of another variant.
        kalah.solve.SolveError: the solver refuses the options.
    """
    if plies is not None and (isinstance(plies, bool) or not isinstance(plies, int) or plies < 0):
        raise BookError(f"plies must be a non-negative integer, got {plies!r}")
    if moves is None and plies is not None:
        moves = plies  # a decision takes at least one ply
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
        raise BookError(f"moves must be a non-negative integer, got {moves!r}")
    if variant.seeds * variant.pits * 2 > 60:
        raise BookError(f"{variant.name} is too large for a book here: the solver proves at most 60 seeds")
    if book is not None and book.variant != variant:
        raise BookError(f"the book to extend is of {book.variant.name}, not of {variant.name}")
    entries = dict(book.entries) if book is not None else {}
    built = dict(book.built) if book is not None else {}
    levels: list[dict[str, Any]] = list(built.get("levels", []))
    result = Book(variant, 0, entries, built, plies=plies)
    start = Position.start(variant)
    frontier: dict[str, tuple[Position, int]] = {}
    for seat in (0, 1):
        decisions(start, seat, frontier, 0, plies)
    seen: set[str] = set()
    done = 0
    total = len(frontier)
    saved = time.perf_counter()
    for level in range(1, moves + 1):
        todo = [(key, position) for key, position in frontier.items() if key not in seen]
        total = done + len(todo)  # the estimate of the level before counted its transpositions twice
        level_started = time.perf_counter()
        solved = 0
        following: dict[str, tuple[Position, int]] = {}
        for key, (position, ply) in todo:
            seen.add(key)
            entry = entries.get(key)
            if entry is None:
                entry = entries[key] = choose(position, threads=threads)
                solved += 1
                if checkpoint is not None and time.perf_counter() - saved >= checkpoint_seconds:
                    checkpoint(result)
                    saved = time.perf_counter()
            done += 1
            if progress is not None:
                progress(done, total, level)
            if level < moves:
                before = len(following)
                decisions(position.play(entry.move), position.to_move, following, ply + 1, plies)
                total += len(following) - before
        frontier = following
        result.moves = level
        seconds = time.perf_counter() - level_started
        if level > len(levels):
            levels.append({"positions": len(todo), "seconds": round(seconds, 1)})
        elif solved:
            levels[level - 1]["seconds"] = round(levels[level - 1].get("seconds", 0) + seconds, 1)
        built["levels"] = levels
        built["seconds"] = round(sum(item.get("seconds", 0) for item in levels), 1)
        built["entries"] = len(entries)
        built["kalah"] = __version__
        built["threads"] = threads
        if checkpoint is not None and solved:
            checkpoint(result)
            saved = time.perf_counter()
    if book is not None and book.moves > moves and book.plies == plies:
        result.moves = book.moves
    return result

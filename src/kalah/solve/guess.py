"""The first guess of MTD(f): a short heuristic search whose value orders the solver's tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from kalah.core.builds import Engine
from kalah.rules import Move, Position

__all__ = ["DEEP_GUESS_SEEDS", "GUESS_DEPTH", "GUESS_MIN_SEEDS", "Guess", "guess_effort", "heuristic_guess"]

#: Positions with at least this many seeds in the pits get a heuristic first guess for MTD(f).
GUESS_MIN_SEEDS = 30
GUESS_DEPTH = 16
GUESS_SECONDS = 0.5  # at most, for the guess's search
#: From this many seeds on a solve takes minutes, and the guess gets a deeper search: on Kalah(6,5) depth 16
#: says +7.5 (so +8), depths 21 to 23 say +9 to +9.75 (so +10, the value; depth 22 takes 4 s in a fresh
#: process), and the tests from +10 take 40% fewer nodes than those from +8.
DEEP_GUESS_SEEDS = 56
DEEP_GUESS_DEPTH = 22
DEEP_GUESS_SECONDS = 6.0


def guess_effort(position: Position) -> tuple[int, float]:
    """The depth and the seconds (at most) of the heuristic search that gives ``position``'s first guess."""
    if position.seeds_in_pits >= DEEP_GUESS_SEEDS:
        return DEEP_GUESS_DEPTH, DEEP_GUESS_SECONDS
    return GUESS_DEPTH, GUESS_SECONDS


@dataclass(frozen=True)
class Guess:
    """What the guess's heuristic search said about a position."""

    value: int
    """Its value rounded to a margin (only orders the tests: the result is proven whatever it is)."""
    best_move: Move | None
    """Its best move: a timed solve that proves no value reports it, marked unproven."""


def heuristic_guess(
    position: Position, threads: int | None = None, stop: threading.Event | None = None, seconds: float | None = None
) -> Guess | None:
    """A first guess of the value for MTD(f): a short heuristic search (a fraction of a second; a few
    seconds from :data:`DEEP_GUESS_SEEDS` on) on ``threads`` threads (default one). None for small or
    finished positions, where no guess pays.

    Each MTD(f) probe costs a full null-window proof; starting near the true
    value saves the climb from 0 (on Kalah(6,4): four probes of the seven). The
    guess only orders the probes: the result is proven whatever it is.
    ``stop``, set from another thread, ends the search within a fiftieth of a second (None then).
    ``seconds`` caps the search's time below :func:`guess_effort`'s (a short solve's budget).
    """
    if position.seeds_in_pits < GUESS_MIN_SEEDS or position.is_over:
        return None
    from kalah.search import search

    depth, most = guess_effort(position)
    seconds = most if seconds is None else max(0.001, min(most, seconds))
    if stop is None:
        result = search(position, "pvs", depth=depth, time=seconds, move_values=False, threads=threads)
    else:
        engine = Engine(20)  # its own, for the watcher to stop
        with _stopped_by(stop, engine):
            result = search(
                position, "pvs", depth=depth, time=seconds, move_values=False, threads=threads, engine=engine
            )
        if stop.is_set():
            return None
    if result.value is None:
        return None
    return Guess(round(result.value), result.best_move)


@contextmanager
def _stopped_by(stop: threading.Event, engine: Engine) -> Iterator[None]:
    """While the block runs, a watcher stops ``engine``'s search once ``stop`` is set."""
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            if stop.is_set():
                engine.stop()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()

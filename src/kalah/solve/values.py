"""The value of a game's start, proven and checked: one entry of the table of values (``kalah solve --table``).

An entry is three steps, each under the same time limit:

1. *The value.* :func:`kalah.solve` with the limit: the first player's
   margin under perfect play and every best first move, or, when the limit
   cuts it, the bounds it proved (never passed off as a value).
2. *The pie rule.* With the pie rule the first move earns no extra turn and
   the second player may take over the side it was played on. After first
   move ``m`` the second player, to move, is worth ``v`` without swapping and
   ``-v`` by swapping (the first player then moves on that same board), so it
   takes ``|v|`` and the first player's value is ``-min |v|`` over the first
   moves (a first move that ends the game leaves no swap). Each ``v`` is an
   exact solve of the board after ``m`` without the pie rule. So the first
   player never wins with the pie rule; whether it draws depends on a first
   move worth exactly 0.
3. *The check.* A second proof of both answers by another route: a fresh
   solver table of another size, another endgame database (none, or a small
   one in memory where the value used a file), and null-window tests on the
   first moves instead of MTD(f) at the start: each best move proven worth
   the value exactly, every other move refuted (worth less); for the pie
   rule, each best first move's board proven worth exactly ``±t`` and every
   other one at least ``t + 2`` away from 0.
"""

from __future__ import annotations

import os
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kalah import endgame as eg
from kalah.rules import Move, Position, Variant

from .databases import second_max_seeds
from .engine import clear_engines, default_tt_log2, engine_for, size_tt_log2
from .result import SolveError, SolveResult
from .run import Run

__all__ = ["Board", "Check", "PieRule", "Proof", "check_board", "pie_rule_value", "prove_value"]

#: Told the bounds proven so far, as ``(step, lower, upper)``: the step is "value", "pie rule" or "check".
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, order=True)
class Board:
    """A start to solve: the pits a side, the seeds in each, and the capture rule."""

    pits: int
    seeds: int
    empty_capture: bool = False

    @property
    def variant(self) -> Variant:
        """The variant of this board (without the pie rule)."""
        return Variant(self.pits, self.seeds, empty_capture=self.empty_capture)

    @property
    def key(self) -> str:
        """``7x4``, or ``7x4-ec`` for the empty-capture rule: the entry's name in the table file."""
        return f"{self.pits}x{self.seeds}" + ("-ec" if self.empty_capture else "")

    @property
    def rule(self) -> str:
        """``standard`` or ``empty capture``."""
        return "empty capture" if self.empty_capture else "standard"

    @property
    def name(self) -> str:
        """``Kalah(7,4)``, or ``Kalah(7,4) empty capture``."""
        return f"Kalah({self.pits},{self.seeds})" + (" empty capture" if self.empty_capture else "")


@dataclass
class Proof:
    """Step 1: the start's value (or bounds) and best first moves."""

    lower: int
    """The first player's margin is at least this."""
    upper: int
    """And at most this (equal to ``lower`` when proven)."""
    best_moves: list[Move] = field(default_factory=list)
    """Every first move that keeps the value (empty when the limit cut the proof of the moves)."""
    nodes: int = 0
    """Positions the solver visited."""
    seconds: float = 0.0
    """Wall-clock seconds, the endgame table's computation included."""
    endgame_seeds: int | None = None
    """K of the endgame database probed, or None."""
    endgame_file: bool = False
    """Whether that database was a file (else a table computed in memory)."""
    tt_log2: int = 0
    """The solver table's size, log2 of its entries."""

    @property
    def value(self) -> int | None:
        """The proven value, or None."""
        return self.lower if self.lower == self.upper else None

    @property
    def proven(self) -> bool:
        """Whether the value and its best moves are proven."""
        return self.value is not None and bool(self.best_moves)


@dataclass
class PieRule:
    """Step 2: the start's value for the first player with the pie rule."""

    lower: int
    """The first player's margin with the pie rule is at least this."""
    upper: int
    """And at most this."""
    best_moves: list[Move] = field(default_factory=list)
    """The first moves that keep it (empty unless proven)."""
    move_bounds: dict[Move, tuple[int, int]] = field(default_factory=dict)
    """Each first move's bounds for the first player with the pie rule (the swap chosen well)."""
    replies: dict[Move, int] = field(default_factory=dict)
    """For each first move whose board after it was solved: that board's value for the second player
    without swapping (the checks re-prove it)."""
    nodes: int = 0
    """Positions the solver visited."""
    seconds: float = 0.0
    """Wall-clock seconds."""

    @property
    def value(self) -> int | None:
        """The proven value, or None."""
        return self.lower if self.lower == self.upper else None


@dataclass
class Check:
    """Step 3: the second proof's verdict."""

    verdict: str
    """``agrees``, ``disagrees`` (a contradiction: the entry is not a value), or ``cut`` (the limit struck)."""
    method: str
    """What the second proof did, in words."""
    nodes: int = 0
    """Positions it visited."""
    seconds: float = 0.0
    """Wall-clock seconds."""
    disagreements: list[str] = field(default_factory=list)
    """What contradicted the first proof, in words."""


def _endgame_is_file(board: Board, k: int | None) -> bool:
    if k is None:
        return False
    found = eg.locate(board.variant)
    return found is not None and found.max_seeds == k


def prove_value(
    board: Board,
    limit: float,
    *,
    threads: int | None = None,
    endgame: Any = "auto",
    tt_log2: int | None = None,
    progress: Progress | None = None,
) -> Proof:
    """Step 1: the value of ``board``'s start and its best first moves, within ``limit`` seconds, on a
    fresh solver table (so that the nodes do not depend on what was solved before in the process)."""
    from kalah.solve import solve

    clear_engines()
    position = Position.start(board.variant)
    result: SolveResult = solve(
        position,
        limit,
        threads=threads,
        endgame=endgame,
        tt_log2=tt_log2,
        pv=False,
        progress=None if progress is None else lambda lo, hi: progress("value", lo, hi),
    )
    return Proof(
        lower=result.lower,
        upper=result.upper,
        best_moves=list(result.best_moves) if result.exact else [],
        nodes=result.nodes,
        seconds=result.seconds,
        endgame_seeds=result.endgame_seeds,
        endgame_file=_endgame_is_file(board, result.endgame_seeds),
        tt_log2=tt_log2 or default_tt_log2(position.seeds_in_pits, limit),  # as solve() sizes it
    )


def first_move_boards(board: Board) -> dict[Move, Position]:
    """The board after each first move under the pie rule (no extra turn: the second player moves), as a
    position of the variant without the pie rule, which is how the game goes on once the swap is decided."""
    start = Position.start(Variant(board.pits, board.seeds, empty_capture=board.empty_capture, pie_rule=True))
    plain = board.variant
    return {move: Position.from_cells(start.play(move).cells, 1, plain) for move in start.legal_moves()}


def _pie_bounds(after: Position, low: int, high: int) -> tuple[int, int]:
    """The first player's bounds for a first move whose board (second player to move) is worth between
    ``low`` and ``high`` to the second player: it takes the better of ``v`` and ``-v`` (the swap)."""
    if after.is_over:
        margin = after.margin or 0
        return margin, margin
    if low >= 0:
        least, most = low, high
    elif high <= 0:
        least, most = -high, -low
    else:
        least, most = 0, max(-low, high)
    return -most, -least


def pie_rule_value(
    board: Board,
    limit: float,
    *,
    threads: int | None = None,
    endgame: Any = "auto",
    tt_log2: int | None = None,
    progress: Progress | None = None,
) -> PieRule:
    """Step 2: the first player's value with the pie rule, within ``limit`` seconds.

    The first move whose board a heuristic search puts nearest to 0 is solved
    exactly: it is worth ``-t`` to the first player. Every other first move
    only has to be shown no better, ``|v| >= t``, by null-window tests at
    ``-t`` and ``t + 2``, which a board far from 0 answers quickly; one that
    fails them is solved exactly and may lower ``t``. (Solving every board
    exactly took six times the nodes of the value itself on Kalah(8,2).)
    """
    from .databases import probed_database
    from .guess import heuristic_guess
    from .run import SolveState

    started = _time.perf_counter()
    boards = first_move_boards(board)
    total = 2 * board.pits * board.seeds
    used = threads or max(1, min(os.cpu_count() or 1, 8))
    guesses = {move: heuristic_guess(after, used) for move, after in boards.items()}
    nearness = {move: abs(guess.value) if guess is not None else 0 for move, guess in guesses.items()}
    order = sorted(boards, key=nearness.__getitem__)
    bounds: dict[Move, tuple[int, int]] = {
        move: _pie_bounds(after, 0, 0) if after.is_over else (-total, 0) for move, after in boards.items()
    }
    replies: dict[Move, int] = {}
    clear_engines()
    engine = engine_for(board.pits, board.empty_capture, tt_log2, total, limit)
    with engine.lock:
        engine.attach(probed_database(Position.start(board.variant), endgame, used, limit))
        run = Run(SolveState(engine, used), deadline=engine.core.now() + limit)
        best: int | None = max((low for move, (low, _) in bounds.items() if boards[move].is_over), default=None)
        for move in order:
            after = boards[move]
            if after.is_over or (best is not None and best > 0):
                continue  # a finished board's margin is known; no other board is worth more than 0 to the first
            if best is not None:
                t = -best
                above = run.at_least(after, -t)  # the second player gets -t or more without swapping?
                if above is False:
                    bounds[move] = (-total, -t - 2)
                    continue
                below = None if above is None else run.at_least(after, t + 2)
                if below is True:
                    bounds[move] = (-total, -t - 2)
                    continue
                if above is None or below is None:
                    break  # the limit
            low, high = run.interval(after)
            bounds[move] = _pie_bounds(after, low, high)
            if low != high:
                break  # the limit
            replies[move] = low
            best = -abs(low) if best is None else max(best, -abs(low))
            if progress is not None:
                progress("pie rule", best, max(high for _, high in bounds.values()))
        nodes = run.nodes
    lower = max(low for low, _ in bounds.values())
    upper = max(high for _, high in bounds.values())
    moves = [move for move in boards if bounds[move] == (lower, lower)] if lower == upper else []
    return PieRule(lower, upper, moves, bounds, replies, nodes, _time.perf_counter() - started)


def _check_endgame(board: Board, proof: Proof, limit: float) -> int | None:
    """K of the in-memory table the check probes: none where the value probed none or a table in memory;
    where it probed a file, a table computed afresh in memory, of the next smaller K that fits the limit."""
    if not proof.endgame_file or proof.endgame_seeds is None:
        return None
    return second_max_seeds(board.pits, proof.endgame_seeds, limit)


def check_board(
    board: Board,
    proof: Proof,
    pie: PieRule | None,
    limit: float,
    *,
    threads: int | None = None,
) -> Check:
    """Step 3: re-prove ``proof`` (and ``pie``, when its value is proven) by tests on the first moves, on a
    fresh solver table of another size and another endgame database, within ``limit`` seconds.

    Raises:
        SolveError: ``proof`` holds bounds only (there is no value to check).
    """
    from kalah.solve.databases import memory_database

    if not proof.proven:
        raise SolveError(f"only a proven value can be checked; {board.name} has bounds only")
    value = proof.lower
    started = _time.perf_counter()
    position = Position.start(board.variant)
    tt_log2 = max(16, (proof.tt_log2 or size_tt_log2(position.seeds_in_pits)) - 1)
    k = _check_endgame(board, proof, limit)
    database = memory_database(board.variant, k, threads or 1) if k is not None else None
    clear_engines()
    engine = engine_for(board.pits, board.empty_capture, tt_log2)
    with engine.lock:
        engine.attach(database)
        run = Run(engine, threads or max(1, min(os.cpu_count() or 1, 8)), engine.core.now() + limit)
        wrong: list[str] = []
        cut = False

        def expect(what: str, answer: bool | None, wanted: bool) -> None:
            nonlocal cut
            if answer is None:
                cut = True
            elif answer != wanted:
                wrong.append(what)

        for move in position.legal_moves():
            best = move in proof.best_moves
            expect(f"move {move} worth at least {value:+d}", run.move_at_least(position, move, value), best)
            if best:
                expect(f"move {move} worth more than {value:+d}", run.move_at_least(position, move, value + 2), False)
        if pie is not None and pie.value is not None:
            _check_pie(board, pie, run, expect)
        method = f"tests on the first moves, a fresh table of 2^{tt_log2} entries, " + (
            f"an endgame table of K={k} computed in memory" if k is not None else "no endgame database"
        )
        verdict = "disagrees" if wrong else "cut" if cut else "agrees"
        return Check(verdict, method, run.nodes, _time.perf_counter() - started, wrong)


def _check_pie(board: Board, pie: PieRule, run: Run, expect: Callable[[str, bool | None, bool], None]) -> None:
    """The pie rule's value ``-t`` again: each best first move's board worth exactly the reply value found,
    with ``|v| = t``; every other first move's board at least ``t + 2`` away from 0."""
    assert pie.value is not None
    t = -pie.value
    for move, after in first_move_boards(board).items():
        if after.is_over or t < 0:
            continue  # a finished board's margin is its own; when one wins, no other board can do better
        if move in pie.best_moves:
            v = pie.replies[move]
            expect(f"the pie rule's move {move} leaves |v| = {t}", abs(v) == t, True)
            expect(f"after move {move}: at least {v:+d}", run.at_least(after, v), True)
            expect(f"after move {move}: more than {v:+d}", run.at_least(after, v + 2), False)
            continue
        high = run.at_least(after, t + 2)  # the second player gains t + 2 or more without swapping
        if high is None or high:
            expect(f"after move {move}: at least {t + 2:+d}", high, True)
            continue
        expect(f"after move {move}: {-t - 2:+d} or less", run.at_least(after, -t), False)

"""One solve's searches: MTD(f) over null-window tests, side by side, against a deadline (:class:`Run`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from kalah.rules import Move, Position

from .bounds import BELOW_EVERY_VALUE, Answer, NullWindowTest, mtdf_bars, narrowed, outside_in_steps, swap_open
from .engine import Engine
from .guess import GUESS_DEPTH, Guess, guess_effort, heuristic_guess
from .parallel import SideBySide

__all__ = ["ROOT_SHARE", "Run", "SolveState", "root_move_bounds"]

#: The share of a timed solve's budget for bounds on the position's value; the rest goes to its
#: moves one by one, so that moves whose value is found in time are reported proven.
ROOT_SHARE = 0.7


@dataclass
class SolveState:
    """What the steps of one solve pass to each other (one object, read by every :class:`Run` of the solve)."""

    engine: Engine
    """The compiled solver (its table carries the proofs from one test to the next)."""
    threads: int
    """Threads of the searches."""
    on_bounds: Callable[[int, int], None] | None = None
    """Told the root's bounds as they are proven."""
    nodes: int = 0
    """Nodes searched so far by every step."""
    timed_out: bool = False
    """True once a deadline stopped a test."""
    stop: threading.Event | None = None
    """Set from another thread, it stops the solve's tests as a deadline would (``solve(stop=...)``)."""
    guesses: dict[Position, Guess] = field(default_factory=dict)
    """The heuristic guesses made for the positions whose value was searched: a timed solve that proves no
    value reports the root's best move, marked unproven, and bounds the root's moves from it first."""


class Run:
    """The searches of one solve against one deadline (on the core clock; 0: none). A step with another
    deadline is another Run on the same :class:`SolveState` (:meth:`until`).

    ``Run(engine, threads, deadline)`` starts the state of a solve; ``Run(state, deadline=...)`` is
    another step of one.
    """

    def __init__(self, engine: Engine | SolveState, threads: int = 1, deadline: float = 0.0):
        self.state = engine if isinstance(engine, SolveState) else SolveState(engine, threads)
        self.engine = self.state.engine
        self.threads = self.state.threads
        self.deadline = deadline

    def until(self, deadline: float) -> Run:
        """The same solve's searches against another deadline."""
        return Run(self.state, deadline=deadline)

    @property
    def nodes(self) -> int:
        """Nodes searched so far by the solve."""
        return self.state.nodes

    @property
    def timed_out(self) -> bool:
        """True once a deadline stopped one of the solve's tests."""
        return self.state.timed_out

    @property
    def on_bounds(self) -> Callable[[int, int], None] | None:
        """Told the root's bounds as they are proven."""
        return self.state.on_bounds

    def _tests(self) -> SideBySide[Any]:
        return SideBySide(self.engine.solver, self.threads, self.deadline, self.state.stop)

    def _view(self, position: Position) -> tuple[list[int], int, int]:
        """The mover's-view pits, the store difference and the seeds in the pits."""
        me = position.to_move
        pits = list(position.pits(me)) + list(position.pits(1 - me))
        return pits, position.store(me) - position.store(1 - me), sum(pits)

    def _exact_small(self, position: Position) -> int | None:
        """The value when it needs no search: a finished game or a database hit."""
        if position.is_over:
            return position.mover_margin
        database = self.engine.database
        if database is not None and position.seeds_in_pits <= database.max_seeds:
            return database.value(position)
        return None

    def plain_interval(
        self, position: Position, guess: int | None = None, report: bool = False, until_lower: bool = False
    ) -> tuple[int, int]:
        """Bounds on a position's value without pie-rule flags, by MTD(f): the value, or with ``until_lower``
        the bounds once a test has proven a lower bound (its tests then one at a time)."""
        small = self._exact_small(position)
        if small is not None:
            return small, small
        # A deep guess is most often the value, and then MTD(f)'s own tests, one at a time on every thread, are
        # the least work (Kalah(6,5): 469 million nodes from +10, against 591 million with a pair +10, +14);
        # a shallow one may be a step short, which a pair of tests side by side covers in one round.
        depth, seconds = guess_effort(position)
        one_at_a_time = False
        left = self.deadline - self.engine.core.now() if self.deadline else None
        full = left is None or left > 10 * seconds
        # A budget too short for the full guess still gets a shorter one, in a tenth of it, for the solve's
        # root (report): its move is what the solve reports, unproven, when it proves no value.
        if guess is None and (full or report):
            found = heuristic_guess(  # nothing else runs yet: every thread
                position, self.threads, self.state.stop, seconds=None if full or left is None else left / 10
            )
            if found is not None:
                self.state.guesses[position] = found
                guess = found.value
            one_at_a_time = full and guess is not None and depth > GUESS_DEPTH
        one_at_a_time = one_at_a_time or until_lower
        pits, diff, seeds = self._view(position)
        lower, upper = -seeds, seeds
        g = 0 if guess is None else max(lower, min(upper, guess - diff))
        if (g - seeds) % 2:
            g += 1 if g < upper else -1
        if self.deadline:
            lower, upper, finished = self._outside_in(pits, seeds, g, lower, upper, diff if report else None)
            if not finished:
                return lower + diff, upper + diff
            g = max(lower, min(upper, g))
        out_of_time = False
        with self._tests() as tests:
            while lower < upper and (tests.running or not out_of_time):
                if not out_of_time:
                    for bar in [bar for bar in tests.running if not lower < bar <= upper]:
                        tests.cancel(bar)  # an answer made it needless
                    bars = mtdf_bars(lower, upper, g, 1 if one_at_a_time else tests.slots, tests.running)[: tests.free]
                    alone = len(bars) + len(tests.running) == 1
                    for bar in bars:
                        tests.start(bar, pits, bar - 1, bar, alone=alone)
                    tests.widen()
                bar, value = tests.wait()
                if value is None:  # the deadline: the others meet it too, and what they proved first counts
                    out_of_time = self.state.timed_out = True
                    continue
                lower, upper = narrowed(lower, upper, value, bar, seeds)
                g = max(lower, min(upper, value))
                if report and self.on_bounds is not None:
                    self.on_bounds(lower + diff, upper + diff)
                if until_lower and value >= bar:
                    break
        self.state.nodes += tests.nodes
        return lower + diff, upper + diff

    def _outside_in(
        self, pits: list[int], seeds: int, g: int, lower: int, upper: int, report_diff: int | None
    ) -> tuple[int, int, bool]:
        """Bounds from null-window tests at bars closing in on the guess ``g`` from outside, under a time budget.

        A bar far from the value is proven in a fraction of the time of one
        near it, so the bounds tighten step by step, and a budget too short for
        the value still ends with proven bounds better than the trivial ones.
        The two sides close in independently, side by side where there are two
        slots: on Kalah(6,6) a test above the value can take far longer than
        the next one below it, and one side must not wait for the other. A
        side out of bars leaves the other test every thread. With one slot
        the sides take turns.
        The bounds, and False when the deadline stopped a test.
        """
        steps, finished = outside_in_steps(seeds), True
        # Is the value at least bar? Each side ends with MTD(f)'s first test on its side of the guess.
        sides = [[g - step for step in steps] + [g], [g + step + 1 for step in steps] + [g + 2]]
        with self._tests() as tests:
            while True:
                for side in sides:
                    while side and not (lower < side[0] <= upper):
                        if side[0] in tests.running:
                            tests.cancel(side[0])  # an answer made it needless
                        side.pop(0)
                waiting = [side[0] for side in sides if side and side[0] not in tests.running]
                free = tests.free
                for bar in waiting[:free]:
                    tests.start(bar, pits, bar - 1, bar, alone=len(waiting) + len(tests.running) == 1)
                if not tests.running:
                    break
                if len(waiting) <= free:
                    tests.widen()  # no other test waits: the one left gets every thread
                bar, value = tests.wait()
                if value is None:  # the deadline: the other test meets it too; what was proven stands
                    finished, self.state.timed_out = False, True
                    break
                lower, upper = narrowed(lower, upper, value, bar, seeds)
                answered = next(side for side in sides if side and side[0] == bar)
                answered.pop(0)
                sides.remove(answered)
                sides.append(answered)  # one slot: the sides take turns
                if report_diff is not None and self.on_bounds is not None:
                    self.on_bounds(lower + report_diff, upper + report_diff)
        self.state.nodes += tests.nodes
        return lower, upper, finished

    def _at_least_test(self, position: Position, target: int, negated: bool = False) -> bool | NullWindowTest:
        """Whether the value is at least ``target`` when that needs no search, else the test to run (its answer
        to be negated when ``negated``)."""
        small = self._exact_small(position)
        if small is not None:
            return small >= target
        pits, diff, seeds = self._view(position)
        beta = target - diff
        if beta <= -seeds:
            return True
        if beta > seeds:
            return False
        return NullWindowTest(pits, beta, negated)

    def run_tests(self, tests: dict[Hashable, NullWindowTest]) -> dict[Hashable, Answer]:
        """The answers of independent tests "is the value of pits at least beta?" (negated where asked),
        side by side; None for those the deadline stopped."""
        answers: dict[Hashable, Answer] = {}
        waiting = list(tests)
        out_of_time = False
        with self._tests() as side:
            while waiting or side.running:
                while waiting and side.free:
                    key = waiting.pop(0)
                    pits, beta, _ = tests[key]
                    side.start(key, pits, beta - 1, beta, alone=not waiting and not side.running)
                if not waiting and not out_of_time:
                    side.widen()
                key, value = side.wait()
                _, beta, negated = tests[key]
                answers[key] = None if value is None else (value >= beta) != negated
                if value is None:  # the deadline: no more tests start; those running meet it too
                    out_of_time = self.state.timed_out = True
                    answers.update({key: None for key in waiting})
                    waiting.clear()
        self.state.nodes += side.nodes
        return answers

    # --- positions with the pie rule's flags -------------------------------------

    def interval(self, position: Position, report: bool = False) -> tuple[int, int]:
        """Bounds on a position's value (the pie rule's open swap: the best of its moves' bounds)."""
        if swap_open(position):
            lower, upper = BELOW_EVERY_VALUE, BELOW_EVERY_VALUE
            for move in position.legal_moves():
                lo, hi = self.move_interval(position, move)
                lower, upper = max(lower, lo), max(upper, hi)
            return lower, upper
        return self.plain_interval(position, report=report)

    def move_interval(self, position: Position, move: Move) -> tuple[int, int]:
        """Bounds on the value of playing ``move``, for the mover of ``position``."""
        child = position.play(move)
        lo, hi = self.interval(child)
        if child.to_move == position.to_move:
            return lo, hi
        return -hi, -lo

    def at_least(self, position: Position, target: int) -> Answer:
        """Whether the value of ``position`` (without pie-rule flags) is at least ``target`` (None: the deadline
        stopped the test)."""
        test = self._at_least_test(position, target)
        return self.run_tests({0: test})[0] if isinstance(test, NullWindowTest) else test

    def move_at_least(self, position: Position, move: Move, target: int) -> Answer:
        """Whether playing ``move`` is worth at least ``target`` (None: the deadline stopped the test)."""
        test = self._move_test(position, move, target)
        return self.run_tests({move: test})[move] if isinstance(test, NullWindowTest) else test

    def _move_test(self, position: Position, move: Move, target: int) -> Answer | NullWindowTest:
        """Whether playing ``move`` is worth at least ``target`` when that needs no search (None: a timeout in
        a pie-rule position's search), else the test to run."""
        child = position.play(move)
        if swap_open(child):
            lo, hi = self.move_interval(position, move)
            return True if lo >= target else False if hi < target else None
        if child.to_move == position.to_move:
            return self._at_least_test(child, target)
        test = self._at_least_test(child, -target + 1, negated=True)  # child value > -target?
        return (not test) if isinstance(test, bool) else test

    def best_moves(self, position: Position, value: int) -> list[Move] | None:
        """The moves worth ``value``."""
        moves = position.legal_moves()
        answers = self._move_answers(position, {move: value for move in moves})
        if any(answer is None for answer in answers.values()):
            return None
        return [move for move in moves if answers[move]]

    def _move_answers(self, position: Position, bars: dict[Move, int]) -> dict[Hashable, Answer]:
        """Whether each move is worth at least its bar (None: stopped by the deadline). Each test is
        independent, so those that need a search run side by side, in the order of ``bars``."""
        answers: dict[Hashable, Answer] = {}
        pending: dict[Hashable, NullWindowTest] = {}
        for move, bar in bars.items():
            test = self._move_test(position, move, bar)
            if isinstance(test, NullWindowTest):
                pending[move] = test
            else:
                answers[move] = test
        answers.update(self.run_tests(pending))
        return answers

    def value_and_best_moves(self, position: Position, report: bool = False) -> tuple[int, list[Move]]:
        """The exact value of a position without pie-rule flags, and its best moves.

        Once a test has proven the value at least L, MTD(f) would prove that
        no move is worth L + 2, then the best moves would prove that each move
        but the best is worth less than L: every other move's bound twice.
        Tests on the moves prove both at once: the best move against L + 2,
        every other against L (Kalah(6,5): 399 million nodes against 469).
        """
        lower, upper = self.plain_interval(position, report=report, until_lower=True)
        if lower == upper:
            return lower, self.best_moves(position, lower) or []
        moves = position.legal_moves()
        hint = self.engine.solver.lookup(self._view(position)[0])
        likely = hint.move if hint is not None and hint.move in moves else None  # the move that proved the lower bound
        # Every value has the parity of the seeds in play, so bounds move in steps of 2.
        bounds = {move: [BELOW_EVERY_VALUE, upper] for move in moves}
        heard = (lower, upper)
        while True:
            above = [move for move in moves if bounds[move][1] >= lower]
            if len(above) == 1:  # the only move that can be worth the proven lower bound is worth it
                bounds[above[0]][0] = max(bounds[above[0]][0], lower)
            upper = max(high for _, high in bounds.values())
            if report and self.on_bounds is not None and (lower, upper) != heard:
                heard = (lower, upper)
                self.on_bounds(lower, upper)
            bars = {
                move: lower + 2 if low >= lower or move == likely else lower
                for move in above
                for low, high in [bounds[move]]
                if not low == high == lower
            }
            likely = None  # taken on trust for one round only: were it wrong, the moves' answers show it
            if not bars:
                return lower, [move for move in moves if bounds[move][0] == lower]
            hard_first = sorted(bars, key=lambda move: bars[move] == lower)  # the tests above L
            answers = self._move_answers(position, {move: bars[move] for move in hard_first})
            for move, bar in bars.items():
                answer = answers[move]
                assert answer is not None  # only a deadline leaves a test unanswered
                self._bound(bounds[move], bar, answer)
            lower = max([lower] + [low for low, _ in bounds.values()])

    @staticmethod
    def _bound(bounds: list[int], bar: int, at_least: bool) -> None:
        if at_least:
            bounds[0] = max(bounds[0], bar)
        else:
            bounds[1] = min(bounds[1], bar - 2)

    def principal_variation(
        self, position: Position, value: int, limit: int = 400, first: Move | None = None
    ) -> list[Move]:
        """A line of moves that keep ``value`` (the table's move tried first), until the game ends;
        ``first``, a move known to keep the value, begins it."""
        line: list[Move] = []
        while not position.is_over and len(line) < limit:
            candidates = position.legal_moves()
            if first is not None and not line and first in candidates:
                # The line shown beside the best moves starts with the first of them, not with whichever
                # equal move the table happens to hold.
                candidates.remove(first)
                candidates.insert(0, first)
            elif not swap_open(position):
                pits, _, _ = self._view(position)
                hint = self.engine.solver.lookup(pits)
                if hint is not None and hint.move in candidates:
                    candidates.remove(hint.move)
                    candidates.insert(0, hint.move)
            chosen = None
            for move in candidates:
                good = self.move_at_least(position, move, value)
                if good is None:
                    return line
                if good:
                    chosen = move
                    break
            if chosen is None:  # cannot happen with a true value; stop rather than loop
                return line
            child = position.play(chosen)
            line.append(chosen)
            if child.to_move != position.to_move:
                value = -value
            position = child
        return line


def root_move_bounds(run: Run, position: Position, upper: int) -> dict[Move, tuple[int, int]]:
    """Bounds on each root move's value (none above ``upper``, the position's), in the time left before
    ``run``'s deadline, the guess's best move first."""
    moves = position.legal_moves()
    guess = run.state.guesses.get(position)
    if guess is not None and guess.best_move in moves:
        moves.remove(guess.best_move)
        moves.insert(0, guess.best_move)
    found: dict[Move, tuple[int, int]] = {}
    deadline = run.deadline
    for index, move in enumerate(moves):
        now = run.engine.core.now()
        # Every move gets an equal share of the time left, so that each one is bounded; once the time
        # is gone a move still gets the bounds its stores and seeds prove (a search stopped at once).
        share = run.until(now + (deadline - now) / (len(moves) - index)) if deadline and now < deadline else run
        low, high = share.move_interval(position, move)
        found[move] = (max(low, BELOW_EVERY_VALUE), min(high, upper))  # no move is worth more than the position
    return found

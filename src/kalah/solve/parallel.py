"""Null-window tests side by side, for a solve on several cores.

Two threads searching one test together (ABDADA, csrc/solve.c) visit more
nodes than one thread alone, for less than twice the speed (1.4 times on
Kalah(6,4)'s larger proof); two tests searched at once, one a core, each
run at the speed of one alone. So where a solve has two tests to make (the
two sides of a shallow MTD(f) guess, the root moves for the best moves) it
makes them side by side, each on its share of the threads,
and a test left alone is restarted on every thread: the table keeps what the
first start proved, so little is searched twice.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Hashable
from typing import Generic, TypeVar

from kalah.core import solver as core

K = TypeVar("K", bound=Hashable)


class _Test(Generic[K]):
    """One compiled search in a thread of its own, stopped by its own flag."""

    def __init__(self, key: K, pits: list[int], alpha: int, beta: int, threads: int):
        self.key = key
        self.pits = pits
        self.alpha = alpha
        self.beta = beta
        self.threads = threads
        self.stop = core.StopFlag()
        self.thread: threading.Thread | None = None
        self.answered = False  # its answer is on the way to the waiting thread


class SideBySide(Generic[K]):
    """Runs null-window tests on one solver, at most ``slots`` at once, sharing ``threads`` between them.

    Use as a context manager: leaving it stops and joins every test still
    running, so no search outlives the solve that started it. ``nodes`` counts
    every node searched, also by tests stopped before they answered.
    """

    def __init__(self, solver: core.Solver, threads: int, deadline: float, stop: threading.Event | None = None):
        self.solver = solver
        self.threads = threads
        self.slots = 2 if threads >= 2 else 1
        self.deadline = deadline
        self.stop = stop  # set, the running tests stop as at the deadline
        self.nodes = 0
        self.running: dict[K, _Test[K]] = {}
        self._stopped: list[_Test[K]] = []
        self._answers: queue.Queue[tuple[_Test[K], tuple[int, bool, int] | BaseException]] = queue.Queue()

    def __enter__(self) -> SideBySide[K]:
        return self

    def __exit__(self, error_type: object, *rest: object) -> None:
        error = self._stop_all()
        if error is not None and error_type is None:
            raise error

    def _stop_all(self) -> BaseException | None:
        """Stop every test and wait for their threads; the first error a stopped test raised, if any."""
        for test in list(self.running.values()):
            self.cancel(test.key)
        interrupted = False
        for test in self._stopped:
            while test.thread is not None and test.thread.ident is not None and test.thread.is_alive():
                try:
                    test.thread.join()
                except KeyboardInterrupt:  # again: the search was told to stop; it still must end first
                    interrupted = True
        self._stopped.clear()
        error = None
        while not self._answers.empty():
            outcome = self._answers.get_nowait()[1]
            self._count(outcome)
            if isinstance(outcome, BaseException) and error is None:
                error = outcome
        if interrupted:
            raise KeyboardInterrupt
        return error

    @property
    def free(self) -> int:
        """How many more tests may start now."""
        return self.slots - len(self.running)

    def start(self, key: K, pits: list[int], alpha: int, beta: int, alone: bool = False) -> None:
        """Start the search of ``pits`` with the window (alpha, beta), known by ``key``: on every thread when
        it will run ``alone``, otherwise on its share of them."""
        assert key not in self.running and self.free > 0
        share = self.threads // self.slots + (0 if self.running else self.threads % self.slots)
        self._launch(_Test(key, pits, alpha, beta, self.threads if alone else max(1, share)))

    def widen(self) -> None:
        """Restart a test running alone on fewer than all the threads, on all of them."""
        if len(self.running) != 1:
            return
        (test,) = self.running.values()
        if test.threads < self.threads and not test.answered:
            self.cancel(test.key)
            self._launch(_Test(test.key, test.pits, test.alpha, test.beta, self.threads))

    def cancel(self, key: K) -> None:
        """Stop a test whose answer is no longer needed."""
        test = self.running.pop(key)
        test.stop.request()
        self._stopped.append(test)

    def wait(self) -> tuple[K, int | None]:
        """The next answer: a running test's key and fail-soft value (None: the deadline stopped it).

        Ctrl-C stops every test, then goes on up.

        Raises:
            BaseException: what a test's thread raised (every test is stopped first);
                KeyboardInterrupt, after stopping every test.
        """
        assert self.running
        while True:
            if self.stop is not None and self.stop.is_set():
                for running in self.running.values():
                    running.stop.request()  # each answers as aborted: None, as at the deadline
            try:
                test, outcome = self._answers.get(timeout=0.05)
            except queue.Empty:
                continue
            except KeyboardInterrupt:
                self._stop_all()
                raise
            self._count(outcome)
            if isinstance(outcome, BaseException):
                self._stop_all()
                raise outcome
            if self.running.get(test.key) is not test:
                continue  # a cancelled test's late answer
            del self.running[test.key]
            value, aborted, _ = outcome
            return test.key, None if aborted else value

    def _launch(self, test: _Test[K]) -> None:
        def run() -> None:
            try:
                outcome: tuple[int, bool, int] | BaseException = self.solver.search(
                    test.pits, test.alpha, test.beta, test.threads, self.deadline, test.stop
                )
            except BaseException as error:  # handed to the waiting thread, which raises it
                outcome = error
            test.answered = True
            self._answers.put((test, outcome))

        if self.stop is not None and self.stop.is_set():
            test.stop.request()  # stopped before it began: it answers at once, as past the deadline
        test.thread = threading.Thread(target=run, daemon=True)
        self.running[test.key] = test
        test.thread.start()

    def _count(self, outcome: tuple[int, bool, int] | BaseException) -> None:
        if not isinstance(outcome, BaseException):
            self.nodes += outcome[2]
